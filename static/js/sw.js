// Mediana's service worker (served at /sw.js, scope /; docs/notices.md): shows the notices the
// server pushes (league/services/web_push.py) and opens or focuses their page on a click.
// It caches nothing: every page comes from the server as without it.
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// Only a path of this site is opened: a push names its notice's page, never another site.
const pageUrl = (path) => {
  const url = new URL(typeof path === "string" && path.startsWith("/") && !path.startsWith("//") ? path : "/notices/", self.location.origin);
  return url.origin === self.location.origin ? url.href : new URL("/", self.location.origin).href;
};

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = String(data.title || "Mediana");
  event.waitUntil(self.registration.showNotification(title, {
    body: String(data.body || ""),
    tag: data.tag ? String(data.tag) : undefined,
    icon: data.icon ? String(data.icon) : undefined,
    data: { url: pageUrl(data.url) },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = pageUrl(new URL((event.notification.data || {}).url || "/notices/", self.location.origin).pathname);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
