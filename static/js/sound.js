/* Sounds at the table: a draw, a discard, your turn, the clock's last five seconds (a
 * tick each second, on your own turn) and the end of a hand. The files are made for
 * the project (static/sounds/make_sounds.py); their URLs come from the mute switch's
 * data attributes (the static files' hashed names). Played with the Web Audio API once
 * the page has had a click or a key press (browsers keep audio locked until then).
 *
 * The mute switch (#sound-toggle, aria-pressed="true" when muted) is remembered in
 * this browser's localStorage, one entry per signed-in player (data-player "u<id>")
 * and one for a guest: no server round trip, nothing to migrate, and a shared
 * computer keeps each account's choice.
 *
 * window.okeySound: play(name) plays unless muted (what the table calls), output(name)
 * is the actual sound (tests wrap it to see what sounded), muted(), loaded() (the
 * names of the sounds decoded so far). */
(function () {
  "use strict";
  var audio = null;
  var buffers = {};
  var lastTick = null;
  var wasMyTurn = null;
  var wasOver = null;

  function toggle() { return document.getElementById("sound-toggle"); }
  function storeKey() {
    var b = toggle();
    return "okey.muted." + ((b && b.dataset.player) || "guest");
  }
  function muted() {
    try { return window.localStorage.getItem(storeKey()) === "1"; } catch (e) { return false; }
  }
  function setMuted(on) {
    try {
      if (on) window.localStorage.setItem(storeKey(), "1");
      else window.localStorage.removeItem(storeKey());
    } catch (e) { /* storage refused (private mode): the switch still works for this page */ }
    show(on);
  }
  function show(on) {
    var b = toggle();
    if (b) b.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function load(name) {
    var b = toggle();
    var url = b && b.dataset["sound" + name.charAt(0).toUpperCase() + name.slice(1)];
    if (!url || !audio || buffers[name]) return;
    buffers[name] = "loading";
    fetch(url).then(function (r) { return r.arrayBuffer(); })
      .then(function (data) { return audio.decodeAudioData(data); })
      .then(function (buf) { buffers[name] = buf; })
      .catch(function () { delete buffers[name]; });
  }
  var NAMES = ["draw", "discard", "turn", "tick", "end"];
  function unlock() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!audio) {
      try { audio = new Ctx(); } catch (e) { return; }
      NAMES.forEach(load);
    }
    if (audio.state === "suspended") audio.resume();
  }
  document.addEventListener("pointerdown", unlock, { passive: true });
  document.addEventListener("keydown", unlock);

  function output(name) {
    var buf = buffers[name];
    if (!audio || audio.state !== "running" || !buf || buf === "loading") return;
    var src = audio.createBufferSource();
    src.buffer = buf;
    src.connect(audio.destination);
    src.start();
  }
  function play(name) {
    if (muted()) return false;
    window.okeySound.output(name);
    return true;
  }

  function myTurn() {
    var c = document.getElementById("t-controls");
    return !!(c && c.classList.contains("my-turn"));
  }
  function over() {
    var r = document.getElementById("t-result");
    return !!(r && r.classList.contains("show"));
  }

  /* your turn and the end of a hand: what changed since the last frame */
  document.addEventListener("htmx:wsAfterMessage", function () {
    show(muted());
    var turn = myTurn(), end = over();
    if (end && wasOver === false) play("end");
    else if (turn && wasMyTurn === false) play("turn");
    wasMyTurn = turn;
    wasOver = end;
  });

  /* the clock's last five seconds: a tick each second, on your own turn (table.js
     marks the clock urgent for everyone) */
  function tickClock() {
    var el = document.querySelector(".clock[data-deadline]");
    if (!el || !myTurn()) { lastTick = null; return; }
    var left = Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
    if (left >= 1 && left <= 5 && left !== lastTick) play("tick");
    lastTick = left;
  }
  setInterval(tickClock, 250);

  document.addEventListener("click", function (ev) {
    if (ev.target.closest && ev.target.closest("#sound-toggle")) setMuted(!muted());
  });
  document.addEventListener("DOMContentLoaded", function () {
    show(muted());
    wasMyTurn = myTurn();
    wasOver = over();
  });

  /* the sounds decoded so far (they load on the first click or key press) */
  function loaded() {
    return NAMES.filter(function (n) { return buffers[n] && buffers[n] !== "loading"; });
  }

  window.okeySound = { play: play, output: output, muted: muted, loaded: loaded };
})();
