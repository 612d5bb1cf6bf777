// Schieberamsch at the browser table (../shared/rules/schieberamsch.md): the Grand Hand offer,
// the skat picked up or pushed on, kontra and re, then Ramsch. Registers its hooks with the
// core, static/js/table.js.
(function (M) {
  "use strict";
  const { seatName, who, seatRow, gettext, ngettext, pgettext, fmt } = M;

  // Skat's own words (docs/translations.md): Grand Hand, Kontra, Re, Ramsch, Jungfrau…
  const LABELS = {
    grand_hand: gettext("Grand Hand"),
    pickup: gettext("Pick up the skat"),
    push: gettext("Push the skat on"),
    kontra: gettext("Kontra"),
    re: gettext("Re"),
  };
  const PASS = { offer: gettext("Pass (no Grand Hand)"), kontra: gettext("No kontra"), re: gettext("No re") };

  // The deal's outcome in words, once across the seats' columns (the view's `outcome.kind` is
  // an id: `grand_hand`, `jungfrau`…), with the engine's hint on it.
  const OUTCOME = {
    normal: gettext("Ramsch"),
    even: gettext("Ramsch, all even"),
    jungfrau: gettext("Ramsch with a Jungfrau"),
    durchmarsch: gettext("Durchmarsch"),
    grand_hand: gettext("Grand Hand"),
  };
  function outcomeRow(view) {
    const o = view.outcome;
    let text = OUTCOME[o.kind] || String(o.kind || "").replace(/_/g, " ");
    if (o.kind === "grand_hand") text += `${view.declarer !== null && view.declarer !== undefined ? ` ${fmt(gettext("by %(name)s"), { name: seatName(view.declarer) })}` : ""}${o.won === undefined ? "" : o.won ? `: ${gettext("won")}` : `: ${gettext("lost")}`}`;
    const key = o.kind === "grand_hand" ? "contract.grand_hand" : `outcome.${o.kind}`;
    return M.h(
      "tr",
      { class: "outcome-row" },
      M.h("th", { scope: "row" }, gettext("outcome")),
      M.h("td", { colspan: String(M.cfg.players.length), class: "outcome", dataset: { outcome: o.kind } }, M.hinted ? M.hinted(text, key, "outcome") : text),
    );
  }

  // The end of a deal in words (static/js/summary.js words the frame): the engine's summary
  // codes (games/schieberamsch/engine.py, SUMMARY_CODES). A part gives [its line, its label in
  // the formula]; `w` is the summary, the seat and the words summary.js shares.
  const times = (n) => fmt(ngettext("%(n)s time", "%(n)s times", n), { n });
  const pushCount = (p) => (p.multiplier ? Math.round(Math.log2(p.multiplier)) : 0);
  const SUMMARY = {
    kinds: {
      normal: gettext("Ramsch"),
      jungfrau: gettext("Ramsch with a Jungfrau"),
      durchmarsch: gettext("Ramsch: a Durchmarsch"),
      even: gettext("Ramsch: all three even"),
      grand_hand: gettext("a Grand Hand"),
    },
    parts: {
      trick_points: (p) => [fmt(ngettext("%(points)s card points in %(n)s trick", "%(points)s card points in %(n)s tricks", p.tricks), { points: p.points, n: p.tricks }), gettext("card points")],
      skat: (p, w) => [fmt(gettext("the skat (%(cards)s)"), { cards: w.cards(p.cards) }), gettext("skat")],
      pushes: (p) => [fmt(gettext("× %(multiplier)s: the skat was pushed %(times)s"), { multiplier: p.multiplier, times: times(pushCount(p)) }), fmt(ngettext("%(n)s push", "%(n)s pushes", pushCount(p)), { n: pushCount(p) })],
      jungfrau: () => [gettext("× 2: a Jungfrau (a seat took no trick)"), gettext("Jungfrau")],
      divisor: (p) => [fmt(gettext("÷ %(divisor)s, the fraction dropped"), { divisor: p.divisor }), ""],
      no_penalty: (p) => [p.points === undefined ? gettext("Another seat took every trick: no penalty") : fmt(gettext("%(points)s card points: not the most, no penalty"), { points: p.points }), gettext("no penalty")],
      jungfrau_seat: () => [gettext("No trick taken (the Jungfrau): no penalty"), gettext("no penalty")],
      even: (p) => [fmt(gettext("All three took %(points)s card points: nobody scores"), { points: p.points }), gettext("even")],
      durchmarsch: () => [gettext("Durchmarsch: every trick taken"), gettext("Durchmarsch")],
      grand_value(p) {
        const extra = `${p.schneider ? `, ${pgettext("Skat", "schneider")}` : ""}${p.schwarz ? `, ${pgettext("Skat", "schwarz")}` : ""}`;
        const text = p.with_matadors
          ? gettext("Grand Hand: 24 × %(levels)s (with %(matadors)s, game, hand%(extra)s)")
          : gettext("Grand Hand: 24 × %(levels)s (without %(matadors)s, game, hand%(extra)s)");
        return [fmt(text, { levels: p.levels, matadors: p.matadors, extra }), `${gettext("Grand Hand")} (24 × ${p.levels})`];
      },
      kontra: () => [`× 2: ${pgettext("Skat", "kontra")}`, pgettext("Skat", "kontra")],
      re: () => [`× 2: ${pgettext("Skat", "re")}`, pgettext("Skat", "re")],
      grand_won: (p) => [fmt(gettext("Won with %(points)s card points: taken off the penalties"), { points: p.points }), gettext("won")],
      grand_lost: (p) => [p.factor > 1 ? fmt(gettext("Lost with %(points)s card points: counts %(factor)s times"), { points: p.points, factor: p.factor }) : fmt(gettext("Lost with %(points)s card points: a penalty"), { points: p.points }), gettext("lost")],
      grand_opponent: (p, w) => [fmt(gettext("Opponent of the Grand Hand of %(name)s: no penalty"), { name: w.name(p.declarer) }), gettext("opponent")],
      settle(p, w) {
        const theirs = w.num(w.summary.scores[p.seat]);
        const mine = w.num(w.summary.scores[w.seat]);
        const text = w.seat === M.cfg.seat
          ? fmt(gettext("%(name)s's %(theirs)s less your %(mine)s"), { name: w.name(p.seat), theirs, mine })
          : fmt(gettext("%(name)s's %(theirs)s less %(other)s's %(mine)s"), { name: w.name(p.seat), theirs, other: w.name(w.seat), mine });
        return [text, fmt(gettext("vs %(name)s"), { name: w.name(p.seat) })];
      },
    },
    notes: {
      grand_hand: (n, w) => fmt(gettext("Grand Hand by %(name)s: alone against the other two, the skat counting for the declarer"), { name: w.name(n.declarer) }),
      declarer_points(n, w) {
        const grand = w.summary.notes.find((x) => x.code === "grand_hand");
        const text = ngettext("%(name)s took %(points)s card points in %(tricks)s trick (the skat %(cards)s included): 61 or more win", "%(name)s took %(points)s card points in %(tricks)s tricks (the skat %(cards)s included): 61 or more win", n.tricks);
        return fmt(text, { name: grand ? w.name(grand.declarer) : gettext("The declarer"), points: n.points, tricks: n.tricks, cards: w.cards(n.skat) });
      },
      skat_to: (n, w) => fmt(gettext("The skat (%(cards)s, %(points)s card points) goes to %(names)s"), { cards: w.cards(n.cards), points: n.points, names: w.names(n.seats) }),
      pushed: (n) => (n.pushes ? fmt(gettext("The skat was pushed %(times)s: every penalty × %(multiplier)s"), { times: times(n.pushes), multiplier: n.multiplier }) : gettext("The skat was never pushed")),
    },
    rows: { tricks: gettext("tricks"), trick_points: gettext("card points in tricks"), skat: gettext("skat"), card_points: gettext("card points") },
  };
  // The card points each seat counts: its tricks' during the deal; once it is over, the skat's
  // too where it went (the view's `outcome.points`), as the deal's summary counts them.
  const skatOf = (view, s) => (view.outcome && view.outcome.points && view.trick_points ? view.outcome.points[s] - view.trick_points[s] : 0);
  function cardPoints(view) {
    const taken = view.trick_points || [];
    return taken.map((p, s) => {
      const skat = skatOf(view, s);
      return skat ? fmt(gettext("%(points)s (incl. skat %(skat)s)"), { points: p + skat, skat }) : p;
    });
  }

  // Why a card is refused, beyond the core's common reasons (table.js words those).
  const REASONS = {
    must_follow_suit: (p) => fmt(gettext("You must follow suit: %(suit)s."), { suit: M.suitName(p.suit) }),
    must_play_jack: () => gettext("A jack was led: you must play a jack."),
    jack_cannot_go_to_skat: () => gettext("A jack may not be put into the skat."),
  };

  M.registerGame("schieberamsch", {
    acts: { discard: () => pgettext("act", "discard") },
    reasons: REASONS,
    summary: SUMMARY,
    // The four jacks (the trumps) first, then the plain suits A T K Q 9 8 7.
    sortKey: (card) =>
      M.rankOf(card) === "J"
        ? "CSHD".indexOf(M.suitOf(card))
        : 10 + "CSHD".indexOf(M.suitOf(card)) * 10 + "ATKQ987".indexOf(M.rankOf(card)),
    phases: { offer: pgettext("phase", "Grand Hand offer"), skat: pgettext("phase", "skat passing"), kontra: pgettext("phase", "kontra?"), re: pgettext("phase", "re?"), discard: pgettext("phase", "two cards back into the skat") },

    seatRoles(s, view) {
      const roles = view.dealer === s ? [gettext("dealer")] : [];
      if (view.declarer === s) roles.push(M.hinted(gettext("Grand Hand"), "contract.grand_hand", `seat${s}`));
      if (view.forehand === s) roles.push(gettext("forehand"));
      return roles;
    },
    // What each seat just said, on the seat, in the phase that asks it: the Grand Hand offer,
    // the skat picked up or pushed on (through the discard), kontra and re; gone once play starts.
    seatBadge(s, state, view) {
      const phase = view.phase;
      if (phase === "offer") {
        const o = M.lastBySeat(view.offers).get(s);
        if (!o) return null;
        return o.act === "grand_hand" ? M.said(gettext("Grand Hand"), "bid") : M.said(pgettext("auction", "Pass"), "pass");
      }
      if (phase === "skat" || phase === "discard") {
        const m = M.lastBySeat(view.skat_moves).get(s);
        if (!m) return null;
        return m.act === "push" ? M.said(pgettext("skat", "pushed"), "push") : M.said(pgettext("skat", "picked up"), "bid");
      }
      if (phase === "kontra" || phase === "re") {
        const d = M.lastBySeat(view.doubles).get(s);
        if (d) return d.act === "pass" ? M.said(PASS[phase === "re" && d.seat === view.declarer ? "re" : "kontra"], "pass") : M.said(LABELS[d.act] || d.act, "bid");
        return view.declarer === s ? M.said(gettext("Grand Hand"), "bid") : null;
      }
      return null;
    },
    seatFacts: (s, view) => (view.trick_points ? [fmt(gettext("%(points)s pts"), { points: view.trick_points[s] + skatOf(view, s) })] : []),

    info(state, view) {
      const parts = [
        view.contract === "grand_hand"
          ? M.h("span", null, M.hinted(gettext("Grand Hand"), "contract.grand_hand", "info"), ` ${fmt(gettext("by %(name)s"), { name: who(view.declarer) })}`)
          : M.hinted(gettext("Ramsch"), "contract.ramsch", "info"),
      ];
      if (view.pushes) parts.push(M.hinted(fmt(M.ngettext("%(n)s push", "%(n)s pushes", view.pushes), { n: view.pushes }), "pushes", "info"));
      if (view.multiplier && view.multiplier > 1) parts.push(`×${view.multiplier}`);
      if (view.kontra) parts.push(M.hinted(pgettext("Skat", "kontra"), "act.kontra", "info"));
      if (view.re) parts.push(M.hinted(pgettext("Skat", "re"), "act.re", "info"));
      return parts;
    },

    extra(state, view) {
      const parts = [];
      const seen = view.skat_seen;
      if (seen) {
        if (seen.taken) parts.push(M.cardRow(`${gettext("Skat you picked up")}: `, seen.taken));
        if (seen.put) parts.push(M.cardRow(`${gettext("Skat you put back")}: `, seen.put));
      }
      // A replay's full view: what each seat saw of the skat, under `private`.
      (view.private || []).forEach((own, s) => {
        const mine = own && own.skat_seen;
        if (!mine) return;
        if (mine.taken) parts.push(M.cardRow(`${fmt(gettext("Skat %(name)s picked up"), { name: seatName(s) })}: `, mine.taken));
        if (mine.put) parts.push(M.cardRow(`${fmt(gettext("Skat %(name)s put back"), { name: seatName(s) })}: `, mine.put));
      });
      if (view.skat && view.phase === "over") parts.push(M.cardRow(`${gettext("Skat")}: `, view.skat));
      return parts;
    },

    // What the buttons ask, in words (the core's default only names the acts).
    turnText(state, view, groups) {
      if (!groups.buttons.length || groups.plays.size) return undefined;
      const text = {
        offer: gettext("Your turn: announce a Grand Hand, or pass."),
        skat: gettext("Your turn: pick up the skat, or push it on unseen."),
        kontra: gettext("Your turn: say kontra against the Grand Hand, or not."),
        re: gettext("Your turn: answer the kontra with re, or not."),
      }[view.phase];
      return text || undefined;
    },
    buttonLabel: (entry, view) => (entry.act === "pass" ? PASS[view.phase] : LABELS[entry.act]),
    // Putting two cards back after picking up the skat: pick them, then confirm.
    choice: (entry) =>
      entry.act === "discard" ? M.pickCards(entry, fmt(M.ngettext("Discard %(n)s card face down", "Discard %(n)s cards face down", entry.choose), { n: entry.choose })) : undefined,

    dealRows(state, view) {
      const rows = [];
      rows.push(seatRow(gettext("tricks"), view.tricks_won || []));
      rows.push(seatRow(gettext("card points"), cardPoints(view)));
      if (view.outcome) rows.push(outcomeRow(view));
      return rows;
    },

    log(state, view) {
      const lines = [];
      const line = (text, seat, extra) => fmt(text, Object.assign({ name: seatName(seat) }, extra || {}));
      for (const o of view.offers || []) lines.push(o.act === "grand_hand" ? line(gettext("%(name)s announces a Grand Hand"), o.seat) : line(gettext("%(name)s passes the Grand Hand offer"), o.seat));
      for (const d of view.doubles || []) lines.push(d.act === "pass" ? line(gettext("%(name)s passes"), d.seat) : line(gettext("%(name)s says %(word)s"), d.seat, { word: LABELS[d.act] || d.act }));
      for (const m of view.skat_moves || []) lines.push(m.act === "push" ? line(gettext("%(name)s pushes the skat"), m.seat) : m.act === "pickup" ? line(gettext("%(name)s picks up the skat"), m.seat) : `${seatName(m.seat)} ${M.actName(m.act)}`);
      (view.played || []).forEach((t, i) => lines.push(M.trickLine(t, i)));
      return lines;
    },
  });
})(window.Mediana);
