// Meeting people on the lobby page and My games (gameplay/templates/gameplay/lobby/_people.html,
// _challenges_in.html): your seek's waiting state with its clock, the open seeks, and the
// challenges to you and yours, kept live.
// - Live: the lobby socket's messages arrive as `mediana:live` events on window (static/js/live.js):
//   `seeks` (re-read the list), `challenge` / `challenges` (re-read yours), `table_started` (go).
// - Fallback: the same facts over HTTP (/api/seeks/, /api/seeks/<id>/, /api/challenges/), polled
//   every few seconds, slower while live messages arrive (the socket is up).
// Every text a person reads comes translated from the page (the `people-words` JSON).
(function () {
  "use strict";

  const wordsNode = document.getElementById("people-words");
  if (!wordsNode) return;
  const W = JSON.parse(wordsNode.textContent);
  const FAST = { seek: 2000, lists: 5000 };
  const SLOW = { seek: 10000, lists: 20000 }; // while the socket is evidently up
  let lastLive = 0;
  let leaving = false;

  const fmt = (text, params) => text.replace(/%\((\w+)\)s/g, (m, k) => (k in params ? params[k] : m));
  const csrf = () => {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  };
  const delay = (kind) => (Date.now() - lastLive < 30000 ? SLOW : FAST)[kind];

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  function postForm(action, label, cls, extra) {
    const form = el("form", { method: "post", action: action, class: "inline" },
      el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrf() }));
    for (const [name, value] of Object.entries(extra || {})) {
      form.append(el("input", { type: "hidden", name: name, value: value }));
    }
    form.append(el("button", { type: "submit", class: cls }, label));
    return form;
  }

  async function getJSON(url) {
    const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  }

  function go(url) {
    if (leaving || !url) return;
    leaving = true;
    const status = document.getElementById("seek-status");
    if (status) status.textContent = W.starting;
    // Back from the table comes to the people's part of this page, not to a wait that is over.
    if (document.getElementById("people")) history.replaceState(null, "", `${location.pathname}${location.search}#people`);
    window.location.assign(url);
  }

  function repeat(kind, run) {
    const step = async () => {
      if (leaving) return;
      try { await run(); } catch (err) { /* offline for a moment: the next round tries again */ }
      setTimeout(step, delay(kind));
    };
    setTimeout(step, delay(kind));
    return run;
  }

  const describe = (item) => [
    W.games[item.game] || item.game,
    W.paces[item.pace] || item.pace,
    item.rated ? W.rated : W.casual,
  ].join(" · ");

  // ------------------------------------------------------------------ your seek
  const waiting = document.getElementById("seek-waiting");
  let pollSeek = null;
  if (waiting) {
    const id = waiting.dataset.seek;
    const seats = parseInt(waiting.dataset.seats, 10);
    const since = Date.now() - 1000 * parseInt(waiting.dataset.elapsed || "0", 10);
    const botsAt = waiting.dataset.botsIn === "" ? null : Date.now() + 1000 * parseInt(waiting.dataset.botsIn, 10);
    const status = document.getElementById("seek-status");
    const clock = document.getElementById("seek-clock");
    let people = 1;
    const say = () => {
      if (leaving) return;
      const lack = Math.max(1, seats - people);
      status.textContent = botsAt !== null && Date.now() >= botsAt ? W.bots_soon : (W.waiting[lack] || W.waiting[1]);
      const s = Math.floor((Date.now() - since) / 1000);
      clock.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    };
    const show = (seek) => {
      if (seek.table) { go(seek.url); return; }
      if (seek.status !== "open") { leaving = true; window.location.reload(); return; }
      people = seek.waiting;
      say();
    };
    pollSeek = repeat("seek", async () => show(await getJSON(`/api/seeks/${encodeURIComponent(id)}/`)));
    pollSeek();
    say();
    setInterval(say, 1000);
  }

  // ------------------------------------------------------------------ the open seeks
  const people = document.getElementById("people");
  const seekList = document.getElementById("open-seeks");
  let refreshSeeks = null;
  if (people && seekList) {
    const seekUrl = document.getElementById("seek-form") ? document.getElementById("seek-form").action : null;
    const render = (results) => {
      const rows = results.map((seek) => {
        const mine = waiting && seek.seek === waiting.dataset.seek;
        const who = el("span", { class: "who" }, seek.player);
        if (mine) who.append(" ", el("span", { class: "tag you" }, W.you));
        const row = el("li", { "data-seek": seek.seek }, who, " ", el("span", { class: "what" }, describe(seek)));
        // A guest (or a visitor) plays casual tables only: a rated seek offers them no Join.
        if (!mine && seekUrl && (!seek.rated || people.dataset.ratedOk === "1")) {
          row.append(" ", postForm(seekUrl, W.join, "small",
            { game: seek.game, pace: seek.pace, rated: seek.rated ? "1" : "0", bots_after: "" }));
        } else if (!mine && seekUrl) {
          row.append(" ", el("span", { class: "muted join-rated" }, people.dataset.ratedOnly));
        }
        return row;
      });
      seekList.replaceChildren(...(rows.length ? rows : [el("li", { class: "muted" }, W.no_seeks)]));
    };
    refreshSeeks = repeat("lists", async () => render((await getJSON(people.dataset.seeksUrl)).results));
  }

  // ------------------------------------------------------------------ challenges
  const incoming = document.getElementById("incoming-challenges");
  const sentList = document.getElementById("sent-list");
  let refreshChallenges = null;
  if (incoming) {
    const answerUrl = (id, action) => incoming.dataset.answerUrl.replace("ID", encodeURIComponent(id)).replace("ACTION", action);
    const askedAtLoad = new Set(Array.from(document.querySelectorAll("#sent-list li[data-status=pending]"), (li) => li.dataset.challenge));
    const render = (results) => {
      const mine = results.filter((c) => c.incoming && c.status === "pending").map((c) =>
        el("li", { class: "challenge-in", "data-challenge": c.challenge },
          el("span", { class: "who" }, fmt(W.challenged_you, { name: c.challenger })), " ",
          el("span", { class: "what" }, describe(c)), " ",
          el("span", { class: "answer" },
            postForm(answerUrl(c.challenge, "accept"), W.accept, "small"), " ",
            postForm(answerUrl(c.challenge, "decline"), W.decline, "secondary small", { next: incoming.dataset.next }))));
      incoming.hidden = !mine.length;
      document.getElementById("incoming-list").replaceChildren(...mine);
      const sent = results.filter((c) => !c.incoming);
      for (const c of sent) {
        // The challenger goes to the table once it is accepted (the socket says it first).
        if (askedAtLoad.has(c.challenge) && c.status === "accepted" && c.url) go(c.url);
      }
      if (sentList) {
        sentList.parentElement.hidden = !sent.length;
        sentList.replaceChildren(...sent.map((c) => {
          const row = el("li", { "data-challenge": c.challenge, "data-status": c.status },
            el("span", { class: "who" }, fmt(W.you_challenged, { name: c.challenged })), " ",
            el("span", { class: "what" }, `${describe(c)} · ${W.statuses[c.status] || c.status}`));
          if (c.status === "pending") {
            row.append(" ", postForm(answerUrl(c.challenge, "withdraw"), W.withdraw, "secondary small"));
          } else if (c.url) {
            row.append(" ", el("a", { href: c.url }, W.go));
          }
          return row;
        }));
      }
    };
    refreshChallenges = repeat("lists", async () => render((await getJSON("/api/challenges/")).results));
  }

  // ------------------------------------------------------------------ live messages
  window.addEventListener("mediana:live", (event) => {
    const message = (event.detail && event.detail.message) || event.detail || {};
    lastLive = Date.now();
    const quietly = (run) => { if (run) run().catch(() => {}); };
    // Only a page that waits (its seek, a challenge it sent) follows a table's start; any other
    // (Back from that table, say) keeps its place and live.js shows a notice with a link.
    if (message.type === "table_started") {
      if (document.querySelector("#seek-waiting, #sent-list li[data-status=pending]")) go(message.url);
    }
    else if (message.type === "seeks") { quietly(refreshSeeks); quietly(pollSeek); }
    else if (message.type === "challenge" || message.type === "challenges") quietly(refreshChallenges);
  });
})();
