// 3-5-8 at the browser table (../shared/rules/three_five_eight.md): targets of 3, 5 and 8
// tricks, the dealer names trump and discards four, then the cards given and returned between
// hands. Registers its hooks with the core, static/js/table.js.
(function (M) {
  "use strict";
  const { h, cap, signed, seatName, who, cardText, seatRow } = M;

  M.registerGame("three_five_eight", {
    // The trump suit first, then suits alternating in colour, high to low.
    sortKey(card, view) {
      const trump = view && view.trump;
      const suits = "SHCD";
      const s = M.suitOf(card) === trump ? -1 : suits.indexOf(M.suitOf(card));
      return (s + 1) * 20 + "AKQJT98765432".indexOf(M.rankOf(card));
    },
    phases: { bid: "bidding", exchange: "card exchange", trump: "the dealer names trump" },

    // The high bidder plays the dealer's part (view.dealer) without having dealt.
    seatRoles: (s, view) =>
      view.dealer === s ? [view.dealt_by !== undefined && view.dealt_by !== view.dealer ? "declarer" : "dealer"] : [],
    seatFacts: (s, view) => (view.targets ? [h("span", { title: M.hint("target") || null }, `target ${view.targets[s]}`)] : []),

    info(state, view) {
      const parts = [view.trump ? M.hinted(`trump ${M.deck().glyph[view.trump]} ${M.deck().suit[view.trump]}`, "act.trump", "info") : "no trump yet"];
      if (view.targets) parts.push(M.hinted(`targets ${view.targets.map((t, s) => `${seatName(s)} ${t}`).join(", ")}`, "target", "info"));
      return parts;
    },

    extra(state, view) {
      const parts = [];
      // The dealer's own (a replay shows them to everyone).
      // Only the dealer's own page says "you" (a spectator's seat is null, like a dealer not yet known).
      const mine = typeof state.seat === "number" && state.seat === view.dealer;
      if (view.kitty && view.kitty.cards) parts.push(M.cardRow(mine ? "Kitty you took: " : `Kitty ${seatName(view.dealer)} took: `, view.kitty.cards));
      if (view.discards && view.discards.cards && view.discards.cards.length) parts.push(M.cardRow(mine ? "Your discards: " : `${seatName(view.dealer)}'s discards: `, view.discards.cards));
      for (const p of (view.exchange && view.exchange.pending) || []) {
        parts.push(h("div", { class: "row muted" }, `Exchange: ${who(p.from)} owes ${who(p.to)} ${p.count} card${p.count === 1 ? "" : "s"}`));
      }
      return parts;
    },

    buttonLabel(entry) {
      if (entry.act === "bid") return `Bid ${entry.tricks}`;
      if (entry.act === "trump") return `${M.deck().glyph[entry.suit]} ${cap(M.deck().suit[entry.suit])}`;
      return undefined;
    },
    // The dealer's discard and the exchange's give: pick the cards, then confirm.
    choice(entry) {
      if (entry.act === "give") return M.pickCards(entry, `Give ${entry.choose} card${entry.choose === 1 ? "" : "s"} to ${who(entry.to)}`);
      if (entry.act === "discard") return M.pickCards(entry, `Discard ${entry.choose} cards face down`);
      return undefined;
    },

    dealRows(state, view) {
      const rows = [];
      rows.push(seatRow("target", view.targets || []));
      rows.push(seatRow("tricks", view.tricks_won || []));
      if (view.targets && view.tricks_won) rows.push(seatRow("vs target", view.tricks_won.map((t, s) => signed(t - view.targets[s]))));
      rows.push(seatRow("running balance", (view.cum || []).map(signed), { class: "total" }));
      return rows;
    },

    log(state, view) {
      const lines = [];
      for (const b of view.bids || []) lines.push(b.act === "pass" ? `${seatName(b.seat)} passes` : `${seatName(b.seat)} bids ${b.tricks}`);
      for (const p of (view.exchange && view.exchange.passes) || []) {
        let line = `${seatName(p.from)} gives ${p.count} card${p.count === 1 ? "" : "s"} to ${seatName(p.to)}`;
        if (p.cards) line += ` (${p.cards.map(cardText).join(" ")}), gets back ${p.returned.map(cardText).join(" ")}`;
        lines.push(line);
      }
      if (view.trump) lines.push(`${seatName(view.dealer)} names ${M.deck().suit[view.trump]} trump`);
      if (view.discards && view.discards.count) lines.push(`${seatName(view.dealer)} discards ${view.discards.count} cards${view.discards.cards ? ` (${view.discards.cards.map(cardText).join(" ")})` : ""}`);
      if (view.kitty && view.kitty.taken) lines.push(`${seatName(view.dealer)} takes the kitty`);
      (view.played || []).forEach((t, i) => lines.push(M.trickLine(t, i)));
      return lines;
    },
  });
})(window.Mediana);
