// The table chat: empty the input once the server took the line, and keep the newest line in view.
(function () {
  document.addEventListener("chat-sent", function () {
    var form = document.querySelector("[data-chat-form]");
    if (form) form.reset();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var lines = document.getElementById("chat-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  });
})();
