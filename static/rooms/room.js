// Rooms: follow the server when it says where this browser must go (the table once the match
// started, the lobby once you are out of the room, the new match after Play again), count down
// the time to play again, and copy the invite link.
(function () {
  function follow() {
    var go = document.querySelector("[data-room-go]");
    if (go) window.location.assign(go.getAttribute("href"));
  }
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(follow, 0); });
  document.addEventListener("DOMContentLoaded", follow);
  // The play-again countdown; past zero the page asks the server again (which then sends everyone
  // to the lobby, saying why), in case the socket's own re-read comes later.
  setInterval(function () {
    var clock = document.querySelector("[data-again-expires]");
    if (!clock) return;
    var left = Math.ceil((Number(clock.getAttribute("data-again-expires")) - Date.now()) / 1000);
    clock.textContent = String(Math.max(0, left));
    if (left < -1) window.location.reload();
  }, 1000);
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action='copy-invite']");
    if (!button) return;
    var input = document.querySelector("[data-invite-link]");
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
  });
})();
