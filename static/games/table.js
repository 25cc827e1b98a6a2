// The table's only script: the move clock countdown and the connection notice. Everything else is htmx.
(function () {
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = String(left);
      el.classList.toggle("urgent", left <= 10);
    });
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:oobAfterSwap", tick);
  document.addEventListener("htmx:wsOpen", function () {
    var c = document.querySelector("[data-connection]");
    if (c) { c.hidden = true; }
  });
  document.addEventListener("htmx:wsClose", function () {
    var c = document.querySelector("[data-connection]");
    if (c) { c.hidden = false; }
  });
  // Keyboard: 1-3 play the matching playable card.
  document.addEventListener("keydown", function (e) {
    if (e.target.closest("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var n = Number(e.key);
    if (n >= 1 && n <= 3) {
      var cards = document.querySelectorAll("#hand [data-card]");
      if (cards[n - 1]) { cards[n - 1].click(); }
    }
  });
})();
