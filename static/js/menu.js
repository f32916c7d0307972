/* The site header's menu on small screens: below 700 px wide (or 500 px high) the nav
 * folds behind a "Menu" button (static/css/site.css). The button is a real <button>
 * (Enter and Space work), says whether the menu is open with aria-expanded, and the menu
 * closes with Escape (focus back on the button) or a click elsewhere. Loaded in <head>
 * without defer: the class it sets on <html> lets the CSS fold the nav before the first
 * paint; the listeners sit on the document, so they need no element to exist yet. */
(function () {
  "use strict";
  document.documentElement.classList.add("js-menu");

  function toggleOf(el) {
    var header = el && el.closest && el.closest(".site-header");
    return header && header.querySelector("[data-menu-toggle]");
  }

  function setOpen(toggle, open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    var header = toggle.closest(".site-header");
    if (header) header.classList.toggle("menu-open", open);
  }

  function openToggle() {
    return document.querySelector("[data-menu-toggle][aria-expanded='true']");
  }

  document.addEventListener("click", function (e) {
    var toggle = e.target.closest && e.target.closest("[data-menu-toggle]");
    if (toggle) {
      setOpen(toggle, toggle.getAttribute("aria-expanded") !== "true");
      return;
    }
    var open = openToggle();
    if (open && !(e.target.closest && e.target.closest(".site-nav"))) setOpen(open, false);
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var open = openToggle();
    if (!open) return;
    setOpen(open, false);
    open.focus();
  });

  // Focus leaving the open menu (Tab past its last link) closes it.
  document.addEventListener("focusout", function (e) {
    var open = openToggle();
    if (!open || !e.relatedTarget) return;
    if (toggleOf(e.target) === open && !e.relatedTarget.closest(".site-header")) setOpen(open, false);
  });
})();
