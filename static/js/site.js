// Behaviour any page asks for with a data attribute, loaded by templates/base.html. The Content
// Security Policy refuses inline handlers (onclick="…"), so a page marks the element and this
// file, a static script, does the rest (docs/browser.md, "Content Security Policy"):
// - <button data-print>: prints the page;
// - <input data-select-on-click>: a click selects its whole text (a link to copy).
(function () {
  "use strict";

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    if (target.closest("[data-print]")) {
      window.print();
      return;
    }
    const field = target.closest("input[data-select-on-click]");
    if (field) field.select();
  });
})();
