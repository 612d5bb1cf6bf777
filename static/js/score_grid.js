// The score grid's live side (templates/league/_score_grid.html). It holds no rules: it shows
// and hides the fields the game's description asks under the answers given (its `when`), adds
// up the per-seat fields the description gives a sum, and asks the server (the config's
// checkUrl) for each deal's scores, payouts, running totals and problems as the grid is typed.
// Any layout of the grid (the full grid, final scores only) is the same to it: the config's
// fields are the layout's, and the form posts its layout with the rows.
(function () {
  "use strict";
  const form = document.getElementById("grid-form");
  const configNode = document.getElementById("score-grid-config");
  if (!form || !configNode) return;
  const config = JSON.parse(configNode.textContent);
  const fields = Object.fromEntries(config.fields.map((f) => [f.name, f]));
  form.classList.add("js");

  const minus = (s) => s.replace("-", "\u2212");
  const signed = (v, key) => minus(v > 0 && key !== "scores" ? `+${v}` : String(v));

  function value(deal, name) {
    const field = fields[name];
    const input = form.querySelector(`[name="d${deal}.${name}"]`);
    if (!field || !input) return null;
    if (field.kind === "bool") return input.checked;
    if (input.value === "") return null;
    return field.kind === "choice" ? input.value : Number(input.value);
  }

  // A field is asked when every (field, value) of its `when` holds, on fields asked themselves.
  function applyWhen(fieldset) {
    const deal = fieldset.dataset.deal;
    const asked = new Set();
    for (const field of config.fields) {
      if (field.when.every(([name, want]) => asked.has(name) && value(deal, name) === want)) {
        asked.add(field.name);
      }
    }
    fieldset.querySelectorAll("[data-when]").forEach((node) => {
      node.classList.toggle("inactive", !asked.has(node.dataset.field));
    });
  }

  function showSums(fieldset) {
    fieldset.querySelectorAll("tr[data-sum]").forEach((row) => {
      const inputs = [...row.querySelectorAll("input")];
      const typed = inputs.filter((i) => i.value !== "");
      const total = typed.reduce((a, i) => a + (Number(i.value) || 0), 0);
      const node = row.querySelector("[data-sum-of]");
      if (node) node.textContent = typed.length ? `${total}/${row.dataset.sum}` : "";
    });
  }

  function started(fieldset) {
    return [...fieldset.querySelectorAll("input, select")].some((i) =>
      i.type === "checkbox" ? i.checked : i.value !== ""
    );
  }

  function render(answer) {
    const deals = [...form.querySelectorAll(".grid-deal")];
    const begun = new Set(deals.filter(started).map((f) => f.dataset.deal));
    form.querySelectorAll("[data-out]").forEach((cell) => (cell.textContent = ""));
    for (const deal of answer.deals) {
      const fieldset = form.querySelector(`.grid-deal[data-deal="${deal.index}"]`);
      if (!fieldset) continue;
      fieldset.querySelector("[data-dealer]").textContent = deal.dealer;
      for (const key of ["scores", "payouts", "running_payouts"]) {
        fieldset.querySelectorAll(`[data-out="${key}"]`).forEach((cell) => {
          const seat = Number(cell.dataset.seat);
          // a table of four's sitter has no figures for the deal (his running total stays)
          const sat = deal.sitter === seat && key !== "running_payouts";
          cell.textContent = sat ? "\u2013" : signed(deal[key][seat], key);
        });
      }
    }
    form.querySelectorAll("[data-total]").forEach((cell) => {
      const totals = answer.totals;
      cell.textContent = totals ? signed(totals[cell.dataset.total][Number(cell.dataset.seat)], cell.dataset.total) : "";
    });
    const winners = document.getElementById("grid-winners");
    if (winners) winners.textContent = answer.totals && answer.totals.complete ? `${winners.dataset.label}: ${answer.totals.winners.join(", ")}` : "";
    form.querySelectorAll("[data-error-for]").forEach((node) => (node.textContent = ""));
    form.querySelectorAll("[aria-invalid]").forEach((node) => node.removeAttribute("aria-invalid"));
    const shown = [];
    for (const problem of answer.problems) {
      const deal = (problem.key.match(/^d(\d+)/) || [])[1];
      if (deal === undefined || !begun.has(deal)) continue;
      shown.push(problem.text);
      const node = form.querySelector(`[data-error-for="${problem.key}"]`);
      if (node) node.textContent = problem.reason;
      const input = form.querySelector(`[name="${problem.key}"]`);
      if (input) input.setAttribute("aria-invalid", "true");
    }
    const list = document.getElementById("grid-problems");
    if (list) {
      const ul = list.querySelector("ul") || list.appendChild(document.createElement("ul"));
      ul.replaceChildren(...shown.map((t) => Object.assign(document.createElement("li"), { textContent: t })));
      list.hidden = shown.length === 0;
    }
  }

  let timer = null;
  let asked = 0;
  async function check() {
    const mine = ++asked;
    const body = new FormData(form);
    const token = form.querySelector("[name=csrfmiddlewaretoken]");
    try {
      const response = await fetch(config.checkUrl, {
        method: "POST",
        body,
        headers: token ? { "X-CSRFToken": token.value } : {},
        credentials: "same-origin",
      });
      if (!response.ok || mine !== asked) return;
      render(await response.json());
    } catch (err) {
      /* offline: the totals wait; the form still submits */
    }
  }

  function changed(event) {
    const fieldset = event.target.closest(".grid-deal");
    if (fieldset) {
      applyWhen(fieldset);
      showSums(fieldset);
    }
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  }

  form.querySelectorAll(".grid-deal").forEach((fieldset) => {
    applyWhen(fieldset);
    showSums(fieldset);
  });
  // Another layout is another page (a link, so the choice works without this script): what is
  // typed here does not go with it, so ask first once something is typed.
  const layouts = document.getElementById("grid-layouts");
  if (layouts) {
    layouts.addEventListener("click", (event) => {
      const link = event.target.closest("a[data-layout]");
      const typed = [...form.querySelectorAll(".grid-deal")].some(started);
      if (link && typed && !window.confirm(layouts.dataset.confirm)) event.preventDefault();
    });
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
})();
