/* The outcome dialog and the running score table (templates/games/_outcome.html).
 *
 * Both are native <dialog> elements opened with showModal(): the browser moves the
 * focus into the dialog, keeps it there, closes it on Escape and gives the focus
 * back to what had it. The outcome dialog opens by itself once per hand, when the
 * hand's result arrives over the websocket or is on the page at load; "Show the
 * result" (in the page) and "Scores" (in the header) open them again. A fragment
 * replaced while its dialog was open is opened again. Nothing here decides a rule:
 * the server renders both from the seat's engine view.
 */
(function () {
  "use strict";
  var opened = {}; // hands whose outcome dialog has opened by itself on this page
  var wasOpen = [];

  function open(dialog) {
    if (!dialog || dialog.open || typeof dialog.showModal !== "function") return;
    if (!dialog.isConnected) return;
    document.querySelectorAll("dialog[open]").forEach(function (d) { if (d !== dialog) d.close(); });
    dialog.showModal();
  }

  function autoOpen() {
    var dialog = document.getElementById("outcome-dialog");
    if (!dialog) return;
    var hand = dialog.dataset.hand || "";
    if (opened[hand]) return;
    opened[hand] = true;
    open(dialog);
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    wasOpen = Array.prototype.map.call(document.querySelectorAll("dialog[open]"), function (d) { return d.id; });
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var again = wasOpen;
    wasOpen = [];
    again.forEach(function (id) {
      var d = document.getElementById(id);
      if (d && !d.open) open(d);
    });
    autoOpen();
  });

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-open-dialog]");
    if (button) { open(document.getElementById(button.dataset.openDialog)); return; }
    // a click on the backdrop (outside the dialog's box) closes it, like Escape
    var t = ev.target;
    if (t.tagName === "DIALOG" && t.open && t.classList.contains("outcome")) {
      var r = t.getBoundingClientRect();
      if (ev.clientX < r.left || ev.clientX > r.right || ev.clientY < r.top || ev.clientY > r.bottom) t.close();
    }
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", autoOpen);
  else autoOpen();
})();

/* Meld staging's running total ("43 of 51 needed to open"): table.js calls this after
 * drawing the staged melds; the server values them with the engine (games/staging.py)
 * and says what the opening needs now. */
(function () {
  "use strict";
  var asked = 0;
  window.okeyStagingTotal = function (staged, box) {
    var page = document.querySelector(".table-page");
    var seq = ++asked;
    if (!page || !staged.length) return;
    var line = document.createElement("p");
    line.className = "staging-total";
    line.setAttribute("data-testid", "staging-total");
    box.appendChild(line);
    var url = "/t/" + encodeURIComponent(page.dataset.code) + "/staging/?melds=" +
      encodeURIComponent(JSON.stringify(staged));
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || seq !== asked || !line.isConnected) return;
        line.textContent = data.text;
        line.classList.toggle("short", data.need !== null && data.total < data.need);
        line.dataset.total = data.total;
        line.dataset.need = data.need === null ? "" : data.need;
      })
      .catch(function () { /* the total is a help; the move itself is checked by the server */ });
  };
})();
