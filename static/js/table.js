// The browser table: a client of the table protocol `mediana.table/1`
// (/work/shared/spec/table-protocol.md, docs/browser.md). Plain JavaScript, no framework.
//
// Everything shown comes from the last `state` message: the hand, the legal actions, the view's
// public fields, the clock and the result. The client holds no rules: a card or a button is
// enabled only when the server listed the action in `legal`.
(function () {
  "use strict";

  const cfg = JSON.parse(document.getElementById("table-config").textContent);
  const token = new URLSearchParams(window.location.search).get("token");
  const $ = (id) => document.getElementById(id);
  const GAME = cfg.game;
  const N_SEATS = cfg.players.length;

  // ------------------------------------------------------------------ tiny DOM helper
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function fill(node, ...children) {
    node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
  }

  // ------------------------------------------------------------------ cards
  const ITALIAN = GAME === "mediatore";
  const SUIT_GLYPH = ITALIAN
    ? { d: "◆", c: "♥", s: "♠", b: "♣" }
    : { S: "♠", H: "♥", D: "♦", C: "♣" };
  const SUIT_NAME = ITALIAN
    ? { d: "denari", c: "coppe", s: "spade", b: "bastoni" }
    : { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK_NAME = ITALIAN
    ? { 3: "3", 2: "2", A: "asso", R: "re", C: "cavallo", F: "fante" }
    : { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
  const rankOf = (card) => card.slice(0, -1);
  const suitOf = (card) => card.slice(-1);
  const rankLabel = (card) => (rankOf(card) === "T" ? "10" : rankOf(card));
  const cardName = (card) =>
    `${RANK_NAME[rankOf(card)] || rankOf(card)} of ${SUIT_NAME[suitOf(card)] || suitOf(card)}`;
  const cardText = (card) => `${rankLabel(card)}${SUIT_GLYPH[suitOf(card)] || suitOf(card)}`;

  // Sort keys: each game's sensible order for a hand.
  const SORTS = {
    // Saichugen: the strength order itself (A lowest; equal ranks C < D < H < S).
    saichugen: (card) => "A23456789TJQK".indexOf(rankOf(card)) * 4 + "CDHS".indexOf(suitOf(card)),
    // 3-5-8: the trump suit first, then suits alternating in colour, high to low.
    three_five_eight: (card, view) => {
      const trump = view && view.trump;
      const suits = "SHCD";
      const s = suitOf(card) === trump ? -1 : suits.indexOf(suitOf(card));
      return (s + 1) * 20 + "AKQJT98765432".indexOf(rankOf(card));
    },
    // Schieberamsch: the four jacks (the trumps) first, then the plain suits A T K Q 9 8 7.
    schieberamsch: (card) =>
      rankOf(card) === "J"
        ? "CSHD".indexOf(suitOf(card))
        : 10 + "CSHD".indexOf(suitOf(card)) * 10 + "ATKQ987".indexOf(rankOf(card)),
    // Mediatore: suit by suit, 3 2 A R C F 7 6 5 4.
    mediatore: (card) => "dcsb".indexOf(suitOf(card)) * 10 + "32ARCF7654".indexOf(rankOf(card)),
  };
  function sortCards(cards, view) {
    const key = SORTS[GAME] || (() => 0);
    return cards.slice().sort((a, b) => key(a, view) - key(b, view));
  }

  function cardFace(card, attrs) {
    return h(
      "span",
      Object.assign(
        { class: `card suit-${suitOf(card)}`, title: cardName(card), dataset: { card } },
        attrs || {},
      ),
      h("span", { class: "rank" }, rankLabel(card)),
      h("span", { class: "pip" }, SUIT_GLYPH[suitOf(card)] || suitOf(card)),
    );
  }
  const cardBack = (label) => h("span", { class: "card back", title: label || "face down" });

  // ------------------------------------------------------------------ names
  const seatName = (s) => (s === null || s === undefined ? "—" : (cfg.players[s] || {}).name || `seat ${s}`);
  const who = (s) => (s === cfg.seat ? `${seatName(s)} (you)` : seatName(s));
  const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const CONTRACT = {
    chiamo: "Chiamo",
    mediatore: "Mediatore",
    solo: "Solo",
    solissimo: "Solissimo",
    arcisolissimo: "Arcisolissimo",
  };
  const SIGNALS = ["busso", "volo", "striscio", "busso+volo", "busso+striscio"];

  // ------------------------------------------------------------------ state
  let current = null; // the last state message
  let lastSeq = -1;
  let pending = null; // {action, id, seq, stale, resend}: a click not yet seen applied
  let selection = null; // a multi-card choice in progress: {key, picks: [], gives: []}
  let signal = ""; // the Mediatore signal chosen for the next lead
  let clockAt = 0; // performance.now() when `current.clock` was received
  let idCounter = 0;
  let flash = null; // {text, kind, until}

  function newId() {
    idCounter += 1;
    const rand = Math.random().toString(36).slice(2, 10);
    return `b-${Date.now().toString(36)}-${rand}-${idCounter}`;
  }

  // ------------------------------------------------------------------ the connection
  let ws = null;
  let attempts = 0;
  let retryTimer = null;
  let retryAt = 0;
  let lastMessageAt = 0;
  let syncSentAt = 0;
  let everConnected = false;

  function socketUrl() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    return `${scheme}://${window.location.host}${cfg.socketPath}${query}`;
  }

  function setConn(kind, text) {
    const node = $("conn");
    node.className = `conn conn-${kind}`;
    node.textContent = text;
  }

  function banner(text, withButton) {
    const node = $("banner");
    if (!text) {
      node.hidden = true;
      return;
    }
    fill(
      node,
      h("span", { class: "banner-text" }, text),
      withButton ? h("button", { type: "button", id: "reconnect-now", onclick: reconnectNow }, "Reconnect now") : null,
    );
    node.hidden = false;
  }

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (ws) return;
    setConn("connecting", everConnected ? "reconnecting…" : "connecting…");
    const socket = new WebSocket(socketUrl());
    ws = socket;
    socket.addEventListener("open", () => {
      if (ws !== socket) return;
      attempts = 0;
      everConnected = true;
      lastMessageAt = performance.now();
      syncSentAt = 0;
      setConn("live", "connected");
      banner(null);
      // The server sends the current state on connect; an action sent before the connection
      // dropped is re-sent then (same id: applied at most once).
      if (pending) pending.resend = true;
    });
    socket.addEventListener("message", (event) => {
      if (ws !== socket) return;
      lastMessageAt = performance.now();
      syncSentAt = 0;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (msg.type === "state") onState(msg);
      else if (msg.type === "error") onError(msg);
    });
    socket.addEventListener("close", (event) => {
      if (ws !== socket) return;
      ws = null;
      if (event.code === 4403) {
        setConn("down", "refused");
        banner("The server refused this connection: you may not sit at or watch this table.");
        return;
      }
      if (current && current.status === "finished") {
        setConn("idle", "match over");
        return;
      }
      scheduleReconnect();
    });
  }

  function scheduleReconnect() {
    const base = Math.min(15000, 1000 * 2 ** attempts);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    attempts += 1;
    retryAt = performance.now() + delay;
    retryTimer = setTimeout(connect, delay);
    setConn("down", "disconnected");
    updateBanner();
  }

  function updateBanner() {
    if (ws || !retryTimer) return;
    const secs = Math.max(0, Math.ceil((retryAt - performance.now()) / 1000));
    banner(
      `Connection lost — your cards and the table are safe on the server. Reconnecting in ${secs} s…`,
      true,
    );
  }

  function reconnectNow() {
    if (ws) return;
    attempts = 0;
    connect();
  }

  function send(obj) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(obj));
    return true;
  }

  // A connection can die without a close event (a sleeping laptop, a dropped Wi-Fi): when the
  // server has been silent for a while ask for a state, and give up on the socket if none comes.
  function watchdog() {
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = performance.now();
    if (!syncSentAt && now - lastMessageAt > 25000) {
      syncSentAt = now;
      send({ type: "sync" });
    } else if (syncSentAt && now - syncSentAt > 8000) {
      const dead = ws;
      ws = null;
      dead.close();
      scheduleReconnect();
    }
  }

  // ------------------------------------------------------------------ actions
  function sameAction(a, b) {
    return JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));
  }
  function normalise(action) {
    const out = {};
    for (const key of Object.keys(action).sort()) {
      if (key === "signal" && !action[key]) continue;
      out[key] = action[key];
    }
    return out;
  }

  // Is a concrete action among the legal ones of `state` (templates included)?
  function isLegal(action, state) {
    if (!state || state.status !== "playing") return false;
    for (const entry of state.legal || []) {
      if (entry.act !== action.act) continue;
      if (entry.act === "exchange") {
        if (pickOk(action.discard, entry.discard) && (entry.give ? pickOk([action.give], entry.give) : action.give === null)) {
          if (!action.discard.includes(action.give)) return true;
        }
      } else if ("choose" in entry) {
        if ((entry.to === undefined || entry.to === action.to) && pickOk(action.cards, entry)) return true;
      } else if (sameAction(entry, action)) {
        return true;
      }
    }
    return false;
  }
  function pickOk(cards, template) {
    return (
      Array.isArray(cards) &&
      cards.length === template.choose &&
      new Set(cards).size === cards.length &&
      cards.every((c) => template.from.includes(c))
    );
  }

  function act(action) {
    if (!current || pending || cfg.seat === null) return;
    if (!isLegal(action, current)) return;
    pending = { action, id: newId(), seq: current.seq, stale: false, resend: false, at: performance.now() };
    selection = null;
    signal = "";
    if (!send({ type: "act", seq: current.seq, action, id: pending.id })) pending.resend = true;
    render();
  }

  function resend() {
    if (!pending || !current) return;
    pending.seq = current.seq;
    pending.stale = false;
    pending.resend = false;
    pending.at = performance.now();
    if (!send({ type: "act", seq: current.seq, action: pending.action, id: pending.id })) {
      pending.resend = true;
    }
  }

  // ------------------------------------------------------------------ messages
  function onState(msg) {
    if (msg.seq < lastSeq) return; // an old state (cannot happen in order, but be safe)
    if (current && msg.view && current.view && msg.view.deal !== current.view.deal) selection = null;
    current = msg;
    lastSeq = msg.seq;
    clockAt = performance.now();
    if (pending) {
      if (!isLegal(pending.action, msg)) {
        pending = null; // applied (the state shows it), or no longer possible
      } else if ((pending.stale && msg.seq !== pending.seq) || pending.resend) {
        // The protocol: after `stale`, re-send the same action with the same id and the new
        // seq while it is still legal, so a click is never lost.
        resend();
      }
    }
    if (selection && !templateFor(selection.key)) selection = null;
    render();
  }

  function onError(msg) {
    const mine = pending && msg.id === pending.id;
    if (msg.code === "stale") {
      if (mine) pending.stale = true; // the fresh state that follows re-sends it
      return;
    }
    if (msg.code === "rate_limited") {
      if (mine) setTimeout(resend, 1000);
      return;
    }
    if (mine) pending = null;
    showFlash(msg.message || msg.code, "error");
    render();
  }

  function showFlash(text, kind) {
    flash = { text, kind, until: performance.now() + 6000 };
  }

  // ------------------------------------------------------------------ what the legal list offers
  function legalGroups(state) {
    const plays = new Map(); // card -> [entries] (play / commit, with or without signal)
    const calls = [];
    const templates = [];
    const buttons = [];
    for (const entry of state.legal || []) {
      if ((entry.act === "play" || entry.act === "commit") && entry.card) {
        if (!plays.has(entry.card)) plays.set(entry.card, []);
        plays.get(entry.card).push(entry);
      } else if (entry.act === "call") calls.push(entry);
      else if (entry.act === "exchange" || "choose" in entry) templates.push(entry);
      else buttons.push(entry);
    }
    return { plays, calls, templates, buttons };
  }

  const templateKey = (entry) => JSON.stringify(entry);
  function templateFor(key) {
    if (!current) return null;
    return (current.legal || []).find((e) => templateKey(e) === key) || null;
  }

  function buttonLabel(entry, view) {
    switch (entry.act) {
      case "pass":
        if (GAME === "schieberamsch") {
          if (view.phase === "offer") return "Pass (no Grand Hand)";
          if (view.phase === "kontra") return "No kontra";
          if (view.phase === "re") return "No re";
        }
        return "Pass";
      case "bid":
        return entry.contract ? CONTRACT[entry.contract] || entry.contract : `Bid ${entry.tricks}`;
      case "trump":
        return `${SUIT_GLYPH[entry.suit]} ${cap(SUIT_NAME[entry.suit])}`;
      case "grand_hand":
        return "Grand Hand";
      case "pickup":
        return "Pick up the skat";
      case "push":
        return "Push the skat on";
      case "kontra":
        return "Kontra";
      case "re":
        return "Re";
      default:
        return cap(entry.act.replace("_", " "));
    }
  }

  function actionData(entry) {
    const data = { act: entry.act };
    for (const key of ["contract", "tricks", "suit", "card", "to"]) {
      if (entry[key] !== undefined && entry[key] !== null) data[key] = String(entry[key]);
    }
    return data;
  }

  // ------------------------------------------------------------------ rendering
  function render() {
    if (!current) return;
    const state = current;
    const view = state.view || {};
    document.title = `${cfg.gameName} · ${state.status === "finished" ? "finished" : "playing"} · Mediana`;
    renderMeta(state, view);
    renderSeats(state, view);
    renderInfo(state, view);
    renderTricks(state, view);
    renderExtra(state, view);
    renderPrompt(state, view);
    renderHand(state, view);
    renderDealScores(state, view);
    renderMatchScores(state, view);
    renderLog(state, view);
    renderFinal(state, view);
    tick();
  }

  function renderMeta(state, view) {
    const deal = (view.deal || 0) + 1;
    $("deal-info").textContent =
      state.status === "finished"
        ? `match over after ${(view.results || []).length} deal${(view.results || []).length === 1 ? "" : "s"}`
        : `deal ${deal} of ${view.n_deals || cfg.nDeals}`;
  }

  function seatRole(s, view) {
    const roles = [];
    if (view.dealer === s) roles.push(GAME === "three_five_eight" && view.dealt_by !== undefined && view.dealt_by !== view.dealer ? "declarer" : "dealer");
    if (GAME === "mediatore") {
      if (view.declarer === s) roles.push(`declarer${view.contract ? " · " + CONTRACT[view.contract] : ""}`);
      if (view.partner === s && view.declarer !== s) roles.push("partner");
      if (view.giver === s) roles.push("giver");
      if (view.eldest === s && view.phase === "auction") roles.push("eldest");
    }
    if (GAME === "schieberamsch") {
      if (view.declarer === s) roles.push("Grand Hand");
      if (view.forehand === s) roles.push("forehand");
    }
    return roles;
  }

  function renderSeats(state, view) {
    const toAct = new Set(state.to_act || []);
    const boxes = [];
    for (let s = 0; s < N_SEATS; s++) {
      const p = cfg.players[s];
      const name = (state.players && state.players[s]) || p.name;
      const tags = [];
      if (s === state.seat) tags.push(h("span", { class: "tag you" }, "you"));
      if (p.bot) tags.push(h("span", { class: "tag" }, "bot"));
      for (const role of seatRole(s, view)) tags.push(h("span", { class: "tag role" }, role));
      const facts = [];
      if (view.hand_sizes) facts.push(`${view.hand_sizes[s]} cards`);
      if (view.tricks_won) facts.push(`${view.tricks_won[s]} tricks`);
      if (GAME === "three_five_eight" && view.targets) facts.push(`target ${view.targets[s]}`);
      if (GAME === "schieberamsch" && view.trick_points) facts.push(`${view.trick_points[s]} pts`);
      if (GAME === "saichugen" && view.game_scores) facts.push(`game ${view.game_scores[s]}`);
      let status = null;
      if (GAME === "saichugen" && state.status === "playing" && view.committed) {
        status = view.committed[s]
          ? h("span", { class: "committed", dataset: { committed: "1" } }, "✓ committed")
          : h("span", { class: "thinking" }, "choosing…");
      } else if (toAct.has(s)) {
        status = h("span", { class: "thinking" }, s === state.seat ? "your turn" : "to act");
      }
      const winner = state.status === "finished" && (view.winners || []).includes(s);
      boxes.push(
        h(
          "div",
          {
            class: `seat${toAct.has(s) ? " turn" : ""}${s === state.seat ? " me" : ""}${winner ? " winner" : ""}`,
            dataset: { seat: String(s) },
          },
          h("div", { class: "seat-top" }, h("span", { class: "seat-name" }, name), ...tags),
          h("div", { class: "seat-facts muted" }, facts.join(" · ")),
          h("div", { class: "seat-status" }, status, h("span", { class: "clock", dataset: { clockSeat: String(s) } })),
        ),
      );
    }
    fill($("seats"), boxes);
  }

  function phaseText(view) {
    const phase = view.phase;
    const names = {
      commit: "everyone commits a card face down",
      bid: "bidding",
      auction: "auction",
      exchange: "card exchange",
      trump: "the dealer names trump",
      discard: "discard",
      call: "the declarer calls a card",
      play: "play",
      offer: "Grand Hand offer",
      skat: "skat passing",
      kontra: "kontra?",
      re: "re?",
      over: "over",
    };
    return names[phase] || phase || "";
  }

  function renderInfo(state, view) {
    const parts = [];
    if (state.status !== "finished") parts.push(cap(phaseText(view)));
    if (GAME === "saichugen") {
      if (state.status !== "finished") parts.push(`round ${view.round + 1} of 5, trick ${view.trick + 1} of 3`);
    } else if (GAME === "three_five_eight") {
      parts.push(view.trump ? `trump ${SUIT_GLYPH[view.trump]} ${SUIT_NAME[view.trump]}` : "no trump yet");
      if (view.targets) parts.push(`targets ${view.targets.map((t, s) => `${seatName(s)} ${t}`).join(", ")}`);
    } else if (GAME === "schieberamsch") {
      parts.push(view.contract === "grand_hand" ? `Grand Hand by ${who(view.declarer)}` : "Ramsch");
      if (view.pushes) parts.push(`${view.pushes} push${view.pushes === 1 ? "" : "es"}`);
      if (view.multiplier && view.multiplier > 1) parts.push(`×${view.multiplier}`);
      if (view.kontra) parts.push("kontra");
      if (view.re) parts.push("re");
    } else if (GAME === "mediatore") {
      if (view.contract) parts.push(`${CONTRACT[view.contract]} by ${who(view.declarer)}`);
      else if (view.high_bid) parts.push(`high bid ${CONTRACT[view.high_bid]}`);
      if (view.called) parts.push(`called ${cardText(view.called)}`);
      if (view.contract === "chiamo" && view.called) {
        if (view.partner !== null && view.partner !== undefined) parts.push(`partner ${who(view.partner)}`);
        else if (view.alone === true) parts.push("the declarer is alone");
        else parts.push("partner secret");
      }
    }
    $("info").textContent = parts.join(" · ");
  }

  function trickSlots(cards, leader, seats, highlight) {
    // cards: [{seat, card}] in play order; empty slots for the seats still to play.
    const out = [];
    const bySeat = new Map(cards.map((c) => [c.seat, c.card]));
    for (let i = 0; i < seats; i++) {
      const s = (leader + i) % seats;
      const card = bySeat.get(s);
      out.push(
        h(
          "figure",
          { class: `slot${highlight === s ? " won" : ""}`, dataset: { slotSeat: String(s) } },
          card === undefined ? h("span", { class: "card empty" }) : card === null ? cardBack() : cardFace(card),
          h("figcaption", null, seatName(s)),
        ),
      );
    }
    return out;
  }

  function lastTrickOf(state, view) {
    // -> {cards: [{seat, card}], leader, winner, note}
    if (GAME === "saichugen") {
      const t = (view.tricks || [])[view.tricks.length - 1];
      if (!t) return null;
      return {
        cards: t.cards.map((card, seat) => ({ seat, card })),
        leader: 0,
        winner: t.winner,
        note: `${seatName(t.winner)} takes ${t.value}`,
      };
    }
    const played = view.played || [];
    const t = played[played.length - 1];
    if (t) {
      return {
        cards: t.cards.map((card, i) => ({ seat: (t.leader + i) % N_SEATS, card })),
        leader: t.leader,
        winner: t.winner,
        note: `${seatName(t.winner)} wins${t.signal ? ` · lead signal ${t.signal}` : ""}`,
      };
    }
    const last = view.last_deal;
    if (last && last.actions) {
      // The previous deal's last trick, from its record (public once the deal ended).
      const plays = last.actions.filter((a) => a.act === "play");
      const tail = plays.slice(-N_SEATS);
      if (tail.length === N_SEATS) {
        return { cards: tail.map((a) => ({ seat: a.seat, card: a.card })), leader: tail[0].seat, winner: null, note: "end of the previous deal" };
      }
    }
    return null;
  }

  function renderTricks(state, view) {
    const trickNode = $("trick");
    if (GAME === "saichugen") {
      const cards = [];
      if (state.status === "playing") {
        (view.committed || []).forEach((done, s) => {
          if (done) cards.push({ seat: s, card: s === state.seat && view.my_commit ? view.my_commit : null });
        });
      }
      fill(trickNode, trickSlots(cards, 0, N_SEATS, null));
    } else if (state.status === "playing" && view.phase === "play") {
      fill(trickNode, trickSlots(view.trick || [], view.leader, N_SEATS, null));
      if (GAME === "mediatore" && view.signal && view.trick && view.trick.length) {
        trickNode.append(h("p", { class: "signal-note" }, `Signal: ${view.signal}`));
      }
    } else {
      fill(trickNode, h("p", { class: "muted" }, state.status === "finished" ? "The match is over." : "No trick yet."));
    }
    const last = lastTrickOf(state, view);
    const lastNode = $("last-trick");
    if (last) {
      fill(lastNode, trickSlots(last.cards, last.leader, N_SEATS, last.winner), h("p", { class: "muted note" }, last.note));
    } else {
      fill(lastNode, h("p", { class: "muted" }, "—"));
    }
  }

  function renderExtra(state, view) {
    // Game-specific public things that are not tricks: the monte, the kitty, the skat.
    const parts = [];
    if (GAME === "mediatore" && view.monte) {
      if (view.monte.shown) parts.push(h("div", { class: "row" }, h("span", { class: "label" }, "Monte (shown): "), view.monte.shown.map((c) => cardFace(c, { class: "card small suit-" + suitOf(c) }))));
      else if (view.monte.seen) parts.push(h("div", { class: "row" }, h("span", { class: "label" }, "Monte (only you saw it): "), view.monte.seen.map((c) => cardFace(c, { class: "card small suit-" + suitOf(c) }))));
      if (view.monte.new) parts.push(h("div", { class: "row" }, h("span", { class: "label" }, "Your new monte: "), view.monte.new.map((c) => cardFace(c, { class: "card small suit-" + suitOf(c) }))));
      if (view.given) parts.push(h("div", { class: "row" }, h("span", { class: "label" }, "Card given back: "), cardFace(view.given, { class: "card small suit-" + suitOf(view.given) })));
    }
    if (GAME === "three_five_eight") {
      if (view.kitty && view.kitty.cards) parts.push(h("div", { class: "row" }, h("span", { class: "label" }, "Kitty you took: "), view.kitty.cards.map((c) => cardFace(c, { class: "card small suit-" + suitOf(c) }))));
      if (view.discards && view.discards.cards && view.discards.cards.length) parts.push(h("div", { class: "row" }, h("span", { class: "label" }, "Your discards: "), view.discards.cards.map((c) => cardFace(c, { class: "card small suit-" + suitOf(c) }))));
      for (const p of (view.exchange && view.exchange.pending) || []) {
        parts.push(h("div", { class: "row muted" }, `Exchange: ${who(p.from)} owes ${who(p.to)} ${p.count} card${p.count === 1 ? "" : "s"}`));
      }
    }
    if (GAME === "schieberamsch" && view.skat_seen) {
      const seen = view.skat_seen;
      if (seen.taken) parts.push(h("div", { class: "row" }, h("span", { class: "label" }, "Skat you picked up: "), seen.taken.map((c) => cardFace(c, { class: "card small suit-" + suitOf(c) }))));
      if (seen.put) parts.push(h("div", { class: "row" }, h("span", { class: "label" }, "Skat you put back: "), seen.put.map((c) => cardFace(c, { class: "card small suit-" + suitOf(c) }))));
    }
    fill($("extra"), parts);
  }

  function promptText(state, view, groups) {
    if (state.status === "finished") return "";
    const mine = state.seat !== null && (state.to_act || []).includes(state.seat);
    if (state.seat === null) {
      return `Waiting for ${(state.to_act || []).map(seatName).join(", ")}.`;
    }
    if (pending) return "Sent — waiting for the table…";
    if (!mine) {
      if (GAME === "saichugen" && view.committed && view.committed[state.seat]) {
        return `You committed ${view.my_commit ? cardText(view.my_commit) : "a card"}; waiting for ${(state.to_act || []).map(seatName).join(", ")}.`;
      }
      return `Waiting for ${(state.to_act || []).map(seatName).join(", ")}.`;
    }
    if (groups.templates.length) return "";
    if (groups.calls.length) return "Your turn: call a card you do not hold.";
    if (groups.plays.size && groups.buttons.length) return "Your turn: play a card or choose below.";
    if (groups.plays.size) return GAME === "saichugen" ? "Your turn: commit a card face down." : "Your turn: play a card.";
    return "Your turn: choose.";
  }

  function renderPrompt(state, view) {
    const node = $("prompt");
    const groups = legalGroups(state);
    const parts = [];
    const text = promptText(state, view, groups);
    const mine = state.seat !== null && (state.to_act || []).includes(state.seat) && !pending;
    if (flash && performance.now() < flash.until) parts.push(h("p", { class: `flash ${flash.kind}` }, flash.text));
    if (text) parts.push(h("p", { class: `prompt-text${mine ? " yours" : ""}`, id: "prompt-text" }, text));
    if (mine && groups.buttons.length) {
      parts.push(
        h(
          "div",
          { class: "buttons", id: "action-buttons" },
          groups.buttons.map((entry) =>
            h("button", { type: "button", class: `act act-${entry.act}`, dataset: actionData(entry), onclick: () => act(entry) }, buttonLabel(entry, view)),
          ),
        ),
      );
    }
    if (mine && groups.calls.length) {
      const bySuit = new Map();
      for (const entry of sortEntries(groups.calls)) {
        const s = suitOf(entry.card);
        if (!bySuit.has(s)) bySuit.set(s, []);
        bySuit.get(s).push(entry);
      }
      parts.push(
        h(
          "div",
          { class: "calls", id: "call-cards" },
          [...bySuit.values()].map((entries) =>
            h(
              "div",
              { class: "call-row" },
              entries.map((entry) =>
                h("button", { type: "button", class: `card-btn suit-${suitOf(entry.card)}`, dataset: { act: "call", card: entry.card }, title: `call the ${cardName(entry.card)}`, onclick: () => act(entry) }, cardFace(entry.card)),
              ),
            ),
          ),
        ),
      );
    }
    if (mine && groups.plays.size) {
      const signals = new Set();
      for (const entries of groups.plays.values()) for (const e of entries) if (e.signal) signals.add(e.signal);
      if (signals.size) {
        parts.push(
          h(
            "div",
            { class: "signals", id: "signals", role: "group", "aria-label": "Signal with your lead" },
            h("span", { class: "label" }, "Signal with your lead: "),
            ["", ...SIGNALS].map((sig) =>
              h(
                "button",
                {
                  type: "button",
                  class: `chip${signal === sig ? " on" : ""}`,
                  "aria-pressed": signal === sig ? "true" : "false",
                  disabled: sig && !signals.has(sig),
                  dataset: { signal: sig || "none" },
                  onclick: () => {
                    signal = sig;
                    render();
                  },
                },
                sig || "none",
              ),
            ),
          ),
        );
      }
    }
    if (mine && groups.templates.length) parts.push(renderChoice(groups.templates));
    fill(node, parts);
  }

  function sortEntries(entries) {
    const key = SORTS[GAME] || (() => 0);
    return entries.slice().sort((a, b) => key(a.card, current.view) - key(b.card, current.view));
  }

  // A multi-card choice: pick the cards in the hand, then confirm.
  function renderChoice(templates) {
    if (!selection || !templates.some((t) => templateKey(t) === selection.key)) {
      selection = { key: templateKey(templates[0]), picks: [], gives: [] };
    }
    const entry = templateFor(selection.key);
    const parts = [];
    if (templates.length > 1) {
      parts.push(
        h(
          "div",
          { class: "buttons" },
          templates.map((t) =>
            h("button", { type: "button", class: `chip${templateKey(t) === selection.key ? " on" : ""}`, onclick: () => { selection = { key: templateKey(t), picks: [], gives: [] }; render(); } }, describeTemplate(t)),
          ),
        ),
      );
    }
    let ready;
    let text;
    if (entry.act === "exchange") {
      const d = entry.discard;
      const g = entry.give;
      text = `Choose ${d.choose} cards to discard face down (${selection.picks.length}/${d.choose})`;
      if (g) text += ` and ${g.choose} card to give to ${who(current.view.giver)} (${selection.gives.length}/${g.choose})`;
      ready = selection.picks.length === d.choose && (!g || selection.gives.length === g.choose);
    } else {
      text = `${describeTemplate(entry)} (${selection.picks.length}/${entry.choose})`;
      ready = selection.picks.length === entry.choose;
    }
    parts.push(h("p", { class: "prompt-text yours", id: "choice-text" }, `Your turn: ${text}. Tap cards in your hand, then confirm.`));
    parts.push(
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", id: "confirm", class: "confirm", disabled: !ready, onclick: confirmChoice }, "Confirm"),
        h("button", { type: "button", id: "clear-choice", class: "secondary", disabled: !selection.picks.length && !selection.gives.length, onclick: () => { selection.picks = []; selection.gives = []; render(); } }, "Clear"),
      ),
    );
    return h("div", { class: "choice", id: "choice" }, parts);
  }

  function describeTemplate(t) {
    if (t.act === "give") return `Give ${t.choose} card${t.choose === 1 ? "" : "s"} to ${who(t.to)}`;
    if (t.act === "discard") return `Discard ${t.choose} cards face down`;
    return cap(t.act);
  }

  function confirmChoice() {
    const entry = selection && templateFor(selection.key);
    if (!entry) return;
    if (entry.act === "exchange") {
      act({ act: "exchange", discard: selection.picks.slice(), give: entry.give ? selection.gives[0] : null });
    } else {
      const action = { act: entry.act, cards: selection.picks.slice() };
      if (entry.to !== undefined) action.to = entry.to;
      act(action);
    }
  }

  function toggleChoice(card) {
    const entry = selection && templateFor(selection.key);
    if (!entry) return;
    const drop = (list) => {
      const i = list.indexOf(card);
      if (i >= 0) list.splice(i, 1);
      return i >= 0;
    };
    if (drop(selection.picks) || drop(selection.gives)) {
      render();
      return;
    }
    const first = entry.act === "exchange" ? entry.discard : entry;
    if (selection.picks.length < first.choose && first.from.includes(card)) selection.picks.push(card);
    else if (entry.act === "exchange" && entry.give && selection.gives.length < entry.give.choose && entry.give.from.includes(card)) selection.gives.push(card);
    render();
  }

  function renderHand(state, view) {
    const box = $("hand-box");
    if (state.seat === null || (state.status === "finished" && !(view.hand || []).length)) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    $("legend").textContent = ITALIAN ? "◆ denari · ♥ coppe · ♠ spade · ♣ bastoni" : "";
    const groups = legalGroups(state);
    const mine = (state.to_act || []).includes(state.seat) && !pending;
    const entry = mine && selection ? templateFor(selection.key) : null;
    const choosable = new Set();
    if (entry) {
      for (const c of entry.act === "exchange" ? entry.discard.from : entry.from) choosable.add(c);
      if (entry.act === "exchange" && entry.give) for (const c of entry.give.from) choosable.add(c);
    }
    const cards = sortCards(view.hand || [], view).map((card) => {
      let onclick = null;
      let playable = false;
      let cls = "card-btn";
      if (entry) {
        playable = choosable.has(card);
        if (selection.picks.includes(card)) cls += entry.act === "exchange" ? " picked discard" : " picked";
        if (selection.gives.includes(card)) cls += " picked give";
        onclick = () => toggleChoice(card);
      } else if (mine && groups.plays.has(card)) {
        const options = groups.plays.get(card);
        const choice = options.find((e) => (e.signal || "") === signal);
        playable = Boolean(choice);
        onclick = () => act(choice);
      }
      if (playable) cls += " legal";
      if (pending && pending.action.card === card) cls += " sending";
      const badge = selection && entry
        ? selection.picks.includes(card)
          ? h("span", { class: "badge" }, entry.act === "exchange" ? "discard" : entry.act)
          : selection.gives.includes(card)
            ? h("span", { class: "badge give" }, "give")
            : null
        : null;
      return h(
        "button",
        {
          type: "button",
          class: `${cls} suit-${suitOf(card)}`,
          disabled: !playable,
          "aria-pressed": entry ? String(selection.picks.includes(card) || selection.gives.includes(card)) : null,
          "aria-label": cardName(card),
          dataset: { card },
          onclick: playable ? onclick : null,
        },
        cardFace(card),
        badge,
      );
    });
    fill($("hand"), cards.length ? cards : [h("p", { class: "muted" }, "No cards.")]);
  }

  // ------------------------------------------------------------------ scores
  function seatHeader(extra) {
    return h("tr", null, h("th", null, extra || ""), cfg.players.map((p, s) => h("th", { class: s === current.seat ? "me" : null, title: seatName(s) }, seatName(s))));
  }
  function seatRow(label, values, attrs) {
    return h("tr", attrs || null, h("th", { scope: "row" }, label), values.map((v, s) => h("td", { dataset: { seat: String(s) } }, v === null || v === undefined ? "—" : String(v))));
  }
  const signed = (n) => (n > 0 ? `+${n}` : String(n));

  function renderDealScores(state, view) {
    const rows = [];
    if (GAME === "saichugen") {
      (view.rounds || []).forEach((r, i) => {
        rows.push(seatRow(`round ${i + 1}`, r.scores.map((sc, s) => (r.banked[s] ? `${sc} ✓` : `${sc}`))));
      });
      if (state.status === "playing") rows.push(seatRow(`round ${view.round + 1} so far`, view.round_scores || []));
      rows.push(seatRow("game score", view.game_scores || [], { class: "total" }));
    } else if (GAME === "three_five_eight") {
      rows.push(seatRow("target", view.targets || []));
      rows.push(seatRow("tricks", view.tricks_won || []));
      if (view.targets && view.tricks_won) rows.push(seatRow("vs target", view.tricks_won.map((t, s) => signed(t - view.targets[s]))));
      rows.push(seatRow("running balance", (view.cum || []).map(signed), { class: "total" }));
    } else if (GAME === "schieberamsch") {
      rows.push(seatRow("tricks", view.tricks_won || []));
      rows.push(seatRow("card points", view.trick_points || []));
      if (view.outcome) rows.push(seatRow("outcome", cfg.players.map(() => view.outcome.kind || "")));
    } else if (GAME === "mediatore") {
      rows.push(seatRow("tricks", view.tricks_won || []));
      rows.push(seatRow("thirds", view.thirds_taken || []));
    }
    fill($("deal-scores"), h("div", { class: "scroll" }, h("table", { class: "scores" }, h("thead", null, seatHeader()), h("tbody", null, rows))));
  }

  function renderMatchScores(state, view) {
    const results = (state.result && state.result.deals) || view.results || [];
    const rows = results.map((d, i) =>
      seatRow(`deal ${i + 1}`, d.payouts.map((p, s) => `${signed(p)} (${d.scores[s]})`)),
    );
    const totals = (state.result && state.result.totals && state.result.totals.payouts) || view.totals || [];
    rows.push(seatRow("total", totals.map(signed), { class: "total", id: "match-total" }));
    fill(
      $("match-scores"),
      h("div", { class: "scroll" }, h("table", { class: "scores" }, h("thead", null, seatHeader()), h("tbody", null, rows))),
      h("p", { class: "muted note" }, "Per deal: payout (score)."),
    );
  }

  // ------------------------------------------------------------------ the log
  function trickLine(t, i) {
    const cards = t.cards.map((c, k) => `${seatName((t.leader + k) % N_SEATS)} ${cardText(c)}`).join(", ");
    const sig = t.signal ? ` (${t.signal})` : "";
    return `Trick ${i + 1}: ${cards}${sig} → ${seatName(t.winner)}`;
  }

  function bidLine(b) {
    if (b.act === "pass") return `${seatName(b.seat)} passes`;
    return `${seatName(b.seat)} bids ${b.contract ? CONTRACT[b.contract] : b.tricks}`;
  }

  function logLines(state, view) {
    const lines = [];
    const results = view.results || [];
    if (view.last_deal && results.length && state.status === "playing") {
      const d = results[results.length - 1];
      lines.push(`Deal ${results.length} ended: payouts ${d.payouts.map((p, s) => `${seatName(s)} ${signed(p)}`).join(", ")}.`);
    }
    if (GAME === "saichugen") {
      const tricks = view.tricks || [];
      tricks.forEach((t, i) => {
        const cards = t.cards.map((c, s) => `${seatName(s)} ${cardText(c)}`).join(", ");
        lines.push(`Round ${t.round + 1}: ${cards} → ${seatName(t.winner)} takes ${t.value}`);
        const r = (view.rounds || [])[t.round];
        const endOfRound = i === tricks.length - 1 || tricks[i + 1].round !== t.round;
        if (r && endOfRound) {
          const banked = r.banked.map((b, s) => (b ? `${seatName(s)} ${b}` : null)).filter(Boolean);
          lines.push(`Round ${t.round + 1} scores ${r.scores.join(" / ")}: banked by ${banked.length ? banked.join(", ") : "the median (0)"}.`);
        }
      });
      if (state.status === "playing") {
        (view.committed || []).forEach((c, s) => { if (c) lines.push(`${seatName(s)} has committed a card.`); });
      }
    } else if (GAME === "three_five_eight") {
      for (const b of view.bids || []) lines.push(bidLine(b));
      for (const p of (view.exchange && view.exchange.passes) || []) {
        let line = `${seatName(p.from)} gives ${p.count} card${p.count === 1 ? "" : "s"} to ${seatName(p.to)}`;
        if (p.cards) line += ` (${p.cards.map(cardText).join(" ")}), gets back ${p.returned.map(cardText).join(" ")}`;
        lines.push(line);
      }
      if (view.trump) lines.push(`${seatName(view.dealer)} names ${SUIT_NAME[view.trump]} trump`);
      if (view.discards && view.discards.count) lines.push(`${seatName(view.dealer)} discards ${view.discards.count} cards${view.discards.cards ? ` (${view.discards.cards.map(cardText).join(" ")})` : ""}`);
      if (view.kitty && view.kitty.taken) lines.push(`${seatName(view.dealer)} takes the kitty`);
      (view.played || []).forEach((t, i) => lines.push(trickLine(t, i)));
    } else if (GAME === "schieberamsch") {
      for (const o of view.offers || []) lines.push(o.act === "grand_hand" ? `${seatName(o.seat)} announces a Grand Hand` : `${seatName(o.seat)} passes the Grand Hand offer`);
      for (const d of view.doubles || []) lines.push(d.act === "pass" ? `${seatName(d.seat)} passes` : `${seatName(d.seat)} says ${d.act}`);
      for (const m of view.skat_moves || []) lines.push(m.act === "push" ? `${seatName(m.seat)} pushes the skat` : m.act === "pickup" ? `${seatName(m.seat)} picks up the skat` : `${seatName(m.seat)} ${m.act}`);
      (view.played || []).forEach((t, i) => lines.push(trickLine(t, i)));
    } else if (GAME === "mediatore") {
      for (const b of view.bids || []) lines.push(bidLine(b));
      if (view.called) lines.push(`${seatName(view.declarer)} calls ${cardText(view.called)}`);
      if (view.giver !== null && view.giver !== undefined) lines.push(`${seatName(view.giver)} hands ${cardText(view.called)} over`);
      if (view.monte && view.monte.shown) lines.push(`Monte shown: ${view.monte.shown.map(cardText).join(" ")}`);
      (view.played || []).forEach((t, i) => lines.push(trickLine(t, i)));
    }
    if (state.status === "finished" && state.result) {
      lines.push(`Match over: ${(state.result.winners || []).map(seatName).join(", ")} won.`);
    }
    return lines;
  }

  function renderLog(state, view) {
    const lines = logLines(state, view);
    const node = $("log");
    const atBottom = node.scrollHeight - node.scrollTop - node.clientHeight < 30;
    fill(node, lines.map((line) => h("li", null, line)));
    if (atBottom) node.scrollTop = node.scrollHeight;
  }

  // ------------------------------------------------------------------ the end
  function renderFinal(state, view) {
    const node = $("final");
    if (state.status !== "finished" || !state.result) {
      node.hidden = true;
      return;
    }
    const result = state.result;
    const winners = result.winners || [];
    const recordUrl = cfg.recordUrl + (token ? `?token=${encodeURIComponent(token)}` : "");
    const forfeited = result.forfeited || [];
    fill(
      node,
      h("h2", null, "Match over"),
      h(
        "p",
        { class: "winners", id: "winners" },
        winners.length === N_SEATS ? "All seats share the win." : `Winner${winners.length === 1 ? "" : "s"}: ${winners.map(who).join(", ")}`,
        state.seat !== null && winners.includes(state.seat) ? " — well played!" : "",
      ),
      forfeited.length ? h("p", { class: "muted" }, `Forfeited on time: ${forfeited.map(seatName).join(", ")}`) : null,
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "scores", id: "final-scores" },
          h("thead", null, seatHeader()),
          h(
            "tbody",
            null,
            h("tr", null, h("th", { scope: "row" }, "score"), result.totals.scores.map((v, s) => h("td", { dataset: { finalScore: String(s) } }, String(v)))),
            h("tr", { class: "total" }, h("th", { scope: "row" }, "payout"), result.totals.payouts.map((v, s) => h("td", { dataset: { finalPayout: String(s) } }, signed(v)))),
          ),
        ),
      ),
      h("p", null, h("a", { href: recordUrl, id: "record-link" }, "The game record (mediana.record/1)"), h("span", { class: "muted" }, " — every card and every choice, replayable.")),
    );
    node.hidden = false;
  }

  // ------------------------------------------------------------------ the clock
  function tick() {
    if (!current) return;
    const elapsed = (performance.now() - clockAt) / 1000;
    const toAct = new Set(current.status === "playing" ? current.to_act || [] : []);
    for (const node of document.querySelectorAll("[data-clock-seat]")) {
      const s = Number(node.dataset.clockSeat);
      if (!current.clock || !(String(s) in current.clock) || !toAct.has(s)) {
        node.textContent = "";
        continue;
      }
      const left = Math.max(0, current.clock[String(s)] - elapsed);
      const m = Math.floor(left / 60);
      const sec = Math.floor(left % 60);
      node.textContent = ` · ${m}:${String(sec).padStart(2, "0")} left`;
      node.classList.toggle("low", left < 10);
    }
    updateBanner();
    if (flash && performance.now() >= flash.until) {
      flash = null;
      renderPrompt(current, current.view || {});
    }
    if (pending && performance.now() - pending.at > 10000 && ws) {
      // No answer for a long time: ask for the state; the action is re-sent if still legal.
      pending.resend = true;
      pending.at = performance.now();
      send({ type: "sync" });
    }
  }

  setInterval(() => {
    tick();
    watchdog();
  }, 250);
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      if (!ws) reconnectNow();
      else send({ type: "sync" });
    }
  });

  // For the browser tests and the curious: the last state and the connection.
  window.medianaTable = {
    state: () => current,
    pending: () => pending,
    connected: () => Boolean(ws && ws.readyState === WebSocket.OPEN),
    drop: () => ws && ws.close(),
  };

  connect();
})();
