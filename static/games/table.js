// The table's script: the move clock (its seconds, and the ring round the acting player's avatar), the score's
// tick, the optional sounds, the connection notice and the number keys. Everything else is htmx.
(function () {
  "use strict";
  var SOUND_KEY = "truco.sounds";

  function clock() {
    var el = document.querySelector("#status .clock");
    var seconds = el && el.querySelector("[data-deadline]");
    document.querySelectorAll("[data-clock-ring]").forEach(function (ring) {
      var mine = el && ring.dataset.clockRing === el.dataset.clockSeat;
      if (!mine) {
        ring.style.removeProperty("--left");
        ring.classList.remove("urgent");
      }
    });
    if (!el || !seconds) { return; }
    var leftMs = Math.max(0, Number(seconds.dataset.deadline) - Date.now());
    var left = Math.ceil(leftMs / 1000);
    seconds.textContent = String(left);
    el.classList.toggle("urgent", left <= 10);
    var ring = document.querySelector('[data-clock-ring="' + el.dataset.clockSeat + '"]');
    if (ring) {
      var total = Number(el.dataset.clockTotal) || 1;
      ring.style.setProperty("--left", String(Math.min(100, Math.round((100 * leftMs) / total))));
      ring.classList.toggle("urgent", left <= 10);
    }
  }

  // Every countdown on the page (the annulment vote has one too), and the ring.
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = String(left);
      el.classList.toggle("urgent", left <= 10);
    });
    clock();
  }

  // The score ticks when a side scores: remember what was shown, animate what changed.
  var shownScore = {};
  function scoreTicks() {
    document.querySelectorAll("[data-score]").forEach(function (el) {
      var side = el.dataset.score, points = el.textContent.trim();
      if (side in shownScore && shownScore[side] !== points) {
        el.classList.remove("ticked");
        void el.offsetWidth; // restart the animation
        el.classList.add("ticked");
        sound("score");
      }
      shownScore[side] = points;
    });
  }

  // Sounds: off unless the player turns them on (the toggle in the table's bar), remembered on this device.
  var audio = null;
  function soundsOn() { return window.localStorage && localStorage.getItem(SOUND_KEY) === "on"; }
  function sound(kind) {
    if (!soundsOn()) { return; }
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var now = audio.currentTime, osc = audio.createOscillator(), gain = audio.createGain();
      var tone = { card: [220, 0.07], shout: [660, 0.25], score: [880, 0.15], turn: [520, 0.1] }[kind] || [440, 0.1];
      osc.type = kind === "card" ? "triangle" : "sine";
      osc.frequency.setValueAtTime(tone[0], now);
      gain.gain.setValueAtTime(0.18, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + tone[1]);
      osc.connect(gain).connect(audio.destination);
      osc.start(now);
      osc.stop(now + tone[1]);
    } catch (e) { /* no audio here: the table plays on in silence */ }
  }
  function showSoundToggle() {
    document.querySelectorAll("[data-action=sound]").forEach(function (b) {
      b.setAttribute("aria-pressed", soundsOn() ? "true" : "false");
    });
  }
  document.addEventListener("click", function (e) {
    var toggle = e.target.closest("[data-action=sound]");
    if (!toggle) { return; }
    localStorage.setItem(SOUND_KEY, soundsOn() ? "off" : "on");
    showSoundToggle();
    sound("turn");
  });

  // What a push changed, heard: a card played, a raise called, your turn.
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var el = e.detail && e.detail.target;
    if (el && el.id === "trick" && el.querySelector(".play.arriving")) { sound("card"); }
    if (el && el.id === "seats" && el.querySelector(".shout")) { sound("shout"); }
    if (el && el.id === "status" && el.querySelector("[data-turn=me]")) { sound("turn"); }
    if (el && el.id === "scoreboard") { scoreTicks(); }
    tick();
  });

  document.addEventListener("htmx:wsOpen", function () {
    var c = document.querySelector("[data-connection]");
    if (c) { c.hidden = true; }
  });
  document.addEventListener("htmx:wsClose", function () {
    var c = document.querySelector("[data-connection]");
    if (c) { c.hidden = false; }
  });
  // Keyboard: 1-3 play the matching playable card (Tab and Enter reach every button too).
  document.addEventListener("keydown", function (e) {
    if (e.target.closest("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var n = Number(e.key);
    if (n >= 1 && n <= 3) {
      var cards = document.querySelectorAll("#hand [data-card]");
      if (cards[n - 1]) { cards[n - 1].click(); }
    }
  });

  function start() {
    showSoundToggle();
    scoreTicks();
    tick();
    setInterval(tick, 250);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
