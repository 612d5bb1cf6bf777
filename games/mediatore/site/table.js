// Mediatore at the browser table (../shared/rules/mediatore.md): four players, Italian cards,
// the auction, the called card, the exchange with the monte and the lead signals. Registers its
// hooks with the core, static/js/table.js.
(function (M) {
  "use strict";
  const { h, seatName, who, cardText, cardName, seatRow, gettext, ngettext, pgettext, fmt } = M;

  const CONTRACT = {
    chiamo: "Chiamo",
    mediatore: "Mediatore",
    solo: "Solo",
    solissimo: "Solissimo",
    arcisolissimo: "Arcisolissimo",
  };
  const SIGNALS = ["busso", "volo", "striscio", "busso+volo", "busso+striscio"];
  // Suit by suit, 3 2 A R C F 7 6 5 4.
  const sortKey = (card) => "dcsb".indexOf(M.suitOf(card)) * 10 + "32ARCF7654".indexOf(M.rankOf(card));

  let signal = ""; // the signal chosen for the next lead ("" = none)

  // The Italian suits, drawn (our own simple shapes, not any pack's artwork): a coin, a cup, a
  // sword and a baton, in the suit's colour (table.css: .suit-d gold, -c red, -s blue, -b
  // green), clear at the hand's and the trick's small sizes. A card face's pip when the viewer
  // keeps the game's home faces (accounts/preferences.py); French ones otherwise.
  const SVG = "http://www.w3.org/2000/svg";
  const SHAPES = {
    // denari: a coin with a rim and a boss
    d: [["circle", { cx: 12, cy: 12, r: 10.5 }], ["circle", { cx: 12, cy: 12, r: 6.8, fill: "none", stroke: "#fff", "stroke-width": 1.6 }], ["circle", { cx: 12, cy: 12, r: 2.4, fill: "#fff" }]],
    // coppe: a goblet: bowl, stem and foot
    c: [["path", { d: "M4.5 2.5h15c0 5.4-2.6 9.1-6.2 10v4.3h3.4v2.2H7.3v-2.2h3.4v-4.3C7.1 11.6 4.5 7.9 4.5 2.5z" }], ["path", { d: "M5.5 20h13v2H5.5z" }], ["path", { d: "M7.2 4.6h9.6", stroke: "#fff", "stroke-width": 1.2, fill: "none" }]],
    // spade: an upright sword: blade, guard, grip and pommel
    s: [["path", { d: "M12 .6l2.3 3.4v11.2H9.7V4z" }], ["path", { d: "M5 15.2h14v2.5H5z" }], ["path", { d: "M10.8 17.7h2.4v3.4h-2.4z" }], ["circle", { cx: 12, cy: 22, r: 1.8 }]],
    // bastoni: a knotted baton, slanted
    b: [["g", { transform: "rotate(32 12 12)" }, [["rect", { x: 8.9, y: 0.6, width: 6.2, height: 22.8, rx: 3.1 }], ["circle", { cx: 8.3, cy: 7, r: 2.1 }], ["circle", { cx: 15.7, cy: 11.6, r: 2.1 }], ["circle", { cx: 8.3, cy: 16.2, r: 2.1 }], ["path", { d: "M11 3.4v17.2", stroke: "#fff", "stroke-width": 1.1, "stroke-opacity": 0.55, fill: "none" }]]]],
  };
  function svgNode([tag, attrs, children]) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    for (const child of children || []) node.append(svgNode(child));
    return node;
  }
  // The suit's drawing, sized by the text around it (1em); the card's title names it.
  function pip(suit) {
    if (!SHAPES[suit]) return suit;
    const node = svgNode(["svg", { viewBox: "0 0 24 24", width: "1em", height: "1em", fill: "currentColor", class: `suit-svg suit-svg-${suit}`, "aria-hidden": "true", focusable: "false" }, SHAPES[suit]]);
    return node;
  }
  const SUITS = { d: "denari", c: "coppe", s: "spade", b: "bastoni" };
  // The legend under the hand: each suit drawn, with its Italian name.
  const legend = () => Object.entries(SUITS).map(([s, name], i) => [i ? " · " : null, h("span", { class: `suit-${s}` }, pip(s)), ` ${name}`]).flat();

  // The exchange template: the first picks fill the discard, the next the card given back.
  function exchange(entry, view) {
    const d = entry.discard;
    const g = entry.give;
    const groups = [{ choose: d.choose, from: d.from, picked: "picked discard", badge: M.actName("discard") }];
    if (g) groups.push({ choose: g.choose, from: g.from, picked: "picked give", badge: M.actName("give"), badgeClass: "badge give" });
    return {
      groups,
      describe: gettext("Exchange"),
      text(picks) {
        const discard = fmt(ngettext("choose %(n)s card to discard face down (%(picked)s/%(n)s)", "choose %(n)s cards to discard face down (%(picked)s/%(n)s)", d.choose), { n: d.choose, picked: picks[0].length });
        if (!g) return discard;
        const give = fmt(ngettext("%(n)s card to give to %(name)s (%(picked)s/%(n)s)", "%(n)s cards to give to %(name)s (%(picked)s/%(n)s)", g.choose), { n: g.choose, name: who(view.giver), picked: picks[1].length });
        return fmt(gettext("%(discard)s and %(give)s"), { discard, give });
      },
      action: (picks) => ({ act: "exchange", discard: picks[0].slice(), give: g ? picks[1][0] : null }),
      allows: (action) =>
        M.pickOk(action.discard, d) &&
        (g ? M.pickOk([action.give], g) : action.give === null) &&
        !action.discard.includes(action.give),
    };
  }

  // The call: a grid of the cards the declarer may call, a row per suit.
  function callGrid(entries) {
    const bySuit = new Map();
    for (const entry of entries.slice().sort((a, b) => sortKey(a.card) - sortKey(b.card))) {
      const s = M.suitOf(entry.card);
      if (!bySuit.has(s)) bySuit.set(s, []);
      bySuit.get(s).push(entry);
    }
    return h(
      "div",
      { class: "calls", id: "call-cards" },
      [...bySuit.values()].map((row) =>
        h(
          "div",
          { class: "call-row" },
          row.map((entry) =>
            h("button", { type: "button", class: `card-btn suit-${M.suitOf(entry.card)}`, dataset: { act: "call", card: entry.card }, title: fmt(gettext("call the %(card)s"), { card: cardName(entry.card) }), onclick: () => M.act(entry) }, M.cardFace(entry.card)),
          ),
        ),
      ),
    );
  }

  // Why a signal's chip is greyed: no card you may lead now can carry it truthfully (the rules
  // refuse a false volo or striscio).
  const SIGNAL_WHY = {
    volo: () => gettext("Volo says it is your last card of the suit: you hold two or more of every suit."),
    striscio: () => gettext("Striscio says you keep a card ranked re or lower in the suit: no suit you hold has one beside the card led."),
  };
  const signalWhy = (sig) => {
    const base = sig.includes("volo") ? "volo" : sig.includes("striscio") ? "striscio" : "";
    return SIGNAL_WHY[base] ? SIGNAL_WHY[base]() : gettext("No card you may lead now can carry this signal.");
  };

  // A lead may carry a signal: the chips offer those legal for some card; the hand then enables
  // the cards that may carry the chosen one. A greyed one says why.
  function signalChips(plays) {
    const signals = new Set();
    for (const entries of plays.values()) for (const e of entries) if (e.signal) signals.add(e.signal);
    if (!signals.size) return null;
    return h(
      "div",
      { class: "signals", id: "signals", role: "group", "aria-label": gettext("Signal with your lead") },
      h("span", { class: "label" }, `${gettext("Signal with your lead")}: `),
      ["", ...SIGNALS].map((sig) =>
        h(
          "button",
          {
            type: "button",
            class: `chip${signal === sig ? " on" : ""}`,
            "aria-pressed": signal === sig ? "true" : "false",
            // Boolean: an empty string would still set `disabled` on the "none" chip.
            disabled: Boolean(sig) && !signals.has(sig),
            dataset: { signal: sig || "none" },
            onclick: () => {
              signal = sig;
              M.render();
            },
          },
          sig || pgettext("signal", "none"),
        ),
      ).map((chip) => {
        const key = `signal.${chip.dataset.signal}`;
        const tip = M.hintTip(key, "chip");
        if (chip.disabled) chip.title = signalWhy(chip.dataset.signal);
        if (!tip) return chip;
        if (!chip.disabled) chip.title = M.hint(key);
        return h("span", { class: "with-hint" }, chip, tip);
      }),
      offWhy(signals),
    );
  }
  // One line under the chips for the greyed ones (a phone has no hover): "volo: …".
  function offWhy(signals) {
    const off = ["volo", "striscio"].filter((sig) => !signals.has(sig));
    if (!off.length) return null;
    return h("p", { class: "signal-why muted", id: "signal-why" }, off.map((sig) => `${sig}: ${signalWhy(sig)}`).join(" "));
  }

  // The end of a deal in words (static/js/summary.js words the frame): the engine's summary
  // codes (games/mediatore/engine.py, SUMMARY_CODES). A part gives [its line, its label in the
  // formula]; `w` is the summary, the seat and the words summary.js shares.
  const ROLE = { declarer: gettext("the declarer"), partner: gettext("the partner"), giver: gettext("the giver"), defender: gettext("a defender") };
  const role = (r) => ROLE[r] || r;
  // "1 point", "5 points"; "1 third", "26 thirds": a number with its noun, in the page's plural.
  const pointsWord = (n) => fmt(ngettext("%(n)s point", "%(n)s points", n), { n });
  const thirdsWord = (n) => fmt(ngettext("%(n)s third", "%(n)s thirds", n), { n });
  const contract = (c) => CONTRACT[c] || M.cap(String(c || ""));
  const SUMMARY = {
    kinds: { thrown_in: gettext("thrown in: everybody passed"), ...CONTRACT },
    parts: {
      thrown_in: () => [gettext("Everybody passed: the deal is thrown in"), gettext("thrown in")],
      cards: (p, w) => [fmt(gettext("Cards taken by %(name)s: %(thirds)s"), { name: w.name(p.seat), thirds: thirdsWord(p.thirds) }), fmt(gettext("by %(name)s"), { name: w.name(p.seat) })],
      monte_last_trick: (p, w) => [fmt(gettext("The monte (%(cards)s) and the last trick, to %(name)s: %(value)s"), { cards: w.cards(p.cards), name: w.name(p.seat), value: thirdsWord(p.value) }), gettext("monte + last trick")],
      whole_points: (p) => [fmt(gettext("%(thirds)s = %(points)s, the fraction dropped"), { thirds: thirdsWord(p.thirds), points: pointsWord(p.points) }), ""],
      stake: (p) => [fmt(p.won ? gettext("%(contract)s won, as %(role)s") : gettext("%(contract)s lost, as %(role)s"), { contract: contract(p.contract), role: role(p.role) }), role(p.role)],
      slam: (p) => [p.rule === "double" ? gettext("Slam (every trick to one side): every payment doubled") : gettext("Slam (every trick to one side): 2 more on every payment"), gettext("slam")],
    },
    notes: {
      contract: (n, w) => fmt(gettext("%(contract)s by %(name)s"), { contract: contract(n.contract), name: w.name(n.declarer) }),
      called: (n, w) =>
        n.holder >= 0
          ? fmt(gettext("Called %(card)s: %(name)s held it"), { card: cardText(n.card), name: w.name(n.holder) })
          : fmt(gettext("Called %(card)s: it lay in the monte, so the declarer played alone"), { card: cardText(n.card) }),
      outcome(n, w) {
        const args = { side: w.names(n.side), took: pointsWord(n.points), thirds: thirdsWord(n.thirds) };
        const text = n.won
          ? (n.slam ? gettext("The declarer's side (%(side)s) took %(took)s (%(thirds)s): won, a slam — 6 points make the contract") : gettext("The declarer's side (%(side)s) took %(took)s (%(thirds)s): won — 6 points make the contract"))
          : (n.slam ? gettext("The declarer's side (%(side)s) took %(took)s (%(thirds)s): lost, a slam — 6 points make the contract") : gettext("The declarer's side (%(side)s) took %(took)s (%(thirds)s): lost — 6 points make the contract"));
        return fmt(text, args);
      },
    },
    rows: { tricks: gettext("tricks"), thirds: gettext("thirds in tricks"), monte_last_trick: gettext("monte + last trick (thirds)"), side_thirds: gettext("the side's thirds") },
  };
  // Why a card or an action is refused, beyond the core's common reasons (table.js words those).
  const REASONS = {
    must_follow_suit: (p) => fmt(gettext("You must follow suit: %(suit)s."), { suit: M.suitName(p.suit) }),
    unknown_contract: () => gettext("That is not a contract of this game."),
    bid_too_low: (p) => fmt(gettext("Bid higher than %(high)s."), { high: p.high }),
    chiamo_with_all_threes: () => gettext("You hold all four threes: at this table you may not bid Chiamo."),
    called_card_held: (p) => fmt(gettext("You cannot call the %(card)s: you hold it."), { card: M.cardParam(p) }),
    call_must_be_three: () => gettext("At this table the called card must be a three."),
    signal_not_on_lead: () => gettext("A signal goes only with the card that leads a trick."),
    unknown_signal: () => gettext("That is not a signal of this game."),
    signals_off: () => gettext("Signals are off at this table."),
    false_volo: (p) => fmt(gettext("No volo: you still hold another card of %(suit)s."), { suit: M.suitName(p.suit) }),
    false_striscio: (p) => fmt(gettext("No striscio: you hold no card of %(suit)s ranked re or lower."), { suit: M.suitName(p.suit) }),
    give_must_be_null: () => gettext("Nobody handed you a card (it lay in the monte): give none back."),
    give_missing: (p) => fmt(gettext("Give one card back to %(name)s."), { name: who(p.to) }),
    give_also_discarded: (p) => fmt(gettext("The %(card)s is discarded already: give back a different card."), { card: M.cardParam(p) }),
  };

  // The thirds each seat counts: its tricks' during the deal; once the deal is over, the monte
  // and the last trick too where they went — the figures of the deal's own summary (its table).
  function thirdsCounted(view) {
    const taken = view.thirds_taken || [];
    const summary = view.last_deal && view.last_deal.summary;
    if (view.phase !== "over" || !summary || summary.deal !== view.deal) return taken;
    const row = (summary.table || []).find((r) => r.code === "monte_last_trick");
    return taken.map((t, s) => {
      const extra = row ? row.values[s] : 0;
      return extra ? fmt(gettext("%(thirds)s (incl. monte and last trick %(extra)s)"), { thirds: t + extra, extra }) : t;
    });
  }

  M.registerGame("mediatore", {
    acts: {
      bid: () => pgettext("act", "bid"), call: () => pgettext("act", "call"), discard: () => pgettext("act", "discard"),
      exchange: () => pgettext("act", "exchange"), give: () => pgettext("act", "give"),
    },
    reasons: REASONS,
    summary: SUMMARY,
    deck: {
      // In text (the log, the summary): the suit's glyph; on a card face: its drawing (pip).
      glyph: { d: "◆", c: "♥", s: "♠", b: "♣" },
      suit: SUITS,
      // Italian names in every language, as the rules pages (gameplay/templatetags/rules_cards.py);
      // the letters on a card are the Italian ones everywhere: A R C F (asso, re, cavallo, fante).
      rank: { 3: "3", 2: "2", A: "asso", R: "re", C: "cavallo", F: "fante" },
      pip,
      legend,
      // The viewer chose French faces: French suits and letters (re K, cavallo Q, fante J).
      french: {
        glyph: { d: "♦", c: "♥", s: "♠", b: "♣" },
        letter: { R: "K", C: "Q", F: "J" },
        legend: "♦ denari · ♥ coppe · ♠ spade · ♣ bastoni",
      },
    },
    sortKey,
    // Play goes anticlockwise: the next seat sits on your right (the table places the seats).
    seating: "anticlockwise",
    phases: { auction: pgettext("phase", "auction"), exchange: pgettext("phase", "card exchange"), call: pgettext("phase", "the declarer calls a card"), discard: pgettext("phase", "the declarer discards") },

    seatRoles(s, view) {
      const roles = view.dealer === s ? [gettext("dealer")] : [];
      if (view.declarer === s) roles.push(view.contract ? h("span", null, `${gettext("declarer")} · `, M.hinted(CONTRACT[view.contract], `contract.${view.contract}`, `seat${s}`)) : gettext("declarer"));
      if (view.partner === s && view.declarer !== s) roles.push(M.hinted(gettext("partner"), "role.partner", `seat${s}`));
      if (view.giver === s) roles.push(M.hinted(gettext("giver"), "role.giver", `seat${s}`));
      if (view.eldest === s && view.phase === "auction") roles.push(gettext("eldest"));
      return roles;
    },

    // Each seat's last word in the auction, on the seat, until the play starts (the declarer's
    // contract stays among its roles).
    seatBadge(s, state, view) {
      if (view.phase === "play" || view.phase === "over") return null;
      const last = M.lastBySeat(view.bids).get(s);
      if (!last) return null;
      return last.act === "pass" ? M.said(pgettext("auction", "Pass"), "pass") : M.said(CONTRACT[last.contract] || last.contract, "bid");
    },

    info(state, view) {
      const parts = [];
      if (view.contract) parts.push(h("span", null, M.hinted(CONTRACT[view.contract], `contract.${view.contract}`, "info"), ` ${fmt(gettext("by %(name)s"), { name: who(view.declarer) })}`));
      else if (view.high_bid) parts.push(h("span", null, `${gettext("high bid")} `, M.hinted(CONTRACT[view.high_bid], `contract.${view.high_bid}`, "info")));
      if (view.called) parts.push(fmt(gettext("called %(card)s"), { card: cardText(view.called) }));
      if (view.contract === "chiamo" && view.called) {
        if (view.partner !== null && view.partner !== undefined) parts.push(fmt(gettext("partner %(name)s"), { name: who(view.partner) }));
        else if (view.alone === true) parts.push(gettext("the declarer is alone"));
        else parts.push(gettext("partner secret"));
      }
      return parts;
    },

    // The trick in play, with the lead's signal.
    currentTrick(state, view) {
      if (!(state.status === "playing" && view.phase === "play" && view.signal && view.trick && view.trick.length)) return undefined;
      return [...M.trickSlots(view.trick, view.leader, null), h("p", { class: "signal-note" }, `${gettext("Signal")}: `, M.hinted(view.signal, `signal.${view.signal}`, "trick"))];
    },

    extra(state, view) {
      const parts = [];
      if (!view.monte) return parts;
      // The declarer's own (a replay shows them to everyone).
      // Only the declarer's own page says "you"; a spectator and the others read his name.
      const mine = typeof state.seat === "number" && state.seat === view.declarer;
      const name = seatName(view.declarer);
      if (view.monte.shown) parts.push(M.cardRow(`${gettext("Monte (shown)")}: `, view.monte.shown));
      else if (view.monte.seen) parts.push(M.cardRow(`${mine ? gettext("Monte (only you saw it)") : fmt(gettext("Monte (only %(name)s saw it)"), { name })}: `, view.monte.seen));
      if (view.monte.new) parts.push(M.cardRow(`${mine ? gettext("Your new monte") : fmt(gettext("%(name)s's new monte"), { name })}: `, view.monte.new));
      if (view.given) parts.push(M.cardRow(`${gettext("Card given back")}: `, [view.given]));
      return parts;
    },

    claims: (entry) => entry.act === "call",
    turnText(state, view, groups) {
      if (groups.claimed.length) return gettext("Your turn: call a card you do not hold.");
      if (view.phase === "auction" && groups.buttons.length) {
        return view.high_bid
          ? fmt(gettext("Your turn: bid higher than %(contract)s, or pass."), { contract: CONTRACT[view.high_bid] || view.high_bid })
          : gettext("Your turn: bid a contract, or pass.");
      }
      return undefined;
    },
    buttonLabel: (entry) => (entry.act === "bid" ? CONTRACT[entry.contract] || entry.contract : undefined),
    controls(state, view, groups) {
      const parts = [];
      if (groups.claimed.length) parts.push(callGrid(groups.claimed));
      if (groups.plays.size) parts.push(signalChips(groups.plays));
      return parts;
    },
    pickPlay: (options) => options.find((e) => (e.signal || "") === signal),
    onAct() {
      signal = "";
    },
    choice(entry, view) {
      if (entry.act === "exchange") return exchange(entry, view);
      if (entry.act === "discard") return M.pickCards(entry, fmt(ngettext("Discard %(n)s card face down", "Discard %(n)s cards face down", entry.choose), { n: entry.choose }));
      return undefined;
    },

    dealRows: (state, view) => [seatRow(gettext("tricks"), view.tricks_won || []), seatRow(gettext("thirds"), thirdsCounted(view))],

    log(state, view) {
      const lines = [];
      for (const b of view.bids || []) lines.push(b.act === "pass" ? fmt(gettext("%(name)s passes"), { name: seatName(b.seat) }) : fmt(gettext("%(name)s bids %(contract)s"), { name: seatName(b.seat), contract: CONTRACT[b.contract] }));
      if (view.called) lines.push(fmt(gettext("%(name)s calls %(card)s"), { name: seatName(view.declarer), card: cardText(view.called) }));
      if (view.giver !== null && view.giver !== undefined) lines.push(fmt(gettext("%(name)s hands %(card)s over"), { name: seatName(view.giver), card: cardText(view.called) }));
      if (view.monte && view.monte.shown) lines.push(fmt(gettext("Monte shown: %(cards)s"), { cards: view.monte.shown.map(cardText).join(" ") }));
      (view.played || []).forEach((t, i) => lines.push(M.trickLine(t, i)));
      return lines;
    },
  });
})(window.Mediana);
