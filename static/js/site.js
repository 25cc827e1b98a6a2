// Site-wide behaviour: the phone menu, the bell's list and the language switch. Pages work without it
// (the menu shows open, the language form has a submit button under <noscript>).
(function () {
  function setMenu(toggle, open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    document.body.classList.toggle("menu-open", open);
  }
  document.addEventListener("click", function (e) {
    var toggle = e.target.closest(".menu-toggle");
    if (toggle) {
      setMenu(toggle, toggle.getAttribute("aria-expanded") !== "true");
      return;
    }
    var open = document.querySelector(".menu-toggle[aria-expanded=true]");
    if (open && !e.target.closest("#site-menu")) { setMenu(open, false); }
    // The bell's list closes on a click anywhere else, like a menu.
    var notices = document.querySelector("[data-notices-menu][open]");
    if (notices && !e.target.closest("[data-notices-menu]")) { notices.open = false; }
  });
  document.addEventListener("keydown", function (e) {
    var open = document.querySelector(".menu-toggle[aria-expanded=true]");
    if (e.key === "Escape" && open) { setMenu(open, false); open.focus(); }
    var notices = document.querySelector("[data-notices-menu][open]");
    if (e.key === "Escape" && notices) { notices.open = false; notices.querySelector("summary").focus(); }
  });
  document.addEventListener("change", function (e) {
    if (e.target.matches("[data-action=language]")) { e.target.form.submit(); }
  });
})();
