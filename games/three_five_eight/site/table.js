// 3-5-8 at the browser table (../shared/rules/three_five_eight.md): targets of 3, 5 and 8
// tricks, the dealer names trump and discards four, then the cards given and returned between
// hands. Registers its hooks with the core, static/js/table.js.
(function (M) {
  "use strict";
  const { h, cap, signed, seatName, who, cardText, seatRow, gettext, ngettext, pgettext, fmt } = M;

  // The end of a deal in words (static/js/summary.js words the frame): the engine's summary
  // codes (games/three_five_eight/engine.py, SUMMARY_CODES). A part gives [its line, its label
  // in the formula]; `w` is the summary, the seat and the words summary.js shares.
  const ROLE = { dealer: gettext("the dealer"), left: gettext("left of the dealer"), right: gettext("right of the dealer") };
  // At a table of four the dealer sits out: the three after him take the three targets.
  const ROLE_AT_FOUR = { dealer: gettext("third after the dealer, who names trump"), left: gettext("first after the dealer"), right: gettext("second after the dealer") };
  const atFour = (view) => view.sitter !== undefined && view.sitter !== null;
  const SUMMARY = {
    kinds: { thrown_in: gettext("thrown in: everybody passed") },
    parts: {
      tricks: (p) => [fmt(ngettext("%(n)s trick taken", "%(n)s tricks taken", p.tricks), { n: p.tricks }), gettext("tricks")],
      target: (p, w) => [fmt(gettext("less the target of %(target)s (%(role)s)"), { target: p.target, role: (atFour(w.summary) ? ROLE_AT_FOUR : ROLE)[p.role] || p.role }), gettext("target")],
      thrown_in: () => [gettext("Everybody passed: the deal is thrown in"), gettext("thrown in")],
    },
    notes: {
      woburn: (n, w) => fmt(ngettext("%(name)s won the auction: a target of %(n)s trick", "%(name)s won the auction: a target of %(n)s tricks", n.tricks), { name: w.name(n.seat), n: n.tricks }),
      trump: (n, w) => fmt(gettext("Trump: %(suit)s"), { suit: w.suitWords(n.suit) }),
      targets: (n, w) => fmt(gettext("Targets: %(targets)s (%(name)s dealt)"), { targets: n.targets.map((t, s) => (s === w.summary.sitter ? null : `${w.name(s)} ${t}`)).filter((x) => x !== null).join(", "), name: w.name(w.summary.sitter === undefined ? n.dealer : w.summary.sitter) }),
      balance: (n, w) => fmt(gettext("Balance after this hand: %(balance)s"), { balance: n.balance.map((b, s) => `${w.name(s)} ${w.sgn(b)}`).join(", ") }),
    },
    rows: { tricks: gettext("tricks"), target: gettext("target") },
  };
  // Why a card or an action is refused, beyond the core's common reasons (table.js words those).
  const REASONS = {
    must_follow_suit: (p) => fmt(gettext("You must follow suit: %(suit)s."), { suit: M.suitName(p.suit) }),
    wrong_recipient: (p) => fmt(gettext("Give your cards to %(name)s now."), { name: who(p.to) }),
    no_such_suit: () => gettext("Name one of the suits offered."),
    bid_out_of_range: (p) => fmt(gettext("Bid from %(min)s to %(max)s tricks."), { min: p.min, max: p.max }),
    bid_too_low: (p) => fmt(gettext("Bid higher than %(high)s."), { high: p.high }),
  };

  M.registerGame("three_five_eight", {
    acts: {
      bid: () => pgettext("act", "bid"), trump: () => pgettext("act", "name trump"), discard: () => pgettext("act", "discard"),
      give: () => pgettext("act", "give"),
    },
    reasons: REASONS,
    summary: SUMMARY,
    // The trump suit first, then suits alternating in colour, high to low.
    sortKey(card, view) {
      const trump = view && view.trump;
      const suits = "SHCD";
      const s = M.suitOf(card) === trump ? -1 : suits.indexOf(M.suitOf(card));
      return (s + 1) * 20 + "AKQJT98765432".indexOf(M.rankOf(card));
    },
    phases: { bid: pgettext("phase", "bidding"), exchange: pgettext("phase", "card exchange"), trump: (view) => (atFour(view) ? pgettext("phase", "the third after the dealer names trump") : pgettext("phase", "the dealer names trump")), discard: (view) => (atFour(view) ? pgettext("phase", "the third after the dealer discards") : pgettext("phase", "the dealer discards")) },

    // The high bidder plays the dealer's part (view.dealer) without having dealt; at a table
    // of four the dealer sits out and the third player after him plays it (names trump).
    seatRoles(s, view) {
      if (view.dealer !== s) return [];
      if (view.sitter !== undefined) return [gettext("names trump")];
      return [view.dealt_by !== undefined && view.dealt_by !== view.dealer ? gettext("declarer") : gettext("dealer")];
    },
    seatFacts: (s, view) => (view.targets ? [h("span", { title: M.hint("target") || null }, fmt(gettext("target %(n)s"), { n: view.targets[s] }))] : []),

    // The auction (the Woburn variant) on the seats: each one's bid or pass while bidding; then
    // the trump the dealer named, on the dealer's seat until play starts.
    seatBadge(s, state, view) {
      if (view.phase === "bid") {
        const b = M.lastBySeat(view.bids).get(s);
        if (!b) return null;
        return b.act === "pass" ? M.said(pgettext("auction", "Pass"), "pass") : M.said(fmt(gettext("Bid %(n)s"), { n: b.tricks }), "bid");
      }
      if (view.phase === "discard" && view.trump && view.dealer === s) {
        return M.said(fmt(gettext("%(suit)s trump"), { suit: `${M.deck().glyph[view.trump]} ${cap(M.deck().suit[view.trump])}` }), "bid");
      }
      return null;
    },

    info(state, view) {
      const parts = [view.trump ? M.hinted(fmt(gettext("trump %(suit)s"), { suit: `${M.deck().glyph[view.trump]} ${M.deck().suit[view.trump]}` }), "act.trump", "info") : gettext("no trump yet")];
      // The three who play the deal (at a table of four the sitter has no target).
      if (view.targets) parts.push(M.hinted(fmt(gettext("targets %(targets)s"), { targets: view.targets.map((t, s) => (s === view.sitter ? null : `${seatName(s)} ${t}`)).filter((x) => x !== null).join(", ") }), "target", "info"));
      return parts;
    },

    extra(state, view) {
      const parts = [];
      // The dealer's own (a replay shows them to everyone).
      // Only the dealer's own page says "you" (a spectator's seat is null, like a dealer not yet known).
      const mine = typeof state.seat === "number" && state.seat === view.dealer;
      const name = seatName(view.dealer);
      if (view.kitty && view.kitty.cards) parts.push(M.cardRow(`${mine ? gettext("Kitty you took") : fmt(gettext("Kitty %(name)s took"), { name })}: `, view.kitty.cards));
      if (view.discards && view.discards.cards && view.discards.cards.length) parts.push(M.cardRow(`${mine ? gettext("Your discards") : fmt(gettext("%(name)s's discards"), { name })}: `, view.discards.cards));
      for (const p of (view.exchange && view.exchange.pending) || []) {
        parts.push(h("div", { class: "row muted" }, fmt(ngettext("Exchange: %(from)s owes %(to)s %(n)s card", "Exchange: %(from)s owes %(to)s %(n)s cards", p.count), { from: who(p.from), to: who(p.to), n: p.count })));
      }
      return parts;
    },

    // What the buttons ask, in words (the core's default only names the acts).
    turnText(state, view, groups) {
      if (!groups.buttons.length || groups.plays.size) return undefined;
      if (view.phase === "trump") return gettext("Your turn: name the trump suit.");
      if (view.phase === "bid") return gettext("Your turn: bid how many tricks you will take, or pass.");
      return undefined;
    },
    buttonLabel(entry) {
      if (entry.act === "bid") return fmt(gettext("Bid %(n)s"), { n: entry.tricks });
      if (entry.act === "trump") return `${M.deck().glyph[entry.suit]} ${cap(M.deck().suit[entry.suit])}`;
      return undefined;
    },
    // The dealer's discard and the exchange's give: pick the cards, then confirm.
    choice(entry) {
      if (entry.act === "give") return M.pickCards(entry, fmt(ngettext("Give %(n)s card to %(name)s", "Give %(n)s cards to %(name)s", entry.choose), { n: entry.choose, name: who(entry.to) }));
      if (entry.act === "discard") return M.pickCards(entry, fmt(ngettext("Discard %(n)s card face down", "Discard %(n)s cards face down", entry.choose), { n: entry.choose }));
      return undefined;
    },

    dealRows(state, view) {
      const rows = [];
      rows.push(seatRow(gettext("target"), view.targets || []));
      rows.push(seatRow(gettext("tricks"), view.tricks_won || []));
      if (view.targets && view.tricks_won) rows.push(seatRow(gettext("vs target"), view.tricks_won.map((t, s) => signed(t - view.targets[s]))));
      rows.push(seatRow(gettext("running balance"), (view.cum || []).map(signed), { class: "total" }));
      return rows;
    },

    log(state, view) {
      const lines = [];
      for (const b of view.bids || []) lines.push(b.act === "pass" ? fmt(gettext("%(name)s passes"), { name: seatName(b.seat) }) : fmt(gettext("%(name)s bids %(n)s"), { name: seatName(b.seat), n: b.tricks }));
      for (const p of (view.exchange && view.exchange.passes) || []) {
        const args = { from: seatName(p.from), to: seatName(p.to), n: p.count };
        if (p.cards) {
          Object.assign(args, { cards: p.cards.map(cardText).join(" "), back: p.returned.map(cardText).join(" ") });
          lines.push(fmt(ngettext("%(from)s gives %(n)s card to %(to)s (%(cards)s), gets back %(back)s", "%(from)s gives %(n)s cards to %(to)s (%(cards)s), gets back %(back)s", p.count), args));
        } else {
          lines.push(fmt(ngettext("%(from)s gives %(n)s card to %(to)s", "%(from)s gives %(n)s cards to %(to)s", p.count), args));
        }
      }
      const dealer = seatName(view.dealer);
      if (view.trump) lines.push(fmt(gettext("%(name)s names %(suit)s trump"), { name: dealer, suit: M.deck().suit[view.trump] }));
      if (view.discards && view.discards.count) {
        const n = view.discards.count;
        lines.push(view.discards.cards
          ? fmt(ngettext("%(name)s discards %(n)s card (%(cards)s)", "%(name)s discards %(n)s cards (%(cards)s)", n), { name: dealer, n, cards: view.discards.cards.map(cardText).join(" ") })
          : fmt(ngettext("%(name)s discards %(n)s card", "%(name)s discards %(n)s cards", n), { name: dealer, n }));
      }
      if (view.kitty && view.kitty.taken) lines.push(fmt(gettext("%(name)s takes the kitty"), { name: dealer }));
      (view.played || []).forEach((t, i) => lines.push(M.trickLine(t, i)));
      return lines;
    },
  });
})(window.Mediana);
