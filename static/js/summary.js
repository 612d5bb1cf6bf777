// The end of a deal at the browser table (docs/tables.md, "End of a deal"): the summary of the
// deal that just ended, shown over the new deal until the player closes it or
// `cfg.summarySeconds` pass; any past deal's summary from the Match table's rows; the legend of
// the Match table's figures. Loaded after static/js/table.js and the game's module; it hooks
// into the core with `Mediana.onRender` and holds no rules: every figure comes from the
// engine's `deal_summary` (the state's `view.last_deal.summary`, or `cfg.summaryUrl?deal=K`),
// worded here in English from its stable codes and figures (a catalog for other languages comes
// later; an unknown code shows the engine's own English line).
(function (M) {
  "use strict";

  const { h, fill, cfg } = M;
  const token = new URLSearchParams(window.location.search).get("token");
  const SECONDS = Number.isFinite(cfg.summarySeconds) ? cfg.summarySeconds : 20;
  const legend = cfg.legend || {};
  const unit = legend.unit || "points";

  const known = new Map(); // deal -> summary (seen in a state, or fetched)
  const fetching = new Map(); // deal -> Promise
  let lastSeen = null; // the newest deal whose summary this page has seen (null: no state yet)
  let open = null; // {deal, until (performance.now() ms) or 0 when opened by hand}
  let ticker = null;

  // ------------------------------------------------------------------ words
  const name = (s) => M.seatName(s);
  const names = (list) => (list || []).map(name).join(" and ");
  const cards = (list) => (list || []).map(M.cardText).join(" ");
  const times = (n) => `${n} time${n === 1 ? "" : "s"}`;
  // Numbers with a real minus sign: a step's change ("+ 64", "− 306"), a figure, a payout.
  const minus = (n) => (n < 0 ? `− ${-n}` : `+ ${n}`);
  const num = (n) => (n < 0 ? `−${-n}` : String(n));
  const sgn = (n) => (n > 0 ? `+${n}` : num(n));
  const CONTRACT = {
    chiamo: "Chiamo",
    mediatore: "Mediatore",
    solo: "Solo",
    solissimo: "Solissimo",
    arcisolissimo: "Arcisolissimo",
  };
  const contract = (c) => CONTRACT[c] || M.cap(String(c || ""));
  const ROLE = {
    dealer: "the dealer",
    left: "left of the dealer",
    right: "right of the dealer",
    declarer: "the declarer",
    partner: "the partner",
    giver: "the giver",
    defender: "a defender",
  };
  // How a deal went (the summary's `kind`), for the title.
  const KIND = {
    thrown_in: "thrown in: everybody passed",
    normal: "Ramsch",
    jungfrau: "Ramsch with a Jungfrau",
    durchmarsch: "Ramsch: a Durchmarsch",
    even: "Ramsch: all three even",
    grand_hand: "a Grand Hand",
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
        return [`Round ${p.round + 1}: ${p.points} (${cards(p.cards) || "no trick"}), the median: banked`, `(round ${p.round + 1})`];
      case "round_not_banked":
        return [`Round ${p.round + 1}: ${p.points} (${cards(p.cards) || "no trick"}), not the median ${p.median}: nothing banked`, `(round ${p.round + 1})`];
      case "median_alone":
        return [`Game score ${p.score} is the median, alone`, "median alone"];
      case "median_shared":
        return [`Game score ${p.score} shares the median`, "median, shared"];
      case "off_median":
        return [`Game score ${p.score} is not the median ${p.median}`, "off the median"];
      case "all_equal":
        return ["All three game scores are equal", "all equal"];
      case "raw_own":
        return [`3 × the game score ${p.score}`, "3 × game score"];
      case "raw_field":
        return [`less the three game scores (${p.total})`, "all three"];
      // 3-5-8
      case "tricks":
        return [`${p.tricks} tricks taken`, "tricks"];
      case "target":
        return [`less the target of ${p.target} (${ROLE[p.role] || p.role})`, "target"];
      case "thrown_in":
        return ["Everybody passed: the deal is thrown in", "thrown in"];
      // Schieberamsch
      case "trick_points":
        return [`${p.points} card points in ${p.tricks} tricks`, "card points"];
      case "skat":
        return [`the skat (${cards(p.cards)})`, "skat"];
      case "pushes":
        return [`× ${p.multiplier}: the skat was pushed ${times(pushes)}`, `${pushes} push${pushes === 1 ? "" : "es"}`];
      case "jungfrau":
        return ["× 2: a Jungfrau (a seat took no trick)", "Jungfrau"];
      case "divisor":
        return [`÷ ${p.divisor}, the fraction dropped`, ""];
      case "no_penalty":
        return [p.points === undefined ? "Another seat took every trick: no penalty" : `${p.points} card points: not the most, no penalty`, "no penalty"];
      case "jungfrau_seat":
        return ["No trick taken (the Jungfrau): no penalty", "no penalty"];
      case "even":
        return [`All three took ${p.points} card points: nobody scores`, "even"];
      case "durchmarsch":
        return ["Durchmarsch: every trick taken", "Durchmarsch"];
      case "grand_value": {
        const extra = `${p.schneider ? ", schneider" : ""}${p.schwarz ? ", schwarz" : ""}`;
        return [`Grand Hand: 24 × ${p.levels} (${p.with_matadors ? "with" : "without"} ${p.matadors}, game, hand${extra})`, `Grand Hand (24 × ${p.levels})`];
      }
      case "kontra":
        return ["× 2: kontra", "kontra"];
      case "re":
        return ["× 2: re", "re"];
      case "grand_won":
        return [`Won with ${p.points} card points: taken off the penalties`, "won"];
      case "grand_lost":
        return [`Lost with ${p.points} card points${p.factor > 1 ? `: counts ${p.factor} times` : ": a penalty"}`, "lost"];
      case "grand_opponent":
        return [`Opponent of ${name(p.declarer)}'s Grand Hand: no penalty`, "opponent"];
      case "settle": {
        const theirs = num(summary.scores[p.seat]);
        const mine = num(summary.scores[seat]);
        const whose = seat === cfg.seat ? "your" : `${name(seat)}'s`;
        return [`${name(p.seat)}'s ${theirs} less ${whose} ${mine}`, `vs ${name(p.seat)}`];
      }
      // Mediatore
      case "cards":
        return [`Cards taken by ${name(p.seat)}: ${p.thirds} thirds`, `by ${name(p.seat)}`];
      case "monte_last_trick":
        return [`The monte (${cards(p.cards)}) and the last trick, to ${name(p.seat)}: ${p.value} thirds`, "monte + last trick"];
      case "whole_points":
        return [`${p.thirds} thirds = ${p.points} points, the fraction dropped`, ""];
      case "stake":
        return [`${contract(p.contract)} ${p.won ? "won" : "lost"}, as ${ROLE[p.role] || p.role}`, ROLE[p.role] || p.role];
      case "slam":
        return [`Slam (every trick to one side): ${p.rule === "double" ? "every payment doubled" : "2 more on every payment"}`, "slam"];
      default:
        return [engineText(p.text), ""];
    }
  }

  function noteWords(n, summary) {
    switch (n.code) {
      case "payout_mode":
        return n.mode === "raw" ? "Payout: 3 × the game score less the three game scores" : "Payout: +2 alone on the median game score (the others −1), +1 each when two share it (the other −2)";
      case "game_scores":
        return `Game scores ${n.scores.map((g, s) => `${name(s)} ${g}`).join(", ")}: the median is ${n.median}`;
      case "woburn":
        return `${name(n.seat)} won the auction: a target of ${n.tricks} tricks`;
      case "trump":
        return `Trump: ${suitWords(n.suit)}`;
      case "targets":
        return `Targets: ${n.targets.map((t, s) => `${name(s)} ${t}`).join(", ")} (${name(n.dealer)} dealt)`;
      case "balance":
        return `Balance after this hand: ${n.balance.map((b, s) => `${name(s)} ${sgn(b)}`).join(", ")}`;
      case "grand_hand":
        return `Grand Hand by ${name(n.declarer)}: alone against the other two, the skat counting for the declarer`;
      case "declarer_points": {
        const grand = summary.notes.find((x) => x.code === "grand_hand");
        return `${grand ? name(grand.declarer) : "The declarer"} took ${n.points} card points in ${n.tricks} tricks (the skat ${cards(n.skat)} included): 61 or more win`;
      }
      case "skat_to":
        return `The skat (${cards(n.cards)}, ${n.points} card points) goes to ${names(n.seats)}`;
      case "pushed":
        return n.pushes ? `The skat was pushed ${times(n.pushes)}: every penalty × ${n.multiplier}` : "The skat was never pushed";
      case "contract":
        return `${contract(n.contract)} by ${name(n.declarer)}`;
      case "called":
        return `Called ${M.cardText(n.card)}: ${n.holder >= 0 ? `${name(n.holder)} held it` : "it lay in the monte, so the declarer played alone"}`;
      case "outcome":
        return `The declarer's side (${names(n.side)}) took ${n.points} points (${n.thirds} thirds): ${n.won ? "won" : "lost"}${n.slam ? ", a slam" : ""} — 6 points make the contract`;
      default:
        return engineText(n.text);
    }
  }

  const ROW = {
    tricks: "tricks",
    trick_values: "values of the cards won",
    target: "target",
    trick_points: "card points in tricks",
    skat: "skat",
    card_points: "card points",
    thirds: "thirds in tricks",
    monte_last_trick: "monte + last trick (thirds)",
    side_thirds: "the side's thirds",
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
          h("span", { class: "ds-part-value", title: op ? "what this step changes" : null }, p.value === 0 && !op ? "0" : minus(p.value)),
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
      h("h3", null, h("span", { class: "ds-name" }, me ? `${name(s)} (you)` : name(s)), h("span", { class: "ds-totals" }, `score ${num(score.total)} · payout ${sgn(payout.total)}`)),
      h("p", { class: "ds-formula", dataset: { formula: "score" } }, h("span", { class: "ds-label" }, "Score: "), `${formula(score.parts, summary, s)} = ${num(score.total)} ${unit}`),
      partList(score.parts, summary, s),
      h("p", { class: "ds-formula", dataset: { formula: "payout" } }, h("span", { class: "ds-label" }, "Payout: "), `${formula(payout.parts, summary, s)} = ${sgn(payout.total)}`),
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
      h("p", { class: "ds-kind" }, `${kind ? `${M.cap(kind)} · ` : ""}${name(summary.dealer)} dealt`),
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
          h("h2", { id: "ds-title" }, `Deal ${summary.deal + 1} is over`),
          h("button", { type: "button", id: "ds-close", class: "ds-x", "aria-label": "Close the summary", onclick: close }, "×"),
        ),
        body(summary),
        h(
          "footer",
          { class: "ds-foot" },
          h("span", { id: "ds-countdown", class: "muted" }),
          h("button", { type: "button", id: "ds-ok", onclick: close }, "Close"),
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
    if (label) label.textContent = `Closes in ${left} s · the next deal's first turn has ${SECONDS} s more on its clock`;
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
      fill(th, h("button", { type: "button", class: "ds-open", dataset: { summaryDeal: String(k) }, title: "How this deal was scored", "aria-label": `${label}: how it was scored`, onclick: () => reopen(k) }, label, h("span", { class: "ds-i", "aria-hidden": "true" }, "▸")));
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
        h("span", null, "Per deal: payout (score) — tap a deal for how it was scored."),
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
