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
    function hand(i) { return steps[i].getAttribute("data-hand"); }
    // The first step of the next hand, or of this hand (then of the previous one if already there).
    function nextHand() {
      for (var i = at + 1; i < steps.length; i++) if (hand(i) !== hand(at)) return i;
      return steps.length - 1;
    }
    function previousHand() {
      var i = at;
      while (i > 0 && hand(i - 1) === hand(at)) i--;
      if (i < at) return i;
      if (i === 0) return 0;
      var before = hand(i - 1);
      while (i > 0 && hand(i - 1) === before) i--;
      return i;
    }
    function go(where) {
      if (where === "first") show(0);
      else if (where === "last") show(steps.length - 1);
      else if (where === "prev") show(at - 1);
      else if (where === "next") show(at + 1);
      else if (where === "next-hand") show(nextHand());
      else if (where === "prev-hand") show(previousHand());
    }
    root.querySelectorAll("[data-replay-go]").forEach(function (b) {
      b.addEventListener("click", function () { go(b.getAttribute("data-replay-go")); });
    });
    document.addEventListener("keydown", function (e) {
      if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
      if (e.key === "ArrowRight") { show(at + 1); e.preventDefault(); }
      if (e.key === "ArrowLeft") { show(at - 1); e.preventDefault(); }
      if (e.key === "PageDown") { go("next-hand"); e.preventDefault(); }
      if (e.key === "PageUp") { go("prev-hand"); e.preventDefault(); }
      if (e.key === "Home") { show(0); }
      if (e.key === "End") { show(steps.length - 1); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
