/* A tournament's page with live standings (htmx ws extension; htmx reconnects by itself). */
(function () {
  "use strict";
  // Mark the page live while the standings socket is open.
  document.addEventListener("htmx:wsOpen", function () { document.body.dataset.live = "open"; });
  document.addEventListener("htmx:wsClose", function () { document.body.dataset.live = "closed"; });
  // A pushed update re-renders the rounds: keep the rounds the reader opened or closed as they were.
  // Only the reader's own clicks count (a round rendered open fires "toggle" too: counting those
  // would reopen every former latest round after each push). An older round comes without its
  // tables (hx-trigger="toggle once"): reopening it here fires its toggle, which loads them again.
  var chosen = {};
  document.addEventListener("click", function (e) {
    var summary = e.target.closest && e.target.closest("details.tn-round > summary");
    if (summary) { chosen[summary.parentElement.dataset.round] = !summary.parentElement.open; }
  }, true);
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.querySelectorAll("details.tn-round").forEach(function (d) {
      if (d.dataset.round in chosen) { d.open = chosen[d.dataset.round]; }
    });
  });
})();
