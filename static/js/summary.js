// The end of a deal at the browser table (docs/tables.md, "End of a deal"): the summary of the
// deal that just ended, shown over the new deal until the player closes it or
// `cfg.summarySeconds` pass; any past deal's summary from the Match table's rows; the legend of
// the Match table's figures. Loaded after static/js/table.js and the game's module; it hooks
// into the core with `Mediana.onRender` and holds no rules: every figure comes from the
// engine's `deal_summary` (the state's `view.last_deal.summary`, or `cfg.summaryUrl?deal=K`),
// worded here in the page's language from its stable codes and figures (the djangojs catalog,
// docs/translations.md; an unknown code shows the engine's own English line).
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

  // ------------------------------------------------------------------ words
  // In the page's language (the djangojs catalog through table.js: M.gettext, M.fmt…).
  const { gettext, ngettext, pgettext, fmt } = M;
  const name = (s) => M.seatName(s);
  const names = (list) => {
    const all = (list || []).map(name);
    return all.length === 2 ? fmt(gettext("%(a)s and %(b)s"), { a: all[0], b: all[1] }) : all.join(", ");
  };
  const cards = (list) => (list || []).map(M.cardText).join(" ");
  const times = (n) => fmt(ngettext("%(n)s time", "%(n)s times", n), { n });
  // Numbers with a real minus sign: a step's change ("+ 64", "− 306"), a figure, a payout.
  const minus = (n) => (n < 0 ? `− ${-n}` : `+ ${n}`);
  const num = (n) => (n < 0 ? `−${-n}` : String(n));
  const sgn = (n) => (n > 0 ? `+${n}` : num(n));
  // Mediatore's contracts keep their Italian names in every language.
  const CONTRACT = {
    chiamo: "Chiamo",
    mediatore: "Mediatore",
    solo: "Solo",
    solissimo: "Solissimo",
    arcisolissimo: "Arcisolissimo",
  };
  const contract = (c) => CONTRACT[c] || M.cap(String(c || ""));
  const ROLE = {
    dealer: gettext("the dealer"),
    left: gettext("left of the dealer"),
    right: gettext("right of the dealer"),
    declarer: gettext("the declarer"),
    partner: gettext("the partner"),
    giver: gettext("the giver"),
    defender: gettext("a defender"),
  };
  const role = (r) => ROLE[r] || r;
  // How a deal went (the summary's `kind`), for the title.
  const KIND = {
    thrown_in: gettext("thrown in: everybody passed"),
    normal: gettext("Ramsch"),
    jungfrau: gettext("Ramsch with a Jungfrau"),
    durchmarsch: gettext("Ramsch: a Durchmarsch"),
    even: gettext("Ramsch: all three even"),
    grand_hand: gettext("a Grand Hand"),
    ...CONTRACT,
  };
  const suitWords = (suit) => `${M.deck().glyph[suit] || suit} ${M.deck().suit[suit] || suit}`;
  // An engine line with its seat numbers as names (for a code this file does not word).
  const engineText = (text) => String(text || "").replace(/\b[Ss]eat (\d+)/g, (m, s) => name(Number(s)));

  // What a part does to the running figure: add its value (most), or multiply / divide it.
  function opOf(p) {
    switch (p.code) {
      case "pushes":
        return { times: p.multiplier };
      case "jungfrau":
      case "kontra":
      case "re":
        return { times: 2 };
      case "grand_won":
        return { times: -1 };
      case "grand_lost":
        return p.factor > 1 ? { times: p.factor } : null;
      case "divisor":
        return { divide: p.divisor };
      case "whole_points":
        return { divide: 3 };
      default:
        return null;
    }
  }

  // A part in words: its line in the list, and its short label in the formula.
  function partWords(p, summary, seat) {
    const pushes = p.multiplier ? Math.round(Math.log2(p.multiplier)) : 0;
    switch (p.code) {
      // Saichugen
      case "round_banked":
        return [fmt(gettext("Round %(n)s: %(points)s (%(cards)s), the median: banked"), { n: p.round + 1, points: p.points, cards: cards(p.cards) || gettext("no trick") }), fmt(gettext("(round %(n)s)"), { n: p.round + 1 })];
      case "round_not_banked":
        return [fmt(gettext("Round %(n)s: %(points)s (%(cards)s), not the median %(median)s: nothing banked"), { n: p.round + 1, points: p.points, cards: cards(p.cards) || gettext("no trick"), median: p.median }), fmt(gettext("(round %(n)s)"), { n: p.round + 1 })];
      case "median_alone":
        return [fmt(gettext("Game score %(score)s is the median, alone"), { score: p.score }), gettext("median alone")];
      case "median_shared":
        return [fmt(gettext("Game score %(score)s shares the median"), { score: p.score }), gettext("median, shared")];
      case "off_median":
        return [fmt(gettext("Game score %(score)s is not the median %(median)s"), { score: p.score, median: p.median }), gettext("off the median")];
      case "all_equal":
        return [gettext("All three game scores are equal"), gettext("all equal")];
      case "raw_own":
        return [fmt(gettext("3 × the game score %(score)s"), { score: p.score }), gettext("3 × game score")];
      case "raw_field":
        return [fmt(gettext("less the three game scores (%(total)s)"), { total: p.total }), gettext("all three")];
      // 3-5-8
      case "tricks":
        return [fmt(ngettext("%(n)s trick taken", "%(n)s tricks taken", p.tricks), { n: p.tricks }), gettext("tricks")];
      case "target":
        return [fmt(gettext("less the target of %(target)s (%(role)s)"), { target: p.target, role: role(p.role) }), gettext("target")];
      case "thrown_in":
        return [gettext("Everybody passed: the deal is thrown in"), gettext("thrown in")];
      // Schieberamsch
      case "trick_points":
        return [fmt(ngettext("%(points)s card points in %(n)s trick", "%(points)s card points in %(n)s tricks", p.tricks), { points: p.points, n: p.tricks }), gettext("card points")];
      case "skat":
        return [fmt(gettext("the skat (%(cards)s)"), { cards: cards(p.cards) }), gettext("skat")];
      case "pushes":
        return [fmt(gettext("× %(multiplier)s: the skat was pushed %(times)s"), { multiplier: p.multiplier, times: times(pushes) }), fmt(ngettext("%(n)s push", "%(n)s pushes", pushes), { n: pushes })];
      case "jungfrau":
        return [gettext("× 2: a Jungfrau (a seat took no trick)"), gettext("Jungfrau")];
      case "divisor":
        return [fmt(gettext("÷ %(divisor)s, the fraction dropped"), { divisor: p.divisor }), ""];
      case "no_penalty":
        return [p.points === undefined ? gettext("Another seat took every trick: no penalty") : fmt(gettext("%(points)s card points: not the most, no penalty"), { points: p.points }), gettext("no penalty")];
      case "jungfrau_seat":
        return [gettext("No trick taken (the Jungfrau): no penalty"), gettext("no penalty")];
      case "even":
        return [fmt(gettext("All three took %(points)s card points: nobody scores"), { points: p.points }), gettext("even")];
      case "durchmarsch":
        return [gettext("Durchmarsch: every trick taken"), gettext("Durchmarsch")];
      case "grand_value": {
        const extra = `${p.schneider ? `, ${pgettext("Skat", "schneider")}` : ""}${p.schwarz ? `, ${pgettext("Skat", "schwarz")}` : ""}`;
        const text = p.with_matadors
          ? gettext("Grand Hand: 24 × %(levels)s (with %(matadors)s, game, hand%(extra)s)")
          : gettext("Grand Hand: 24 × %(levels)s (without %(matadors)s, game, hand%(extra)s)");
        return [fmt(text, { levels: p.levels, matadors: p.matadors, extra }), `${gettext("Grand Hand")} (24 × ${p.levels})`];
      }
      case "kontra":
        return [`× 2: ${pgettext("Skat", "kontra")}`, pgettext("Skat", "kontra")];
      case "re":
        return [`× 2: ${pgettext("Skat", "re")}`, pgettext("Skat", "re")];
      case "grand_won":
        return [fmt(gettext("Won with %(points)s card points: taken off the penalties"), { points: p.points }), gettext("won")];
      case "grand_lost":
        return [p.factor > 1 ? fmt(gettext("Lost with %(points)s card points: counts %(factor)s times"), { points: p.points, factor: p.factor }) : fmt(gettext("Lost with %(points)s card points: a penalty"), { points: p.points }), gettext("lost")];
      case "grand_opponent":
        return [fmt(gettext("Opponent of the Grand Hand of %(name)s: no penalty"), { name: name(p.declarer) }), gettext("opponent")];
      case "settle": {
        const theirs = num(summary.scores[p.seat]);
        const mine = num(summary.scores[seat]);
        const text = seat === cfg.seat
          ? fmt(gettext("%(name)s's %(theirs)s less your %(mine)s"), { name: name(p.seat), theirs, mine })
          : fmt(gettext("%(name)s's %(theirs)s less %(other)s's %(mine)s"), { name: name(p.seat), theirs, other: name(seat), mine });
        return [text, fmt(gettext("vs %(name)s"), { name: name(p.seat) })];
      }
      // Mediatore
      case "cards":
        return [fmt(gettext("Cards taken by %(name)s: %(thirds)s thirds"), { name: name(p.seat), thirds: p.thirds }), fmt(gettext("by %(name)s"), { name: name(p.seat) })];
      case "monte_last_trick":
        return [fmt(gettext("The monte (%(cards)s) and the last trick, to %(name)s: %(value)s thirds"), { cards: cards(p.cards), name: name(p.seat), value: p.value }), gettext("monte + last trick")];
      case "whole_points":
        return [fmt(gettext("%(thirds)s thirds = %(points)s points, the fraction dropped"), { thirds: p.thirds, points: p.points }), ""];
      case "stake":
        return [fmt(p.won ? gettext("%(contract)s won, as %(role)s") : gettext("%(contract)s lost, as %(role)s"), { contract: contract(p.contract), role: role(p.role) }), role(p.role)];
      case "slam":
        return [p.rule === "double" ? gettext("Slam (every trick to one side): every payment doubled") : gettext("Slam (every trick to one side): 2 more on every payment"), gettext("slam")];
      default:
        return [engineText(p.text), ""];
    }
  }

  function noteWords(n, summary) {
    switch (n.code) {
      case "payout_mode":
        return n.mode === "raw" ? gettext("Payout: 3 × the game score less the three game scores") : gettext("Payout: +2 alone on the median game score (the others −1), +1 each when two share it (the other −2)");
      case "game_scores":
        return fmt(gettext("Game scores %(scores)s: the median is %(median)s"), { scores: n.scores.map((g, s) => `${name(s)} ${g}`).join(", "), median: n.median });
      case "woburn":
        return fmt(ngettext("%(name)s won the auction: a target of %(n)s trick", "%(name)s won the auction: a target of %(n)s tricks", n.tricks), { name: name(n.seat), n: n.tricks });
      case "trump":
        return fmt(gettext("Trump: %(suit)s"), { suit: suitWords(n.suit) });
      case "targets":
        return fmt(gettext("Targets: %(targets)s (%(name)s dealt)"), { targets: n.targets.map((t, s) => `${name(s)} ${t}`).join(", "), name: name(n.dealer) });
      case "balance":
        return fmt(gettext("Balance after this hand: %(balance)s"), { balance: n.balance.map((b, s) => `${name(s)} ${sgn(b)}`).join(", ") });
      case "grand_hand":
        return fmt(gettext("Grand Hand by %(name)s: alone against the other two, the skat counting for the declarer"), { name: name(n.declarer) });
      case "declarer_points": {
        const grand = summary.notes.find((x) => x.code === "grand_hand");
        return fmt(gettext("%(name)s took %(points)s card points in %(tricks)s tricks (the skat %(cards)s included): 61 or more win"), { name: grand ? name(grand.declarer) : gettext("The declarer"), points: n.points, tricks: n.tricks, cards: cards(n.skat) });
      }
      case "skat_to":
        return fmt(gettext("The skat (%(cards)s, %(points)s card points) goes to %(names)s"), { cards: cards(n.cards), points: n.points, names: names(n.seats) });
      case "pushed":
        return n.pushes ? fmt(gettext("The skat was pushed %(times)s: every penalty × %(multiplier)s"), { times: times(n.pushes), multiplier: n.multiplier }) : gettext("The skat was never pushed");
      case "contract":
        return fmt(gettext("%(contract)s by %(name)s"), { contract: contract(n.contract), name: name(n.declarer) });
      case "called":
        return n.holder >= 0
          ? fmt(gettext("Called %(card)s: %(name)s held it"), { card: M.cardText(n.card), name: name(n.holder) })
          : fmt(gettext("Called %(card)s: it lay in the monte, so the declarer played alone"), { card: M.cardText(n.card) });
      case "outcome": {
        const args = { side: names(n.side), points: n.points, thirds: n.thirds };
        const text = n.won
          ? (n.slam ? gettext("The declarer's side (%(side)s) took %(points)s points (%(thirds)s thirds): won, a slam — 6 points make the contract") : gettext("The declarer's side (%(side)s) took %(points)s points (%(thirds)s thirds): won — 6 points make the contract"))
          : (n.slam ? gettext("The declarer's side (%(side)s) took %(points)s points (%(thirds)s thirds): lost, a slam — 6 points make the contract") : gettext("The declarer's side (%(side)s) took %(points)s points (%(thirds)s thirds): lost — 6 points make the contract"));
        return fmt(text, args);
      }
      default:
        return engineText(n.text);
    }
  }

  const ROW = {
    tricks: gettext("tricks"),
    trick_values: gettext("values of the cards won"),
    target: gettext("target"),
    trick_points: gettext("card points in tricks"),
    skat: gettext("skat"),
    card_points: gettext("card points"),
    thirds: gettext("thirds in tricks"),
    monte_last_trick: gettext("monte + last trick (thirds)"),
    side_thirds: gettext("the side's thirds"),
  };

  // The parts as one line of arithmetic: "(87 card points + 10 skat) × 2 (1 push) ÷ 10 = 19".
  function formula(parts, summary, seat) {
    if (parts.length === 1 && !opOf(parts[0])) return partWords(parts[0], summary, seat)[0];
    let expr = "";
    let terms = 0;
    for (const p of parts) {
      const op = opOf(p);
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

  // ------------------------------------------------------------------ the dialog
  function partList(parts, summary, seat) {
    return h(
      "ol",
      { class: "ds-parts" },
      parts.map((p) => {
        const op = opOf(p);
        return h(
          "li",
          { dataset: { code: p.code } },
          h("span", { class: "ds-part-text" }, partWords(p, summary, seat)[0]),
          h("span", { class: "ds-part-value", title: op ? gettext("what this step changes") : null }, p.value === 0 && !op ? "0" : minus(p.value)),
        );
      }),
    );
  }

  function seatBlock(summary, entry) {
    const s = entry.seat;
    const me = s === cfg.seat;
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
          rows.map((r) => h("tr", { dataset: { row: r.code } }, h("th", { scope: "row" }, ROW[r.code] || engineText(r.text)), r.values.map((v, s) => h("td", { dataset: { seat: String(s) } }, String(v))))),
        ),
      ),
    );
  }

  // The whole summary of a deal as a node (the dialog's body, and the replay's panel).
  function body(summary) {
    const kind = KIND[summary.kind];
    return h(
      "div",
      { class: "ds-body", dataset: { deal: String(summary.deal), kind: summary.kind } },
      h("p", { class: "ds-kind" }, `${kind ? `${M.cap(kind)} · ` : ""}${fmt(gettext("%(name)s dealt"), { name: name(summary.dealer) })}`),
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

  function show(summary, timed) {
    const node = dialogNode();
    open = { deal: summary.deal, until: timed && SECONDS > 0 ? performance.now() + SECONDS * 1000 : 0 };
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
          h("button", { type: "button", id: "ds-ok", onclick: close }, gettext("Close")),
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
    if (left <= 0) {
      close();
      return;
    }
    if (label) label.textContent = fmt(gettext("Closes in %(left)s s · the next deal's first turn has %(seconds)s s more on its clock"), { left, seconds: SECONDS });
  }

  function close() {
    const node = document.getElementById("deal-summary");
    if (node) node.hidden = true;
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
  M.summary = { body, show: (summary) => show(summary, false), close };

  // For the browser tests and the curious.
  window.medianaSummary = {
    open: () => (open ? { deal: open.deal, timed: Boolean(open.until) } : null),
    close,
    reopen,
  };
})(window.Mediana);
