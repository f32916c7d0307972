/* The invite card of a waiting table (templates/games/table.html): "Copy" puts the
 * table's link on the clipboard (Clipboard API) and says so in the card's status line;
 * "Share" opens the device's share sheet (Web Share API). Each button shows only where
 * its API exists (a page served over plain http has no clipboard API: the link's field
 * still selects itself on a tap, static/js/site.js). No inline script: the site's CSP. */
(function () {
  "use strict";

  function field(btn, attr) { return document.getElementById(btn.getAttribute(attr)); }

  function say(btn, key) {
    var note = btn.closest(".invite").querySelector(".invite-copied");
    if (note) note.textContent = note.dataset[key] || "";
  }

  function copy(btn) {
    var input = field(btn, "data-copy-link");
    if (!input) return;
    navigator.clipboard.writeText(input.value).then(
      function () { say(btn, "done"); },
      function () { input.select(); say(btn, "failed"); }
    );
  }

  function share(btn) {
    var input = field(btn, "data-share-link");
    if (!input) return;
    navigator.share({ title: btn.dataset.shareTitle, text: btn.dataset.shareText, url: input.value })
      .catch(function () { /* the player closed the share sheet */ });
  }

  function setUp() {
    var canCopy = !!(navigator.clipboard && navigator.clipboard.writeText);
    var canShare = typeof navigator.share === "function";
    document.querySelectorAll("[data-copy-link]").forEach(function (b) { b.hidden = !canCopy; });
    document.querySelectorAll("[data-share-link]").forEach(function (b) { b.hidden = !canShare; });
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    var c = e.target.closest("[data-copy-link]");
    if (c) { copy(c); return; }
    var s = e.target.closest("[data-share-link]");
    if (s) share(s);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
