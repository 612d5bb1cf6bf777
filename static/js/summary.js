// The end of a deal at the browser table (docs/tables.md, "End of a deal"): the summary of the
// deal that just ended, shown over the new deal until the player goes on ("Next deal", which
// starts their held clock; a spectator's closes by itself after `cfg.summarySeconds`); any past
// deal's summary from the Match table's rows; the legend of the Match table's figures. Loaded after static/js/table.js and the game's module; it hooks
// into the core with `Mediana.onRender` and holds no rules: every figure comes from the
// engine's `deal_summary` (the state's `view.last_deal.summary`, or `cfg.summaryUrl?deal=K`),
// and each step's arithmetic from the part's own `op`. This file draws the frame and names no
// game: the game's module words its codes in the page's language (its `summary` hook, the
// djangojs catalog, docs/translations.md; an unknown code shows the engine's own English line).
(function (M) {
  "use strict";

  const { h, fill, cfg } = M;
  const token = new URLSearchParams(window.location.search).get("token");
  const SECONDS = Number.isFinite(cfg.summarySeconds) ? cfg.summarySeconds : 20;
  const legend = cfg.legend || {};
  const unit = legend.unit || M.gettext("points");

  const known = new Map(); // deal -> summary (seen in a state, or fetched)
  const fetching = new Map(); // deal -> Promise
  let lastSeen = null; // the newest deal whose summary this page has seen (null: no state yet)
  let open = null; // {deal, until (performance.now() ms) or 0 when opened by hand}
  let ticker = null;
  let matchOver = false; // the last state's match is over: no next deal, no extra clock time

  // ------------------------------------------------------------------ words
  // In the page's language (the djangojs catalog through table.js: M.gettext, M.fmt…).
  const { gettext, fmt } = M;
  const name = (s) => M.seatName(s);
  const names = (list) => {
    const all = (list || []).map(name);
    return all.length === 2 ? fmt(gettext("%(a)s and %(b)s"), { a: all[0], b: all[1] }) : all.join(", ");
  };
  const cards = (list) => (list || []).map(M.cardText).join(" ");
  // Numbers with a real minus sign: a step's change ("+ 64", "− 306"), a figure, a payout.
  const minus = (n) => (n < 0 ? `− ${-n}` : `+ ${n}`);
  const num = (n) => (n < 0 ? `−${-n}` : String(n));
  const sgn = (n) => (n > 0 ? `+${n}` : num(n));
  const suitWords = (suit) => `${M.glyphOf(suit)} ${M.deck().suit[suit] || suit}`;
  // An engine line with its seat numbers as names (for a code the game's module does not word).
  const engineText = (text) => String(text || "").replace(/\b[Ss]eat (\d+)/g, (m, s) => name(Number(s)));

  // The game's own words for its codes: its module's `summary` hook (games/<game>/site/table.js:
  // kinds, parts, notes, rows). Each is given `w`: the summary, the seat whose parts these are,
  // and the words above. Read when a summary is drawn: the core picks the game's hooks once the
  // page is parsed, after this file ran.
  const own = () => M.hooks().summary || {};
  const wordsFor = (summary, seat) => ({ summary, seat, name, names, cards, num, sgn, suitWords });

  // A part in words: its line in the list, and its short label in the formula.
  function partWords(p, summary, seat) {
    const words = (own().parts || {})[p.code];
    return words ? words(p, wordsFor(summary, seat)) : [engineText(p.text), ""];
  }

  function noteWords(n, summary) {
    const words = (own().notes || {})[n.code];
    return words ? words(n, wordsFor(summary, null)) : engineText(n.text);
  }

  const rowWords = (r) => (own().rows || {})[r.code] || engineText(r.text);

  // The parts as one line of arithmetic: "(87 card points + 10 skat) × 2 (1 push) ÷ 10 = 19".
  function formula(parts, summary, seat) {
    if (parts.length === 1 && !parts[0].op) return partWords(parts[0], summary, seat)[0];
    let expr = "";
    let terms = 0;
    for (const p of parts) {
      const { op } = p;
      const label = partWords(p, summary, seat)[1];
      if (op) {
        if (terms > 1) expr = `(${expr})`;
        const sign = op.times !== undefined ? `× ${num(op.times)}` : `÷ ${op.divide}`;
        expr += `${expr ? " " : ""}${sign}${label ? ` (${label})` : ""}`;
        terms = 1;
      } else if (p.value !== 0 || (!terms && p === parts[parts.length - 1])) {
        const term = p.value === 0 ? label || "0" : label ? `${Math.abs(p.value)} ${label}` : String(Math.abs(p.value));
        expr = terms ? `${expr} ${p.value < 0 ? "−" : "+"} ${term}` : `${p.value < 0 ? "−" : ""}${term}`;
        terms += 1;
      }
    }
    return expr || "0";
  }

  // Each part as a step of the running figure: a part without an `op` adds its `value`; a part
  // with one applies it to the figure so far (÷ drops the fraction towards zero, as the engines
  // do). So a multiplication reads "× 4 → 304", never as the points it happens to add.
  function steps(parts) {
    let running = 0;
    return parts.map((p) => {
      const op = p.op || null;
      if (op && op.times !== undefined) running *= op.times;
      else if (op && op.divide !== undefined) running = Math.trunc(running / op.divide);
      else running += p.value;
      running += 0; // no −0
      return { op, value: p.value, after: running };
    });
  }

  // A step's figure in the list: "+ 64", "− 306", "0", or "× 4 → 304", "÷ 10 → 30".
  function stepText(step) {
    const { op } = step;
    if (!op) return step.value === 0 ? "0" : minus(step.value);
    const sign = op.times !== undefined ? `× ${num(op.times)}` : `÷ ${op.divide}`;
    return `${sign} → ${num(step.after)}`;
  }

  // ------------------------------------------------------------------ the dialog
  function partList(parts, summary, seat) {
    const figures = steps(parts);
    return h(
      "ol",
      { class: "ds-parts" },
      parts.map((p, i) => {
        const step = figures[i];
        return h(
          "li",
          { dataset: { code: p.code, step: step.op ? "op" : "add", after: String(step.after) } },
          h("span", { class: "ds-part-text" }, partWords(p, summary, seat)[0]),
          h("span", { class: "ds-part-value", title: step.op ? gettext("the figure after this step") : null }, stepText(step)),
        );
      }),
    );
  }

  function seatBlock(summary, entry) {
    const s = entry.seat;
    const me = s === cfg.seat;
    if (summary.sitter === s) {
      // A table of four: the dealer sat this deal out (score and payout 0, nothing to explain).
      return h("article", { class: `ds-seat ds-sitter${me ? " me" : ""}`, dataset: { seat: String(s), scoreTotal: "0", payoutTotal: "0" } }, h("h3", null, h("span", { class: "ds-name" }, me ? M.who(s) : name(s)), h("span", { class: "ds-totals" }, gettext("sat out this deal"))));
    }
    const score = entry.score;
    const payout = entry.payout;
    return h(
      "article",
      { class: `ds-seat${me ? " me" : ""}`, dataset: { seat: String(s), scoreTotal: String(score.total), payoutTotal: String(payout.total) } },
      h("h3", null, h("span", { class: "ds-name" }, me ? M.who(s) : name(s)), h("span", { class: "ds-totals" }, fmt(gettext("score %(score)s · payout %(payout)s"), { score: num(score.total), payout: sgn(payout.total) }))),
      h("p", { class: "ds-formula", dataset: { formula: "score" } }, h("span", { class: "ds-label" }, `${gettext("Score")}: `), `${formula(score.parts, summary, s)} = ${num(score.total)} ${unit}`),
      partList(score.parts, summary, s),
      h("p", { class: "ds-formula", dataset: { formula: "payout" } }, h("span", { class: "ds-label" }, `${gettext("Payout")}: `), `${formula(payout.parts, summary, s)} = ${sgn(payout.total)}`),
      partList(payout.parts, summary, s),
    );
  }

  function factsTable(summary) {
    const rows = summary.table || [];
    if (!rows.length) return null;
    const n = summary.scores.length;
    const seats = Array.from({ length: n }, (_, s) => s);
    return h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "scores ds-facts" },
        h("thead", null, h("tr", null, h("th", null, ""), seats.map((s) => h("th", { class: s === cfg.seat ? "me" : null }, name(s))))),
        h(
          "tbody",
          null,
          rows.map((r) => h("tr", { dataset: { row: r.code } }, h("th", { scope: "row" }, rowWords(r)), r.values.map((v, s) => h("td", { dataset: { seat: String(s) } }, v === null ? "—" : String(v))))),
        ),
      ),
    );
  }

  // The whole summary of a deal as a node (the dialog's body, and the replay's panel).
  function body(summary) {
    const kind = (own().kinds || {})[summary.kind];
    return h(
      "div",
      { class: "ds-body", dataset: { deal: String(summary.deal), kind: summary.kind } },
      h("p", { class: "ds-kind" }, `${kind ? `${M.cap(kind)} · ` : ""}${summary.sitter === undefined ? fmt(gettext("%(name)s dealt"), { name: name(summary.dealer) }) : fmt(gettext("%(name)s dealt and sat out"), { name: name(summary.dealer) })}`),
      summary.notes.length ? h("ul", { class: "ds-notes" }, summary.notes.map((n) => h("li", { dataset: { code: n.code } }, noteWords(n, summary)))) : null,
      factsTable(summary),
      h("div", { class: "ds-seats" }, summary.seats.map((entry) => seatBlock(summary, entry))),
      legend.winner ? h("p", { class: "ds-winner muted" }, legend.winner) : null,
    );
  }

  function dialogNode() {
    let node = document.getElementById("deal-summary");
    if (node) return node;
    node = h("div", { id: "deal-summary", class: "ds-backdrop", hidden: true, onclick: (e) => e.target === node && close() });
    document.body.append(node);
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && open) close();
    });
    return node;
  }

  // `timed`: the summary of the deal that just ended, shown by itself. To a seated person it
  // holds their first clock of the next deal (docs/tables.md, "End of a deal"): it stays until
  // they press "Next deal" (or Escape), which tells the server (`M.ready`), and says when the
  // clock starts anyway (the cap); a spectator's closes by itself after the cap.
  function show(summary, timed) {
    const node = dialogNode();
    // The match's last deal has no next deal: nothing to hold, and the button just closes.
    const holds = timed && !matchOver && cfg.seat !== null && cfg.seat !== undefined;
    // By the day the next move may be days away: no countdown, the summary waits for the person.
    const counted = timed && SECONDS > 0 && !cfg.turnBased;
    open = { deal: summary.deal, holds, until: counted ? performance.now() + SECONDS * 1000 : 0 };
    fill(
      node,
      h(
        "section",
        { class: "ds", role: "dialog", "aria-modal": "true", "aria-labelledby": "ds-title" },
        h(
          "header",
          { class: "ds-head" },
          h("h2", { id: "ds-title" }, fmt(gettext("Deal %(n)s is over"), { n: summary.deal + 1 })),
          h("button", { type: "button", id: "ds-close", class: "ds-x", "aria-label": gettext("Close the summary"), onclick: close }, "×"),
        ),
        body(summary),
        h(
          "footer",
          { class: "ds-foot" },
          h("span", { id: "ds-countdown", class: "muted" }),
          h("button", { type: "button", id: "ds-ok", onclick: close }, holds ? gettext("Next deal") : gettext("Close")),
        ),
      ),
    );
    node.hidden = false;
    clearInterval(ticker);
    ticker = setInterval(countdown, 250);
    countdown();
    const ok = document.getElementById("ds-ok");
    if (ok) ok.focus({ preventScroll: true });
  }

  function countdown() {
    if (!open) return;
    const label = document.getElementById("ds-countdown");
    if (!open.until) {
      if (label) label.textContent = "";
      return;
    }
    const left = Math.ceil((open.until - performance.now()) / 1000);
    if (open.holds) {
      // Past the cap the person's clock runs behind the summary: said loudly, not in grey.
      if (label) {
        label.textContent = left > 0 ? fmt(gettext("Your clock waits until you go on (at most %(left)s s)."), { left }) : gettext("Your clock is running.");
        label.classList.toggle("ds-running", left <= 0);
      }
      return;
    }
    if (left <= 0) {
      close();
      return;
    }
    if (label) label.textContent = fmt(gettext("Closes in %(left)s s"), { left });
  }

  function close() {
    const node = document.getElementById("deal-summary");
    if (node) node.hidden = true;
    if (open && open.holds && M.ready) M.ready(open.deal + 1); // ready for the next deal
    open = null;
    clearInterval(ticker);
    ticker = null;
  }

  // A past deal's summary: seen in a state, or fetched from the table's summary.json.
  function summaryOf(k) {
    if (known.has(k)) return Promise.resolve(known.get(k));
    if (!cfg.summaryUrl) return Promise.reject(new Error("no summary here"));
    if (!fetching.has(k)) {
      const query = new URLSearchParams({ deal: String(k) });
      if (token) query.set("token", token);
      const promise = fetch(`${cfg.summaryUrl}?${query}`, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then((r) => {
          if (!r.ok) throw new Error(`HTTP ${r.status}`);
          return r.json();
        })
        .then((data) => {
          known.set(k, data);
          return data;
        })
        .finally(() => fetching.delete(k));
      fetching.set(k, promise);
    }
    return fetching.get(k);
  }

  function reopen(k) {
    summaryOf(k).then(
      (summary) => show(summary, false),
      () => M.render && M.render(),
    );
  }

  // ------------------------------------------------------------------ the Match table
  function decorateMatch() {
    const box = document.getElementById("match-scores");
    if (!box) return;
    for (const tr of box.querySelectorAll("tr[data-deal]")) {
      const k = Number(tr.dataset.deal);
      const th = tr.querySelector("th");
      if (!th || th.querySelector("button")) continue;
      const label = th.textContent;
      fill(th, h("button", { type: "button", class: "ds-open", dataset: { summaryDeal: String(k) }, title: gettext("How this deal was scored"), "aria-label": fmt(gettext("%(deal)s: how it was scored"), { deal: label }), onclick: () => reopen(k) }, label, h("span", { class: "ds-i", "aria-hidden": "true" }, "▸")));
      tr.classList.add("ds-row");
      tr.addEventListener("click", (e) => {
        if (!e.target.closest("button")) reopen(k);
      });
    }
    const note = document.getElementById("match-note");
    if (note && !note.dataset.legend && (legend.score || legend.payout)) {
      note.dataset.legend = "1";
      fill(
        note,
        h("span", null, gettext("Per deal: payout (score) — tap a deal for how it was scored.")),
        h("span", { class: "ds-legend", id: "match-legend" }, [legend.score, legend.payout, legend.winner].filter(Boolean).map((t) => h("span", { class: "ds-legend-line" }, t))),
      );
    }
  }

  // ------------------------------------------------------------------ the hook
  function onRender(state, view) {
    matchOver = state.status !== "playing";
    decorateMatch();
    if (cfg.replay) return;
    const last = view.last_deal;
    const summary = last && last.summary;
    if (summary) known.set(summary.deal, summary);
    const k = summary ? summary.deal : -1;
    if (lastSeen === null) {
      // The first state: a deal that has just ended (its summary rides along until the next
      // deal's first action) is shown, unless the match was already over when the page opened.
      lastSeen = k;
      if (summary && state.status === "playing" && SECONDS > 0) show(summary, true);
      return;
    }
    if (summary && k > lastSeen) {
      lastSeen = k;
      if (SECONDS > 0) show(summary, true); // 0: the setting turns the automatic summary off
    }
  }

  M.onRender(onRender);
  M.summary = { body, steps, show: (summary) => show(summary, false), close };

  // For the browser tests and the curious.
  window.medianaSummary = {
    open: () => (open ? { deal: open.deal, timed: Boolean(open.until), holds: open.holds } : null),
    close,
    reopen,
    steps,
  };
})(window.Mediana);
