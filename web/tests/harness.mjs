// What every browser test file shares: the real binary started with its demo data over a
// database of its own, headless Chromium, pages that fail their test on any error, and the
// waits and actions the tests use. Screenshots go to screenshots/ for people to look at.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startSmtpSink } from "./smtp.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
// The binary `cargo build` made: scripts/test names it; otherwise where cargo puts it.
const BINARY =
  process.env.LOSTFOUND_BIN ?? resolve(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "lostfound");
const SCREENSHOTS = join(ROOT, "screenshots");
// The binary serves the web app it embedded when it was built. With LOSTFOUND_WEB_SRC (a
// directory: web/src), pages get the app's own files — the page, its modules, styles and
// catalogs — from there instead: to try a change to the web app on a binary built before it.
// Service workers are blocked then, since theirs would keep the binary's files (pwa.test.mjs,
// which tests them, needs a binary built with the files).
const WEB_SRC = process.env.LOSTFOUND_WEB_SRC ? resolve(process.env.LOSTFOUND_WEB_SRC) : null;
// A page the test answers has no address the browser knows: without this, Chromium counts it
// as the public internet's and refuses its WebSocket to 127.0.0.1 (Local Network Access).
const WEB_SRC_FLAGS = ["--disable-features=LocalNetworkAccessChecks,LocalNetworkAccessChecksWebSockets"];
const WEB_TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png", ".webmanifest": "application/manifest+json",
};
// `narrow` is the width WCAG's reflow (1.4.10) asks a page to fit: 320 CSS pixels.
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 }, narrow: { width: 320, height: 640 } };
export const CHROMIUM_FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
/** How long any one wait may take before the test fails. */
export const TIMEOUT = 10_000;

/**
 * Starts `lostfound serve --demo` on a fresh database and a browser before the file's tests,
 * then runs `prepare(service)`, and stops both after them. The returned object gets `base`
 * (the service's URL, also its public URL: the links in its mails point there) and `port`
 * before the service starts; `open` opens pages on it. With `mail`, the service sends its
 * mail to an SMTP sink, `service.mail` (smtp.mjs). `env(service)` may add environment
 * variables, once `base` is known. `service.command(…)` runs the command line on the
 * service's database. (One `before` hook for it all: Node 20 runs a file's
 * top-level hooks at the same time, not one after the other.)
 */
