// Behaviour any page asks for with a data attribute, loaded by templates/base.html. The Content
// Security Policy refuses inline handlers (onclick="…"), so a page marks the element and this
// file, a static script, does the rest (docs/browser.md, "Content Security Policy"):
// - <button data-print>: prints the page;
// - <input data-select-on-click>: a click selects its whole text (a link to copy);
// - <form data-busy="Working…">: once submitted, the form says so in its [data-busy-status]
//   element and its buttons are disabled (a second click would send it twice). With
//   data-busy-one and data-busy-many ("… %(n)s …") it counts the list in its textarea
//   (the lines that are not blank, comments or a header of column names); data-busy-file is
//   said when a file is chosen instead.
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

  const HEADER = /^\s*(name|player)\s*([,;\t]|$)/i;

  function listedLines(text) {
    const lines = text.split(/\r\n|\r|\n/).filter((line) => {
      const trimmed = line.trim();
      return trimmed !== "" && !trimmed.startsWith("#");
    });
    return lines.length && HEADER.test(lines[0]) ? lines.length - 1 : lines.length;
  }

  function busyText(form) {
    const data = form.dataset;
    const file = form.querySelector("input[type=file]");
    if (file && file.files && file.files.length && data.busyFile) return data.busyFile;
    const list = form.querySelector("textarea");
    if (list && data.busyMany) {
      const n = listedLines(list.value);
      if (n === 1 && data.busyOne) return data.busyOne;
      if (n > 1) return data.busyMany.replace("%(n)s", String(n));
    }
    return data.busy;
  }

  document.addEventListener("submit", (event) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (!form || form.dataset.busy === undefined || event.defaultPrevented) return;
    const status = form.querySelector("[data-busy-status]");
    if (status) {
      status.textContent = busyText(form);
      status.hidden = false;
    }
    form.setAttribute("aria-busy", "true");
    // After this event: the form's data is gathered first, then the buttons are disabled.
    setTimeout(() => {
      for (const button of form.querySelectorAll("button, input[type=submit]")) {
        button.disabled = true;
      }
    }, 0);
  });

  // Back to a page kept in the browser's cache: its forms are ready again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const form of document.querySelectorAll("form[aria-busy]")) {
      form.removeAttribute("aria-busy");
      for (const button of form.querySelectorAll("button, input[type=submit]")) {
        button.disabled = false;
      }
      const status = form.querySelector("[data-busy-status]");
      if (status) status.hidden = true;
    }
  });
})();
