// The browser table's core: a client of the table protocol `mediana.table/1`
// (/work/shared/spec/table-protocol.md, docs/browser.md). Plain JavaScript, no framework.
//
// Everything shown comes from the last `state` message: the hand, the legal actions, the view's
// public fields, the clock and the result. The client holds no rules: a card or a button is
// enabled only when the server listed the action in `legal`.
//
// This file knows the protocol and the pieces every game shares (the socket, seq and re-sends,
// seats, clock, tricks, hand, prompt, scores, log, the end). What differs per game lives in
// the game's own module, games/<game>/site/table.js (served as static/games/<game>/table.js),
// loaded after this file, which calls
// `Mediana.registerGame(name, hooks)`; the page starts once the document is parsed, with the
// hooks registered under the table's game (see HOOKS below for the list).
(function () {
  "use strict";

  const cfg = JSON.parse(document.getElementById("table-config").textContent);
  const token = new URLSearchParams(window.location.search).get("token");
  const $ = (id) => document.getElementById(id);
  const N_SEATS = cfg.players.length;

  // ------------------------------------------------------------------ translations
  // Django's JavaScript catalog (the djangojs domain at /i18n/js/, loaded by the page before
  // this file) defines gettext & co. in the page's language; without it, English.
  // docs/translations.md: every text a person reads goes through these (modules: M.gettext…).
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((s, p, n) => (n === 1 ? s : p));
  const pgettext = window.pgettext || ((c, s) => s);
  const npgettext = window.npgettext || ((c, s, p, n) => (n === 1 ? s : p));
  // fmt("%(name)s wins", {name}): named placeholders, as in the Python catalogues.
  const fmt = (text, params) => text.replace(/%\((\w+)\)s/g, (m, key) => (key in params ? String(params[key]) : m));

  // ------------------------------------------------------------------ tiny DOM helper
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) listen(node, key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // A listener through the node's `on` table, so that `morph` can hand a kept node the fresh
  // node's handlers (closures over the newest state) without adding listeners.
  function listen(node, type, handler) {
    if (!node.on) node.on = {};
    if (!(type in node.on)) node.addEventListener(type, (event) => node.on[type] && node.on[type](event));
    node.on[type] = handler;
  }

  function fill(node, ...children) {
    node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
  }

  // Like fill, but the nodes already there are kept and brought up to date where they match
  // (a card by its data-card, else the same tag and id at the same place): a state arriving
  // between a press and its release (another seat's move) must not swallow the click, which a
  // replaced button would. Used for what a player clicks: the hand and the prompt.
  function morphInto(node, ...children) {
    const fresh = children.flat().filter((c) => c !== null && c !== undefined).map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
    const olds = [...node.childNodes];
    const byCard = new Map(olds.filter((c) => c.dataset && c.dataset.card).map((c) => [c.dataset.card, c]));
    const kept = fresh.map((f, i) => {
      const key = f.dataset && f.dataset.card;
      const was = key ? byCard.get(key) : olds[i];
      if (!was || was.nodeName !== f.nodeName || (!key && (was.dataset && was.dataset.card))) return f;
      if (f.nodeType === Node.TEXT_NODE) {
        if (was.data !== f.data) was.data = f.data;
        return was;
      }
      if (f.nodeType !== Node.ELEMENT_NODE || was.id !== f.id) return f;
      for (const a of [...was.attributes]) if (!f.hasAttribute(a.name)) was.removeAttribute(a.name);
      for (const a of [...f.attributes]) if (was.getAttribute(a.name) !== a.value) was.setAttribute(a.name, a.value);
      for (const [type, handler] of Object.entries(f.on || {})) listen(was, type, handler);
      for (const type of Object.keys(was.on || {})) if (!(f.on && f.on[type])) was.on[type] = null;
      morphInto(was, [...f.childNodes]);
      return was;
    });
    const same = kept.length === olds.length && kept.every((c, i) => olds[i] === c);
    if (!same) node.replaceChildren(...kept);
  }

  // ------------------------------------------------------------------ hints
  // What a contract, a signal or a target means: the engine's HINTS, put in the page config by
  // the server (games/core/hints.py). A hinted thing has a `title` for the mouse and an
  // (i) beside it that a tap (or Enter) opens and closes; hovering the (i) opens it too. The
  // (i) is a span, not a button: "#action-buttons button" stays the list of actions.
  const hints = cfg.hints || {};
  let openHint = null; // the id (key@where) of the explanation a tap opened, kept across renders
  const hint = (key) => (key && hints[key]) || "";

  // Keep an open explanation inside the window (a hinted thing near its edge).
  function placeHint(tip) {
    const box = tip.lastChild;
    box.style.marginLeft = "0px";
    const r = box.getBoundingClientRect();
    if (!r.width || getComputedStyle(box).position === "fixed") return;
    const pad = 8;
    let shift = 0;
    if (r.right > window.innerWidth - pad) shift = window.innerWidth - pad - r.right;
    if (r.left + shift < pad) shift = pad - r.left;
    box.style.marginLeft = `${shift}px`;
  }
  function syncHints() {
    for (const node of document.querySelectorAll(".hint[data-hint-id]")) {
      const on = node.dataset.hintId === openHint;
      node.classList.toggle("open", on);
      node.firstChild.setAttribute("aria-expanded", on ? "true" : "false");
      if (on) placeHint(node);
    }
  }
  function toggleHint(event) {
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    const id = event.currentTarget.parentNode.dataset.hintId;
    openHint = openHint === id ? null : id;
    // Closed by a second click: let go of the focus too, or a mouse's :focus-within keeps it shown.
    if (openHint === null) event.currentTarget.blur();
    syncHints();
  }
  // The (i) of `key` (null when the game has no such hint); `where` tells apart two places
  // showing the same key (the contract in the board line and on the declarer's seat).
  function hintTip(key, where) {
    const text = hint(key);
    if (!text) return null;
    const id = `${key}@${where || ""}`;
    const open = openHint === id;
    return h(
      "span",
      { class: `hint${open ? " open" : ""}`, dataset: { hint: key, hintId: id }, onpointerenter: (event) => placeHint(event.currentTarget) },
      h("span", { class: "hint-i", role: "button", tabindex: "0", title: "", "aria-label": cfg.hintLabel || gettext("What does this mean?"), "aria-expanded": open ? "true" : "false", onclick: toggleHint, onkeydown: toggleHint }, "i"),
      h("span", { class: "hint-text", role: "tooltip" }, text),
    );
  }
  // `content` with its explanation: a title and the (i); just `content` without a hint.
  function hinted(content, key, where) {
    const text = hint(key);
    if (!text) return content;
    return h("span", { class: "hinted", title: text }, content, hintTip(key, where));
  }
  // The hint of a legal entry's button: the game's own key, else its contract or its act.
  function hintKeyOf(entry) {
    const own = game.hintKey && game.hintKey(entry);
    if (own) return own;
    return entry.contract ? `contract.${entry.contract}` : `act.${entry.act}`;
  }
  // Escape closes an explanation, whether a tap opened it or the focus shows it.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".hint");
    if (!openHint && !focused) return;
    openHint = null;
    if (focused) document.activeElement.blur();
    syncHints();
  });
  document.addEventListener("click", (event) => {
    if (openHint && !event.target.closest(".hint")) {
      openHint = null;
      syncHints();
    }
  });

  // ------------------------------------------------------------------ the game's hooks
  // Every hook is optional; a game module registers only what differs from these defaults.
  //   deck                     {glyph, suit, rank, legend}: suit glyphs and names, rank names;
  //                            optional letter {rank: letter} (the page language's, "home"),
  //                            pip(suit) a node drawing the suit ("home"), french {glyph,
  //                            letter} (the faces when the viewer chose "french")
  //   sortKey(card, view)      a number; the hand (and the module's own card lists) sort by it
  //   phases                   {phase: label or view => label}; an unlisted phase shows its own name
  //   decision(view)           what a decision is (a click is re-sent only at the same one)
  //   seatRoles(s, view)       the role tags of a seat (default: dealer)
  //   seatFacts(s, view)       facts after cards and tricks (target, points…)
  //   seatStatus(s, state, view)  a node, or undefined for "your turn" / "to act"
  //   seatBadge(s, state, view)  what the seat just said in this phase (a bid, a pass, a push,
  //                            a call…) as a short text or node, shown on the seat; null: none
  //   info(state, view)        the board line's parts after the phase (trump, contract…)
  //   currentTrick(state, view)   a flat array of nodes for the current trick, or undefined
  //   lastTrick(state, view)   replaces the default last trick: {cards, leader, winner, note}
  //   extra(state, view)       the game's other public things (kitty, monte, skat)
  //   waitingText(state, view) the prompt while waiting, or undefined for the default
  //   turnText(state, view, groups)  the prompt on your turn, or undefined for the default
  //   claims(entry)            true for legal entries the module renders itself (in controls)
  //   buttonLabel(entry, view) a button's label, or undefined for the default
  //   controls(state, view, groups)  nodes after the buttons (a call grid, signals)
  //   pickPlay(options, view)  which of a card's legal entries a click sends (or none)
  //   onAct(action)            a click was sent: forget the module's own choices
  //   choice(entry, view)      a multi-card template's UI ({groups, describe, text, action,
  //                            allows}, see pickCards), or undefined for the default
  //   dealRows(state, view)    the rows of "This deal"
  //   log(state, view)         the deal's log lines
  //   acts                     {act: () => text}: the game's acts as a person reads them (a
  //                            button, a picked card's badge, the log); play and pass are shared
  //   reasons                  {code: (params, message) => text}: the game's own reason codes
  //   summary                  the end of a deal in words (static/js/summary.js): {kinds: {kind:
  //                            text}, parts: {code: (part, w) => [line, label]}, notes: {code:
  //                            (note, w) => text}, rows: {code: text}}
  const FRENCH = {
    glyph: { S: "♠", H: "♥", D: "♦", C: "♣" },
    suit: { S: pgettext("suit", "spades"), H: pgettext("suit", "hearts"), D: pgettext("suit", "diamonds"), C: pgettext("suit", "clubs") },
    rank: { A: pgettext("card", "ace"), K: pgettext("card", "king"), Q: pgettext("card", "queen"), J: pgettext("card", "jack"), T: "10" },
    // The letters a card shows, as the page's language reads them (German: B D K A).
    letter: { J: pgettext("card letter", "J"), Q: pgettext("card letter", "Q"), K: pgettext("card letter", "K"), A: pgettext("card letter", "A") },
    legend: "",
  };
  // The viewer's choice (accounts/preferences.py, the root's data-card-faces): "home" draws a
  // game's cards as its home does, "french" with J Q K A and the French suits.
  const FACES = (document.getElementById("table-app") || { dataset: {} }).dataset.cardFaces === "french" ? "french" : "home";
  const games = {};
  const renderHooks = []; // fn(state, view) after every render (static/js/summary.js)
  let game = {};
  const deck = () => game.deck || FRENCH;

  function registerGame(name, hooks) {
    games[name] = hooks;
  }

  // ------------------------------------------------------------------ cards
  const rankOf = (card) => card.slice(0, -1);
  const suitOf = (card) => card.slice(-1);
  const faces = (d) => (FACES === "french" ? d.french || {} : d);
  const rankLabel = (card) => {
    const rank = rankOf(card);
    if (rank === "T") return "10";
    const letters = faces(deck()).letter;
    return (letters && letters[rank]) || rank;
  };
  // The hand's legend: text, or nodes (a game's drawn suits) from a function.
  const legendOf = () => {
    const legend = faces(deck()).legend ?? deck().legend;
    return typeof legend === "function" ? legend() : legend || "";
  };
  const glyphOf = (suit) => faces(deck()).glyph?.[suit] || deck().glyph[suit] || suit;
  const cardName = (card) =>
    fmt(gettext("%(rank)s of %(suit)s"), { rank: deck().rank[rankOf(card)] || rankOf(card), suit: deck().suit[suitOf(card)] || suitOf(card) });
  const suitName = (suit) => deck().suit[suit] || suit;
  const cardText = (card) => `${rankLabel(card)}${glyphOf(suitOf(card))}`;

  function sortCards(cards, view) {
    const key = game.sortKey || (() => 0);
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
      h("span", { class: "pip" }, FACES === "home" && deck().pip ? deck().pip(suitOf(card)) : glyphOf(suitOf(card))),
    );
  }
  const cardBack = (label) => h("span", { class: "card back", title: label || gettext("face down") });
  // A labelled row of small cards (the kitty, the monte, the skat…).
  const cardRow = (label, cards) =>
    h("div", { class: "row" }, h("span", { class: "label" }, label), cards.map((c) => cardFace(c, { class: "card small suit-" + suitOf(c) })));

  // ------------------------------------------------------------------ names
  const seatName = (s) => (s === null || s === undefined ? "—" : (cfg.players[s] || {}).name || fmt(gettext("seat %(seat)s"), { seat: s + 1 }));
  const who = (s) => (typeof s === "number" && s === cfg.seat ? fmt(gettext("%(name)s (you)"), { name: seatName(s) }) : seatName(s));
  const names = (seats) => (seats || []).map(seatName).join(", ");
  const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const signed = (n) => (n > 0 ? `+${n}` : String(n));

  // ------------------------------------------------------------------ state
  let current = null; // the last state message
  let lastSeq = -1;
  let pending = null; // {action, id, seq, decision, stale, resend}: a click not yet seen applied
  let selection = null; // a multi-card choice in progress: {key, picks: [[cards] per group]}
  let lifted = null; // a card tapped once while moves are confirmed: {card, decision}
  let clockAt = 0; // performance.now() when `current.clock` was received
  let idCounter = 0;
  let flash = null; // {text, kind, until}
  const clockNotes = new Map(); // seq -> {deal, text}: actions the clock took (state.last_action)
  // After the clock took this seat's decision, a click in the next moments was made for the
  // decision it took (the page changed under the pointer): it is dropped, never applied to the
  // new decision. LATE_CLICK_MS: how long such a click counts as late.
  const LATE_CLICK_MS = 1500;
  let lateUntil = 0;

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
      withButton ? h("button", { type: "button", id: "reconnect-now", onclick: reconnectNow }, gettext("Reconnect now")) : null,
    );
    node.hidden = false;
  }

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (ws) return;
    setConn("connecting", everConnected ? gettext("reconnecting…") : gettext("connecting…"));
    const socket = new WebSocket(socketUrl());
    ws = socket;
    socket.addEventListener("open", () => {
      if (ws !== socket) return;
      attempts = 0;
      everConnected = true;
      lastMessageAt = performance.now();
      syncSentAt = 0;
      setConn("live", gettext("connected"));
      banner(null);
      // The server sends the current state on connect; an action sent before the connection
      // dropped is re-sent then (same id: applied at most once).
      if (pending) pending.resend = true;
      hear({ type: "open" });
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
      else if (msg.type === "error" && !String(msg.reason || "").startsWith("chat_")) onError(msg);
      hear(msg);
    });
    socket.addEventListener("close", (event) => {
      if (ws !== socket) return;
      ws = null;
      if (event.code === 4403) {
        setConn("down", gettext("refused"));
        banner(gettext("The server refused this connection: you may not sit at or watch this table."));
        return;
      }
      if (current && current.status === "finished") {
        setConn("idle", gettext("match over"));
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
    setConn("down", gettext("disconnected"));
    updateBanner();
  }

  function updateBanner() {
    if (ws || !retryTimer) return;
    const secs = Math.max(0, Math.ceil((retryAt - performance.now()) / 1000));
    banner(
      fmt(gettext("Connection lost — your cards and the table are safe on the server. Reconnecting in %(secs)s s…"), { secs }),
      true,
    );
  }

  function reconnectNow() {
    if (ws) return;
    attempts = 0;
    connect();
  }

  // The extension point (static/js/chat.js, docs/chat.md): a listener hears every message of
  // the socket, and `{type: "open"}` for each connection opened; an error whose reason starts
  // with "chat_" is the listener's to show, not the table's.
  const listeners = [];
  function hear(msg) {
    for (const listener of listeners) {
      try {
        listener(msg);
      } catch (e) {
        console.error(e);
      }
    }
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
      const choice = choiceOf(entry, state.view || {});
      if (choice ? choice.allows(action) : sameAction(entry, action)) return true;
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

  // The decision a state asks for: a click is re-sent only while the table is still at the one
  // it was made for (the protocol: same deal, same trick or phase), and a state at another
  // decision means it was applied or overtaken (a timeout), never that it should land there.
  function decisionOf(state) {
    const view = state.view || {};
    const key = game.decision ? game.decision(view) : [view.deal, view.phase, (view.played || []).length];
    return JSON.stringify(key);
  }

  function act(action) {
    if (!current || pending || cfg.seat === null) return;
    if (performance.now() < lateUntil) return; // made for the decision the clock took
    if (!isLegal(action, current)) return;
    // `seen`: the newest state this page had at the click; only a later one can show it applied.
    pending = { action, id: newId(), seq: current.seq, seen: lastSeq, decision: decisionOf(current), stale: false, resend: false, at: performance.now() };
    endHold(); // a click during the hold: the table moves on
    selection = null;
    lifted = null;
    if (game.onAct) game.onAct(action);
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
    tableMoved(current, msg); // the card table: hold a gathered trick, the card sound
    noteClock(msg);
    const gap = lastSeq >= 0 && msg.seq > lastSeq + 1; // states missed (a reconnection)
    const tookMine = lastSeq >= 0 && msg.seq > lastSeq && tookForMe(msg);
    current = msg;
    lastSeq = msg.seq;
    clockAt = performance.now();
    if (tookMine) {
      // The clock decided for this seat: whatever was under way for that decision is dropped.
      pending = null;
      selection = null;
      lateUntil = performance.now() + LATE_CLICK_MS;
      showFlash(gettext("Time ran out: the clock chose for you. Look at the table before your next move."), "error");
    }
    if (pending) {
      const mineActed = msg.last_action && msg.last_action.seat === cfg.seat && msg.seq > pending.seen;
      if (mineActed || !isLegal(pending.action, msg) || decisionOf(msg) !== pending.decision) {
        // Applied (the state shows it), overtaken (this seat acted since: the clock, or it was
        // applied among states missed), or no longer possible: never re-sent.
        pending = null;
      } else if (gap || (pending.stale && msg.seq !== pending.seq) || pending.resend) {
        // The protocol: after `stale`, re-send the same action with the same id and the new
        // seq while it is still legal at the same decision, so a click is never lost. After
        // missed states (a reconnection) too: if it had been applied, or the clock had moved for
        // this seat, the decision or the legal moves would show it.
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
    showFlash(errorText(msg), "error");
    render();
  }

  // An error in the reader's language: an `illegal` one from its reason code and params (the
  // English `message` is for bots), the protocol's other codes by name, else the message.
  function errorText(msg) {
    if (msg.code === "illegal" && msg.reason) return reasonText({ code: msg.reason, params: msg.params, message: msg.message });
    const own = ERROR_TEXT[msg.code];
    return own ? own() : msg.message || msg.code;
  }
  const ERROR_TEXT = {
    not_your_turn: () => gettext("It is not your turn."),
    bad_message: () => gettext("The server could not read that message."),
    forbidden: () => gettext("Spectators cannot play."),
  };

  function showFlash(text, kind) {
    flash = { text, kind, until: performance.now() + 6000 };
  }

  // ------------------------------------------------------------------ what the legal list offers
  function legalGroups(state) {
    const plays = new Map(); // card -> [entries] (play / commit, with or without signal)
    const claimed = []; // entries the game module renders itself (its `controls`)
    const templates = [];
    const buttons = [];
    const view = state.view || {};
    for (const entry of state.legal || []) {
      if ((entry.act === "play" || entry.act === "commit") && entry.card) {
        if (!plays.has(entry.card)) plays.set(entry.card, []);
        plays.get(entry.card).push(entry);
      } else if (game.claims && game.claims(entry)) claimed.push(entry);
      else if (choiceOf(entry, view)) templates.push(entry);
      else buttons.push(entry);
    }
    return { plays, claimed, templates, buttons };
  }

  const templateKey = (entry) => JSON.stringify(entry);
  function templateFor(key) {
    if (!current) return null;
    return (current.legal || []).find((e) => templateKey(e) === key) || null;
  }

  // A template `{act, choose, from, to?}` (the protocol's discard and give): one group of cards
  // to pick. A game module passes its own label; `choice` hooks build richer ones.
  function pickCards(entry, label) {
    const describe = label || cap(actName(entry.act));
    return {
      groups: [{ choose: entry.choose, from: entry.from, picked: "picked", badge: actName(entry.act) }],
      describe,
      text: (picks) => `${describe} (${picks[0].length}/${entry.choose})`,
      action: (picks) => {
        const action = { act: entry.act, cards: picks[0].slice() };
        if (entry.to !== undefined) action.to = entry.to;
        return action;
      },
      allows: (action) => (entry.to === undefined || entry.to === action.to) && pickOk(action.cards, entry),
    };
  }

  function choiceOf(entry, view) {
    return (game.choice && game.choice(entry, view)) || ("choose" in entry ? pickCards(entry) : null);
  }

  function buttonLabel(entry, view) {
    const own = game.buttonLabel && game.buttonLabel(entry, view);
    if (own) return own;
    return cap(actName(entry.act));
  }

  // The acts every trick game has, as a person reads them; a game words its own (`acts`).
  const ACTS = {
    pass: () => pgettext("act", "pass"),
    play: () => pgettext("act", "play"),
  };
  const actName = (act) => {
    const word = (game.acts && game.acts[act]) || ACTS[act];
    return word ? word() : String(act).replace(/_/g, " ");
  };

  function actionData(entry) {
    const data = { act: entry.act };
    for (const key of ["contract", "tricks", "suit", "card", "to"]) {
      if (entry[key] !== undefined && entry[key] !== null) data[key] = String(entry[key]);
    }
    return data;
  }

  // ------------------------------------------------------------------ rendering
  // The seats that play the current deal, first player first: at a table of four for a
  // three-player game the dealer sits out (`view.playing`, `view.sitter`); else every seat.
  let playing = null;
  function playOrder(leader) {
    const seats = playing || [...Array(N_SEATS).keys()];
    const at = seats.indexOf(leader);
    return at < 0 ? seats : [...seats.slice(at), ...seats.slice(0, at)];
  }
  const sitsOut = (s, view) => view.sitter !== undefined && view.sitter !== null && view.sitter === s;

  function render() {
    if (!current) return;
    const state = current;
    const view = state.view || {};
    playing = view.playing || null;
    document.title = `${cfg.gameName} · ${state.status === "finished" ? gettext("finished") : gettext("playing")} · Mediana`;
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
    for (const fn of renderHooks) fn(state, view);
    markScrollers();
  }

  // A score table wider than its panel (a phone, long names) is not cut without a word: a fade
  // at its right edge while there is more, and a hint under it.
  function markScrollers() {
    for (const node of document.querySelectorAll("#table-app .scroll")) {
      const update = () => {
        const more = node.scrollWidth > node.clientWidth + 1 && node.scrollLeft + node.clientWidth < node.scrollWidth - 1;
        node.classList.toggle("scroll-more", more);
      };
      if (!node.dataset.watched) {
        node.dataset.watched = "1";
        node.addEventListener("scroll", update, { passive: true });
      }
      update();
      const wide = node.scrollWidth > node.clientWidth + 1;
      const next = node.nextElementSibling;
      const hinted = next && next.classList.contains("scroll-hint");
      if (wide && !hinted) node.after(h("p", { class: "scroll-hint muted" }, gettext("Swipe sideways for more columns →")));
      else if (!wide && hinted) next.remove();
    }
  }
  window.addEventListener("resize", () => markScrollers());

  function renderMeta(state, view) {
    const deal = (view.deal || 0) + 1;
    $("deal-info").textContent =
      state.status === "finished"
        ? fmt(ngettext("match over after %(n)s deal", "match over after %(n)s deals", (view.results || []).length), { n: (view.results || []).length })
        : fmt(gettext("deal %(n)s of %(m)s"), { n: deal, m: view.n_deals || cfg.nDeals });
  }

  function renderSeats(state, view) {
    const toAct = new Set(state.to_act || []);
    const resigned = resignedSeats(state);
    const winners = matchWinners(state);
    const boxes = [];
    for (let s = 0; s < N_SEATS; s++) {
      const p = cfg.players[s];
      const name = (state.players && state.players[s]) || p.name;
      const tags = [];
      const gaveUp = resigned.has(s);
      if (s === state.seat) tags.push(h("span", { class: "tag you" }, gettext("you")));
      // A resigned seat is played out by a bot from then on: it says both.
      if (p.bot || gaveUp) tags.push(h("span", { class: "tag bot" }, gettext("bot")));
      if (gaveUp) tags.push(h("span", { class: "tag resigned", title: gettext("This player resigned; a bot plays the seat out.") }, gettext("resigned")));
      if (p.guest) tags.push(h("span", { class: "tag guest" }, gettext("guest")));
      if (p.awayUntil) {
        // By the day: their clock waits until they are back (shown on the reader's own clock).
        const back = new Date(p.awayUntil).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
        tags.push(h("span", { class: "tag away", title: fmt(gettext("On vacation until %(until)s: their clock waits."), { until: back }) }, gettext("on vacation")));
      }
      // At a table of four the dealer sits out the deal: no cards, no facts, no turn.
      const sitting = sitsOut(s, view);
      const roles = sitting ? [gettext("dealer")] : game.seatRoles ? game.seatRoles(s, view) : view.dealer === s ? [gettext("dealer")] : [];
      for (const role of roles) tags.push(h("span", { class: "tag role" }, role));
      if (sitting) tags.push(h("span", { class: "tag sitter", dataset: { sitter: "1" }, title: gettext("At a table of four the dealer sits out the deal; the other three play it.") }, gettext("sits out this deal")));
      const facts = [];
      if (!sitting) {
        if (view.hand_sizes) facts.push(fmt(ngettext("%(n)s card", "%(n)s cards", view.hand_sizes[s]), { n: view.hand_sizes[s] }));
        if (view.tricks_won) facts.push(fmt(ngettext("%(n)s trick", "%(n)s tricks", view.tricks_won[s]), { n: view.tricks_won[s] }));
        if (game.seatFacts) facts.push(...game.seatFacts(s, view));
      }
      let status = sitting ? null : game.seatStatus ? game.seatStatus(s, state, view) : undefined;
      if (status === undefined) {
        status = toAct.has(s) ? h("span", { class: "thinking" }, s === state.seat ? gettext("your turn") : gettext("to act")) : null;
      }
      const winner = state.status === "finished" && winners.includes(s);
      const badge = game.seatBadge && state.status === "playing" ? game.seatBadge(s, state, view) : null;
      boxes.push(
        h(
          "div",
          {
            class: `seat${toAct.has(s) ? " turn" : ""}${s === state.seat ? " me" : ""}${winner ? " winner" : ""}`,
            dataset: { seat: String(s), pos: seatPos(s) },
          },
          h("div", { class: "seat-top" }, h("span", { class: "seat-name" }, name), ...tags),
          badge ? h("div", { class: "seat-badge", dataset: { badgeSeat: String(s) } }, badge) : null,
          h("div", { class: "seat-facts muted" }, joined(facts)),
          h("div", { class: "seat-status" }, status, h("span", { class: "clock", dataset: { clockSeat: String(s) } })),
        ),
      );
    }
    fill($("seats"), boxes);
  }

  // A seat's badge (the game's `seatBadge`): what it said, `kind` for the look ("pass" muted,
  // "bid" and the rest marked).
  const said = (text, kind) => h("span", { class: `said said-${kind || "bid"}`, dataset: { said: kind || "bid" } }, text);
  // Each seat's last entry of a list of {seat, act…} (the deal's bids, offers, pushes…).
  function lastBySeat(list) {
    const out = new Map();
    for (const entry of list || []) out.set(entry.seat, entry);
    return out;
  }

  // Text and nodes with " · " between them (empty parts left out).
  const joined = (parts) => parts.filter((p) => p !== "" && p !== null && p !== undefined).flatMap((p, i) => (i ? [" · ", p] : [p]));

  function renderInfo(state, view) {
    const parts = [];
    if (state.status !== "finished") {
      const phase = view.phase;
      // A module's phase name may depend on the view (a function of it).
      const named = (game.phases || {})[phase];
      parts.push(cap((typeof named === "function" ? named(view) : named) || (PHASES[phase] ? PHASES[phase]() : phase) || ""));
    }
    if (game.info) parts.push(...game.info(state, view));
    if (state.status !== "finished" && view.sitter !== undefined && view.sitter !== null) {
      // A table of four: who sits out now, and who next (the next dealer).
      const next = (view.sitter + 1) % N_SEATS;
      const last = view.deal + 1 >= view.n_deals;
      parts.push(h("span", { id: "sitter-info" }, last ? fmt(gettext("%(name)s sits out this deal"), { name: seatName(view.sitter) }) : fmt(gettext("%(name)s sits out this deal, %(next)s the next"), { name: seatName(view.sitter), next: seatName(next) })));
    }
    fill($("info"), joined(parts));
  }

  // The phases every game shares (a module's `phases` name its own).
  const PHASES = {
    play: () => pgettext("phase", "play"),
    auction: () => pgettext("phase", "auction"),
    bid: () => pgettext("phase", "bidding"),
    over: () => pgettext("phase", "the deal is over"),
  };

  function trickSlots(cards, leader, highlight) {
    // cards: [{seat, card}] in play order (card null: face down); empty slots for the seats
    // still to play.
    const out = [];
    const bySeat = new Map(cards.map((c) => [c.seat, c.card]));
    // A trick of an earlier deal at a table of four (the one just gathered, the previous deal's
    // last) was played by its own three: its cards say who.
    const order = cards.some((c) => !playOrder(leader).includes(c.seat)) ? cards.map((c) => c.seat) : playOrder(leader);
    for (const s of order) {
      const card = bySeat.get(s);
      out.push(
        h(
          "figure",
          { class: `slot${highlight === s ? " won" : ""}`, dataset: { slotSeat: String(s), pos: seatPos(s) } },
          card === undefined ? h("span", { class: "card empty" }) : card === null ? cardBack() : cardFace(card),
          h("figcaption", null, seatName(s)),
        ),
      );
    }
    return out;
  }

  function lastTrickOf(state, view) {
    // -> {cards: [{seat, card}], leader, winner, note}
    if (game.lastTrick) return game.lastTrick(state, view);
    const played = view.played || [];
    const t = played[played.length - 1];
    if (t) {
      return {
        cards: t.cards.map((card, i) => ({ seat: playOrder(t.leader)[i], card })),
        leader: t.leader,
        winner: t.winner,
        note: fmt(gettext("%(name)s wins"), { name: seatName(t.winner) }) + (t.signal ? ` · ${fmt(gettext("lead signal %(signal)s"), { signal: t.signal })}` : ""),
      };
    }
    const last = view.last_deal;
    if (last && last.actions) {
      // The previous deal's last trick, from its record (public once the deal ended).
      const plays = last.actions.filter((a) => a.act === "play");
      const n = playing ? playing.length : N_SEATS;
      const tail = plays.slice(-n);
      if (tail.length === n) {
        return { cards: tail.map((a) => ({ seat: a.seat, card: a.card })), leader: tail[0].seat, winner: null, note: gettext("end of the previous deal") };
      }
    }
    return null;
  }

  function renderTricks(state, view) {
    const trickNode = $("trick");
    const own = game.currentTrick && game.currentTrick(state, view);
    trickNode.classList.toggle("held", Boolean(held));
    if (held) {
      // The trick just gathered, a moment longer (the state itself is already the next one).
      fill(trickNode, trickSlots(held.cards, held.leader, held.winner), held.note ? h("p", { class: "muted note held-note" }, held.note) : null);
    } else if (own) {
      fill(trickNode, own);
    } else if (state.status === "playing" && view.phase === "play") {
      fill(trickNode, trickSlots(view.trick || [], view.leader, null));
    } else {
      fill(trickNode, h("p", { class: "muted" }, state.status === "finished" ? gettext("The match is over.") : view.phase === "over" ? gettext("The deal is over.") : gettext("No trick yet.")));
    }
    const last = lastTrickOf(state, view);
    const lastNode = $("last-trick");
    if (last) {
      fill(lastNode, trickSlots(last.cards, last.leader, last.winner), h("p", { class: "muted note" }, last.note));
    } else {
      fill(lastNode, h("p", { class: "muted" }, "—"));
    }
  }

  function renderExtra(state, view) {
    // Game-specific public things that are not tricks: the monte, the kitty, the skat.
    fill($("extra"), game.extra ? game.extra(state, view) : []);
    extraBox();
  }

  function promptText(state, view, groups) {
    if (state.status === "finished") return "";
    const mine = state.seat !== null && (state.to_act || []).includes(state.seat);
    const waiting = () => fmt(gettext("Waiting for %(names)s."), { names: names(state.to_act) });
    if (state.seat === null) return waiting();
    if (sitsOut(state.seat, view)) return fmt(gettext("You sit out this deal (you dealt): you watch it as a spectator does. Waiting for %(names)s."), { names: names(state.to_act) });
    if (pending) return gettext("Sent — waiting for the table…");
    if (!mine) return (game.waitingText && game.waitingText(state, view)) || waiting();
    if (groups.templates.length) return "";
    const own = game.turnText && game.turnText(state, view, groups);
    if (own) return own;
    if (groups.plays.size && groups.buttons.length) return gettext("Your turn: play a card or choose below.");
    if (groups.plays.size) return confirmMoves() ? gettext("Your turn: tap a card, then play it.") : gettext("Your turn: play a card.");
    // What the buttons offer, by name (a game's turnText says it better where it knows).
    const offered = [...new Set(groups.buttons.map((e) => actName(e.act)))];
    if (offered.length) return fmt(gettext("Your turn: choose below (%(choices)s)."), { choices: offered.join(" / ") });
    return gettext("Your turn: choose below.");
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
          groups.buttons.map((entry) => {
            const key = hintKeyOf(entry);
            const button = h("button", { type: "button", class: `act act-${entry.act}`, dataset: actionData(entry), title: hint(key) || null, onclick: () => act(entry) }, buttonLabel(entry, view));
            // One (i) per explanation: four trump suits share one, after the last of them.
            const last = groups.buttons.filter((e) => hintKeyOf(e) === key).pop() === entry;
            const tip = last ? hintTip(key, "button") : null;
            return tip ? h("span", { class: "with-hint" }, button, tip) : button;
          }),
        ),
      );
    }
    if (mine && game.controls) parts.push(...game.controls(state, view, groups));
    const up = mine ? liftedCard(state, groups) : null;
    if (up) parts.push(renderLifted(up, groups, view));
    if (mine && groups.templates.length) parts.push(renderChoice(groups.templates, view));
    morphInto(node, parts);
  }

  // ------------------------------------------------------------------ move confirmation
  // With it on, a tap on a card lifts it and offers "Play 7♥" (a second tap on the card plays it
  // too); off, one click plays as before. The page's root says `data-confirm-moves` ("auto": on
  // for a touch screen, the default; "on"; "off": the player's preferences), and the table's own
  // toggle, kept in this browser, overrides it.
  const CONFIRM_KEY = "mediana.confirmMoves";
  let confirmOverride = null; // the toggle's choice when the browser keeps nothing (private mode)
  function confirmChoiceStored() {
    if (confirmOverride) return confirmOverride;
    try {
      const v = window.localStorage.getItem(CONFIRM_KEY);
      return v === "on" || v === "off" ? v : null;
    } catch (e) {
      return null;
    }
  }
  const touchScreen = () => Boolean(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
  function confirmMoves() {
    const root = $("table-app");
    const setting = confirmChoiceStored() || (root && root.dataset.confirmMoves) || "auto";
    if (setting === "on") return true;
    if (setting === "off") return false;
    return touchScreen();
  }
  // The lifted card while it may still be played at the decision it was lifted for.
  function liftedCard(state, groups) {
    if (!lifted || pending || !groups.plays.has(lifted.card) || lifted.decision !== decisionOf(state)) return null;
    return lifted.card;
  }
  function tapCard(card, pick) {
    if (!confirmMoves() || (lifted && lifted.card === card && lifted.decision === decisionOf(current))) {
      act(pick);
      return;
    }
    lifted = { card, decision: decisionOf(current) };
    render();
  }
  function renderLifted(card, groups, view) {
    const pickPlay = game.pickPlay || ((options) => options.find((e) => !e.signal));
    const pick = pickPlay(groups.plays.get(card), view);
    const what = fmt(pgettext("confirm a move", "%(act)s %(card)s"), { act: cap(actName(pick ? pick.act : "play")), card: cardText(card) });
    return h(
      "div",
      { class: "buttons move-confirm", id: "move-confirm" },
      h("button", { type: "button", id: "confirm-move", class: "confirm", disabled: !pick, "aria-label": `${what} (${cardName(card)})`, onclick: () => act(pick) }, what),
      h("button", { type: "button", id: "cancel-move", class: "secondary", onclick: () => { lifted = null; render(); } }, gettext("Cancel")),
    );
  }
  function initConfirmToggle() {
    const button = $("confirm-toggle");
    if (!button) return;
    const show = () => {
      const on = confirmMoves();
      button.setAttribute("aria-pressed", String(on));
      button.classList.toggle("on", on);
      // A box that reads as ticked only when confirmation is on (a desktop's "auto" is off).
      const check = button.querySelector(".confirm-check");
      if (check) check.textContent = on ? "☑" : "☐";
    };
    button.addEventListener("click", () => {
      confirmOverride = confirmMoves() ? "off" : "on";
      try {
        window.localStorage.setItem(CONFIRM_KEY, confirmOverride);
      } catch (e) {
        // private mode: for this page only
      }
      lifted = null;
      show();
      render();
    });
    show();
  }

  // A multi-card choice: pick the cards in the hand, then confirm. Each of the template's
  // groups fills in turn (e.g. first the cards to discard, then the card given back).
  function newSelection(entry, view) {
    return { key: templateKey(entry), picks: choiceOf(entry, view).groups.map(() => []) };
  }

  function renderChoice(templates, view) {
    if (!selection || !templates.some((t) => templateKey(t) === selection.key)) {
      selection = newSelection(templates[0], view);
    }
    const choice = choiceOf(templateFor(selection.key), view);
    const parts = [];
    if (templates.length > 1) {
      parts.push(
        h(
          "div",
          { class: "buttons" },
          templates.map((t) =>
            h("button", { type: "button", class: `chip${templateKey(t) === selection.key ? " on" : ""}`, onclick: () => { selection = newSelection(t, view); render(); } }, choiceOf(t, view).describe),
          ),
        ),
      );
    }
    const ready = choice.groups.every((g, i) => selection.picks[i].length === g.choose);
    const text = choice.text(selection.picks);
    parts.push(h("p", { class: "prompt-text yours", id: "choice-text" }, fmt(gettext("Your turn: %(what)s. Tap cards in your hand, then confirm."), { what: text }), " ", hintTip(hintKeyOf(templateFor(selection.key)), "choice")));
    parts.push(
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", id: "confirm", class: "confirm", disabled: !ready, onclick: confirmChoice }, gettext("Confirm")),
        h("button", { type: "button", id: "clear-choice", class: "secondary", disabled: selection.picks.every((p) => !p.length), onclick: () => { selection.picks = selection.picks.map(() => []); render(); } }, gettext("Clear")),
      ),
    );
    return h("div", { class: "choice", id: "choice" }, parts);
  }

  function confirmChoice() {
    const entry = selection && templateFor(selection.key);
    if (!entry) return;
    act(choiceOf(entry, current.view || {}).action(selection.picks));
  }

  function toggleChoice(card) {
    const entry = selection && templateFor(selection.key);
    if (!entry) return;
    for (const list of selection.picks) {
      const i = list.indexOf(card);
      if (i >= 0) {
        list.splice(i, 1);
        render();
        return;
      }
    }
    const groups = choiceOf(entry, current.view || {}).groups;
    const i = groups.findIndex((g, k) => selection.picks[k].length < g.choose && g.from.includes(card));
    if (i >= 0) selection.picks[i].push(card);
    render();
  }

  // Why a card of the hand cannot be used now: the state's `why_not` (table-protocol.md,
  // "Additions"), {card: {code, params, message}}, and an `illegal` error's reason: worded from
  // the stable code and its params in the reader's language (the English message is for bots;
  // it shows only for a code this client does not know). The codes: docs/engines.md. Here the
  // reasons every game shares (COMMON_REASONS, games/core/base.py); a game's own are its
  // module's `reasons` hook.
  const cardParam = (p) => (p.card ? cardName(p.card) : "?");
  const REASON_TEXT = { // code -> (params, message) => text
    match_over: () => gettext("The match is over."),
    no_such_seat: () => gettext("There is no such seat at this table."),
    malformed_action: () => gettext("That move could not be read."),
    no_signals: () => gettext("This game has no signals."),
    not_your_turn: () => gettext("It is not your turn."),
    unknown_act: () => gettext("That is not a move of this game."),
    wrong_phase: () => gettext("That move does not fit this moment of the deal."),
    unknown_card: () => gettext("There is no such card in this deck."),
    card_not_held: (p) => fmt(gettext("You do not hold the %(card)s."), { card: cardParam(p) }),
    cards_not_a_list: () => gettext("That choice of cards could not be read."),
    same_card_twice: () => gettext("The same card was chosen twice."),
    wrong_card_count: (p) => fmt(ngettext("Choose exactly %(expected)s card.", "Choose exactly %(expected)s cards.", p.expected), { expected: p.expected }),
  };
  let reasonTapped = null; // {card, seq}: the blocked card whose reason shows under the hand
  function reasonText(why) {
    const own = (game.reasons || {})[why.code] || REASON_TEXT[why.code];
    return own ? own(why.params || {}, why.message) : why.message || why.code;
  }
  function showReason(state, whyNot) {
    let line = $("hand-reason");
    if (!line) {
      line = h("p", { id: "hand-reason", class: "hand-reason", "aria-live": "polite" });
      $("hand").after(line);
    }
    const tapped = reasonTapped && reasonTapped.seq === state.seq ? reasonTapped.card : null;
    const why = tapped && whyNot[tapped];
    line.textContent = why ? `${cardText(tapped)}: ${reasonText(why)}` : "";
    line.hidden = !why;
  }

  function renderHand(state, view) {
    const box = $("hand-box");
    if (state.seat === null || (state.status === "finished" && !(view.hand || []).length)) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    fill($("legend"), legendOf());
    const groups = legalGroups(state);
    const mine = (state.to_act || []).includes(state.seat) && !pending;
    const entry = mine && selection ? templateFor(selection.key) : null;
    const choice = entry ? choiceOf(entry, view) : null;
    const choosable = new Set();
    if (choice) for (const g of choice.groups) for (const c of g.from) choosable.add(c);
    const pickPlay = game.pickPlay || ((options) => options.find((e) => !e.signal));
    handPhase(state, groups);
    const whyNot = (mine && state.why_not) || {};
    const cards = sortCards(view.hand || [], view).map((card) => {
      let onclick = null;
      let playable = false;
      let cls = "card-btn";
      const why = whyNot[card];
      let group = -1; // the choice group this card is picked into
      if (choice) {
        playable = choosable.has(card);
        group = selection.picks.findIndex((p) => p.includes(card));
        if (group >= 0) cls += ` ${choice.groups[group].picked}`;
        onclick = () => toggleChoice(card);
      } else if (mine && groups.plays.has(card)) {
        const pick = pickPlay(groups.plays.get(card), view);
        playable = Boolean(pick);
        onclick = () => tapCard(card, pick);
      }
      if (playable) cls += " legal";
      if (playable && liftedCard(state, groups) === card) cls += " lifted";
      if (pending && pending.action.card === card) cls += " sending";
      const picked = group >= 0 ? choice.groups[group] : null;
      // A card the rules refuse now says why: on hover (title) and on tap (a line under the
      // hand), so it stays focusable and tappable (aria-disabled) instead of `disabled`.
      const blocked = !playable && Boolean(why);
      const reason = blocked ? `${cardName(card)}: ${reasonText(why)}` : null;
      if (blocked) cls += " blocked";
      return h(
        "button",
        {
          type: "button",
          class: `${cls} suit-${suitOf(card)}`,
          disabled: !playable && !blocked,
          "aria-disabled": blocked ? "true" : null,
          "aria-pressed": choice ? String(group >= 0) : null,
          "aria-label": cardName(card),
          title: reason,
          dataset: blocked ? { card, reason: why.code } : { card },
          onclick: playable ? onclick : blocked ? () => { reasonTapped = { card, seq: state.seq }; render(); } : null,
        },
        cardFace(card, reason ? { title: reason } : null),
        picked ? h("span", { class: picked.badgeClass || "badge" }, picked.badge) : null,
      );
    });
    morphInto($("hand"), cards.length ? cards : [h("p", { class: "muted" }, gettext("No cards."))]);
    showReason(state, whyNot);
  }

  // ------------------------------------------------------------------ scores
  function seatHeader(extra) {
    return h("tr", null, h("th", null, extra || ""), cfg.players.map((p, s) => h("th", { class: s === current.seat ? "me" : null, title: seatName(s) }, seatName(s))));
  }
  // The seat whose cells of the rows being drawn stay empty: the sitter of the deal at a table
  // of four (he has no tricks, points or score in it).
  let blankSeat = null;
  function seatRow(label, values, attrs) {
    return h("tr", attrs || null, h("th", { scope: "row" }, label), values.map((v, s) => h("td", { dataset: { seat: String(s) } }, v === null || v === undefined || s === blankSeat ? "—" : String(v))));
  }

  function renderDealScores(state, view) {
    blankSeat = view.sitter === undefined ? null : view.sitter;
    const rows = game.dealRows ? game.dealRows(state, view) : [];
    blankSeat = null;
    fill($("deal-scores"), h("div", { class: "scroll" }, h("table", { class: "scores" }, h("thead", null, seatHeader()), h("tbody", null, rows))));
  }

  function renderMatchScores(state, view) {
    const results = (state.result && state.result.deals) || view.results || [];
    const rows = results.map((d, i) =>
      // At a table of four the deal's dealer sat out it: no figures of his.
      seatRow(fmt(gettext("deal %(n)s"), { n: i + 1 }), d.payouts.map((p, s) => (view.sitter !== undefined && s === d.dealer ? null : `${signed(p)} (${d.scores[s]})`)), { dataset: { deal: String(i) } }),
    );
    const totals = (state.result && state.result.totals && state.result.totals.payouts) || view.totals || [];
    rows.push(seatRow(gettext("total"), totals.map(signed), { class: "total", id: "match-total" }));
    fill(
      $("match-scores"),
      h("div", { class: "scroll" }, h("table", { class: "scores" }, h("thead", null, seatHeader()), h("tbody", null, rows))),
      h("p", { class: "muted note", id: "match-note" }, gettext("Per deal: payout (score).")),
    );
  }

  // ------------------------------------------------------------------ the log
  function trickLine(t, i) {
    // A lead's signal goes with the card led (the first), not after the trick.
    const cards = t.cards.map((c, k) => `${seatName(playOrder(t.leader)[k])} ${cardText(c)}${k === 0 && t.signal ? ` (${t.signal})` : ""}`).join(", ");
    return fmt(gettext("Trick %(n)s: %(cards)s → %(name)s"), { n: i + 1, cards, name: seatName(t.winner) });
  }

  // Did the clock take this seat's decision in this state (`last_action.by`)?
  function tookForMe(msg) {
    const last = msg.last_action;
    return Boolean(last && cfg.seat !== null && last.seat === cfg.seat && last.by === "clock");
  }

  // An action the clock took for a seat that ran out of time (`last_action.by`), for the log.
  function noteClock(msg) {
    const last = msg.last_action;
    if (!last || last.by !== "clock" || clockNotes.has(msg.seq)) return;
    const action = last.action || {};
    const what = action.card ? `${actName(action.act)} ${cardText(action.card)}` : actName(action.act);
    const deal = (msg.view || {}).deal;
    clockNotes.set(msg.seq, { deal, text: fmt(gettext("%(name)s: time ran out — %(what)s (by the clock)"), { name: who(last.seat), what }) });
  }

  function logLines(state, view) {
    const lines = [];
    const results = view.results || [];
    if (view.last_deal && results.length && state.status === "playing") {
      const d = results[results.length - 1];
      lines.push(fmt(gettext("Deal %(n)s ended: payouts %(payouts)s."), { n: results.length, payouts: d.payouts.map((p, s) => `${seatName(s)} ${signed(p)}`).join(", ") }));
    }
    if (game.log) lines.push(...game.log(state, view));
    for (const note of clockNotes.values()) if (note.deal === view.deal) lines.push(note.text);
    if (state.status === "finished" && state.result) {
      const won = matchWinners(state);
      lines.push(won.length ? fmt(gettext("Match over: %(names)s won."), { names: names(won) }) : gettext("Match over: no winner."));
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
  // Seats whose person resigned (the state's `resigned`, the result's, or the page's own list
  // for an older table): a bot plays them out, and they never win.
  function resignedSeats(state) {
    const out = new Set([...(state.resigned || []), ...((state.result && state.result.resigned) || [])]);
    cfg.players.forEach((p, s) => { if (p.resigned) out.add(s); });
    return out;
  }
  // The match's winners: the result's (the server leaves forfeiting seats out), less any
  // resigned seat an older result may still list.
  function matchWinners(state) {
    if (!state.result) return [];
    const resigned = resignedSeats(state);
    return (state.result.winners || []).filter((s) => !resigned.has(s));
  }

  function renderFinal(state, view) {
    const node = $("final");
    if (state.status !== "finished" || !state.result) {
      node.hidden = true;
      return;
    }
    const result = state.result;
    const winners = matchWinners(state);
    const recordUrl = cfg.recordUrl + (token ? `?token=${encodeURIComponent(token)}` : "");
    const resigned = [...resignedSeats(state)].sort();
    const timedOut = result.timed_out || [];
    // Forfeited otherwise: an event's table stopped for an absent player (or an older result).
    const otherwise = (result.forfeited || []).filter((s) => !resigned.includes(s) && !timedOut.includes(s));
    fill(
      node,
      h("h2", null, gettext("Match over")),
      h(
        "p",
        { class: "winners", id: "winners" },
        winners.length === N_SEATS ? gettext("All seats share the win.")
          : !winners.length ? gettext("No winner: nobody played the match to the end.")
          : fmt(ngettext("Winner: %(names)s", "Winners: %(names)s", winners.length), { names: winners.map(who).join(", ") }),
        state.seat !== null && winners.includes(state.seat) ? ` — ${gettext("well played!")}` : "",
      ),
      resigned.length ? h("p", { class: "muted", id: "resigned-note" }, fmt(gettext("Resigned: %(names)s (a bot played on; a resigned seat cannot win)"), { names: names(resigned) })) : null,
      timedOut.length ? h("p", { class: "muted", id: "timed-out-note" }, fmt(gettext("Forfeited on time: %(names)s"), { names: names(timedOut) })) : null,
      otherwise.length ? h("p", { class: "muted", id: "forfeited-note" }, fmt(gettext("Forfeited: %(names)s"), { names: names(otherwise) })) : null,
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
            h("tr", null, h("th", { scope: "row" }, gettext("score")), result.totals.scores.map((v, s) => h("td", { dataset: { finalScore: String(s) } }, String(v)))),
            h("tr", { class: "total" }, h("th", { scope: "row" }, gettext("payout")), result.totals.payouts.map((v, s) => h("td", { dataset: { finalPayout: String(s) } }, signed(v)))),
          ),
        ),
      ),
      // An embargoed (duplicate) table has no record link yet: its section is still played.
      cfg.recordUrl ? h("p", null, h("a", { href: recordUrl, id: "record-link" }, gettext("The game record (JSON)")), h("span", { class: "muted" }, ` — ${gettext("every card and every choice, replayable.")}`),
        cfg.replayUrl ? [" ", h("a", { href: cfg.replayUrl + (token ? `?token=${encodeURIComponent(token)}` : ""), id: "replay-link-final", class: "replay-link" }, cfg.replayLabel || gettext("Replay"))] : null)
        : h("p", { class: "muted", id: "record-withheld" }, cfg.withheld || ""),
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
      // `clock_starts_in`: the clock waits that long for a player who has not connected yet.
      const left = Math.max(0, current.clock[String(s)] - Math.max(0, elapsed - (current.clock_starts_in || 0)));
      const m = Math.floor(left / 60);
      const sec = Math.floor(left % 60);
      // By the day (a clock of days): days and hours, or hours and minutes, not minutes alone.
      const time = left >= 86400
        ? fmt(gettext("%(d)s d %(h)s h"), { d: Math.floor(left / 86400), h: Math.floor((left % 86400) / 3600) })
        : left >= 3600
          ? fmt(gettext("%(h)s h %(m)s min"), { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60) })
          : `${m}:${String(sec).padStart(2, "0")}`;
      node.textContent = ` · ${fmt(gettext("%(time)s left"), { time })}`;
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

  // ------------------------------------------------------------------ the card table
  // The seats sit around the felt as at a real table: the viewer at the bottom (a spectator and
  // the replay see seat 0 there), the others in play order — clockwise, so the next seat is on
  // your left, unless the game's module says its play goes anticlockwise (`seating`). Seat boxes
  // and trick cards carry `data-pos` (bottom, left, top, right); table.css places them, so a
  // trick's card lies in front of the seat that played it.
  const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };
  const MIRROR = { left: "right", right: "left" };
  function seatPos(s) {
    const me = typeof cfg.seat === "number" ? cfg.seat : 0;
    const r = (((s - me) % N_SEATS) + N_SEATS) % N_SEATS;
    const pos = (POSITIONS[N_SEATS] || [])[r] || `p${r}`;
    return game.seating === "anticlockwise" ? MIRROR[pos] || pos : pos;
  }

  // A trick just gathered stays on the felt for a moment (HOLD_MS), so its last card can be
  // seen. Only the drawing waits: the state is current at once, the hand and the buttons are the
  // new ones, and a click meanwhile ends the hold (act).
  const HOLD_MS = 1200;
  let held = null; // {cards, leader, winner, note}: the gathered trick still on show
  let holdTimer = null;
  let lastTrickSeen; // the key of the last trick of the previous state (undefined: no state yet)

  function trickKey(state) {
    const last = lastTrickOf(state, state.view || {});
    return last ? JSON.stringify([last.cards, last.leader, last.winner]) : "";
  }
  function endHold() {
    clearTimeout(holdTimer);
    holdTimer = null;
    if (!held) return;
    held = null;
    if (current) renderTricks(current, current.view || {});
  }
  // Called with each state before it is drawn: a new last trick means a trick was just gathered.
  function tableMoved(prev, next) {
    const key = trickKey(next);
    if (prev && lastTrickSeen !== undefined && key && key !== lastTrickSeen) {
      held = lastTrickOf(next, next.view || {});
      clearTimeout(holdTimer);
      holdTimer = setTimeout(endHold, HOLD_MS);
    }
    lastTrickSeen = key;
    if (prev && cardsDown(prev.view || {}) !== cardsDown(next.view || {})) playSound();
  }

  // The hand is greyed where it is chosen from (your turn to play or pick cards: the cards you may
  // not use look so); at other times — the auction, trump, an offer, another seat's turn — every
  // card is shown plainly, to be read (still not clickable).
  function handPhase(state, groups) {
    const cardTurn = state.seat !== null && (state.to_act || []).includes(state.seat) && (groups.plays.size > 0 || groups.templates.length > 0);
    $("hand").classList.toggle("card-turn", cardTurn);
  }

  // The kitty / monte / skat panel folds away (a phone keeps the hand in view); folded, its
  // summary still says what lies there.
  function extraBox() {
    const box = $("extra-box");
    if (!box) return;
    const extra = $("extra");
    box.hidden = !extra.childElementCount;
    const labels = [...extra.querySelectorAll(".row > .label")].map((n) => n.textContent.replace(/[\s:]+$/, "")).filter(Boolean);
    // Open, the rows say it themselves; folded, the summary names them.
    $("extra-summary").textContent = box.open || !labels.length ? box.dataset.label : labels.join(" · ");
    if (!box.dataset.watched) {
      box.dataset.watched = "1";
      box.addEventListener("toggle", extraBox);
    }
  }

  // An optional card sound (static/sounds/card.wav), off by default; the choice is kept in this
  // browser (localStorage). It plays when a card lands on the felt (or a trick is gathered).
  const SOUND_KEY = "mediana.sound";
  let soundOn = false;
  let soundsPlayed = 0; // for the tests: how many times it played
  let soundClip = null;

  function cardsDown(view) {
    return JSON.stringify([view.deal, view.trick, (view.played || []).length, (view.tricks || []).length, view.committed]);
  }
  function showSound(button) {
    button.setAttribute("aria-pressed", String(soundOn));
    button.classList.toggle("on", soundOn);
    button.querySelector(".sound-label").textContent = soundOn ? button.dataset.on : button.dataset.off;
  }
  function initSound() {
    const button = $("sound-toggle");
    if (!button) return;
    try {
      soundOn = window.localStorage.getItem(SOUND_KEY) === "on";
    } catch (e) {
      soundOn = false;
    }
    button.addEventListener("click", () => {
      soundOn = !soundOn;
      try {
        window.localStorage.setItem(SOUND_KEY, soundOn ? "on" : "off");
      } catch (e) {
        // private mode: on for this page only
      }
      showSound(button);
      playSound(); // turned on: hear it once
    });
    showSound(button);
  }
  function playSound() {
    const button = $("sound-toggle");
    if (!soundOn || !button) return;
    if (!soundClip) soundClip = new Audio(button.dataset.src);
    const clip = soundClip.cloneNode();
    clip.volume = 0.6;
    soundsPlayed += 1;
    const playing = clip.play();
    if (playing && playing.catch) playing.catch(() => {}); // no sound before the first click
  }

  // ------------------------------------------------------------------ start
  // The game modules are plain scripts after this one: they have all registered by the time
  // the document is parsed.
  function start() {
    game = games[cfg.game] || {};
    // The replay page (static/js/replay.js) draws the steps a server replay served: no socket.
    if (cfg.replay) return;
    initSound();
    initConfirmToggle();
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
    connect();
  }

  // What a game module may use: the DOM helper, cards, names and the shared pieces.
  window.Mediana = {
    registerGame,
    // The page's language (docs/translations.md): the catalog's functions and named placeholders.
    gettext,
    ngettext,
    pgettext,
    npgettext,
    fmt,
    actName,
    names,
    suitName,
    // A module that draws beside the core (the deal summary): called after every render.
    onRender: (fn) => renderHooks.push(fn),
    // The hooks of this table's game, for such a module (the summary's `summary` hook).
    hooks: () => game,
    cfg,
    h,
    fill,
    cap,
    signed,
    deck,
    faces: FACES,
    glyphOf,
    legendOf,
    rankLabel,
    rankOf,
    suitOf,
    cardName,
    cardParam,
    cardText,
    cardFace,
    cardBack,
    cardRow,
    sortCards,
    seatName,
    who,
    said,
    lastBySeat,
    trickSlots,
    trickLine,
    seatRow,
    hint,
    hintTip,
    hinted,
    pickCards,
    pickOk,
    act,
    render,
    // The person dismissed the last deal's summary: their held clock of `deal` may start
    // (the protocol's `ready`; a lost one costs only the wait for the cap).
    ready: (deal) => cfg.seat !== null && send({ type: "ready", deal }),
    // The replay page's door: draw a state it made from a replay step (no socket, no seat).
    show(state) {
      current = state;
      render();
    },
  };

  // For the browser tests and the curious: the last state and the connection.
  window.medianaTable = {
    state: () => current,
    pending: () => pending,
    lifted: () => (lifted ? lifted.card : null),
    confirmMoves,
    late: () => performance.now() < lateUntil, // a click now is dropped: the clock just chose
    connected: () => Boolean(ws && ws.readyState === WebSocket.OPEN),
    drop: () => ws && ws.close(),
    render: () => render(), // draw again from the same state, as a state arriving would
    sound: () => ({ on: soundOn, played: soundsPlayed }),
    // For extensions (static/js/chat.js): send a message on the table's socket (false when it
    // is not open), and listen to every message (see `hear`).
    send: (obj) => send(obj),
    listen: (listener) => listeners.push(listener),
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
