// The table's chat (docs/chat.md): a listener of the table's socket (static/js/table.js's
// `medianaTable.listen`), sending `chat`, `chat_mute` and `chat_report` through the same socket.
// Lines are plain text, always (set as textContent, never as markup): a link is not a link.
// Mutes are kept for the browser's session and told to each new connection.
(function () {
  "use strict";

  const cfg = JSON.parse(document.getElementById("table-config").textContent);
  const chat = cfg.chat;
  const table = window.medianaTable;
  const $ = (id) => document.getElementById(id);
  if (!chat || !table || !$("chat")) return;

  const gettext = window.gettext || ((s) => s);
  const fmt = (text, params) => text.replace(/%\((\w+)\)s/g, (m, key) => (key in params ? String(params[key]) : m));
  const list = $("chat-lines");
  const status = $("chat-status");
  const MUTED_KEY = `mediana.chat.muted.${cfg.table}`;
  const MAX_SHOWN = 200;
  let muted = new Set();
  try {
    muted = new Set(JSON.parse(sessionStorage.getItem(MUTED_KEY) || "[]"));
  } catch (e) {
    muted = new Set();
  }
  let sent = 0;

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  function say(text) {
    status.textContent = text || "";
  }

  function keepMuted() {
    try {
      sessionStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
    } catch (e) {
      /* private mode: the mute lasts for this page */
    }
  }

  // What a refusal means, in the reader's language (the protocol's `reason`, docs/chat.md).
  const REFUSED = {
    chat_too_long: (p) => fmt(gettext("A message has at most %(max)s characters."), { max: p.max }),
    chat_rate_limited: (p) => fmt(gettext("Not so fast: at most %(lines)s messages in %(seconds)s seconds."), p),
    chat_muted: () => gettext("Staff have muted your account in the chat: you can read it but not write."),
    chat_off: () => gettext("This table has no chat."),
    chat_log_in: () => gettext("Log in to write in the spectators' chat."),
    chat_people_only: () => gettext("Only people chat."),
    chat_empty: () => gettext("Write something first."),
    chat_unknown_phrase: () => gettext("Write something first."),
    chat_report_self: () => gettext("You cannot report yourself."),
    chat_unknown_author: () => gettext("Nobody wrote that here."),
  };

  function shownText(line) {
    if (line.phrase) return chat.phrases[line.phrase] || line.phrase;
    return line.text;
  }

  function render(line) {
    const mine = line.author === chat.me;
    const item = h(
      "li",
      { class: `chat-line${line.phrase ? " chat-preset" : ""}${mine ? " chat-mine" : ""}`, "data-author": line.author, "data-id": String(line.id) },
      h("span", { class: "chat-name", text: line.name }),
      h("span", { class: "chat-text", text: shownText(line) }),
    );
    if (!mine) {
      item.append(
        h("span", { class: "chat-tools" },
          h("button", { type: "button", class: "chat-mute", title: gettext("Hide this person's messages"), text: gettext("Mute"), onclick: () => mute(line) }),
          chat.me ? h("button", { type: "button", class: "chat-report", title: gettext("Report this person's messages to staff"), text: gettext("Report"), onclick: () => report(line) }) : null,
        ),
      );
    }
    item.hidden = muted.has(line.author);
    return item;
  }

  function add(lines) {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
    for (const line of lines) {
      if (list.querySelector(`[data-id="${Number(line.id)}"]`)) continue;
      list.append(render(line));
    }
    while (list.children.length > MAX_SHOWN) list.firstChild.remove();
    list.classList.toggle("empty", !list.querySelector("li:not([hidden])"));
    if (atBottom || lines.length > 1) list.scrollTop = list.scrollHeight;
  }

  function showMuted() {
    for (const item of list.children) item.hidden = muted.has(item.dataset.author);
    list.classList.toggle("empty", !list.querySelector("li:not([hidden])"));
  }

  function mute(line) {
    muted.add(line.author);
    keepMuted();
    table.send({ type: "chat_mute", author: line.author, muted: true });
    showMuted();
    say(fmt(gettext("%(name)s is muted for you at this table."), { name: line.name }));
    unmuteButton(line);
  }

  function unmuteButton(line) {
    const button = h("button", {
      type: "button",
      class: "chat-unmute",
      text: fmt(gettext("Show %(name)s again"), { name: line.name }),
      onclick: () => {
        muted.delete(line.author);
        keepMuted();
        table.send({ type: "chat_mute", author: line.author, muted: false });
        showMuted();
        say("");
      },
    });
    status.append(" ", button);
  }

  function report(line) {
    const note = window.prompt(fmt(gettext("Report %(name)s to staff, with this conversation. What happened? (optional)"), { name: line.name }), "");
    if (note === null) return;
    table.send({ type: "chat_report", author: line.author, note: note.slice(0, 500), id: `report-${++sent}` });
  }

  function post(message) {
    if (!table.send({ type: "chat", id: `chat-${++sent}`, ...message })) {
      say(gettext("Not connected: try again in a moment."));
      return false;
    }
    say("");
    return true;
  }

  table.listen((msg) => {
    if (msg.type === "open") {
      // Read the chat on this connection (its history comes back), hiding the muted authors.
      table.send({ type: "chat_join" });
      for (const author of muted) table.send({ type: "chat_mute", author, muted: true });
    } else if (msg.type === "chat_history") {
      list.replaceChildren();
      add(msg.lines || []);
      list.dataset.ready = "1"; // the history is in (the browser tests wait for it)
    } else if (msg.type === "chat" && msg.line) {
      add([msg.line]);
    } else if (msg.type === "chat_reported") {
      say(gettext("Reported to staff, with the conversation. Thank you."));
    } else if (msg.type === "error" && String(msg.reason || "").startsWith("chat_")) {
      const known = REFUSED[msg.reason];
      say(known ? known(msg.params || {}) : msg.message);
    }
  });

  const form = $("chat-form");
  if (form) {
    const input = $("chat-input");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (post({ text })) input.value = "";
    });
    for (const button of document.querySelectorAll(".chat-phrase")) {
      button.addEventListener("click", () => post({ phrase: button.dataset.phrase }));
    }
  }
  list.classList.add("empty");
})();
