/* The table by keyboard and screen reader, and the hint's one-click move.
 *
 * The rack is one tab stop (a roving tabindex): the arrow keys move the focus
 * from tile to tile (left/right along the slots, up/down between the rows),
 * Space or Enter selects the focused tile (the same as a click), and anywhere on
 * the page D draws, T takes the discard, X or Delete discards the selected tile
 * (or the focused one when none is selected). Each rack tile is a toggle button
 * whose aria-pressed follows its selection; its label, in words, comes from the
 * server (okey_tiles.tile). Frames replace the rack: the focus is put back on the
 * same tile. Moves go through window.okeyTable.send (table.js). */
(function () {
  "use strict";
  var focusedId = null; // the rack tile holding the roving tab stop
  var keepFocus = false; // the focus was in the rack when a frame replaced it

  function grid() { return document.getElementById("rack-grid"); }
  function tiles() {
    var g = grid();
    return g ? Array.prototype.slice.call(g.querySelectorAll(".slot .tile[data-id]")) : [];
  }

  function setup() {
    var all = tiles();
    if (!all.length) return;
    var current = all.filter(function (t) { return t.dataset.id === focusedId; })[0] || all[0];
    all.forEach(function (t) {
      t.setAttribute("role", "button");
      t.setAttribute("aria-pressed", t.classList.contains("selected") ? "true" : "false");
      t.tabIndex = t === current ? 0 : -1;
    });
    focusedId = current.dataset.id;
    if (keepFocus) { keepFocus = false; current.focus(); }
  }

  function focusTile(t) {
    if (!t) return;
    tiles().forEach(function (o) { o.tabIndex = o === t ? 0 : -1; });
    focusedId = t.dataset.id;
    t.focus();
  }

  /* The tile in the other row nearest to this one's column. */
  function vertical(all, t, dir) {
    var r = t.getBoundingClientRect();
    var best = null, bestScore = Infinity;
    all.forEach(function (o) {
      if (o === t) return;
      var q = o.getBoundingClientRect();
      var dy = (q.top - r.top) * dir;
      if (dy < r.height / 2) return;
      var score = dy * 4 + Math.abs(q.left - r.left);
      if (score < bestScore) { bestScore = score; best = o; }
    });
    return best;
  }

  function typing(target) {
    return target && target.closest && target.closest("input, textarea, select, [contenteditable]");
  }

  function clickAct(act) {
    var btn = document.querySelector('#t-controls [data-act="' + act + '"]');
    if (btn && !btn.disabled) { btn.click(); return true; }
    return false;
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || typing(ev.target)) return;
    var t = ev.target.closest ? ev.target.closest("#rack-grid .tile[data-id]") : null;
    if (t) {
      var all = tiles();
      var i = all.indexOf(t);
      var next = null;
      if (ev.key === "ArrowRight") next = all[i + 1];
      else if (ev.key === "ArrowLeft") next = all[i - 1];
      else if (ev.key === "Home") next = all[0];
      else if (ev.key === "End") next = all[all.length - 1];
      else if (ev.key === "ArrowDown") next = vertical(all, t, 1);
      else if (ev.key === "ArrowUp") next = vertical(all, t, -1);
      else if (ev.key === " " || ev.key === "Enter") {
        ev.preventDefault();
        t.click();
        return;
      }
      if (next !== null || /^Arrow|Home|End/.test(ev.key)) {
        ev.preventDefault();
        focusTile(next);
        return;
      }
    }
    var key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (key === "d") { if (clickAct("draw")) ev.preventDefault(); }
    else if (key === "t") { if (clickAct("take")) ev.preventDefault(); }
    else if (key === "x" || key === "Delete") {
      var btn = document.querySelector('#t-controls [data-act="discard"]');
      if (!btn || btn.disabled) return;
      ev.preventDefault();
      var sel = document.querySelectorAll("#rack-grid .tile.selected");
      if (!sel.length && t) t.click(); // nothing selected: the focused tile
      btn.click();
    }
  });

  document.addEventListener("click", function (ev) {
    var tile = ev.target.closest("#rack-grid .tile[data-id]");
    if (tile) {
      // table.js toggled the selection first (its listener was added first)
      tile.setAttribute("aria-pressed", tile.classList.contains("selected") ? "true" : "false");
      focusedId = tile.dataset.id;
      tiles().forEach(function (o) { o.tabIndex = o === tile ? 0 : -1; });
      return;
    }
    var hint = ev.target.closest("[data-hint-do]");
    if (hint && window.okeyTable) {
      var fields;
      try { fields = JSON.parse(hint.dataset.hintDo); } catch (e) { return; }
      if (fields.melds) fields.melds = JSON.stringify(fields.melds);
      hint.disabled = true; // one click is one move
      window.okeyTable.send(fields);
    }
  });

  /* The tile just drawn keeps its "new" mark until it is moved. A drag in the rack
     sends no frame back (the order is saved quietly), so the mark goes here when the
     drawn tile's slot is no longer where it landed (the presenter agrees on the
     next frame). SortableJS dispatches "start" and "end" on the rack. */
  var drawnAt = -1;
  function slotIndex(tile) {
    var slot = tile && tile.closest(".slot");
    return slot ? Array.prototype.indexOf.call(slot.parentNode.children, slot) : -1;
  }
  document.addEventListener("start", function () {
    drawnAt = slotIndex(document.querySelector("#rack-grid .tile.drawn"));
  });
  document.addEventListener("end", function () {
    var t = document.querySelector("#rack-grid .tile.drawn");
    if (t && slotIndex(t) !== drawnAt) {
      t.classList.remove("drawn");
      var mark = t.querySelector(".drawn-mark");
      if (mark) mark.remove();
    }
  });

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var a = document.activeElement;
    keepFocus = !!(a && a.closest && a.closest("#rack-grid"));
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var a = document.activeElement;
    if (keepFocus && a && a.closest && a.closest("#rack-grid")) keepFocus = false; // rack kept
    setup();
  });
  document.addEventListener("DOMContentLoaded", setup);
})();
