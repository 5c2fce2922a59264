// The office's custody of found items, in the browser: staff log an item handed in at the
// desk with its finder and print its label (or a sheet of them), dispose of what is due,
// and read the statistics (and export them); reporters close their reports and claimants
// withdraw their claims; what became of an item shows on its card and in its view, and
// browsing leaves closed and returned items out unless asked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { confirmInApp, count, login, noHorizontalOverflow, noPageErrors, screenshot, signIn, unlabelledFields, useService } from "./harness.mjs";

// A 64×48 red PNG with a white disc (as the report test sends).
const PHOTO = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAAeElEQVR42u3YQQ3AMAxD0SLZefxRjJUHYcpaKY71rQDou9Vez3WPvgUAAAAAAAAAiALoK74AVWIHUD1GAP2NBUB7aQboRNoAOhcAra/fMQAAAAAAAAAAZgL4zBkAxveBhEaW0IkTVomEXShhmWPcBQAAAAAAAKr3AsSbQo9fIfRIAAAAAElFTkSuQmCC",
  "base64",
);
const OFFICE = "Student Union, room 12, Mon–Fri 9–17; bring your student card";
/** Found items of this category are due for disposal as soon as they are reported. */
const DUE_AT_ONCE = "perishables";

const service = useService({
  env: () => ({ LOSTFOUND_OFFICE: OFFICE, LOSTFOUND_HOLD_DAYS_BY_CATEGORY: `${DUE_AT_ONCE}=0` }),
});
const asAdmin = () => signIn(service.base, "admin", "admin-demo-pass");
const asAlice = () => signIn(service.base, "alice", "alice-demo-pass");
const asBob = () => signIn(service.base, "bob", "bob-demo-pass");

/** A page whose window.print() only counts its calls (`window.printed`): headless Chromium
 *  has no printer. */
function open(path, options = {}) {
  return service.open(path, {
    ...options,
    beforeLoad: (page) =>
      page.addInitScript(() => {
        window.printed = 0;
        window.print = () => {
          window.printed += 1;
        };
      }),
  });
}

/** Waits until the page has called window.print() `n` times. */
function printedTimes(page, n) {
  return page.waitForFunction((n) => window.printed === n, n);
}

/** Waits until every label image of the labels view is loaded and drawn; resolves with them. */
async function labelsLoaded(page, n) {
  const images = page.locator("#labels-sheet img");
  await count(images, n);
  await page.waitForFunction(
    () => [...document.querySelectorAll("#labels-sheet img")].every((img) => img.complete && img.naturalWidth > 0),
  );
  return images;
}

/** The card of report `title` in My reports (other cards may name it as a match). */
const mineCard = (page, title) =>
  page.locator("#mine-list > li").filter({ has: page.locator(".item-card strong").getByText(title, { exact: true }) });
const nav = (page, name) => page.getByRole("navigation").getByRole("link", { name, exact: true });
/** The item view's field `name` (its <dd>). */
const field = (dialog, name) => dialog.locator("#item-fields dt", { hasText: name }).locator("+ dd");