export function useService({ prepare, env, mail = false } = {}) {
  const service = {
    base: null,
    port: null,
    mail: null,
    databaseUrl: null,
    open: (path, options) => open(service, path, options),
    /** Runs `lostfound ARGS…` on the service's database (another process, as an operator's). */
    command: (...args) =>
      execFileSync(BINARY, args, { env: { ...process.env, DATABASE_URL: service.databaseUrl }, encoding: "utf8" }),
  };
  let server;
  let dataDir;
  before(async () => {
    assert.ok(existsSync(BINARY), `${BINARY} is missing: run cargo build first (or set LOSTFOUND_BIN)`);
    dataDir = mkdtempSync(join(tmpdir(), "lostfound-e2e-"));
    mkdirSync(SCREENSHOTS, { recursive: true });
    service.port = await freePort();
    service.base = `http://127.0.0.1:${service.port}`;
    if (mail) service.mail = await startSmtpSink({ timeout: TIMEOUT });
    const mailEnv = mail && {
      LOSTFOUND_SMTP_URL: `smtp://127.0.0.1:${service.mail.port}`,
      LOSTFOUND_MAIL_FROM: "Lost and found <lost@example.edu>",
    };
    service.databaseUrl = `sqlite://${join(dataDir, "e2e.db")}`;
    server = spawn(BINARY, ["serve", "--demo"], {
      env: {
        ...process.env,
        DATABASE_URL: service.databaseUrl,
        LOSTFOUND_BIND: `127.0.0.1:${service.port}`,
        LOSTFOUND_PUBLIC_URL: service.base,
        // Tiles from the server itself (they 404): the browser talks to nothing outside.
        LOSTFOUND_TILE_URL: "/tiles/{z}/{x}/{y}.png",
        RUST_LOG: "warn,lostfound=info",
        ...mailEnv,
        ...(await env?.(service)),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise((resolve, reject) => {
      let log = "";
      server.stderr.on("data", (chunk) => {
        log += chunk;
        if (/listening on http:\/\//.test(log)) resolve();
      });
      server.once("exit", (code) => reject(new Error(`server exited (${code}): ${log}`)));
    });
    service.browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_FLAGS, ...(WEB_SRC ? WEB_SRC_FLAGS : [])] });
    await prepare?.(service);
  });
  after(async () => {
    await service.browser?.close();
    server?.kill("SIGTERM");
    await service.mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return service;
}

/** A port of 127.0.0.1 that is free now: the system picks it, and it is let go at once. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The map tiles, which the server does not have: the only requests allowed to fail. */
function isTile(base, url) {
  return url.origin === base && url.pathname.startsWith("/tiles/");
}

/**
 * A page in a fresh browser context (its own cookies and storage). Whatever goes wrong in it
 * fails the test at noPageErrors: an uncaught error, a console error (CSP violations
 * included), a request that fails, or an answer of 400 or more — except for map tiles and
 * the answers the test provokes on purpose, listed in `allowedErrors` as "401 POST /api/login".
 * `page.requests` lists the URL of every request the page made, `page.socket` its Socket.IO
 * frames (socketFrames). `beforeLoad(page)` runs before the page is loaded. The browser's
 * language is `locale`: English unless a test asks for another (the app follows it).
 */
async function open({ base, browser }, path = "/", { size = "desktop", allowedErrors = [], beforeLoad, locale = "en-US" } = {}) {
  const context = await browser.newContext({ viewport: SIZES[size], locale, ...(WEB_SRC && { serviceWorkers: "block" }) });
  context.setDefaultTimeout(TIMEOUT);
  if (WEB_SRC) await serveWebSource(context, base);
  const page = await context.newPage();
  page.errors = [];
  page.requests = [];
  page.socket = socketFrames(page);
  page.on("pageerror", (error) => page.errors.push(String(error)));
  page.on("console", (message) => {
    // A failed load is logged here too, without its address: the handlers below judge it.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      page.errors.push(message.text());
    }
  });
  // Which load of the page each request was made in: leaving a page (a reload, a switch of
  // language) cancels what it was still fetching, which is no error of the app.
  let loads = 0;
  const madeIn = new WeakMap();
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads += 1;
    madeIn.set(request, loads);
    page.requests.push(new URL(request.url()));
  });
  page.on("response", (response) => {
    const url = new URL(response.url());
    const answer = `${response.status()} ${response.request().method()} ${url.pathname}`;
    // A long-poll still on its way when the client reconnects (after a login or logout)
    // reaches a session the server has closed: 400 "Session ID unknown", which the client
    // expects and drops.
    const staleSession = url.pathname === "/socket.io/" && response.status() === 400 && url.searchParams.has("sid");
    if (response.status() >= 400 && !isTile(base, url) && !staleSession && !allowedErrors.includes(answer)) {
      page.errors.push(`unexpected answer: ${answer}`);
    }
  });
  page.on("requestfailed", (request) => {
    const url = new URL(request.url());
    const failure = request.failure()?.errorText;
    // The Socket.IO client cancels its pending long-poll when it reconnects (after a login or
    // logout) before it has upgraded to WebSocket.
    if (isTile(base, url) || (url.pathname === "/socket.io/" && failure === "net::ERR_ABORTED")) return;
    if (failure === "net::ERR_ABORTED" && madeIn.get(request) < loads) return;
    page.errors.push(`request failed (${failure}): ${request.method()} ${url.pathname}`);
  });
  await addContrastHelpers(page);
  await beforeLoad?.(page);
  await page.goto(base + path);
  return page;
}

/** Answers the requests of `context` for the app's own files (`/` and `/assets/…`) from
 *  LOSTFOUND_WEB_SRC, with the headers the service gives them; a file it lacks goes to the
 *  service. */
