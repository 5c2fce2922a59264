// The installable app: the manifest and the service worker pass Chromium's own installability
// checks, the app opens with the network cut after one visit and says it is offline, and a
// new release's service worker replaces the old one (and its cache) on the next load.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS, TIMEOUT, frameWhere, noPageErrors, openMenu, screenshot, useService } from "./harness.mjs";

const service = useService();

/** Waits until the page's service worker is active and controls it: the shell is cached. */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated");
}

/** The names of the page's caches, and every URL kept in them. */
function cached(page) {
  return page.evaluate(async () => {
    const names = await caches.keys();
    const urls = [];
    for (const name of names) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return { names, urls };
  });
}

/** The version sw.js names, and its text, as the server sends it. */
async function worker() {
  const response = await fetch(`${service.base}/sw.js`);
  const text = await response.text();
  return { response, text, version: /const VERSION = "([0-9a-f]+)";/.exec(text)?.[1] };
}

test("the manifest and the service worker pass Chromium's installability checks", async () => {
  const manifest = await fetch(`${service.base}/manifest.webmanifest`);
  assert.equal(manifest.status, 200);
  assert.equal(manifest.headers.get("content-type"), "application/manifest+json");
  const { response, version } = await worker();
  assert.equal(response.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.equal(response.headers.get("cache-control"), "no-cache");
  assert.match(version ?? "", /^[0-9a-f]{16}$/);
  assert.match(response.headers.get("content-security-policy"), /worker-src 'self'; manifest-src 'self'/);

  // Chromium installs nothing from an incognito profile, which every context of a browser
  // launched as the harness does is: a browser with a profile of its own.
  const profile = mkdtempSync(join(tmpdir(), "lostfound-pwa-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
  try {
    context.setDefaultTimeout(TIMEOUT);
    const page = context.pages()[0] ?? (await context.newPage());
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    // As the harness does: failed loads are judged by their answers, the map tiles (which the
    // server does not have) let through.
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
    });
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (response.status() >= 400 && !url.pathname.startsWith("/tiles/")) errors.push(`${response.status()} ${url.pathname}`);
    });
    await page.goto(`${service.base}/`);
    await page.locator("#item-list li").first().waitFor();
    await controlled(page);
    await installable(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

/** Asks Chromium, as DevTools does, whether the page's app can be installed. */
async function installable(page) {
  const cdp = await page.context().newCDPSession(page);
  const app = await cdp.send("Page.getAppManifest");
  assert.equal(app.url, `${service.base}/manifest.webmanifest`);
  assert.deepEqual(app.errors, []);
  const parsed = JSON.parse(app.data);
  assert.equal(parsed.name, "Lost & Found");
  assert.equal(parsed.display, "standalone");
  assert.deepEqual(
    parsed.icons.map((icon) => `${icon.sizes} ${icon.purpose}`),
    ["192x192 any", "512x512 any", "512x512 maskable"],
  );
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  assert.deepEqual(installabilityErrors, []);
}

for (const size of ["desktop", "phone"]) {
  test(`after one visit the app opens with the network cut and says it is offline (${size})`, async () => {
    const page = await service.open("/", { size });
    await page.locator("#item-list li").first().waitFor();
    await controlled(page);
    const offline = page.locator("#offline");
    assert.equal(await offline.isVisible(), false);
    // The shell is kept, under this release's version; no answer of the API ever is.
    const { names, urls } = await cached(page);
    assert.deepEqual(names, [`lostfound-shell-${(await worker()).version}`]);
    for (const needed of ["/", "/assets/app.js", "/assets/style.css", "/vendor/leaflet/dist/leaflet.js", "/config.json", "/api/config", "/api/sites", "/api/categories"]) {
      assert.ok(urls.includes(needed), `${needed} is not kept`);
    }
    // Of the API, only the public settings, the desks and the categories the app starts with.
    assert.deepEqual(
      urls.filter((url) => url.startsWith("/api") || url.startsWith("/socket.io")).sort(),
      ["/api/categories", "/api/config", "/api/sites"],
    );
    noPageErrors(page);

    await page.context().setOffline(true);
    await offline.waitFor();
    await page.reload();
    await page.getByRole("banner").getByRole("link", { name: "Lost & Found" }).waitFor();
    await page.locator("#browse-heading").waitFor();
    await offline.getByText("You are offline").waitFor();
    await page.locator("#messages").getByText("The service cannot be reached").waitFor();
    await screenshot(page, `offline-${size}`);
    // The app started: its screens open (from the menu on a phone), a visitor's Log in shows.
    await page.locator("#login-open").waitFor();
    await openMenu(page);
    await page.getByRole("navigation").getByRole("link", { name: "Report an item" }).click();
    await page.locator("#report-visitor").waitFor();
    await openMenu(page);
    await page.getByRole("navigation").getByRole("link", { name: "Browse" }).click();
    await page.locator("#filters").waitFor();
    // Only the API and Socket.IO failed: the whole shell came from the service worker.
    const failed = page.errors.filter(
      (error) => !/^request failed \(net::ERR_INTERNET_DISCONNECTED\): (GET|POST) \/(api|socket\.io)\//.test(error),
    );
    assert.deepEqual(failed, []);
    assert.ok(page.errors.length > 0, "the API was asked offline");

    // Back online, the message goes and the app starts.
    page.errors.length = 0;
    await page.context().setOffline(false);
    await offline.waitFor({ state: "hidden" });
    await page.locator("#item-list li").first().waitFor();
    await page.context().close();
  });
}

test("a new release's service worker replaces the old one, and its cache, on the next load", async () => {
  // The old release, as the browser sees it: the same files but an older sw.js, which names
  // another version (the server serves this binary's sw.js, so the test plays the old one to
  // the browser). Its next load then finds this binary's sw.js, as it would after an upgrade.
  const current = await worker();
  const OLD = "0123456789abcdef";
  const oldWorker = (route) =>
    route.fulfill({
      contentType: "text/javascript",
      headers: { "cache-control": "no-cache" },
      body: current.text.replace(`const VERSION = "${current.version}";`, `const VERSION = "${OLD}";`),
    });
  const isWorker = (url) => url.origin === service.base && url.pathname === "/sw.js";
  const page = await service.open("/", { beforeLoad: (page) => page.context().route(isWorker, oldWorker) });
  await page.locator("#item-list li").first().waitFor();
  await controlled(page);
  assert.deepEqual((await cached(page)).names, [`lostfound-shell-${OLD}`]);

  // The upgrade: the next load comes from the old release's cache, and the browser finds the
  // new sw.js; it caches the new shell, takes over and deletes the old cache, and the page
  // reloads onto it.
  await page.context().unroute(isWorker, oldWorker);
  let loads = 0;
  const reloaded = page.waitForEvent("load", { predicate: () => ++loads === 2 });
  const framesBefore = page.socket.frames.length;
  await page.reload();
  await reloaded;
  await controlled(page);
  assert.deepEqual((await cached(page)).names, [`lostfound-shell-${current.version}`]);
  await page.locator("#item-list li").first().waitFor();
  // The old worker is the test's own answer, with no network address: Chromium's Local
  // Network Access counts the page it served as public, and refuses its WebSocket to
  // 127.0.0.1 (Socket.IO stays on long-polling there). The new release's page, served by a
  // worker from the server, has its WebSocket.
  const blocked = (error) => error.includes("net::ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS");
  page.errors = page.errors.filter((error) => !blocked(error));
  await frameWhere(page.socket, framesBefore, (frame) => !frame.sent, "the new page's WebSocket");
  noPageErrors(page);
});
