// End-to-end: the real binary with its demo data, driven in headless Chromium by Playwright.
// Run by scripts/test after `cargo build` (node --test web/tests). Screenshots of every screen,
// at desktop and phone sizes, go to screenshots/ for people to look at.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BINARY = process.env.LOSTFOUND_BIN ?? join(ROOT, "target/debug/lostfound");
const SCREENSHOTS = join(ROOT, "screenshots");
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const CHROMIUM_FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
// A 64×48 red PNG with a white disc: the report form scales it and sends it as a JPEG.
const PHOTO = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAAeElEQVR42u3YQQ3AMAxD0SLZefxRjJUHYcpaKY71rQDou9Vez3WPvgUAAAAAAAAAiALoK74AVWIHUD1GAP2NBUB7aQboRNoAOhcAra/fMQAAAAAAAAAAZgL4zBkAxveBhEaW0IkTVomEXShhmWPcBQAAAAAAAKr3AsSbQo9fIfRIAAAAAElFTkSuQmCC",
  "base64",
);
const TITLE = "Red water bottle";

let server;
let base;
let browser;
let dataDir;
const contexts = [];

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "lostfound-e2e-"));
  mkdirSync(SCREENSHOTS, { recursive: true });
  server = spawn(BINARY, ["serve", "--demo"], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite://${join(dataDir, "e2e.db")}`,
      LOSTFOUND_BIND: "127.0.0.1:0",
      // Tiles from the server itself (they 404): the browser talks to nothing outside.
      LOSTFOUND_TILE_URL: "/tiles/{z}/{x}/{y}.png",
      RUST_LOG: "warn,lostfound=info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  base = await new Promise((resolve, reject) => {
    let log = "";
    server.stderr.on("data", (chunk) => {
      log += chunk;
      const found = log.match(/listening on (http:\/\/[\d.:]+)/);
      if (found) resolve(found[1]);
    });
    server.once("exit", (code) => reject(new Error(`server exited (${code}): ${log}`)));
  });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
});

after(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
});

/** A page in a fresh browser context (its own cookies), failing the test on page errors. */
async function open(path = "/", size = "desktop") {
  const context = await browser.newContext({ viewport: SIZES[size] });
  contexts.push(context);
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(String(error)));
  page.on("console", (message) => {
    // Tiles are expected to 404 here; anything else (CSP violations included) is a failure.
    if (message.type() === "error" && !message.text().includes("Failed to load resource")) {
      page.errors.push(message.text());
    }
  });
  await page.goto(base + path);
  return page;
}

async function login(page, id, pw) {
  await page.getByLabel("User id").fill(id);
  await page.getByLabel("Password").fill(pw);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.locator("#signed-in").waitFor();
}