async function serveWebSource(context, base) {
  const headers = Object.fromEntries(
    [...(await fetch(`${base}/`)).headers].filter(([name]) => /^(content-security-policy|x-content-type-options|referrer-policy)$/.test(name)),
  );
  await context.route(
    (url) => url.origin === base && (url.pathname === "/" || url.pathname.startsWith("/assets/")),
    async (route) => {
      const { pathname } = new URL(route.request().url());
      const file = join(WEB_SRC, pathname === "/" ? "index.html" : decodeURIComponent(pathname.slice("/assets/".length)));
      if (!file.startsWith(WEB_SRC + "/") || !existsSync(file)) return route.continue();
      const type = WEB_TYPES[extname(file)] ?? "application/octet-stream";
      await route.fulfill({ status: 200, headers: { ...headers, "content-type": type, "cache-control": "no-cache" }, body: readFileSync(file) });
    },
  );
}

/**
 * The Socket.IO packets a page sends and receives over WebSocket, in order: frames of
 * { sent, payload, ws } (ws counts the page's WebSockets), events with `name` and `data` too.
 * The client starts on long-polling; once it has sent the upgrade packet "5" on a WebSocket,
 * every packet of that connection travels on it.
 */
function socketFrames(page) {
  const log = Object.assign(new EventEmitter(), { frames: [] });
  let sockets = 0;
  page.on("websocket", (socket) => {
    const ws = ++sockets;
    const record = (sent) => ({ payload }) => {
      // An event is "42" (Engine.IO message, Socket.IO EVENT), an optional ack id, then JSON.
      const event = typeof payload === "string" && /^42\d*(\[.*\])$/s.exec(payload);
      const [name, data] = event ? JSON.parse(event[1]) : [];
      const frame = { sent, payload, ws, name, data };
      log.frames.push(frame);
      log.emit("frame", frame);
    };
    socket.on("framesent", record(true));
    socket.on("framereceived", record(false));
  });
  return log;
}

/** Waits for the first frame at index `from` or later that matches; resolves with its index. */
export function frameWhere(log, from, matches, what) {
  const found = log.frames.findIndex((frame, i) => i >= from && matches(frame));
  if (found >= 0) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const check = (frame) => {
      if (!matches(frame)) return;
      clearTimeout(timer);
      log.off("frame", check);
      resolve(log.frames.length - 1);
    };
    const timer = setTimeout(() => {
      log.off("frame", check);
      reject(new Error(`no WebSocket frame: ${what}`));
    }, TIMEOUT);
    log.on("frame", check);
  });
}

/** The login panel, opened from the header's Log in button unless it is open already. */
export async function openLogin(page) {
  const panel = page.getByRole("dialog", { name: "Log in" });
  if (!(await panel.isVisible())) await page.locator("#login-open").click();
  await panel.getByLabel("User id").waitFor();
  return panel;
}

/** Fills in and sends the login panel's form. */
export async function tryLogin(page, id, pw) {
  const form = (await openLogin(page)).locator("#login-form");
  await form.getByLabel("User id").fill(id);
  await form.getByLabel("Password").fill(pw);
  await form.getByRole("button", { name: "Log in", exact: true }).click();
}

export async function login(page, id, pw) {
  await tryLogin(page, id, pw);
  // The bell: in the header's row at every size (the name is in the menu on a phone).
  await page.locator("#bell").waitFor();
}

/** Logs in from the header in any language (by the fields' names, not their labels). */
export async function loginInAnyLanguage(page, id, pw) {
  await page.locator("#login-open").click();
  const form = page.locator("#login-form");
  await form.locator("[name=id]").fill(id);
  await form.locator("[name=pw]").fill(pw);
  await form.locator("button[type=submit]").click();
  await page.locator("#bell").waitFor();
}

/** Opens the header's menu where the screen is narrow enough to have one (a phone). */
export async function openMenu(page) {
  const button = page.locator("#menu-button");
  if ((await button.isVisible()) && (await button.getAttribute("aria-expanded")) !== "true") await button.click();
}

/** Sends a message from `#chat-form` or `#thread-form`, typing a name only when one is given. */
export async function say(page, form, text, nick) {
  const fields = page.locator(form);
  if (nick !== undefined) await fields.getByLabel("Name").fill(nick);
  await fields.getByLabel("Message").fill(text);
  await fields.getByRole("button", { name: "Send" }).click();
}

/** The page's form fields that have no label, by name or id. */
export function unlabelledFields(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("input, select, textarea")]
      .filter((el) => el.type !== "hidden" && el.labels.length === 0 && !el.getAttribute("aria-label"))
      .map((el) => el.name || el.id),
  );
}

