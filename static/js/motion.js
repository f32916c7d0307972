/* Motion at the table: tiles travel where they went (a FLIP animation with the Web
 * Animations API). Before each websocket frame is swapped in, this notes where the
 * tiles are (your rack, the discard to take, each seat's discards, the melds, the
 * pile and each opponent's box); after the swap it compares, and each tile that
 * moved flies from where it was to where it landed: a tile you drew or took from the
 * pile or the discard into your rack, your discard from the rack to the discard spot,
 * tiles you or others laid into the melds, and an opponent's draw (a tile back from
 * the pile or the discard to their box) and discard (from their box to their
 * discards). The flight is drawn by a copy of the tile fixed over the page (the felt
 * clips its children), about 250 ms, never catching clicks; the real tile is
 * transparent meanwhile, so input is never blocked. With prefers-reduced-motion
 * nothing moves. What moved is also what sounds (static/js/sound.js): a draw, a
 * discard. Nothing here decides a rule: it reads only what the frames showed. */
(function () {
  "use strict";
  var DURATION = 250;
  /* A table whose CPU speed is fast (its page's data-cpu-speed) flies tiles quicker, so
     a flight ends before the next CPU step's frame (docs/table-page.md). */
  function duration() {
    var page = document.querySelector(".table-page");
    return page && page.dataset.cpuSpeed === "fast" ? 120 : DURATION;
  }
  var before = null;

  function reduced() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }
  function rect(el) { return el ? el.getBoundingClientRect() : null; }
  function visible(r) { return r && r.width > 0 && r.height > 0; }
  function ids(selector) {
    var out = {};
    document.querySelectorAll(selector).forEach(function (el) { out[el.dataset.id] = rect(el); });
    return out;
  }
  function takeable() {
    var el = document.querySelector(".takeable .tile[data-id]");
    return el ? { id: el.dataset.id, rect: rect(el) } : null;
  }
  function count(seat) {
    var b = document.querySelector('[data-testid="count-' + seat + '"]');
    return b ? parseInt(b.textContent, 10) : null;
  }

  function snapshot() {
    var opps = {};
    document.querySelectorAll(".opp[data-seat]").forEach(function (el) {
      var seat = el.dataset.seat;
      opps[seat] = {
        count: count(seat),
        box: rect(el.querySelector(".opp-rack") || el),
        discards: ids('.opp[data-seat="' + seat + '"] .discard-pile .tile[data-id]')
      };
    });
    return {
      rack: ids("#rack-grid .tile[data-id]"),
      mine: ids("#my-discards .tile[data-id]"),
      melds: ids(".melds .tile[data-id]"),
      takeable: takeable(),
      pile: rect(document.querySelector(".pile")),
      opps: opps
    };
  }

  /* A copy of `el` (or a tile back) flying from `from` to where `el` (or `to`) is. */
  function fly(el, from, to, back) {
    to = to || rect(el);
    if (!visible(from) || !visible(to)) return;
    var ghost;
    if (back) {
      ghost = document.createElement("span");
      ghost.className = "motion-ghost motion-back";
    } else {
      ghost = el.cloneNode(true);
      ghost.classList.remove("selected");
      ghost.classList.add("motion-ghost");
    }
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("role");
    ghost.removeAttribute("title");
    ghost.removeAttribute("aria-label");
    var w = back ? Math.min(to.width, 28) : to.width;
    var h = back ? Math.min(to.height, 38) : to.height;
    var x = to.left + (to.width - w) / 2, y = to.top + (to.height - h) / 2;
    // placed through the CSSOM (a style= attribute is what the CSP refuses, not this)
    ghost.style.left = x + "px";
    ghost.style.top = y + "px";
    ghost.style.setProperty("--w", w + "px");
    ghost.style.width = w + "px";
    ghost.style.height = h + "px";
    if (el) ghost.style.fontSize = window.getComputedStyle(el).fontSize;
    document.body.appendChild(ghost);
    var dx = from.left + from.width / 2 - (x + w / 2);
    var dy = from.top + from.height / 2 - (y + h / 2);
    var scale = back ? 1 : Math.max(0.5, Math.min(2, from.width / to.width));
    if (el) el.classList.add("motion-landing");
    var anim = ghost.animate(
      [{ transform: "translate(" + dx + "px," + dy + "px) scale(" + scale + ")" }, { transform: "none" }],
      { duration: duration(), easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
    anim.id = "okey-motion";
    function done() {
      ghost.remove();
      if (el) el.classList.remove("motion-landing");
    }
    anim.onfinish = done;
    anim.oncancel = done;
  }

  function sound(name) { if (window.okeySound) window.okeySound.play(name); }

  function compare(old) {
    var now = snapshot();
    var move = !reduced();
    var drew = false, discarded = false;
    var gone = {}; // ids that left your rack, with where they were
    Object.keys(old.rack).forEach(function (id) { if (!(id in now.rack)) gone[id] = old.rack[id]; });
    // your rack: one new tile is a draw (from the pile) or a take (from the discard);
    // many new tiles are a new deal, which does not fly
    var fresh = Object.keys(now.rack).filter(function (id) { return !(id in old.rack); });
    if (fresh.length === 1 && Object.keys(old.rack).length) {
      var id = fresh[0];
      var from = old.takeable && old.takeable.id === id ? old.takeable.rect : old.pile;
      if (move) fly(document.querySelector('#rack-grid .tile[data-id="' + id + '"]'), from);
      drew = true;
    }
    // your discard, and tiles you laid down or added to a meld
    document.querySelectorAll("#my-discards .tile[data-id], .melds .tile[data-id]").forEach(function (el) {
      var id = el.dataset.id;
      if (!gone[id] || (id in old.mine) || (id in old.melds)) return;
      if (el.closest("#my-discards")) discarded = true;
      if (move) fly(el, gone[id]);
    });
    // opponents: a count up by one is a draw or a take, a count down a discard or melds
    Object.keys(now.opps).forEach(function (seat) {
      var was = old.opps[seat], is = now.opps[seat];
      if (!was || was.count === null || is.count === null || is.count === was.count) return;
      if (is.count === was.count + 1) {
        var took = old.takeable && !(now.takeable && now.takeable.id === old.takeable.id) &&
          !(old.takeable.id in now.rack);
        if (move) fly(null, took ? old.takeable.rect : old.pile, is.box, true);
        drew = true;
        return;
      }
      if (is.count > was.count) return;
      var sel = '.opp[data-seat="' + seat + '"] .discard-pile .tile[data-id]';
      document.querySelectorAll(sel + ", .melds .tile[data-id]").forEach(function (el) {
        var id = el.dataset.id;
        var inPile = !!el.closest(".discard-pile");
        if (inPile ? (id in was.discards) : ((id in old.melds) || gone[id])) return;
        if (inPile) discarded = true;
        if (move) fly(el, was.box);
      });
    });
    if (drew) sound("draw");
    if (discarded) sound("discard");
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    try { before = snapshot(); } catch (e) { before = null; }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var old = before;
    before = null;
    if (!old) return;
    try { compare(old); } catch (e) { /* motion is decoration: never break the table */ }
  });
})();
