/* The in-person result form: phone number pads often have no minus key, so the ± button
 * beside each score flips its sign. */
(function () {
  "use strict";
  document.querySelectorAll(".tn-sign-toggle").forEach(function (b) {
    b.addEventListener("click", function () {
      var input = document.querySelector('input[name="' + b.dataset.for + '"]');
      var v = input.value.trim();
      input.value = v.charAt(0) === "-" ? v.slice(1) : "-" + v;
      input.focus();
    });
  });
})();