/** Waits until `locator` matches exactly `n` elements. */
export async function count(locator, n) {
  if (n > 0) await locator.nth(n - 1).waitFor({ state: "attached" });
  await locator.nth(n).waitFor({ state: "detached" });
}

/** Waits until a form field's value is `expected`. */
export async function valueIs(locator, expected) {
  const field = await locator.elementHandle();
  try {
    await locator.page().waitForFunction(([field, expected]) => field.value === expected, [field, expected]);
  } catch (error) {
    throw new Error(`the field holds "${await field.inputValue()}", not "${expected}"`, { cause: error });
  }
}

/** Waits until `field` is marked invalid and described by a message holding `message`
 *  (WCAG 3.3.1: the error by its field); with null, until it is marked so no more. */
export async function fieldSays(field, message) {
  const el = await field.elementHandle();
  try {
    await field.page().waitForFunction(({ el, message }) => {
      if (message === null) return el.getAttribute("aria-invalid") !== "true" && !el.getAttribute("aria-describedby");
      const ids = (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
      const said = ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
      return el.getAttribute("aria-invalid") === "true" && said.includes(message);
    }, { el, message });
  } catch (error) {
    const state = await el.evaluate((el) => `aria-invalid=${el.getAttribute("aria-invalid")}, described by “${(el.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent).join(" ")}”`);
    throw new Error(`the field ${await el.evaluate((el) => el.name)} does not say “${message}”: ${state}`, { cause: error });
  }
}

/** Fails unless the page is no wider than its viewport (nothing to scroll sideways). */
export async function noHorizontalOverflow(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${what} is ${overflow}px wider than the screen`);
}

const AXE = readFileSync(join(ROOT, "web/node_modules/axe-core/axe.min.js"), "utf8");
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** What axe-core finds against WCAG 2.1 A and AA on the page as it shows now: one line per
 *  rule and element ("color-contrast: #bell"); none when it passes. Evaluated, not added as a
 *  script: the app's Content-Security-Policy would refuse an inline one. */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  return page.evaluate(async (tags) => {
    const { violations } = await window.axe.run(document, {
      runOnly: { type: "tag", values: tags },
      // Experimental, so off unless asked: a control's name holds the words it shows (2.5.3).
      rules: { "label-content-name-mismatch": { enabled: true } },
      resultTypes: ["violations"],
    });
    return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(" ")} (${node.failureSummary.split("\n")[1]?.trim()})`));
  }, WCAG_AA);
}

/** What runs out of its room on the page as it shows now: a button (or a link drawn as one, a
 *  badge) whose words overflow it, and the page when it is wider than the screen (WCAG 1.4.10,
 *  reflow), with the last elements that stick out. None: it fits. */
export async function overflowing(page) {
  return page.evaluate(() => {
    const visible = (el) => el.checkVisibility({ visibilityProperty: true });
    const found = [...document.querySelectorAll("button, a.button, nav a, summary, .state")]
      .filter((el) => visible(el) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `overflows its box: “${el.textContent.trim()}”`);
    const wider = document.documentElement.scrollWidth - innerWidth;
    if (wider <= 0) return found;
    const past = [...document.querySelectorAll("body *")].filter((el) => visible(el) && el.getBoundingClientRect().right > innerWidth);
    return [...found, `the page is ${wider}px wider than the screen: ${past.slice(-3).map((el) => el.outerHTML.slice(0, 60)).join(", ")}`];
  });
}

/** What fails WCAG's non-text contrast (1.4.11) for the borders of the visible text fields
 *  and lists to choose from: each must stand 3:1 against what is behind it. */
export async function weakBorders(page) {
  return page.evaluate(() => {
    const found = [];
    for (const el of document.querySelectorAll("input:not([type=checkbox],[type=radio],[type=hidden],[type=file],[type=range]), select, textarea")) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const style = getComputedStyle(el);
      if (parseFloat(style.borderBottomWidth) === 0) continue;
      const ratio = window.contrastRatio(style.borderBottomColor, window.backgroundBehind(el.parentElement));
      if (ratio < 3) found.push(`the border of ${el.name || el.id || el.tagName} is ${ratio.toFixed(2)}:1`);
    }
    return found;
  });
}

/** The contrast of the focus indicator of the element that has the focus now against what
 *  is behind it (1.4.11), 0 when it has none; null when the page has no focus (Tab went on to
 *  the browser's own controls). */