async function screenshot(page, name) {
  await page.waitForTimeout(300); // let the map finish drawing
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

function noPageErrors(page) {
  assert.deepEqual(page.errors, [], `errors in the page: ${page.errors.join("\n")}`);
}

test("a user logs in and reports an item with a photo and a place picked on the map", async () => {
  const page = await open("/#/report");
  await login(page, "alice", "alice-demo-pass");
  const form = page.locator("#report-form");
  await form.getByLabel("Title").fill(TITLE);
  await form.getByLabel("Description").fill("Steel, with a <b>sticker</b> of a fox.");
  await form.getByLabel("Category").selectOption("other");
  await form.getByLabel("Photo").setInputFiles({ name: "bottle.png", mimeType: "image/png", buffer: PHOTO });
  await page.locator("#report-map").click({ position: { x: 200, y: 120 } });
  assert.notEqual(await form.getByLabel("Latitude").inputValue(), "");
  await form.getByLabel("Radius (m)").fill("40");
  await screenshot(page, "report-desktop");
  await page.getByRole("button", { name: "Send report" }).click();
  await page.getByText(`“${TITLE}” is reported and waits for review`).waitFor();
  noPageErrors(page);
});

test("an administrator approves it, records where it is kept, and deletes another", async () => {
  const page = await open("/");
  await login(page, "admin", "admin-demo-pass");
  await page.getByRole("link", { name: "Review" }).click();
  const card = page.locator(".review-card", { hasText: TITLE });
  await card.waitFor();
  assert.equal(await card.locator("img").count(), 1, "the photo is shown");
  await card.getByLabel("Kept at").fill("Front desk, shelf B");
  await card.getByRole("button", { name: "Save place" }).click();
  await page.getByText(`Save place: “${TITLE}”`).waitFor();
  await screenshot(page, "review-desktop");
  await page.locator(".review-card", { hasText: TITLE }).getByRole("button", { name: "Approve" }).click();
  await page.getByText(`Approve: “${TITLE}”`).waitFor();
  await page.locator(".review-card", { hasText: TITLE }).waitFor({ state: "detached" });

  const doomed = page.locator(".review-card", { hasText: "Calculator" });
  page.once("dialog", (dialog) => dialog.accept());
  await doomed.getByRole("button", { name: "Delete" }).click();
  await page.getByText("Deleted “Calculator”").waitFor();
  await doomed.waitFor({ state: "detached" });
  noPageErrors(page);
});

test("anyone finds it in the list and on the map, with every field", async () => {
  const page = await open("/");
  await page.locator("#filters").getByLabel("Search").fill("water bottle");
  const listed = page.locator("#item-list button", { hasText: TITLE });
  await listed.waitFor();
  assert.equal(await page.locator("#item-list li").count(), 1);
  const marker = page.locator(`.leaflet-marker-icon[title="${TITLE}"]`);
  assert.equal(await marker.count(), 1, "one marker on the map");
  assert.equal(await page.locator("path.leaflet-interactive").count(), 1, "one accuracy circle");
  await screenshot(page, "browse-desktop");

  await marker.click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("heading", { name: TITLE }).waitFor();
  const fields = await dialog.locator("#item-fields").innerText();
  for (const expected of ["Front desk, shelf B", "approved", "alice", "within 40 m", "Steel, with a <b>sticker</b> of a fox."]) {
    assert.ok(fields.includes(expected), `"${expected}" in ${fields}`);
  }
  assert.equal(await dialog.locator("#item-fields b").count(), 0, "user text is not HTML");
  assert.ok((await dialog.locator("#item-photo").getAttribute("src")).startsWith("data:image/jpeg;base64,"));
  await screenshot(page, "item-desktop");
  noPageErrors(page);
});

test("two people exchange messages in the item's thread", async () => {
  const list = await (await fetch(`${base}/api/items?status=approved`)).json();
  const id = list.find((item) => item.title === TITLE).id;
  const [owner, finder] = [await open("/"), await open(`/#/browse/${id}`)];
  await login(owner, "alice", "alice-demo-pass");
  await owner.goto(`${base}/#/browse/${id}`);
  for (const page of [owner, finder]) await page.getByRole("dialog").getByRole("heading", { name: TITLE }).waitFor();

  const say = async (page, nick, text) => {
    const form = page.locator("#thread-form");
    await form.getByLabel("Name").fill(nick);
    await form.getByLabel("Message").fill(text);
    await form.getByRole("button", { name: "Send" }).click();
  };
  await say(finder, "Sam", "I handed it in this morning.");
  await owner.locator("#thread-log li", { hasText: "I handed it in this morning." }).waitFor();
  await say(owner, "Alice", "Thank you! Coming to pick it up.");
  await finder.locator("#thread-log li", { hasText: "Coming to pick it up" }).waitFor();
  await screenshot(owner, "thread-desktop");

  // Closed: the thread is left, and new messages no longer arrive.
  await finder.getByRole("button", { name: "Close" }).click();
  await say(owner, "Alice", "After you left.");
  await owner.locator("#thread-log li", { hasText: "After you left." }).waitFor();
  assert.equal(await finder.locator("#thread-log li", { hasText: "After you left." }).count(), 0);
  noPageErrors(owner);
  noPageErrors(finder);
});

test("the global chat shows its history and live messages", async () => {
  const first = await open("/#/chat");
  await first.locator("#chat-form").getByLabel("Name").fill("Ann");
  await first.locator("#chat-form").getByLabel("Message").fill("Has anyone seen a grey scarf?");
  await first.locator("#chat-form").getByRole("button", { name: "Send" }).click();
  await first.locator("#chat-log li", { hasText: "grey scarf" }).waitFor();

  const second = await open("/#/chat");
  await second.locator("#chat-log li", { hasText: "grey scarf" }).waitFor(); // history
  await second.locator("#chat-form").getByLabel("Message").fill("Check the library desk.");
  await second.locator("#chat-form").getByRole("button", { name: "Send" }).click();
  await first.locator("#chat-log li", { hasText: "library desk" }).waitFor(); // live
  await screenshot(first, "chat-desktop");
  noPageErrors(first);
  noPageErrors(second);
});

test("the place can come from the device's location, and logging out ends the session", async () => {
  const page = await open("/#/report");
  await page.context().grantPermissions(["geolocation"]);
  await page.context().setGeolocation({ latitude: 51.5231, longitude: -0.1312, accuracy: 35 });
  await login(page, "bob", "bob-demo-pass");
  const form = page.locator("#report-form");
  await form.getByRole("button", { name: "Use my location" }).click();
  await page.waitForFunction(() => document.querySelector("[name=lat]").value !== "");
  assert.equal(await form.getByLabel("Latitude").inputValue(), "51.523100");
  assert.equal(await form.getByLabel("Longitude").inputValue(), "-0.131200");
  assert.equal(await form.getByLabel("Radius (m)").inputValue(), "35");

  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByText("You are logged out.").waitFor();
  assert.ok(await page.getByRole("button", { name: "Send report" }).isDisabled());
  const me = await page.evaluate(async () => (await fetch("/api/me")).json());
  assert.deepEqual(me, { user: null });
  noPageErrors(page);
});

test("errors from the service are shown clearly", async () => {
  const page = await open("/");
  await page.getByLabel("User id").fill("alice");
  await page.getByLabel("Password").fill("not-her-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("alert").getByText("Invalid password").waitFor();

  await page.goto(`${base}/#/report`);
  assert.ok(await page.getByText("Log in to report an item.").isVisible());
  assert.ok(await page.getByRole("button", { name: "Send report" }).isDisabled());
  noPageErrors(page);
});

test("user text is never interpreted as HTML", async () => {
  const page = await open("/");
  await login(page, "bob", "bob-demo-pass");
  const title = `<img src=x onerror="window.pwned=1">Scarf`;
  const created = await page.evaluate(async (title) => {
    const response = await fetch("/api/items", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ title, lat: 51.5246, lng: -0.134 }),
    });
    return response.json();
  }, title);
  await page.locator("#filters").getByLabel("Status").selectOption("pending");
  await page.locator("#item-list button", { hasText: title }).waitFor();
  await page.locator("#item-list button", { hasText: title }).click();
  await page.getByRole("dialog").getByRole("heading", { name: title }).waitFor();
  assert.equal(await page.locator("img[src=x]").count(), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(created.title, title);
  noPageErrors(page);
});

