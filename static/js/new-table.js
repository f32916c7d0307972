/* The home page's "new table" form: show the options of the chosen rule set only (the
 * others are disabled, so they are not sent) and the seat fields for its number of
 * players. */
(function () {
  "use strict";
  var sel = document.getElementById("id_variant");
  if (!sel) return;
  function sync() {
    var v = sel.value;
    document.querySelectorAll(".variant-options").forEach(function (fs) {
      var on = fs.dataset.variant === v;
      fs.hidden = !on;
      fs.querySelectorAll("select").forEach(function (s) { s.disabled = !on; });
    });
    var players = document.querySelector('.variant-options[data-variant="' + v + '"] select[name$="__players"]');
    var n = players ? parseInt(players.value, 10) : 4;
    document.querySelectorAll(".seat-field").forEach(function (f) { f.hidden = parseInt(f.dataset.seat, 10) >= n; });
  }
  sel.addEventListener("change", sync);
  document.addEventListener("change", function (e) { if (e.target.name && e.target.name.endsWith("__players")) sync(); });
  sync();
})();
