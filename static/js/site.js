/* Behaviour shared by every page, wired by data attributes instead of inline handlers
 * (the Content-Security-Policy allows scripts from our static files only, so no
 * onclick=, onchange= or <script> in the templates). Listeners sit on the document,
 * so fragments swapped in later by htmx get them too. */
(function () {
  "use strict";

  // The language menu changes the language as soon as a language is picked (the button
  // beside it is for browsers without JavaScript).
  document.addEventListener("change", function (e) {
    var select = e.target.closest && e.target.closest("select[data-autosubmit]");
    if (!select || !select.form) return;
    if (select.form.requestSubmit) select.form.requestSubmit();
    else select.form.submit();
  });

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    // Links to share: one click selects the whole address, ready to copy.
    var field = e.target.closest("input[data-select-on-click]");
    if (field) field.select();
    // Print buttons (score sheets, standings, table cards).
    if (e.target.closest("[data-print]")) window.print();
  });

  // Forms that ask before doing something that cannot be undone.
  document.addEventListener("submit", function (e) {
    var form = e.target.closest && e.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) e.preventDefault();
  }, true);
})();
