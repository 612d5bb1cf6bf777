// Saichugen at the browser table (../shared/rules/saichugen.md): everyone commits a card face
// down at once; the middle card takes the trick. Registers its hooks with the core, table.js.
(function (M) {
  "use strict";
  const { h, seatName, cardText, seatRow, gettext, pgettext, fmt } = M;

  M.registerGame("saichugen", {
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
        cards: t.cards.map((card, seat) => ({ seat, card })),
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
        const cards = t.cards.map((c, s) => `${seatName(s)} ${cardText(c)}`).join(", ");
        lines.push(fmt(gettext("Round %(n)s: %(cards)s → %(name)s takes %(value)s"), { n: t.round + 1, cards, name: seatName(t.winner), value: t.value }));
        const r = (view.rounds || [])[t.round];
        const endOfRound = i === tricks.length - 1 || tricks[i + 1].round !== t.round;
        if (r && endOfRound) {
          const banked = r.banked.map((b, s) => (b ? `${seatName(s)} ${b}` : null)).filter(Boolean);
          const scores = r.scores.join(" / ");
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
