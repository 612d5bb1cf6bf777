// The lobby's pages (gameplay/templates/gameplay/lobby/): plain JavaScript, no framework.
// - the create form shows only the chosen game's variant flags, its sizes of table and its
//   seat count;
// - "Copy" buttons copy the invitation link;
// - a waiting table's page (and a seated person's invitation) follows the table socket: it
//   reloads when the seats change, and goes to the table when it starts.
// Every text a person reads comes translated from the page (data-* attributes).
(function () {
  "use strict";

  // ------------------------------------------------------------------ the create form
  const form = document.getElementById("create-form");
  if (form) {
    const game = form.elements["game"];
    const bots = form.elements["bots"];
    const level = form.elements["bot_level"];
    const summary = document.getElementById("seat-summary");
    const groups = form.querySelectorAll("fieldset.flags[data-game]");
    const seatsOf = JSON.parse(document.getElementById("seat-counts").textContent);
    const pace = form.elements["pace"];
    const seconds = form.elements["seconds_per_move"];
    const sizeBox = document.getElementById("table-size");

    function update() {
      for (const group of groups) {
        const chosen = group.dataset.game === game.value;
        group.hidden = !chosen;
        // Hidden groups are neither validated by the browser nor sent.
        group.disabled = !chosen;
      }
      // A game played at two sizes of table (three, or four with the dealer sitting out)
      // shows the choice; the others have their own size.
      const sizes = seatsOf[game.value] || [];
      if (sizeBox) sizeBox.hidden = sizes.length < 2;
      const picked = form.querySelector('input[name="seats"]:checked');
      const chosen = picked ? parseInt(picked.value, 10) : 0;
      const seats = sizes.includes(chosen) ? chosen : sizes[0] || 0;
      bots.max = Math.max(0, seats - 1);
      const nBots = Math.min(Math.max(0, parseInt(bots.value, 10) || 0), seats - 1);
      level.disabled = nBots === 0;
      // The seconds count only with a custom clock (a pace names its own).
      if (pace && seconds) seconds.closest(".field").hidden = pace.value !== "";
      if (summary && seats) {
        summary.textContent = summary.dataset.text
          .replace("{seats}", seats)
          .replace("{open}", seats - 1 - nBots)
          .replace("{bots}", nBots);
      }
    }
    game.addEventListener("change", update);
    bots.addEventListener("input", update);
    for (const radio of form.querySelectorAll('input[name="seats"]')) radio.addEventListener("change", update);
    if (pace) pace.addEventListener("change", update);
    // A disabled select is not sent: enable it again on submit (the server ignores it when
    // there are no bots).
    form.addEventListener("submit", () => { level.disabled = false; });
    update();
  }

  // ------------------------------------------------------------------ copy buttons
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.addEventListener("click", async () => {
      const input = document.querySelector(button.dataset.copy);
      const label = button.textContent;
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
      } catch (err) {
        document.execCommand("copy"); // no clipboard API (plain HTTP): the old way
      }
      button.textContent = button.dataset.done;
      setTimeout(() => { button.textContent = label; }, 2000);
    });
  }

  // ------------------------------------------------------------------ the table page
  // Rematch once the match is over (the core shows #final then), Resign while it runs.
  const final = document.getElementById("final");
  const parts = document.querySelectorAll("#lobby-actions [data-when]");
  if (final && parts.length) {
    const sync = () => {
      for (const part of parts) {
        part.hidden = (part.dataset.when === "finished") === final.hidden;
      }
    };
    new MutationObserver(sync).observe(final, { attributes: true, attributeFilter: ["hidden"] });
  }

  // ------------------------------------------------------------------ a waiting table
  // The table socket sends a waiting table's state (`players`: null for a seat nobody holds)
  // and every change of its seats; the page reloads when the table starts or its seats change.
  const waiting = document.querySelector("[data-watch-table]");
  if (waiting) {
    const id = waiting.dataset.watchTable;
    const empty = parseInt(waiting.dataset.empty, 10);
    const token = new URLSearchParams(window.location.search).get("token");
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${window.location.host}/ws/tables/${id}/` +
      (token ? `?token=${encodeURIComponent(token)}` : "");
    let delay = 1000;
    const connect = () => {
      const socket = new WebSocket(url);
      let opened = false;
      socket.addEventListener("open", () => { opened = true; delay = 1000; });
      socket.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        if (message.type !== "state") return;
        const nobody = (message.players || []).filter((p) => p === null).length;
        // A seated person's page (data-wait-table) goes to the table the moment it starts.
        if (message.status === "playing" && waiting.dataset.waitTable) {
          window.location.assign(`/tables/${id}/`);
        } else if (message.status !== "waiting" || nobody !== empty) window.location.reload();
      });
      socket.addEventListener("close", (event) => {
        if (event.code === 4409 || event.code === 4403) window.location.reload(); // seat changed
        else if (opened) setTimeout(connect, (delay = Math.min(delay * 2, 30000)));
        // never opened: this visitor may not watch the table (no spectators); nothing to follow
      });
    };
    connect();
  }
})();
