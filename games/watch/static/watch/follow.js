/* A watcher's "follow a seat" buttons (games/watch/templates/watch/_follow.html): a
 * click sends {"action": "follow", "seat": n} through #follow-form (ws-send); the
 * server answers with the outcome dialog showing that seat's finished rack. */
(function () {
  "use strict";
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-follow]");
    var form = document.getElementById("follow-form");
    if (!button || !form || !window.htmx) return;
    form.elements.seat.value = button.dataset.follow;
    window.htmx.trigger(form, "submit");
  });
})();
