// Rooms: follow the server when it says where this browser must go (the table once the match
// started, the lobby once you are out of the room), and copy the invite link.
(function () {
  function follow() {
    var go = document.querySelector("[data-room-go]");
    if (go) window.location.assign(go.getAttribute("href"));
  }
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(follow, 0); });
  document.addEventListener("DOMContentLoaded", follow);
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action='copy-invite']");
    if (!button) return;
    var input = document.querySelector("[data-invite-link]");
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
  });
})();
