// Schieberamsch at the browser table (../shared/rules/schieberamsch.md): the Grand Hand offer,
// the skat picked up or pushed on, kontra and re, then Ramsch. Registers its hooks with the
// core, static/js/table.js.
(function (M) {
  "use strict";
  const { seatName, who, seatRow } = M;

  const LABELS = {
    grand_hand: "Grand Hand",
    pickup: "Pick up the skat",
    push: "Push the skat on",
    kontra: "Kontra",
    re: "Re",
  };
  const PASS = { offer: "Pass (no Grand Hand)", kontra: "No kontra", re: "No re" };

  // The deal's outcome in words, once across the seats' columns (the view's `outcome.kind` is
  // an id: `grand_hand`, `jungfrau`…), with the engine's hint on it.
  const OUTCOME = {
    normal: "Ramsch",
    even: "Ramsch, all even",
    jungfrau: "Ramsch with a Jungfrau",
    durchmarsch: "Durchmarsch",
    grand_hand: "Grand Hand",
  };
  function outcomeRow(view) {
    const o = view.outcome;
    let text = OUTCOME[o.kind] || String(o.kind || "").replace(/_/g, " ");
    if (o.kind === "grand_hand") text += `${view.declarer !== null && view.declarer !== undefined ? ` by ${seatName(view.declarer)}` : ""}${o.won === undefined ? "" : o.won ? ": won" : ": lost"}`;
    const key = o.kind === "grand_hand" ? "contract.grand_hand" : `outcome.${o.kind}`;
    return M.h(
      "tr",
      { class: "outcome-row" },
      M.h("th", { scope: "row" }, "outcome"),
      M.h("td", { colspan: String(M.cfg.players.length), class: "outcome", dataset: { outcome: o.kind } }, M.hinted ? M.hinted(text, key, "outcome") : text),
    );
  }

  M.registerGame("schieberamsch", {
    // The four jacks (the trumps) first, then the plain suits A T K Q 9 8 7.
    sortKey: (card) =>
      M.rankOf(card) === "J"
        ? "CSHD".indexOf(M.suitOf(card))
        : 10 + "CSHD".indexOf(M.suitOf(card)) * 10 + "ATKQ987".indexOf(M.rankOf(card)),
    phases: { offer: "Grand Hand offer", skat: "skat passing", kontra: "kontra?", re: "re?" },

    seatRoles(s, view) {
      const roles = view.dealer === s ? ["dealer"] : [];
      if (view.declarer === s) roles.push(M.hinted("Grand Hand", "contract.grand_hand", `seat${s}`));
      if (view.forehand === s) roles.push("forehand");
      return roles;
    },
    seatFacts: (s, view) => (view.trick_points ? [`${view.trick_points[s]} pts`] : []),

    info(state, view) {
      const parts = [
        view.contract === "grand_hand"
          ? M.h("span", null, M.hinted("Grand Hand", "contract.grand_hand", "info"), ` by ${who(view.declarer)}`)
          : M.hinted("Ramsch", "contract.ramsch", "info"),
      ];
      if (view.pushes) parts.push(M.hinted(`${view.pushes} push${view.pushes === 1 ? "" : "es"}`, "pushes", "info"));
      if (view.multiplier && view.multiplier > 1) parts.push(`×${view.multiplier}`);
      if (view.kontra) parts.push(M.hinted("kontra", "act.kontra", "info"));
      if (view.re) parts.push(M.hinted("re", "act.re", "info"));
      return parts;
    },

    extra(state, view) {
      const parts = [];
      const seen = view.skat_seen;
      if (seen) {
        if (seen.taken) parts.push(M.cardRow("Skat you picked up: ", seen.taken));
        if (seen.put) parts.push(M.cardRow("Skat you put back: ", seen.put));
      }
      // A replay's full view: what each seat saw of the skat, under `private`.
      (view.private || []).forEach((own, s) => {
        const mine = own && own.skat_seen;
        if (!mine) return;
        if (mine.taken) parts.push(M.cardRow(`Skat ${seatName(s)} picked up: `, mine.taken));
        if (mine.put) parts.push(M.cardRow(`Skat ${seatName(s)} put back: `, mine.put));
      });
      if (view.skat && view.phase === "over") parts.push(M.cardRow("Skat: ", view.skat));
      return parts;
    },

    buttonLabel: (entry, view) => (entry.act === "pass" ? PASS[view.phase] : LABELS[entry.act]),
    // Putting two cards back after picking up the skat: pick them, then confirm.
    choice: (entry) =>
      entry.act === "discard" ? M.pickCards(entry, `Discard ${entry.choose} cards face down`) : undefined,

    dealRows(state, view) {
      const rows = [];
      rows.push(seatRow("tricks", view.tricks_won || []));
      rows.push(seatRow("card points", view.trick_points || []));
      if (view.outcome) rows.push(outcomeRow(view));
      return rows;
    },

    log(state, view) {
      const lines = [];
      for (const o of view.offers || []) lines.push(o.act === "grand_hand" ? `${seatName(o.seat)} announces a Grand Hand` : `${seatName(o.seat)} passes the Grand Hand offer`);
      for (const d of view.doubles || []) lines.push(d.act === "pass" ? `${seatName(d.seat)} passes` : `${seatName(d.seat)} says ${d.act}`);
      for (const m of view.skat_moves || []) lines.push(m.act === "push" ? `${seatName(m.seat)} pushes the skat` : m.act === "pickup" ? `${seatName(m.seat)} picks up the skat` : `${seatName(m.seat)} ${m.act}`);
      (view.played || []).forEach((t, i) => lines.push(M.trickLine(t, i)));
      return lines;
    },
  });
})(window.Mediana);
