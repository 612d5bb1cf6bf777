// Saichugen at the browser table (../shared/rules/saichugen.md): everyone commits a card face
// down at once; the middle card takes the trick. Registers its hooks with the core, table.js.
(function (M) {
  "use strict";
  const { h, seatName, cardText, seatRow, gettext, pgettext, fmt } = M;

  // The end of a deal in words (static/js/summary.js words the frame): the engine's summary
  // codes (games/saichugen/engine.py, SUMMARY_CODES). A part gives [its line, its label in the
  // formula]; `w` is the summary, the seat and the words summary.js shares (name, names, cards,
  // num, sgn, suitWords).
  const SUMMARY = {
    parts: {
      round_banked: (p, w) => [fmt(gettext("Round %(n)s: %(points)s (%(cards)s), the median: banked"), { n: p.round + 1, points: p.points, cards: w.cards(p.cards) || gettext("no trick") }), fmt(gettext("(round %(n)s)"), { n: p.round + 1 })],
      round_not_banked: (p, w) => [fmt(gettext("Round %(n)s: %(points)s (%(cards)s), not the median %(median)s: nothing banked"), { n: p.round + 1, points: p.points, cards: w.cards(p.cards) || gettext("no trick"), median: p.median }), fmt(gettext("(round %(n)s)"), { n: p.round + 1 })],
      median_alone: (p) => [fmt(gettext("Game score %(score)s is the median, alone"), { score: p.score }), gettext("median alone")],
      median_shared: (p) => [fmt(gettext("Game score %(score)s shares the median"), { score: p.score }), gettext("median, shared")],
      off_median: (p) => [fmt(gettext("Game score %(score)s is not the median %(median)s"), { score: p.score, median: p.median }), gettext("off the median")],
      all_equal: () => [gettext("All three game scores are equal"), gettext("all equal")],
      raw_own: (p) => [fmt(gettext("3 × the game score %(score)s"), { score: p.score }), gettext("3 × game score")],
      raw_field: (p) => [fmt(gettext("less the three game scores (%(total)s)"), { total: p.total }), gettext("all three")],
    },
    notes: {
      payout_mode: (n) => (n.mode === "raw" ? gettext("Payout: 3 × the game score less the three game scores") : gettext("Payout: +2 alone on the median game score (the others −1), +1 each when two share it (the other −2)")),
      // The three who played (at a table of four the sitter has no game score).
      game_scores: (n, w) => fmt(gettext("Game scores %(scores)s: the median is %(median)s"), { scores: n.scores.map((g, s) => (s === w.summary.sitter ? null : `${w.name(s)} ${g}`)).filter((x) => x !== null).join(", "), median: n.median }),
    },
    rows: { tricks: gettext("tricks"), trick_values: gettext("values of the cards won") },
  };
  // Why a card is refused, beyond the core's common reasons (table.js words those).
  const REASONS = {
    already_committed: () => gettext("You have already committed a card to this trick."),
  };

  M.registerGame("saichugen", {
    acts: { commit: () => pgettext("act", "commit") },
    reasons: REASONS,
    summary: SUMMARY,
    // The strength order itself (A lowest; equal ranks C < D < H < S).
    sortKey: (card) => "A23456789TJQK".indexOf(M.rankOf(card)) * 4 + "CDHS".indexOf(M.suitOf(card)),
    phases: { commit: pgettext("phase", "everyone commits a card face down") },
    // The seats commit on the same seq: another seat's commit leaves the decision as it was.
    decision: (view) => [view.deal, view.round, view.trick],

    seatFacts: (s, view) => (view.game_scores ? [h("span", { title: M.hint("game_score") || null }, fmt(gettext("game %(score)s"), { score: view.game_scores[s] }))] : []),
    seatStatus(s, state, view) {
      if (state.status !== "playing" || !view.committed) return undefined;
      return view.committed[s]
        ? h("span", { class: "committed", dataset: { committed: "1" }, title: M.hint("act.commit") || null }, `✓ ${gettext("committed")}`)
        : h("span", { class: "thinking" }, gettext("choosing…"));
    },

    info: (state, view) =>
      state.status !== "finished" ? [M.hinted(fmt(gettext("round %(n)s of %(m)s"), { n: view.round + 1, m: 5 }), "round", "info"), M.hinted(fmt(gettext("trick %(n)s of %(m)s"), { n: view.trick + 1, m: 3 }), "trick", "info")] : [],

    // The commits so far, face down (your own face up; all of them in a replay, whose full
    // view has each seat's own `my_commit` under `private`).
    currentTrick(state, view) {
      const cards = [];
      if (state.status === "playing") {
        (view.committed || []).forEach((done, s) => {
          const known = view.private && view.private[s] ? view.private[s].my_commit : null;
          if (done) cards.push({ seat: s, card: known || (s === state.seat && view.my_commit ? view.my_commit : null) });
        });
      }
      return M.trickSlots(cards, 0, null);
    },
    lastTrick(state, view) {
      const t = (view.tricks || [])[view.tricks.length - 1];
      if (!t) return null;
      return {
        // One card a seat, in seat order; at a table of four the sitter's is null (he sat out).
        cards: t.cards.map((card, seat) => ({ seat, card })).filter((c) => c.card !== null),
        leader: 0,
        winner: t.winner,
        note: fmt(gettext("%(name)s takes %(value)s"), { name: seatName(t.winner), value: t.value }),
      };
    },

    waitingText(state, view) {
      if (!(view.committed && view.committed[state.seat])) return undefined;
      const names = M.names(state.to_act);
      if (view.my_commit) return fmt(gettext("You committed %(card)s; waiting for %(names)s."), { card: cardText(view.my_commit), names });
      return fmt(gettext("You committed a card; waiting for %(names)s."), { names });
    },
    turnText: (state, view, groups) => (groups.plays.size ? gettext("Your turn: commit a card face down.") : undefined),

    dealRows(state, view) {
      const rows = [];
      (view.rounds || []).forEach((r, i) => {
        rows.push(seatRow(fmt(gettext("round %(n)s"), { n: i + 1 }), r.scores.map((sc, s) => (r.banked[s] ? `${sc} ✓` : `${sc}`))));
      });
      if (state.status === "playing") rows.push(seatRow(fmt(gettext("round %(n)s so far"), { n: view.round + 1 }), view.round_scores || []));
      rows.push(seatRow(gettext("game score"), view.game_scores || [], { class: "total" }));
      return rows;
    },

    log(state, view) {
      const lines = [];
      const tricks = view.tricks || [];
      tricks.forEach((t, i) => {
        const cards = t.cards.map((c, s) => (c === null ? null : `${seatName(s)} ${cardText(c)}`)).filter((c) => c !== null).join(", ");
        lines.push(fmt(gettext("Round %(n)s: %(cards)s → %(name)s takes %(value)s"), { n: t.round + 1, cards, name: seatName(t.winner), value: t.value }));
        const r = (view.rounds || [])[t.round];
        const endOfRound = i === tricks.length - 1 || tricks[i + 1].round !== t.round;
        if (r && endOfRound) {
          const banked = r.banked.map((b, s) => (b ? `${seatName(s)} ${b}` : null)).filter(Boolean);
          const scores = r.scores.filter((sc, s) => s !== view.sitter).join(" / ");
          lines.push(banked.length
            ? fmt(gettext("Round %(n)s scores %(scores)s: banked by %(names)s."), { n: t.round + 1, scores, names: banked.join(", ") })
            : fmt(gettext("Round %(n)s scores %(scores)s: banked by the median (0)."), { n: t.round + 1, scores }));
        }
      });
      if (state.status === "playing") {
        (view.committed || []).forEach((c, s) => { if (c) lines.push(fmt(gettext("%(name)s has committed a card."), { name: seatName(s) })); });
      }
      return lines;
    },
  });
})(window.Mediana);
