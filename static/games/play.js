// The Play page: keeps the folded "More options" summary (the options changed from their default) true
// while the player changes them or picks another table. Which options show is CSS's (:has), not this.
(function () {
  function summary(form) {
    var words = [];
    form.querySelectorAll("[data-more-options] fieldset[data-default]").forEach(function (group) {
      if (getComputedStyle(group).display === "none") return; // does not apply to the chosen table
      var checked = group.querySelector("input:checked");
      if (checked && checked.value && checked.value !== group.getAttribute("data-default")) {
        words.push(checked.nextElementSibling.textContent.trim());
      }
    });
    return words.join(" · ");
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest("[data-play-form]");
    var chosen = form && form.querySelector("[data-more-chosen]");
    if (chosen) chosen.textContent = summary(form);
  });
})();