export async function focusIndicator(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (el === document.body) return null;
    const style = getComputedStyle(el);
    if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2) return { what: el.outerHTML.slice(0, 80), ratio: 0 };
    return { what: el.outerHTML.slice(0, 80), ratio: window.contrastRatio(style.outlineColor, window.backgroundBehind(el.parentElement)) };
  });
}

/** Gives the page the two functions the contrast checks use: the WCAG contrast ratio of two
 *  CSS colours, and the first opaque background at or above an element. */
function addContrastHelpers(page) {
  return page.addInitScript(() => {
    const rgb = (css) => css.match(/[\d.]+/g).map(Number);
    const luminance = (css) => {
      const [r, g, b] = rgb(css).slice(0, 3).map((c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    window.contrastRatio = (a, b) => {
      const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    window.backgroundBehind = (el) => {
      for (let box = el; box; box = box.parentElement) {
        const colour = getComputedStyle(box).backgroundColor;
        const alpha = rgb(colour)[3];
        if (alpha === undefined || alpha === 1) return colour;
      }
      return "rgb(255, 255, 255)";
    };
  });
}

export async function screenshot(page, name) {
  // Every image (tiles, markers, photos) loaded or failed, but for lazy ones out of sight,
  // which the browser loads only as they come near: the picture is complete.
  await page.waitForFunction(() => {
    const inSight = (el) => {
      let { top, bottom, left, right } = el.getBoundingClientRect();
      [top, bottom, left, right] = [Math.max(top, 0), Math.min(bottom, innerHeight), Math.max(left, 0), Math.min(right, innerWidth)];
      for (let box = el.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowY === "visible") continue;
        const clip = box.getBoundingClientRect();
        [top, bottom, left, right] = [Math.max(top, clip.top), Math.min(bottom, clip.bottom), Math.max(left, clip.left), Math.min(right, clip.right)];
      }
      return top < bottom && left < right;
    };
    return [...document.images].every((img) => img.complete || (img.loading === "lazy" && !inSight(img)));
  });
  // A full-page screenshot leaves the page scrolled elsewhere than where Chromium will put
  // it back at the next input, which then lands on something else: scroll it back first.
  const [x, y] = await page.evaluate(() => [scrollX, scrollY]);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await page.evaluate(([x, y]) => scrollTo(x, y), [x, y]);
}

export function noPageErrors(page) {
  assert.deepEqual(page.errors, [], `errors in the page: ${page.errors.join("\n")}`);
}

/** A POST of `body` as JSON from outside the browser, without a session; resolves with the
 *  answer's status and JSON. */
export async function postJson(base, path, body) {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** A login from outside the browser; resolves with the answer's status. */
export async function loginStatus(base, id, pw) {
  return (await postJson(base, "/api/login", { id, pw })).status;
}

/** Logs in to the API from Node as `id`; resolves with a function that calls the API with
 *  that session and resolves with the JSON answer, failing on any error status. */
export async function signIn(base, id, pw) {
  const call = async (method, path, body, cookie) => {
    const response = await fetch(base + path, {
      method,
      headers: { ...(cookie && { cookie }), ...(body && { "Content-Type": "application/json" }) },
      body: body && JSON.stringify(body),
    });
    assert.ok(response.ok, `${method} ${path} answered ${response.status}: ${await response.clone().text()}`);
    return response;
  };
  const cookie = (await call("POST", "/api/login", { id, pw })).headers.get("set-cookie").split(";")[0];
  return async (method, path, body) => (await call(method, path, body, cookie)).json();
}

/** Answers the app's own confirmation — a modal dialog with the question, a red button and
 *  Cancel, opened by a destructive button — pressing the red button, or Cancel with `cancel`;
 *  resolves with the question (and the detail below it) once the dialog is gone. */
export async function confirmInApp(page, { cancel = false } = {}) {
  const dialog = page.locator("dialog.ask-dialog[open]");
  await dialog.waitFor();
  const question = await dialog.locator("h2, .ask-intro").allTextContents();
  await (cancel ? dialog.getByRole("button", { name: "Cancel", exact: true }) : dialog.locator("button.danger")).click();
  await dialog.waitFor({ state: "detached" });
  return question.join("\n");
}
