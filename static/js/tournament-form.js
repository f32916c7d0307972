/* The tournament settings form (new tournament, and the desk's settings): show only the
 * fields that apply to the chosen rule set, mode, format and scoring. */
(function () {
  "use strict";
  var sel = document.getElementById("id_variant");
  var mode = document.getElementById("id_mode");
  var scoring = document.getElementById("id_scoring");
  var format = document.getElementById("id_format");
  if (!sel || !mode || !scoring) return;
  function show() {
    document.querySelectorAll(".variant-options").forEach(function (fs) {
      var on = fs.dataset.variant === sel.value;
      fs.hidden = !on;
      fs.querySelectorAll("select").forEach(function (s) { s.disabled = !on; });
    });
    // Only what applies: the arrival time is for online rounds, three-player tables for a
    // rule set played by three (its menu option says so: data-three-players, from the
    // rules object's players).
    var chosen = sel.options[sel.selectedIndex];
    var three = !!chosen && chosen.dataset.threePlayers === "1";
    document.querySelectorAll("[data-online-only]").forEach(function (el) { el.hidden = mode.value !== "online"; });
    document.querySelectorAll("[data-three-players-only]").forEach(function (el) { el.hidden = !three; });
    // a duplicate tournament is scored by matchpoints or IMPs, not by placings or sums
    var duplicate = !!format && format.value === "duplicate";
    document.querySelectorAll("[data-duplicate-only]").forEach(function (el) { el.hidden = !duplicate; });
    document.querySelectorAll("[data-standard-only]").forEach(function (el) { el.hidden = duplicate; });
    document.querySelectorAll("[data-placing-only]").forEach(function (el) { el.hidden = duplicate || scoring.value !== "placing"; });
  }
  [sel, mode, scoring, format].forEach(function (el) { if (el) el.addEventListener("change", show); });
  show();
})();
