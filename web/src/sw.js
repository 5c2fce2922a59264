// The service worker (served at /sw.js, its scope the whole site): it keeps the app shell —
// the page, the app's modules and styles, the libraries it starts with, the icons — in a cache
// named after the build's version, so the app opens without a connection after one visit.
// The API and Socket.IO go to the network, or fail offline; only the public settings the app
// starts with (/config.json, /api/config, /api/sites, /api/categories) are kept as last
// seen, for it to start offline.
//
// The server fills in the two values below (src/http/web/shell.rs): the version, a digest of
// every file in the binary, and the shell's addresses. A new release is a new sw.js: the
// browser installs it on the next load, it caches the new shell, takes over at once and
// deletes the old caches; the page reloads onto it when it changes hands (install.js).
const VERSION = "{{version}}";
const SHELL = ["{{shell}}"];
const PREFIX = "lostfound-shell-";
const CACHE = PREFIX + VERSION;
/** The public settings the app starts with (the map's, the ways in): from the network when it
 *  answers, else as last seen. Nothing about a user: they are the same for everyone. The desks
 *  and the categories too: Browse offers them, the item view names an item's. */
const SETTINGS = ["/config.json", "/api/config", "/api/sites", "/api/categories"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Past the HTTP cache: a library kept there for a day may be an older release's.
      await cache.addAll(SHELL.map((url) => new Request(url, { cache: "no-cache" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  // Not ours to answer: changes, other sites (map tiles), the API, Socket.IO, downloads.
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (SETTINGS.includes(url.pathname)) {
    event.respondWith(networkFirst(request));
  } else if (request.mode === "navigate") {
    // The app is one page (its screens are #/… addresses); other pages (a sign-on's
    // redirect, an export) are the network's.
    if (url.pathname === "/") event.respondWith(cacheFirst("/", request));
  } else if (SHELL.includes(url.pathname) && url.search === "") {
    event.respondWith(cacheFirst(request));
  }
});

/** The shell's copy of `key` (the request itself unless named), else the network's answer. */
async function cacheFirst(key, request = key) {
  const cache = await caches.open(CACHE);
  return (await cache.match(key, { ignoreVary: true })) ?? fetch(request);
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

// Web Push: a notice the service pushed to this device (encrypted to it; the browser decrypts
// it). Shown as a system notification, one per notice (its tag); choosing it opens the app
// there — the window already open when there is one.
self.addEventListener("push", (event) => {
  let notice;
  try {
    notice = event.data?.json() ?? {};
  } catch {
    notice = { body: event.data?.text() };
  }
  event.waitUntil(
    self.registration.showNotification(notice.title || "Lost & Found", {
      body: notice.body ?? "",
      tag: notice.tag,
      icon: "/assets/icons/icon-192.png",
      badge: "/assets/icons/icon-192.png",
      data: { url: new URL(notice.url ?? "#/", self.registration.scope).href },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url ?? self.registration.scope;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        return open.navigate(url);
      }
      return self.clients.openWindow(url);
    })(),
  );
});
