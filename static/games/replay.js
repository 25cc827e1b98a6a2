// Replay: one step visible at a time; buttons and the arrow keys move between steps.
(function () {
  function start() {
    var root = document.querySelector("[data-replay]");
    if (!root) return;
    var steps = root.querySelectorAll("[data-step]");
    var at = 0;
    var counter = root.querySelector("[data-replay-at]");
    function show(i) {
      if (!steps.length) return;
      at = Math.max(0, Math.min(steps.length - 1, i));
      steps.forEach(function (s, n) { s.hidden = n !== at; });
      counter.textContent = String(at + 1);
    }
    root.querySelectorAll("[data-replay-go]").forEach(function (b) {
      b.addEventListener("click", function () {
        var go = b.getAttribute("data-replay-go");
        show(go === "first" ? 0 : go === "last" ? steps.length - 1 : go === "prev" ? at - 1 : at + 1);
      });
    });
    document.addEventListener("keydown", function (e) {
      if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
      if (e.key === "ArrowRight") { show(at + 1); e.preventDefault(); }
      if (e.key === "ArrowLeft") { show(at - 1); e.preventDefault(); }
      if (e.key === "Home") { show(0); }
      if (e.key === "End") { show(steps.length - 1); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