test("staff log a found item handed in at the desk with its finder, and print its label", async () => {
  const title = "Red lunch box with a duck sticker";
  const page = await open("/");
  await nav(page, "Intake").waitFor({ state: "hidden" }); // not for visitors
  await login(page, "admin", "admin-demo-pass");
  await nav(page, "Intake").click();
  const form = page.locator("#intake-form");
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Description").fill("Plastic, <b>two</b> compartments.");
  await form.getByLabel("Category").selectOption("bags");
  await form.getByLabel("Kept at").fill("Shelf C3");
  await form.getByLabel("Photo").setInputFiles({ name: "box.png", mimeType: "image/png", buffer: PHOTO });
  await page.locator("#intake-map").click({ position: { x: 220, y: 110 } });
  await page.waitForFunction(() => document.querySelector("#intake-form [name=lat]").value !== "");
  await form.getByLabel("Radius (m)").fill("15");
  await form.getByLabel("Finder's name").fill("Ada Finder");
  await form.getByLabel("Finder's contact").fill("ada@example.org");
  await form.getByLabel("Place", { exact: true }).fill("Lecture hall B");
  await form.getByLabel(/^Verification details/).fill("A duck sticker on the lid; a fork inside");
  await form.getByLabel("Day").fill("2026-01-15");
  assert.deepEqual(await unlabelledFields(page), []);
  await screenshot(page, "intake-desktop");
  await form.getByRole("button", { name: "Log item" }).click();

  const done = page.locator("#intake-done");
  await done.getByText(`“${title}” is published, kept at Shelf C3.`).waitFor();
  const number = await done.locator("#intake-number").textContent();
  assert.match(number, /^#\d+$/);
  const id = Number(number.slice(1));
  await page.getByRole("status").getByText(`Item ${number} “${title}” is logged.`).waitFor();
  await screenshot(page, "intake-done-desktop");
  const admin = await asAdmin();
  const stored = await admin(
    "GET", `/api/items/${id}?fields=title,kind,status,storagePlace,finder,verification,photoUrl,holdUntil,happenedFrom,happenedUntil`,
  );
  // The day it was found, in the browser's own time: all of it.
  const [dayStart, dayEnd] = await page.evaluate(() => [new Date("2026-01-15T00:00").toISOString(), new Date("2026-01-15T23:59:59.999").toISOString()]);
  assert.deepEqual(
    { ...stored, photoUrl: Boolean(stored.photoUrl), holdUntil: Boolean(stored.holdUntil) },
    {
      title, kind: "found", status: "approved", storagePlace: "Shelf C3",
      finder: { name: "Ada Finder", contact: "ada@example.org" }, verification: "A duck sticker on the lid; a fork inside",
      photoUrl: true, holdUntil: true, happenedFrom: dayStart, happenedUntil: dayEnd,
    },
  );

  // Its label, from the result: the label view loads the image and opens the print dialog.
  await done.getByRole("button", { name: "Print label" }).click();
  await page.waitForFunction(() => location.hash.startsWith("#/labels/"));
  const [label] = await (await labelsLoaded(page, 1)).all();
  assert.equal(await label.getAttribute("src"), `/api/items/${id}/label.svg`);
  assert.equal(await label.getAttribute("alt"), `Label of #${id}: ${title}`);
  await printedTimes(page, 1);
  await screenshot(page, "label-desktop");
  // Back where it came from, the result still there.
  await page.getByRole("button", { name: "Back" }).click();
  await done.getByText(number).waitFor();

  // The next item of a batch: the form is empty but for the desk, where and when it was found.
  assert.equal(await done.getByRole("link", { name: "View the item" }).getAttribute("href"), `#/items/${id}`);
  await done.getByRole("button", { name: "Log another item" }).click();
  await form.getByLabel("Title").waitFor();
  assert.equal(await form.getByLabel("Place", { exact: true }).inputValue(), "Lecture hall B");
  assert.notEqual(await form.getByLabel("Latitude").inputValue(), "");
  assert.equal(await form.getByLabel("Radius (m)").inputValue(), "15");
  assert.equal(await form.getByLabel("Day").inputValue(), "2026-01-15");
  for (const name of ["Title", "Finder's name", /^Verification details/]) assert.equal(await form.getByLabel(name).inputValue(), "");

  // Staff see the finder and how long it is kept in the item's view.
  await page.goto(`${service.base}/#/items/${id}`);
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("heading", { name: title }).waitFor();
  await field(dialog, "Handed in by").getByText("Ada Finder · ada@example.org").waitFor();
  await field(dialog, "Kept until").waitFor();
  await field(dialog, "Kept at").getByText("Shelf C3").waitFor();
  await field(dialog, "Verification details").getByText("A duck sticker on the lid; a fork inside").waitFor();
  await dialog.locator("#item-fields dd", { hasText: "Plastic, <b>two</b> compartments." }).waitFor();
  await count(dialog.locator("#item-fields b"), 0); // user text is not HTML
  await screenshot(page, "item-staff-desktop");
  // …and print its label from there.
  await dialog.getByRole("button", { name: "Print label" }).click();
  await labelsLoaded(page, 1);
  await printedTimes(page, 2);
  noPageErrors(page);

  // Anyone else sees the item, never its finder: the app does not even ask. The label's QR
  // code names `#/items/ID`, which opens the item.
  const other = await open("/");
  await login(other, "alice", "alice-demo-pass");
  await other.goto(`${service.base}/#/items/${id}`);
  await other.getByRole("dialog").getByRole("heading", { name: title }).waitFor();
  // Nor where it is kept, nor who reported it: the public view.
  await field(other.getByRole("dialog"), "Reported").waitFor();
  await count(other.locator("#item-fields dt", { hasText: "Kept at" }), 0);
  assert.doesNotMatch(await field(other.getByRole("dialog"), "Reported").textContent(), / by /);
  await count(other.locator("#item-fields dt", { hasText: "Handed in by" }), 0);
  await count(other.locator("#item-fields dt", { hasText: "Verification details" }), 0);
  await count(other.getByRole("dialog").getByRole("button", { name: "Print label" }), 0);
  const asked = other.requests.filter((url) => url.pathname === `/api/items/${id}`);
  assert.ok(asked.length > 0 && asked.every((url) => !url.searchParams.get("fields").split(",").some((key) => ["finder", "verification"].includes(key))));
  const alice = await asAlice();
  assert.equal("finder" in (await alice("GET", `/api/items/${id}?fields=id,finder`)), false);
  noPageErrors(other);

  const phone = await open("/#/intake", { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  await phone.locator("#intake-form").getByLabel("Finder's contact").waitFor();
  await noHorizontalOverflow(phone, "Intake");
  await screenshot(phone, "intake-phone");
  noPageErrors(phone);
});

test("staff choose several found items in Review and print their labels on one sheet", async () => {
  const admin = await asAdmin();
  const titles = ["Yellow raincoat", "Chemistry textbook", "Silver bracelet"];
  const ids = [];
  for (const [n, title] of titles.entries()) {
    const item = await admin("POST", "/api/items?fields=id", {
      title, kind: "found", status: "approved", lat: 51.52, lng: -0.13, storagePlace: `Shelf D${n + 1}`,
    });
    ids.push(item.id);
  }
  const page = await open("/");
  await login(page, "admin", "admin-demo-pass");
  await nav(page, "Review").click();
  await page.locator("#review-status").selectOption("approved");
  const bar = page.locator("#review-chosen");
  assert.equal(await bar.getByRole("button", { name: "Print labels" }).isDisabled(), true, "nothing chosen yet");
  await count(bar.getByRole("button", { name: "Send to a desk…" }), 0); // one desk: nowhere to send them
  for (const title of titles.slice(0, 2)) {
    await page.locator("#review-list .review-card", { hasText: title }).getByRole("checkbox", { name: `Choose ${title}` }).check();
  }
  await bar.getByRole("status").getByText("2 items chosen").waitFor();
  await page.getByRole("button", { name: "Print 2 labels" }).waitFor();
  await screenshot(page, "review-labels-desktop");
  await page.getByRole("button", { name: "Print 2 labels" }).click();
  const images = await labelsLoaded(page, 2);
  assert.deepEqual(
    await images.evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src"))),
    ids.slice(0, 2).map((id) => `/api/items/${id}/label.svg`),
  );
  await printedTimes(page, 1);
  // Shown at their printed size, 62 × 29 mm (96 CSS pixels an inch).
  const box = await images.first().boundingBox();
  assert.ok(Math.abs(box.width - (62 / 25.4) * 96) < 2 && Math.abs(box.height - (29 / 25.4) * 96) < 2, JSON.stringify(box));

  // Printed on a sheet: both labels on one page; for a 62 mm label printer: one label a page of 62 × 29 mm.
  const pages = async () => {
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString("latin1");
    return [...pdf.matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map(([, w, h]) => [Math.round(w), Math.round(h)]);
  };
  assert.equal((await pages()).length, 1, "one sheet");
  await page.getByLabel("Paper").selectOption("roll");
  const mm = (x) => Math.round((x / 25.4) * 72);
  assert.deepEqual(await pages(), [[mm(62), mm(29)], [mm(62), mm(29)]]);

  // One label, from a review card.
  await page.getByRole("button", { name: "Back" }).click();
  await page.locator("#review-list .review-card", { hasText: titles[2] }).getByRole("button", { name: "Print label" }).click();
  await labelsLoaded(page, 1);
  await printedTimes(page, 2);
  noPageErrors(page);

  const phone = await open(`/#/labels/${ids.join(",")}`, { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  await labelsLoaded(phone, 3);
  await noHorizontalOverflow(phone, "Labels");
  await screenshot(phone, "labels-phone");
  // Opened from a link, not from a button of the app: nothing prints by itself.
  assert.equal(await phone.evaluate(() => window.printed), 0);
  noPageErrors(phone);
});

test("the due list: staff record how a found item kept too long was disposed of, and it leaves the list", async () => {
  const admin = await asAdmin();
  const bob = await asBob();
  const titles = ["Half a sandwich", "Bag of apples"];
  for (const title of titles) {
    await admin("POST", "/api/items?fields=id", {
      title, kind: "found", status: "approved", cat: DUE_AT_ONCE, lat: 51.52, lng: -0.13, storagePlace: "Fridge",
    });
  }
  // A claim on the first, open: disposing of the item turns it down.
  const [sandwich] = await admin("GET", `/api/items?q=${encodeURIComponent(titles[0])}&fields=id&limit=1`);
  const claim = await bob("POST", `/api/items/${sandwich.id}/claims`, { message: "It is my lunch." });

  const page = await open("/");
  await login(page, "admin", "admin-demo-pass");
  await nav(page, "Review").click();
  const due = page.locator("#due-list > li");
  await count(due, 2);
  const asked = page.requests.find((url) => url.pathname === "/api/items" && url.searchParams.get("due") === "true").searchParams;
  assert.equal(asked.get("fields"), "id,title,cat,created_at,holdUntil,storagePlace,kind,siteId,thumbUrl");
  assert.ok(asked.get("limit"));
  await page.locator("#due-count", { hasText: /^2 items$/ }).waitFor();
  const row = due.filter({ hasText: titles[0] });
  await row.getByText("Kept at Fridge").waitFor();
  await row.getByText(/kept until/).waitFor();

  // Cancelled: nothing changes, and the focus is back on the button.
  await row.getByRole("button", { name: "Dispose…" }).click();
  const dispose = page.getByRole("dialog", { name: `Dispose of “${titles[0]}”` });
  await dispose.getByLabel("What was done with it").waitFor();
  await page.keyboard.press("Escape");
  await dispose.waitFor({ state: "detached" });
  await page.waitForFunction(() => document.activeElement?.textContent === "Dispose…");
  await count(due, 2);

  await row.getByRole("button", { name: "Dispose…" }).click();
  assert.deepEqual(await dispose.getByLabel("What was done with it").locator("option").allTextContents(), [
    "Choose…", "Donated", "Auctioned", "Destroyed", "Returned to finder", "Transferred",
  ]);
  await dispose.getByLabel("What was done with it").selectOption({ label: "Donated" });
  await dispose.getByLabel("Note").fill("To the food bank on Gower Street");
  await screenshot(page, "dispose-desktop");
  await dispose.getByRole("button", { name: "Record disposal" }).click();
  await page.getByRole("status").getByText(`“${titles[0]}” is recorded as donated and leaves the due list.`).waitFor();
  await count(due, 1);
  await count(due.filter({ hasText: titles[0] }), 0);
  await page.locator("#due-count", { hasText: /^1 item$/ }).waitFor();
  // The focus moves on to the next row's button.
  await page.waitForFunction(() => document.activeElement?.textContent === "Dispose…");
  const stored = await admin("GET", `/api/items/${sandwich.id}?fields=disposedAt,disposal`);
  assert.ok(stored.disposedAt);
  assert.deepEqual(stored.disposal, { method: "donated", note: "To the food bank on Gower Street" });
  assert.equal((await bob("GET", `/api/items/${sandwich.id}/claims`))[0].status, "rejected");
  assert.equal(claim.status, "open");

  // Its view says what became of it, and no longer where it is kept.
  await page.locator("#review-status").selectOption("approved");
  const card = page.locator("#review-list .review-card", { hasText: titles[0] });
  await card.locator(".state.disposed", { hasText: "Disposed: donated" }).waitFor();
  await card.getByRole("button", { name: titles[0] }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator("#item-badges .state", { hasText: "Disposed: donated" }).waitFor();
  await field(dialog, "Disposed of").getByText(/^Donated on .*: To the food bank on Gower Street$/).waitFor();
  await count(dialog.locator("#item-fields dt", { hasText: "Kept at" }), 0);
  await count(dialog.getByRole("button", { name: "Close report" }), 0);
  await screenshot(page, "item-disposed-desktop");
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  // Closed, the queue is read again: its cards are new once that is done.
  await page.waitForURL(/#\/review$/);
  await page.locator("#review-list:not([aria-busy])").waitFor();

  // Its history says it too.
  await card.getByRole("button", { name: "History" }).click();
  await card.locator(".history-list li", { hasText: "disposed of: donated (To the food bank on Gower Street)" }).waitFor();
  noPageErrors(page);

  // Browsing leaves it out, unless asked.
  const visitor = await open("/");
  await visitor.locator("#item-list li").first().waitFor();
  const filters = visitor.locator("#filters");
  await filters.getByLabel("Search").fill("sandwich");
  await visitor.locator("#result-count", { hasText: "No items match." }).waitFor();
  assert.equal(visitor.requests.filter((url) => url.pathname === "/api/items").at(-1).searchParams.get("open"), "true");
  await filters.getByLabel("Show closed and returned").check();
  await visitor.locator("#item-list li", { hasText: titles[0] }).locator(".state", { hasText: "Disposed: donated" }).waitFor();
  assert.equal(visitor.requests.filter((url) => url.pathname === "/api/items").at(-1).searchParams.has("open"), false);
  await screenshot(visitor, "browse-closed-desktop");
  noPageErrors(visitor);

  const phone = await open("/#/review", { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  await phone.locator("#due-list > li", { hasText: titles[1] }).waitFor();
  await noHorizontalOverflow(phone, "Review with the due list");
  await screenshot(phone, "review-due-phone");
  await phone.locator("#due-list > li", { hasText: titles[1] }).getByRole("button", { name: "Dispose…" }).click();
  await phone.getByRole("dialog").getByLabel("Note").waitFor();
  await noHorizontalOverflow(phone, "The disposal dialog");
  await screenshot(phone, "dispose-phone");
  noPageErrors(phone);
});

test("a reporter closes her report from My reports or its view: it shows Closed, and browsing leaves it out", async () => {
  const alice = await asAlice();
  const admin = await asAdmin();
  const titles = ["Purple umbrella", "Blue notebook"];
  const ids = [];
  for (const title of titles) {
    const item = await alice("POST", "/api/items?fields=id", { title, kind: "lost", lat: 51.5241, lng: -0.1338, radius: 30 });
    await admin("PATCH", `/api/items/${item.id}?fields=id`, { status: "approved" });
    ids.push(item.id);
  }
  const page = await open("/");
  await login(page, "alice", "alice-demo-pass");
  await nav(page, "My reports").click();
  const card = mineCard(page, titles[0]);
  await card.getByRole("button", { name: `Close report: ${titles[0]}` }).click();
  const ask = page.getByRole("dialog", { name: `Close “${titles[0]}”?` });
  await ask.getByLabel("Why").fill("Found it myself");
  await screenshot(page, "close-desktop");
  await ask.getByRole("button", { name: "Close report" }).click();
  await page.getByRole("status").getByText(`“${titles[0]}” is closed.`).waitFor();
  await card.locator(".state.closed", { hasText: "Closed" }).waitFor();
  await count(card.getByRole("button", { name: /^Close report/ }), 0);
  await screenshot(page, "mine-closed-desktop");
  assert.ok((await alice("GET", `/api/items/${ids[0]}?fields=closedAt`)).closedAt);
  const history = await admin("GET", `/api/items/${ids[0]}/history`);
  assert.deepEqual(history.at(-1).change, { closed: { reason: "Found it myself" } });

  // From the report's view, without a reason.
  await mineCard(page, titles[1]).locator(".item-card").click();
  const dialog = page.getByRole("dialog", { name: titles[1] });
  await dialog.getByRole("button", { name: "Close report" }).click();
  await page.getByRole("dialog", { name: `Close “${titles[1]}”?` }).getByRole("button", { name: "Close report" }).click();
  await dialog.locator("#item-badges .state", { hasText: "Closed" }).waitFor();
  await dialog.getByRole("status").getByText(`“${titles[1]}” is closed.`).waitFor(); // shown above the view
  await field(dialog, "Closed").waitFor();
  await screenshot(page, "item-closed-desktop");
  await count(dialog.getByRole("button", { name: "Close report" }), 0);
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await mineCard(page, titles[1]).locator(".state.closed").waitFor();

  // Browsing: left out, unless asked.
  await nav(page, "Browse").click();
  const filters = page.locator("#filters");
  await filters.getByLabel("Search").fill("purple umbrella");
  await page.locator("#result-count", { hasText: "No items match." }).waitFor();
  await filters.getByLabel("Show closed and returned").check();
  await page.locator("#item-list li", { hasText: titles[0] }).locator(".state.closed").waitFor();
  noPageErrors(page);

  // Someone else's report offers no Close button; staff close any.
  const bob = await open("/");
  await login(bob, "bob", "bob-demo-pass");
  await bob.goto(`${service.base}/#/browse/${ids[0]}`);
  await bob.getByRole("dialog").getByRole("heading", { name: titles[0] }).waitFor();
  await count(bob.getByRole("dialog").getByRole("button", { name: "Close report" }), 0);
  noPageErrors(bob);

  const phone = await open("/#/mine", { size: "phone" });
  await login(phone, "alice", "alice-demo-pass");
  await mineCard(phone, titles[0]).locator(".state.closed").waitFor();
  await phone.locator("#mine-list > li").getByRole("button", { name: /^Close report/ }).first().waitFor();
  await noHorizontalOverflow(phone, "My reports with Close buttons");
  await screenshot(phone, "mine-close-phone");
  noPageErrors(phone);
});

test("a claimant withdraws an open claim; an accepted one says where to collect the item, then has its receipt", async () => {
  const admin = await asAdmin();
  const alice = await asAlice();
  const bob = await asBob();
  const found = [];
  for (const [title, place] of [["Tartan flask", "Shelf E1"], ["Leather gloves", "Shelf E2"]]) {
    const item = await bob("POST", "/api/items?fields=id", { title, kind: "found", lat: 51.6, lng: -0.2, radius: 10 });
    await admin("PATCH", `/api/items/${item.id}?fields=id`, { status: "approved", storagePlace: place });
    found.push({ ...item, title, place });
  }
  const flaskClaim = await alice("POST", `/api/items/${found[0].id}/claims`, { message: "It has my initials." });
  const glovesClaim = await alice("POST", `/api/items/${found[1].id}/claims`, { message: "Size S, a torn left thumb." });
  await admin("PATCH", `/api/claims/${glovesClaim.id}`, { status: "accepted" });

  const page = await open("/");
  await login(page, "alice", "alice-demo-pass");
  await nav(page, "My reports").click();
  const entry = page.locator("#my-claims-list > li", { hasText: "Tartan flask" });
  await entry.getByText("waiting for staff").waitFor();
  await screenshot(page, "my-claims-withdraw-desktop");
  await entry.getByRole("button", { name: "Withdraw claim on Tartan flask" }).click();
  assert.match(await confirmInApp(page), /^Withdraw your claim on “Tartan flask”\?/);
  await page.getByRole("status").getByText("Your claim on “Tartan flask” is withdrawn.").waitFor();
  await entry.getByText("withdrawn").waitFor();
  await count(entry.getByRole("button", { name: /^Withdraw/ }), 0);
  assert.equal((await alice("GET", `/api/items/${found[0].id}/claims`))[0].status, "withdrawn");
  assert.equal(flaskClaim.status, "open");

  // The accepted claim's item view: ready for pickup at the desk — where, and what to bring —
  // never the shelf it sits on; not returned before anyone came.
  await page.locator("#my-claims-list > li", { hasText: "Leather gloves" }).getByRole("button", { name: "Leather gloves" }).click();
  const dialog = page.getByRole("dialog", { name: "Leather gloves" });
  const claim = dialog.getByRole("region", { name: "Your claim" });
  await claim.getByText("Your claim is accepted: the item is ready for pickup.").waitFor();
  await claim.getByText(`Collect it at: Lost and found office · ${OFFICE}`).waitFor();
  await count(claim.getByText("Shelf E2"), 0);
  await count(dialog.locator("#item-badges .state.returned"), 0);
  await count(dialog.locator("#claim-form:visible"), 0);
  await screenshot(page, "claim-accepted-desktop");
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  // Closing steps back in the history; an address typed before that step lands would be undone by it.
  await page.waitForURL(/#\/mine$/);

  // Handed over at the desk: returned, and the receipt is hers to print.
  await admin("POST", `/api/claims/${glovesClaim.id}/handover`, { idChecked: "Student card" });
  await page.locator("#my-claims-list > li", { hasText: "Leather gloves" }).getByRole("button", { name: "Leather gloves" }).click();
  await dialog.locator("#item-badges .state.returned", { hasText: "Returned" }).waitFor();
  await claim.getByText("The item was handed over to you.").waitFor();
  const receipt = claim.getByRole("link", { name: "Receipt (printable)" });
  assert.equal(await receipt.getAttribute("href"), `/api/claims/${glovesClaim.id}/receipt?lang=en`);
  await field(dialog, "Returned").waitFor();
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await page.waitForURL(/#\/mine$/);
  await page.locator("#my-claims-list > li", { hasText: "Leather gloves" }).getByText("handed over").waitFor();

  // An open claim can be withdrawn from the item's view too.
  await alice("POST", `/api/items/${found[0].id}/claims`, { message: "It has my initials, really." });
  await page.goto(`${service.base}/#/browse/${found[0].id}`);
  const flask = page.getByRole("dialog", { name: "Tartan flask" });
  const mine = flask.getByRole("region", { name: "Your claim" });
  await mine.getByText("You claimed it").waitFor();
  await count(flask.locator("#claim-form:visible"), 0);
  await mine.getByRole("button", { name: "Withdraw claim" }).click();
  await confirmInApp(page);
  await mine.getByText("You withdrew your claim.").waitFor();
  await flask.locator("#claim-form").getByRole("button", { name: "Claim it" }).waitFor();
  noPageErrors(page);
});

test("by post: the owner gives an address in My reports, staff set the postage, record the payment and send it; she sees the tracking", async () => {
  const admin = await asAdmin();
  const alice = await asAlice();
  const bob = await asBob();
  const item = await bob("POST", "/api/items?fields=id", { title: "Silver watch", kind: "found", lat: 51.6, lng: -0.2, radius: 10 });
  await admin("PATCH", `/api/items/${item.id}?fields=id`, { status: "approved", storagePlace: "Safe" });
  const claim = await alice("POST", `/api/items/${item.id}/claims`, { message: "Engraved: A.S. 2019" });
  await admin("PATCH", `/api/claims/${claim.id}`, { status: "accepted" });

  // She asks for it to be posted, on a phone.
  const phone = await open("/", { size: "phone" });
  await login(phone, "alice", "alice-demo-pass");
  await phone.goto(`${service.base}/#/mine`);
  const entry = phone.locator("#my-claims-list > li", { hasText: "Silver watch" });
  const ask = entry.getByRole("form", { name: "Ask to post it" });
  await ask.getByLabel("Postal address (instead of coming to the desk)").fill("Calle Mayor 5, 3ºB\n28013 Madrid");
  await noHorizontalOverflow(phone, "My reports with the posting form");
  await screenshot(phone, "post-ask-phone");
  await ask.getByRole("button", { name: "Ask to post it" }).click();
  await phone.getByText("The desk is asked to post “Silver watch”.").waitFor();
  await entry.getByText("Posting asked for: the desk sets the postage next").waitFor();
  await count(entry.getByRole("form", { name: "Ask to post it" }), 0);

  // The desk prices it, records the payment, sends it.
  const page = await open("/#/review");
  await login(page, "admin", "admin-demo-pass");
  await page.getByLabel("Show claims").selectOption("accepted");
  const card = page.locator(".claim-card", { hasText: "Silver watch" });
  await card.getByText("Calle Mayor 5, 3ºB").waitFor();
  await count(card.getByRole("form", { name: "Mark as posted" }), 0);
  await card.getByLabel("Postage (blank for none)").fill("4.50 EUR");
  await card.getByRole("button", { name: "Set postage" }).click();
  await card.getByText("Postage 4.50 EUR, to pay as the desk tells you").waitFor();
  await card.getByLabel("How it was paid").fill("Bank transfer 2211");
  await card.getByRole("button", { name: "Record payment" }).click();
  await card.getByText("Postage 4.50 EUR, paid").waitFor();
  await card.getByLabel("Carrier").fill("DHL");
  await card.getByLabel("Tracking number").fill("JD014600003");
  await screenshot(page, "post-send-desktop");
  await card.getByRole("button", { name: "Mark as posted" }).click();
  await page.getByText("“Silver watch” is posted to alice.").waitFor();
  await page.getByLabel("Show claims").selectOption("posted");
  await page.locator(".claim-card", { hasText: "Silver watch" }).getByText(/Posted by admin on .* · Posted: DHL, tracking number JD014600003/).waitFor();
  const [sent] = await admin("GET", `/api/items?ids=${item.id}&fields=returnedAt`);
  assert.ok(sent.returnedAt, "returned once it leaves");

  // She sees the tracking.
  await phone.reload();
  await entry.getByText("Posted: DHL, tracking number JD014600003").waitFor();
  await screenshot(phone, "post-sent-phone");
  noPageErrors(page);
  noPageErrors(phone);
});

test("staff judge a claim with its description, the claimant's contact and the verification details side by side, and write to her privately", async () => {
  const admin = await asAdmin();
  const item = await admin("POST", "/api/items?fields=id", {
    title: "Brown leather wallet", kind: "found", status: "approved", lat: 51.6, lng: -0.2, radius: 10,
    verification: "A library card for A. Student; a folded bus ticket",
  });

  // The claim form asks her to describe it.
  const page = await open("/");
  await login(page, "alice", "alice-demo-pass");
  await page.goto(`${service.base}/#/browse/${item.id}`);
  const dialog = page.getByRole("dialog", { name: "Brown leather wallet" });
  const claimForm = dialog.locator("#claim-form");
  await claimForm.getByLabel("Describe it: what is inside, marks, colour, where you lost it (only staff read it)")
    .fill("My library card is in it, and an old bus ticket");
  await claimForm.getByRole("button", { name: "Claim it" }).click();
  await page.getByText("Your claim is sent. Staff will check it and tell you.").first().waitFor();

  // The desk: her words, her contact and what was recorded at intake, side by side.
  const desk = await open("/#/review");
  await login(desk, "admin", "admin-demo-pass");
  const card = desk.locator(".claim-card", { hasText: "Brown leather wallet" });
  await card.getByRole("group", { name: "How they describe it" }).getByText("My library card is in it, and an old bus ticket").waitFor();
  await card.getByRole("group", { name: "Claimant" }).getByText("Alice Student").waitFor();
  await card.getByRole("group", { name: "Verification details" }).getByText("A library card for A. Student; a folded bus ticket").waitFor();
  const columns = await card.locator(".judge-column").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
  assert.equal(new Set(columns).size, 1, "side by side on a desktop");
  await card.getByRole("button", { name: "Messages with the claimant" }).click();
  await card.getByText("No messages yet.").waitFor();
  await card.getByLabel("Write to the claimant (only they read it)").fill("Which bus was the ticket for?");
  await card.getByRole("button", { name: "Send" }).click();
  await card.locator(".talk-log li", { hasText: "Which bus was the ticket for?" }).waitFor();
  assert.deepEqual(await unlabelledFields(desk), []);
  await screenshot(desk, "claim-judge-desktop");

  // She reads it in My reports and answers; nobody else sees it.
  await page.goto(`${service.base}/#/mine`);
  const entry = page.locator("#my-claims-list > li", { hasText: "Brown leather wallet" });
  await entry.getByRole("button", { name: "Messages with the desk" }).click();
  await entry.locator(".talk-log li", { hasText: "Desk" }).getByText("Which bus was the ticket for?").waitFor();
  await entry.getByLabel("Write to the desk (only its staff read it)").fill("The number 73, last Tuesday");
  await entry.getByRole("button", { name: "Send" }).click();
  await entry.locator(".talk-log li", { hasText: "You" }).getByText("The number 73, last Tuesday").waitFor();
  await screenshot(page, "claim-talk-claimant-desktop");
  const bob = await asBob();
  await assert.rejects(bob("GET", `/api/claims/${(await admin("GET", `/api/items/${item.id}/claims`))[0].id}/messages`), /Not your claim/);

  // The desk's card reads the answer; on a phone the three columns stack.
  const phone = await open("/#/review", { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  const small = phone.locator(".claim-card", { hasText: "Brown leather wallet" });
  await small.getByRole("button", { name: "Messages with the claimant" }).click();
  await small.locator(".talk-log li", { hasText: "The number 73, last Tuesday" }).waitFor();
  await noHorizontalOverflow(phone, "Review with a claim to judge");
  await screenshot(phone, "claim-judge-phone");
  noPageErrors(page);
  noPageErrors(desk);
  noPageErrors(phone);
});

test("the statistics screen charts the reports, its tables match them, and Export CSV downloads them", async () => {
  const admin = await asAdmin();
  const items = await admin("GET", "/api/items?fields=id,title,kind,status,cat,returnedAt,disposedAt,disposal,closedAt");
  const tally = (pick) => items.reduce((counts, item) => counts.set(pick(item), (counts.get(pick(item)) ?? 0) + 1), new Map());

  const page = await open("/");
  await nav(page, "Statistics").waitFor({ state: "hidden" }); // not for visitors
  await login(page, "admin", "admin-demo-pass");
  await nav(page, "Statistics").click();
  // The last 30 days, to start with.
  await page.waitForFunction(() => document.querySelectorAll("#stats-charts canvas").length === 4);
  const since = new Date(page.requests.find((url) => url.pathname === "/api/stats").searchParams.get("since"));
  const days = (Date.now() - since.getTime()) / 86_400_000;
  assert.ok(days >= 30 && days <= 31, `since ${since.toISOString()}`);
  await page.locator("#stats-period").getByLabel("Period").selectOption("all");
  await page.locator("#stats-range", { hasText: `All time: ${items.length} reports` }).waitFor();
  assert.equal(page.requests.filter((url) => url.pathname === "/api/stats").at(-1).search, "");
  await page.waitForFunction(() => document.querySelectorAll("#stats-charts canvas").length === 4);
  // Drawn: each canvas has pixels that are not blank.
  const drawn = await page.evaluate(() =>
    [...document.querySelectorAll("#stats-charts canvas")].map((canvas) => {
      const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
      return data.some((v, i) => i % 4 === 3 && v > 0);
    }),
  );
  assert.deepEqual(drawn, [true, true, true, true]);

  const figure = (name) => page.locator("#stats-figures .figure").filter({ has: page.locator("dt", { hasText: name }) }).locator(".value");
  const returned = items.filter((i) => i.returnedAt).length;
  // The rate counts the found items the office took in: approved ones.
  const foundCount = items.filter((i) => i.kind === "found" && i.status === "approved").length;
  assert.equal(await figure("Reports").textContent(), String(items.length));
  assert.equal(await figure("Returned").textContent(), String(returned));
  assert.equal(await figure("Disposed of").textContent(), String(items.filter((i) => i.disposedAt).length));
  assert.equal(await figure("Closed").textContent(), String(items.filter((i) => i.closedAt).length));
  assert.equal(await figure("Return rate").textContent(), `${Math.round((returned / foundCount) * 1000) / 10}%`);
  // Handed over within the test: under an hour.
  assert.equal(await figure("Median time to return").textContent(), "under an hour");

  /** The rows of the table of chart `heading`, opened from its "Show as table". */
  const table = async (heading) => {
    const section = page.getByRole("region", { name: heading });
    await section.getByText("Show as table").click();
    return section.locator("tbody tr").evaluateAll((rows) =>
      rows.map((row) => [...row.children].map((cell) => cell.textContent)));
  };
  const byCategory = await table("Reports by category");
  const cats = tally((i) => `${i.cat ?? "uncategorised"}|${i.kind}`);
  for (const [cat, lost, found, total] of byCategory) {
    assert.deepEqual([Number(lost), Number(found)], [cats.get(`${cat}|lost`) ?? 0, cats.get(`${cat}|found`) ?? 0], cat);
    assert.equal(Number(total), Number(lost) + Number(found));
  }
  assert.equal(byCategory.reduce((sum, row) => sum + Number(row[3]), 0), items.length);
  assert.deepEqual(byCategory.find(([cat]) => cat === DUE_AT_ONCE), [DUE_AT_ONCE, "0", "2", "2"]);
  const states = tally((i) => i.status);
  assert.deepEqual(await table("Reports by review state"), [
    ["Pending review", String(states.get("pending") ?? 0)],
    ["Approved", String(states.get("approved") ?? 0)],
    ["Rejected", String(states.get("rejected") ?? 0)],
  ]);
  assert.deepEqual(await table("Disposals by method"), [
    ["Donated", "1"], ["Auctioned", "0"], ["Destroyed", "0"], ["Returned to finder", "0"], ["Transferred", "0"],
  ]);
  const weeks = await table("Reports per week");
  assert.equal(weeks.reduce((sum, row) => sum + Number(row[3]), 0), items.length);
  await screenshot(page, "stats-desktop");

  // The export: every report of the period, one row each.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  assert.equal(new URL(download.url()).pathname, "/api/items.csv");
  const rows = readFileSync(await download.path(), "utf8").trim().split(/\r?\n/);
  assert.match(rows[0], /^id,kind,status,title,/);
  assert.deepEqual(rows.slice(1).map((row) => Number(row.split(",")[0])).sort((a, b) => a - b), items.map((i) => i.id).sort((a, b) => a - b));

  // Between two dates: tomorrow on, nothing yet.
  const tomorrow = await page.evaluate(() => new Date(Date.now() + 86_400_000).toLocaleDateString("sv"));
  await page.locator("#stats-period").getByLabel("Period").selectOption("dates");
  await page.locator("#stats-period").getByLabel("From").fill(tomorrow);
  await page.locator("#stats-range", { hasText: /: 0 reports$/ }).waitFor();
  assert.match(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href"), /^\/api\/items\.csv\?since=/);
  await count(page.locator("#stats-charts canvas"), 0);
  noPageErrors(page);

  const phone = await open("/#/stats", { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  await phone.waitForFunction(() => document.querySelectorAll("#stats-charts canvas").length === 4);
  await noHorizontalOverflow(phone, "Statistics");
  await screenshot(phone, "stats-phone");
  noPageErrors(phone);
});

// After the statistics, which count the disposals the tests above made.
test("staff choose several due items and dispose of them at once, or send them to another desk; what is refused is named", async () => {
  const admin = await asAdmin();
  const sites = await admin("GET", "/api/sites");
  const annex = sites.find((s) => s.name === "Annex desk") ?? (await admin("POST", "/api/sites", { name: "Annex desk" }));
  const titles = ["Tub of yoghurt", "Punnet of grapes", "Loaf of rye", "Crate of pears"];
  const ids = {};
  for (const title of titles) {
    const item = await admin("POST", "/api/items?fields=id", {
      title, kind: "found", status: "approved", cat: DUE_AT_ONCE, lat: 51.52, lng: -0.13, siteId: 1,
    });
    ids[title] = item.id;
  }
  const page = await open("/", { allowedErrors: [`400 POST /api/items/${ids[titles[2]]}/disposal`] });
  await login(page, "admin", "admin-demo-pass");
  await nav(page, "Review").click();
  const due = page.locator("#due-list > li");
  const bar = page.locator("#due-chosen");
  await due.filter({ hasText: titles[3] }).waitFor();
  for (const name of ["Print labels", "Dispose of…", "Send to a desk…"]) {
    assert.equal(await bar.getByRole("button", { name }).isDisabled(), true, `${name}: nothing chosen yet`);
  }
  for (const title of titles.slice(0, 3)) await due.filter({ hasText: title }).getByRole("checkbox", { name: `Choose ${title}` }).check();
  await bar.getByRole("status").getByText("3 items chosen").waitFor();
  // One of them is disposed of elsewhere meanwhile: the service refuses it, the others go.
  await admin("POST", `/api/items/${ids[titles[2]]}/disposal`, { method: "destroyed" });

  await bar.getByRole("button", { name: "Dispose of 3…" }).click();
  const dispose = page.getByRole("dialog", { name: "Dispose of 3 items" });
  await dispose.getByText(`Chosen: ${titles.slice(0, 3).join(", ")}.`).waitFor();
  await dispose.getByLabel("What was done with it").selectOption({ label: "Donated" });
  await dispose.getByLabel("Note").fill("Food bank, term end");
  await screenshot(page, "dispose-chosen-desktop");
  await dispose.getByRole("button", { name: "Record disposal" }).click();
  await dispose.waitFor({ state: "detached" });
  await page.getByRole("status").getByText("2 items are recorded as disposed of.").waitFor();
  await page.getByRole("alert").getByText(new RegExp(`^Not done: “${titles[2]}”: `)).waitFor();
  for (const title of titles.slice(0, 2)) {
    assert.deepEqual(await admin("GET", `/api/items/${ids[title]}?fields=disposal`), { disposal: { method: "donated", note: "Food bank, term end" } });
    await count(due.filter({ hasText: title }), 0);
  }
  assert.deepEqual(await admin("GET", `/api/items/${ids[titles[2]]}?fields=disposal`), { disposal: { method: "destroyed", note: null } });
  // The choice starts afresh; a choice can also be cleared.
  await bar.getByRole("status").getByText("Choose found items below to act on several at once.").waitFor();
  await due.filter({ hasText: titles[3] }).getByRole("checkbox").check();
  await bar.getByRole("button", { name: "Clear the choice" }).click();
  assert.equal(await due.filter({ hasText: titles[3] }).getByRole("checkbox").isChecked(), false);

  // Sent on: the desk's other items go to the annex, which is the only other desk offered.
  await due.filter({ hasText: titles[3] }).getByRole("checkbox", { name: `Choose ${titles[3]}` }).check();
  await bar.getByRole("button", { name: "Send 1 to a desk…" }).click();
  const send = page.getByRole("dialog", { name: "Send 1 item to another desk" });
  const offered = await send.getByLabel("To").locator("option").allTextContents();
  assert.ok(offered.includes(annex.name) && !offered.includes(sites.find((s) => s.id === 1).name), offered.join(", "));
  await send.getByLabel("To").selectOption({ label: annex.name });
  await send.getByRole("button", { name: "Send to desk" }).click();
  await page.getByRole("status").getByText("1 item is on its way to the other desk.").waitFor();
  assert.deepEqual(await admin("GET", `/api/items/${ids[titles[3]]}?fields=siteId,transitTo`), { siteId: 1, transitTo: annex.id });
  noPageErrors(page);

  const phone = await open("/#/review", { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  await phone.locator("#due-list > li").first().waitFor();
  await phone.locator("#due-list > li").first().getByRole("checkbox").check();
  await noHorizontalOverflow(phone, "Review with items chosen");
  await screenshot(phone, "due-chosen-phone");
  noPageErrors(phone);
});
