// The lobby and notification socket, on every page (templates/base.html; docs/lobby.md, "Live").
// One socket a page, /ws/lobby/: everyone gets the lobby's messages, a logged-in person their
// own too. Each message is dispatched to the page's other scripts as
//   window.addEventListener("mediana:live", (e) => e.detail /* the message */)
// and these types are handled here:
// - table_started {table, url}: a page that waits for that table (an element with
//   data-wait-table="<id>": the invitation or waiting page of a seated person) goes to it at
//   once; any other page shows a notice with a link;
// - rematch_offered {table, of, by, url}: a notice; the finished table's page ([data-rematch-of])
//   shows the offer with Accept / Decline (a copy of its <template id="rematch-offer-template">);
// - rematch_declined {table, of, by, url}: a notice; the declined offer leaves the page;
// - notice {text, url, id?, unread?}: a notice; `unread` (a league notice) sets the bell's count;
// - turns {count}: the header's count of turn-based tables waiting for this person's move.
// The socket reconnects with a growing delay; on every (re)connection a page that waits for a
// table asks HTTP whether it started meanwhile, and a finished table's page asks for the offers
// it may have missed (the layer does not promise delivery). Notices are kept in sessionStorage
// for a few minutes, so one survives the page's own reload, until dismissed.
// Its words come from #live-notices (data-*, translated by the template); texts from the
// server are set as text, never as HTML, and links only to this site's own paths.
(function () {
  "use strict";

  const box = document.getElementById("live-notices");
  if (!box || !("WebSocket" in window)) return;
  const words = box.dataset;
  const KEEP_MS = 5 * 60 * 1000;
  const STORE = "mediana.live.notices";
  const MAX_DELAY = 30000;

  // ------------------------------------------------------------------ notices
  const sitePath = (url) => (typeof url === "string" && /^\/(?!\/)/.test(url) ? url : null);

  function stored() {
    try {
      const all = JSON.parse(window.sessionStorage.getItem(STORE) || "[]");
      return all.filter((n) => Date.now() - n.at < KEEP_MS);
    } catch (err) {
      return [];
    }
  }

  function store(list) {
    try {
      window.sessionStorage.setItem(STORE, JSON.stringify(list));
    } catch (err) {
      // private mode: the notice lives as long as the page
    }
  }

  function render(notice) {
    if (box.querySelector(`[data-key="${CSS.escape(notice.key)}"]`)) return;
    const item = document.createElement("div");
    item.className = "live-notice";
    item.dataset.key = notice.key;
    item.dataset.type = notice.type;
    const text = document.createElement("span");
    text.className = "live-text";
    text.textContent = notice.text;
    item.append(text);
    const url = sitePath(notice.url);
    if (url && url !== window.location.pathname) {
      const link = document.createElement("a");
      link.href = url;
      link.textContent = notice.link || words.open;
      item.append(" ", link);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "live-close";
    close.setAttribute("aria-label", words.dismiss);
    close.title = words.dismiss;
    close.textContent = "×";
    close.addEventListener("click", () => dismiss(notice.key));
    item.append(close);
    box.append(item);
    box.classList.add("has-notices");
  }

  function notify(notice) {
    notice.at = Date.now();
    const list = stored().filter((n) => n.key !== notice.key);
    list.push(notice);
    store(list.slice(-5));
    render(notice);
  }

  function dismiss(key) {
    store(stored().filter((n) => n.key !== key));
    const item = box.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (item) item.remove();
    if (!box.querySelector(".live-notice")) box.classList.remove("has-notices");
  }

  const fill = (text, by) => (text || "").replace("{by}", by || "");

  // ------------------------------------------------------------------ the rematch offer
  function showOffer(message) {
    const place = document.querySelector(`[data-rematch-of="${CSS.escape(message.of || "")}"]`);
    const template = document.getElementById("rematch-offer-template");
    if (!place || !template || place.querySelector(`[data-offer="${CSS.escape(message.table)}"]`)) {
      return;
    }
    const offer = template.content.firstElementChild.cloneNode(true);
    offer.dataset.offer = message.table;
    offer.querySelector(".offer-text").textContent = fill(words.offered, message.by);
    offer.querySelector(".accept-form").action = `/tables/${encodeURIComponent(message.table)}/join/`;
    offer.querySelector(".decline-form").action = `/tables/${encodeURIComponent(message.table)}/decline/`;
    for (const old of place.children) old.hidden = true; // the Rematch button: answered by the offer
    place.append(offer);
  }

  function dropOffer(message) {
    const offer = document.querySelector(`[data-offer="${CSS.escape(message.table || "")}"]`);
    if (!offer) return;
    const place = offer.parentElement;
    offer.remove();
    if (place && place.dataset.rematchOf) for (const part of place.children) part.hidden = false;
  }

  // ------------------------------------------------------------------ messages
  const waits = (id) => document.querySelector(`[data-wait-table="${CSS.escape(id || "")}"]`);

  function handle(message) {
    switch (message.type) {
      case "table_started": {
        const url = sitePath(message.url);
        if (!url) return;
        dismiss(`offer:${message.table}`); // an offer accepted by all: nothing left to answer
        if (waits(message.table)) window.location.assign(url);
        else if (window.location.pathname !== url) {
          notify({ key: `started:${message.table}`, type: message.type, text: words.started, url, link: words.go });
        }
        break;
      }
      case "rematch_offered":
        showOffer(message);
        notify({
          key: `offer:${message.table}`,
          type: message.type,
          table: message.table,
          text: fill(words.offered, message.by),
          url: message.url,
          link: words.see,
        });
        break;
      case "rematch_declined":
        dropOffer(message);
        dismiss(`offer:${message.table}`);
        notify({
          key: `declined:${message.table}`,
          type: message.type,
          text: fill(words.declined, message.by),
          url: message.url,
        });
        break;
      case "challenge":
        // The lobby page lists it live itself (people.js); any other page shows a notice.
        if (!document.getElementById("incoming-list")) {
          notify({ key: `challenge:${message.challenge}`, type: message.type, text: fill(words.challenged, message.by), url: message.url, link: words.answer });
        }
        break;
      case "notice":
        // A notice about the page the person is on (their turn at this table) only rings.
        if (typeof message.text === "string" && message.text && sitePath(message.url) !== window.location.pathname) {
          notify({ key: `notice:${message.id || message.text}`, type: message.type, text: message.text.slice(0, 300), url: message.url });
        }
        if (Number.isInteger(message.unread)) ring(message.unread);
        break;
      case "turns":
        // By the day: how many turn-based tables wait for this person's move (the header).
        if (Number.isInteger(message.count)) {
          for (const count of document.querySelectorAll("[data-your-turns]")) {
            count.textContent = String(message.count);
            count.hidden = message.count <= 0;
          }
        }
        break;
      default:
        break;
    }
  }

  // The header's bell shows the unread count a league notice brings (templates/base.html).
  function ring(unread) {
    const bell = document.querySelector("a.bell");
    if (!bell) return;
    let count = bell.querySelector(".count");
    if (unread <= 0) {
      if (count) count.remove();
      return;
    }
    if (!count) {
      count = document.createElement("span");
      count.className = "count";
      bell.append(" ", count);
    }
    count.textContent = String(unread);
  }

  // ------------------------------------------------------------------ what HTTP says
  // On every (re)connection: what a lost message would have said.
  async function catchUp() {
    for (const waiting of document.querySelectorAll("[data-wait-table]")) {
      const id = waiting.dataset.waitTable;
      try {
        const response = await fetch(`/api/tables/${encodeURIComponent(id)}/`, { credentials: "same-origin" });
        if (response.ok && (await response.json()).status === "playing") {
          window.location.assign(`/tables/${encodeURIComponent(id)}/`);
          return;
        }
      } catch (err) {
        // offline: the socket's next connection asks again
      }
    }
    const place = document.querySelector("[data-rematch-of]");
    if (place && document.getElementById("rematch-offer-template") && document.querySelector("header a.who")) {
      try {
        const response = await fetch("/api/tables/offers/", { credentials: "same-origin" });
        if (!response.ok) return;
        for (const offer of (await response.json()).results || []) {
          if (offer.of === place.dataset.rematchOf) {
            showOffer({ table: offer.table, of: offer.of, by: (offer.by || []).join(", ") });
          }
        }
      } catch (err) {
        // as above
      }
    }
  }

  // ------------------------------------------------------------------ the socket
  let delay = 1000;
  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/lobby/`);
    socket.addEventListener("open", () => {
      delay = 1000;
      box.dataset.connected = "true";
      catchUp();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (!message || typeof message.type !== "string") return;
      window.dispatchEvent(new CustomEvent("mediana:live", { detail: message }));
      handle(message);
    });
    socket.addEventListener("close", () => {
      box.dataset.connected = "false";
      // A growing delay with jitter, so a restarted server is not met by every page at once.
      const wait = delay * (0.75 + Math.random() / 2);
      delay = Math.min(delay * 2, MAX_DELAY);
      window.setTimeout(connect, wait);
    });
  }

  // A notice about a page the person went to (its table, its offer) has done its work.
  const here = (notice) =>
    sitePath(notice.url) === window.location.pathname ||
    (notice.table && window.location.pathname.startsWith(`/tables/${notice.table}/`));
  for (const notice of stored()) {
    if (here(notice)) dismiss(notice.key);
    else render(notice);
  }
  connect();
})();