test("every control is reachable by keyboard", async () => {
  const page = await open("/");
  await page.keyboard.press("Tab"); // skip link
  await page.keyboard.press("Tab"); // brand
  await page.keyboard.press("Tab"); // Browse
  await page.keyboard.press("Tab"); // Report an item
  await page.keyboard.press("Enter");
  await page.locator("#view-report").waitFor();
  assert.equal(await page.evaluate(() => location.hash), "#/report");
  // Every form control has a label.
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll("input, select, textarea")]
      .filter((el) => el.type !== "hidden" && el.labels.length === 0 && !el.getAttribute("aria-label"))
      .map((el) => el.name || el.id),
  );
  assert.deepEqual(unlabelled, []);
  noPageErrors(page);
});

test("every screen works on a phone", async () => {
  const admin = await open("/", "phone");
  await login(admin, "admin", "admin-demo-pass");
  for (const [name, hash] of [["browse", "#/browse"], ["report", "#/report"], ["review", "#/review"], ["chat", "#/chat"]]) {
    await admin.goto(`${base}/${hash}`);
    await admin.locator(`#view-${name}`).waitFor();
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name} is ${overflow}px wider than the phone`);
    await screenshot(admin, `${name}-phone`);
  }
  const items = await (await fetch(`${base}/api/items?status=approved`)).json();
  await admin.goto(`${base}/#/browse/${items[0].id}`);
  await admin.getByRole("dialog").waitFor();
  await screenshot(admin, "item-phone");
  noPageErrors(admin);
});
