/* The table page: selection, drag and drop, staging melds, and sending actions
 * over the table's websocket (htmx ws extension, form #act-form with ws-send).
 * The server re-renders every fragment from this seat's engine view; nothing
 * here decides a rule. */
(function () {
  "use strict";
  var staged = []; // melds being built before "open"/"lay": arrays of tile ids
  var confirming = null; // the tile whose costly discard waits for its second tap
  var flippedAt = 0; // when the okey's face-down control last sent a flip
  var FLIP_PAUSE_MS = 800; // a second tap within this is part of a double tap: ignored
  var pointer = { x: 0, y: 0 };
  var sortable = null;

  function form() { return document.getElementById("act-form"); }

  /* A move in flight: from sending it until the next frame arrives, further moves are
     ignored (a double click sends one move, never a second one the table would refuse
     as stale). A reorder gets no frame back and never waits; the guard lapses after a
     few seconds in case an answer is lost. */
  var busySince = 0;
  var BUSY_MS = 4000;
  function setBusy(on) {
    busySince = on ? Date.now() : 0;
    var page = document.querySelector(".table-page");
    if (page) page.setAttribute("aria-busy", on ? "true" : "false");
  }
  function busy() { return busySince && Date.now() - busySince < BUSY_MS; }

  /* What a discard of this tile would cost (assisted tables): the rule set's sentence,
     rendered by the server into the controls' data-costs (presenter.discard_cost_text). */
  function costOf(tile) {
    var c = document.getElementById("t-controls");
    if (!c || !c.dataset.costs) return null;
    try { return JSON.parse(c.dataset.costs)[tile] || null; } catch (e) { return null; }
  }

  /* A costly discard waits for a second tap: the message says what it costs, with a
     "Discard anyway" button; tapping Discard again on the same tile sends it too. */
  function askDiscard(tile, cost) {
    var m = document.getElementById("t-msg");
    if (!m) return;
    m.textContent = "";
    var span = document.createElement("span");
    span.className = "discard-cost";
    span.setAttribute("data-testid", "discard-cost");
    span.textContent = cost;
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button button-small discard-anyway";
    b.setAttribute("data-testid", "discard-anyway");
    b.dataset.confirmDiscard = tile;
    b.textContent = text("discardAnyway", "Discard anyway");
    m.appendChild(span);
    m.appendChild(document.createTextNode(" "));
    m.appendChild(b);
    m.classList.add("show");
  }

  /* Sends a move; false when it was held back (busy, or a costly discard's first tap). */
  function send(fields) {
    var f = form();
    if (!f) return false;
    if (fields.action === "discard" && !fields.confirmed) {
      var cost = costOf(fields.tile);
      if (cost && confirming !== String(fields.tile)) {
        confirming = String(fields.tile);
        askDiscard(String(fields.tile), cost);
        return false;
      }
    }
    confirming = null;
    if (fields.action === "flip") {
      if (Date.now() - flippedAt < FLIP_PAUSE_MS) return false;
      flippedAt = Date.now();
    }
    if (fields.action !== "reorder") {
      if (busy()) return false;
      setBusy(true);
    }
    ["action", "tile", "meld", "melds", "as", "order", "mode"].forEach(function (n) {
      f.elements[n].value = fields[n] !== undefined ? fields[n] : "";
    });
    htmx.trigger(f, "submit");
    return true;
  }

  function selected() {
    return Array.prototype.map.call(
      document.querySelectorAll("#rack-grid .tile.selected"),
      function (el) { return parseInt(el.dataset.id, 10); });
  }

  function showMessage(message) {
    var m = document.getElementById("t-msg");
    if (m) { m.textContent = message; m.classList.add("show"); }
  }

  /* Translated texts come from data attributes rendered by the server. */
  function text(key, fallback) {
    var page = document.querySelector(".table-page");
    return (page && page.dataset[key]) || fallback;
  }

  function renderStaging() {
    var box = document.getElementById("staging");
    if (!box) return;
    // a staged meld stays until its tiles leave the rack (laid down): a refused
    // opening keeps what was staged
    staged = staged.filter(function (meld) {
      return meld.every(function (id) { return document.querySelector('#rack-grid .tile[data-id="' + id + '"]'); });
    });
    box.innerHTML = "";
    staged.forEach(function (meld, i) {
      var div = document.createElement("div");
      div.className = "staged";
      meld.forEach(function (id) {
        var src = document.querySelector('#rack-grid .tile[data-id="' + id + '"]');
        if (src) { var c = src.cloneNode(true); c.classList.remove("selected"); c.classList.add("small"); div.appendChild(c); }
      });
      var x = document.createElement("button");
      x.type = "button"; x.className = "link-button"; x.textContent = "✕";
      x.setAttribute("aria-label", text("unstage", "Remove this staged meld"));
      x.title = x.getAttribute("aria-label");
      x.addEventListener("click", function () { staged.splice(i, 1); renderStaging(); markStaged(); });
      div.appendChild(x);
      box.appendChild(div);
    });
    markStaged();
    markWanting();
    if (window.okeyStagingTotal) window.okeyStagingTotal(staged, box); // static/js/outcome.js
  }

  function markStaged() {
    var ids = {};
    staged.forEach(function (m) { m.forEach(function (id) { ids[id] = 1; }); });
    document.querySelectorAll("#rack-grid .tile").forEach(function (el) {
      el.classList.toggle("staged-tile", !!ids[el.dataset.id]);
    });
  }

  function rackOrder() {
    return Array.prototype.map.call(document.querySelectorAll("#rack-grid .slot"), function (slot) {
      var t = slot.querySelector(".tile");
      return t ? parseInt(t.dataset.id, 10) : null;
    });
  }

  function dropTarget(x, y) {
    var el = document.elementFromPoint(x, y);
    if (!el) return null;
    return el.closest("[data-drop], .meld[data-meld], .staging");
  }

  /* A move sent with the selected tiles uses the selection up, whatever the table
     answers: frames only replace the rack when it changed, so a move that leaves the
     rack as it was (a refusal, a tile sent back) must not leave tiles selected. */
  function clearSelection() {
    document.querySelectorAll("#rack-grid .tile.selected").forEach(function (el) { el.classList.remove("selected"); });
    markWanting();
  }

  /* A button that needs a selection looks unavailable (aria-disabled) until it has one;
     a click on it still says what to select. */
  function markWanting() {
    var n = selected().length;
    function mark(selector, wanting) {
      document.querySelectorAll(selector).forEach(function (b) {
        b.classList.toggle("wanting", wanting);
        if (wanting) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
      });
    }
    mark("#t-controls [data-needs='1']", n !== 1);
    mark("#t-controls [data-melds='1']", n === 0 && staged.length === 0);
    mark("#t-controls [data-stage]", n < 2);
  }

  function onAct(btn) {
    var act = btn.dataset.act;
    var sel = selected();
    if (btn.dataset.needs === "1") {
      if (sel.length !== 1) { showMessage(text("pickOne", "Select one tile first.")); return; }
      // a held-back costly discard keeps its tile selected for the second tap
      if (send({ action: act, tile: sel[0] })) clearSelection();
      return;
    }
    if (btn.dataset.melds === "1") {
      var melds = staged.slice();
      if (sel.length) {
        var inStaged = {};
        staged.forEach(function (m) { m.forEach(function (id) { inStaged[id] = 1; }); });
        var rest = sel.filter(function (id) { return !inStaged[id]; });
        if (rest.length) melds.push(rest);
      }
      if (!melds.length) { showMessage(text("pickTiles", "Select tiles first.")); return; }
      send({ action: act, melds: JSON.stringify(melds) });
      clearSelection();
      return;
    }
    if (btn.dataset.tile) { send({ action: act, tile: btn.dataset.tile }); return; } // the okey's flip
    send({ action: act });
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    var tile = t.closest("#rack-grid .tile");
    if (tile) {
      // a tap selects; turning an okey face down (seventeen) is its own button
      tile.classList.toggle("selected");
      markWanting();
      return;
    }
    var anyway = t.closest("[data-confirm-discard]");
    if (anyway) { send({ action: "discard", tile: anyway.dataset.confirmDiscard, confirmed: true }); clearSelection(); return; }
    var act = t.closest("[data-act]");
    if (act && !act.disabled) { onAct(act); return; }
    var sort = t.closest("[data-sort]");
    if (sort) { send({ action: "sort", mode: sort.dataset.sort }); return; }
    if (t.closest("[data-stage]")) {
      var sel = selected();
      if (sel.length < 2) { showMessage(text("pickMeld", "Select the tiles of one meld first.")); return; }
      staged.push(sel);
      clearSelection();
      renderStaging();
      return;
    }
    var meld = t.closest(".meld[data-meld]");
    if (meld) {
      var s = selected();
      if (s.length === 1) { send({ action: "place", tile: s[0], meld: meld.dataset.meld }); clearSelection(); }
    }
  });

  document.addEventListener("pointermove", function (e) { pointer.x = e.clientX; pointer.y = e.clientY; }, { passive: true });
  document.addEventListener("touchmove", function (e) {
    if (e.touches && e.touches[0]) { pointer.x = e.touches[0].clientX; pointer.y = e.touches[0].clientY; }
  }, { passive: true });

  function initRack() {
    var grid = document.getElementById("rack-grid");
    if (!grid || grid.dataset.ready) return;
    grid.dataset.ready = "1";
    if (typeof Sortable === "undefined") return;
    sortable = Sortable.create(grid, {
      draggable: ".slot",
      filter: ".slot:empty",
      swap: true,
      swapClass: "swap-target",
      animation: 120,
      forceFallback: true,
      fallbackTolerance: 4,
      onEnd: function (evt) {
        var target = dropTarget(pointer.x, pointer.y);
        var tile = evt.item.querySelector(".tile");
        if (target && tile && !grid.contains(target)) {
          var id = tile.dataset.id;
          if (target.dataset.drop === "discard") send({ action: "discard", tile: id });
          else if (target.dataset.meld) send({ action: "place", tile: id, meld: target.dataset.meld });
          return;
        }
        send({ action: "reorder", order: JSON.stringify(rackOrder()) });
      }
    });
  }

  function tickClocks() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      var b = el.querySelector("b");
      if (b) b.textContent = left + "s";
      el.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tickClocks, 250);

  /* "While you were away" (the page a returning player opens): OK hides it, and this tab
     remembers which summary was dismissed (its data-key: the table and the stand-in's
     latest move), so a reload before the player's next move does not bring it back. */
  var AWAY_KEY = "okey.away.dismissed";
  function dismissedAway() {
    try { return window.sessionStorage.getItem(AWAY_KEY); } catch (e) { return null; }
  }
  function hideDismissedAway() {
    var box = document.getElementById("t-away");
    if (box && box.dataset.key && box.dataset.key === dismissedAway()) box.hidden = true;
  }
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest("[data-dismiss-away]");
    if (!btn) return;
    var box = document.getElementById("t-away");
    if (!box) return;
    box.hidden = true;
    try { window.sessionStorage.setItem(AWAY_KEY, box.dataset.key || ""); } catch (e) { /* private mode */ }
  });

  /* A frame that replaces the rack (a tile drawn, the rack sorted, someone else's move
     arriving with it) keeps the player's selection: the tiles still held stay selected.
     A move sent uses its selection up before the answer comes (clearSelection). */
  var keptSelection = [];
  document.addEventListener("htmx:wsBeforeMessage", function () { keptSelection = selected(); });
  function restoreSelection() {
    keptSelection.forEach(function (id) {
      var el = document.querySelector("#rack-grid .tile[data-id='" + id + "']");
      if (el) el.classList.add("selected");
    });
    keptSelection = [];
  }
  /* "Show me" marked a meld on the table: bring it into view (the melds scroll inside the felt) */
  function showHintedMeld() {
    var m = document.querySelector(".melds .meld.hinted");
    if (m && m.scrollIntoView) m.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  document.addEventListener("htmx:wsAfterMessage", function () { setBusy(false); restoreSelection(); initRack(); renderStaging(); markWanting(); tickClocks(); showHintedMeld(); });
  /* The socket's URL says what the page shows: the version input's data-seen (the page's,
     then each frame's: games/realtime.py, live_frame), read each time the socket opens,
     the first time and on every reconnect. The server's first frame then leaves out the
     fragments the page already has, current ones, so connecting does not swap the outcome
     dialog (its scroll), an open menu or the focus away; what a reconnect missed is sent. */
  function withSeen(url) {
    var v = document.getElementById("act-version");
    var seen = v && v.getAttribute("data-seen");
    return seen ? url.split("?")[0] + "?seen=" + encodeURIComponent(seen) : url;
  }
  if (window.htmx) {
    var openSocket = htmx.createWebSocket || function (url) {
      var s = new WebSocket(url, []);
      s.binaryType = htmx.config.wsBinaryType;
      return s;
    };
    htmx.createWebSocket = function (url) { return openSocket(withSeen(url)); };
  }
  /* Reconnection in every case a player meets. The htmx ws extension retries
   * by itself only after close codes 1006, 1012 and 1013; after any other code
   * (a server restart's 1001, an idle timeout's 1000, an error's 1011) and when
   * its own retries take too long, reload the page: the server sends the full
   * current view on every connect. Also when the tab wakes up or the network
   * comes back with the socket still closed (laptop sleep, network drop). */
  var reloadTimer = null;
  function scheduleReload(ms) {
    if (reloadTimer) return;
    reloadTimer = setTimeout(function () { window.location.reload(); }, ms + Math.random() * 1000);
  }
  function socketClosed() { return document.body.classList.contains("ws-closed"); }
  /* the "Reconnecting…" banner: its text is in the page (translated by the server) */
  function showReconnecting(on) {
    var banner = document.getElementById("ws-reconnecting");
    if (banner) banner.hidden = !on;
  }
  document.addEventListener("htmx:wsOpen", function () {
    document.body.classList.add("ws-open"); document.body.classList.remove("ws-closed");
    showReconnecting(false);
    if (reloadTimer) { clearTimeout(reloadTimer); reloadTimer = null; }
  });
  document.addEventListener("htmx:wsClose", function (e) {
    document.body.classList.remove("ws-open"); document.body.classList.add("ws-closed");
    showReconnecting(true);
    var code = e.detail && e.detail.event ? e.detail.event.code : 0;
    var retried = code === 1006 || code === 1012 || code === 1013;
    scheduleReload(retried ? 8000 : 1500);
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && socketClosed()) scheduleReload(200);
  });
  window.addEventListener("online", function () { if (socketClosed()) scheduleReload(200); });
  document.addEventListener("DOMContentLoaded", function () { initRack(); markWanting(); tickClocks(); hideDismissedAway(); });
  window.okeyTable = { send: send, selected: selected };
})();
