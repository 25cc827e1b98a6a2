// The replay: its step links swap the board in place (htmx); the arrow keys follow them, card by card
// (left, right), hand by hand (Page Up, Page Down), to the first and last step (Home, End), and, when the
// match was analysed, from one of the player's mistakes to the next (up, down).
(function () {
  "use strict";
  var KEYS = { ArrowRight: "next", ArrowLeft: "prev", PageDown: "next-hand", PageUp: "prev-hand", Home: "first", End: "last", ArrowUp: "prev-mistake", ArrowDown: "next-mistake" };
  document.addEventListener("keydown", function (e) {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) { return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var go = KEYS[e.key];
    var link = go && document.querySelector('#replay-board [data-replay-go="' + go + '"]');
    if (link) {
      e.preventDefault();
      link.click();
    }
  });
})();
