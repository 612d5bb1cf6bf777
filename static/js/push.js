// Push notices on this device (docs/notices.md). On every page: registers the service worker
// (/sw.js), so the site installs as an app. On the profile's notice settings: the buttons that
// turn push on or off for this browser. Permission is asked only on a click, never on load.
"use strict";

(() => {
  if (!("serviceWorker" in navigator)) return;
  const ready = navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);

  const keyBytes = (text) => {
    const padded = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };

  const start = () => {
    const box = document.getElementById("push-settings");
    if (!box) return;
    const on = box.querySelector("[data-push-on]");
    const off = box.querySelector("[data-push-off]");
    const state = box.querySelector("[data-push-state]");
    const words = box.dataset;
    const say = (text) => { state.textContent = text; };
    const show = (subscribed) => {
      on.hidden = subscribed;
      off.hidden = !subscribed;
      say(subscribed ? words.on : words.off);
    };
    if (!("PushManager" in window) || !("Notification" in window)) {
      on.hidden = true;
      off.hidden = true;
      say(words.unsupported);
      return;
    }
    const post = async (url, body) => {
      const token = box.querySelector("[name=csrfmiddlewaretoken]");
      const response = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token ? token.value : "" },
        body: JSON.stringify(body),
      });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(data.error || words.failed);
      return data;
    };
    const registration = async () => (await ready) && navigator.serviceWorker.ready;

    registration().then(async (reg) => {
      const subscription = reg ? await reg.pushManager.getSubscription() : null;
      show(Boolean(subscription) && Notification.permission === "granted");
    });

    on.addEventListener("click", async () => {
      on.disabled = true;
      try {
        const permission = await Notification.requestPermission();
        if (permission !== "granted") { say(words.denied); return; }
        const reg = await registration();
        if (!reg) throw new Error(words.failed);
        const subscription = await reg.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key),
        });
        await post(box.dataset.subscribe, subscription.toJSON());
        show(true);
      } catch (error) {
        say(`${words.failed} ${error && error.message ? error.message : ""}`.trim());
      } finally {
        on.disabled = false;
      }
    });

    off.addEventListener("click", async () => {
      off.disabled = true;
      try {
        const reg = await registration();
        const subscription = reg ? await reg.pushManager.getSubscription() : null;
        if (subscription) {
          await post(box.dataset.unsubscribe, { endpoint: subscription.endpoint });
          await subscription.unsubscribe();
        }
        show(false);
      } catch (error) {
        say(`${words.failed} ${error && error.message ? error.message : ""}`.trim());
      } finally {
        off.disabled = false;
      }
    });
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
