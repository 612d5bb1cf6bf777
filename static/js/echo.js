// Opens the echo WebSocket and shows the identity the server reports for this connection.
(function () {
  "use strict";
  const statusEl = document.getElementById("ws-status");
  const identityEl = document.getElementById("ws-identity");
  if (!statusEl) return;
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}/ws/echo/`);
  socket.addEventListener("open", () => { statusEl.textContent = "connected"; });
  socket.addEventListener("close", () => { statusEl.textContent = "disconnected"; });
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "hello") {
      identityEl.textContent = msg.authenticated ? msg.user : "anonymous visitor";
    }
  });
})();
