/* Quick phrases at the table (games/phrases.py): the picker, the bubbles and the
 * "hide others' phrases" switch.
 *
 * The picker (#phrase-open) opens a popover menu (#phrase-menu, role="menu"): arrow
 * keys, Home and End move through it, Enter or Space sends, Escape closes it. A phrase
 * is sent as its id only, through #phrase-form (ws-send); the server answers every
 * connection of the table with a bubble in that connection's language, swapped into the
 * seat's slot (#phrase-<seat>). This file puts the slot by the seat's box (an opponent's
 * #opp-<seat>, your own #my-discards) and empties it once the CSS animation has faded
 * the bubble out (about 4 s, static/css/table.css "Quick phrases").
 *
 * The switch (#phrase-mute, aria-checked="true" when others' phrases are hidden) is
 * remembered in this browser's localStorage, one entry per signed-in player (data-player
 * "u<id>") and one for a guest, as the sound switch is (static/js/sound.js): the choice
 * is the viewer's alone and needs no server. Your own bubbles always show. */
(function () {
  "use strict";

  function picker() { return document.querySelector(".phrase-picker"); }
  function menu() { return document.getElementById("phrase-menu"); }
  function opener() { return document.getElementById("phrase-open"); }
  function items() {
    var m = menu();
    return m ? Array.prototype.slice.call(m.querySelectorAll("[role^=menuitem]")) : [];
  }

  function storeKey() {
    var p = picker();
    return "okey.phrasesMuted." + ((p && p.dataset.player) || "guest");
  }
  function muted() {
    try { return window.localStorage.getItem(storeKey()) === "1"; } catch (e) { return false; }
  }
  function showMuted(on) {
    var page = document.querySelector(".table-page");
    if (page) page.classList.toggle("phrases-muted", on);
    var b = document.getElementById("phrase-mute");
    if (b) b.setAttribute("aria-checked", on ? "true" : "false");
  }
  function setMuted(on) {
    try {
      if (on) window.localStorage.setItem(storeKey(), "1");
      else window.localStorage.removeItem(storeKey());
    } catch (e) { /* storage refused (private mode): the switch still works for this page */ }
    showMuted(on);
  }

  function closeMenu() {
    var m = menu();
    if (m && m.matches(":popover-open")) m.hidePopover();
    var o = opener();
    if (o) o.focus();
  }

  function send(id) {
    var f = document.getElementById("phrase-form");
    if (!f || !window.htmx) return;
    f.elements.phrase.value = id;
    window.htmx.trigger(f, "submit");
  }

  /* The slot sits by its seat's box, inside the felt (its positioned parent). */
  function place(slot) {
    var felt = slot.offsetParent;
    var seat = slot.dataset.seat;
    var box = slot.dataset.mine ? document.getElementById("my-discards")
      : document.getElementById("opp-" + seat);
    if (!felt || !box) return;
    var f = felt.getBoundingClientRect();
    var b = box.getBoundingClientRect();
    var x = b.left - f.left + b.width / 2;
    var y = b.bottom - f.top; // under the box, its tail pointing up at it (the name stays readable)
    slot.style.left = x + "px";
    slot.style.top = y + "px";
    // kept inside the felt (it clips): shift a bubble that would stick out at a side
    var s = slot.getBoundingClientRect();
    if (s.right > f.right - 4) slot.style.left = (x - (s.right - f.right + 4)) + "px";
    else if (s.left < f.left + 4) slot.style.left = (x + (f.left + 4 - s.left)) + "px";
    if (s.bottom > f.bottom - 4) slot.style.top = Math.max(4, y - (s.bottom - f.bottom + 4)) + "px";
  }

  function watch(slot) {
    new MutationObserver(function () {
      if (slot.querySelector(".phrase-bubble")) {
        slot.style.left = ""; slot.style.top = "";
        place(slot);
      }
    }).observe(slot, { childList: true });
    slot.addEventListener("animationend", function (e) {
      if (e.target.classList.contains("phrase-bubble")) e.target.remove();
    });
  }

  function init() {
    showMuted(muted());
    document.querySelectorAll(".phrase-slot").forEach(watch);
    var m = menu();
    var o = opener();
    if (!m || !o) return;
    m.addEventListener("toggle", function (e) {
      var open = e.newState === "open";
      o.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) { var first = items()[0]; if (first) first.focus(); }
    });
    m.addEventListener("click", function (e) {
      var item = e.target.closest("[role^=menuitem]");
      if (!item) return;
      if (item.id === "phrase-mute") { setMuted(!muted()); return; }
      send(item.dataset.phrase);
      closeMenu();
    });
    m.addEventListener("keydown", function (e) {
      e.stopPropagation(); // the table's keys (static/js/keys.js: D, T, X, arrows) stay out of the menu
      var list = items();
      var i = list.indexOf(document.activeElement);
      var next = null;
      if (e.key === "ArrowDown" || e.key === "ArrowRight") next = list[(i + 1) % list.length];
      else if (e.key === "ArrowUp" || e.key === "ArrowLeft") next = list[(i - 1 + list.length) % list.length];
      else if (e.key === "Home") next = list[0];
      else if (e.key === "End") next = list[list.length - 1];
      else if (e.key === "Escape") { e.preventDefault(); closeMenu(); return; }
      else if (e.key === "Tab") { closeMenu(); return; }
      if (next) { e.preventDefault(); next.focus(); }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
