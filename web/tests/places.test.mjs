// Places people can read: the place in words (building, room, desk) sent from the report form,
// shown on the list's card and in the item view before the coordinates, and found by a
// search; no report sent without a place on the map; lost and found pins of their own shape
// and colour, with a legend; the item view's small map; clusters that are no tab stops.
import { test } from "node:test";
import assert from "node:assert/strict";
import { count, login, noHorizontalOverflow, noPageErrors, screenshot, signIn, useService } from "./harness.mjs";

const TITLE = "Green thermos flask";
const PLACE = "Quillfeather Hall, room 204, desk 7";
/** Published besides the demo's (whose lost reports are not): two at the very same spot,
 *  which the browse map clusters at any zoom it fits to, and a lost one on its own. */
const ITEMS = [
  { title: "Striped scarf", kind: "lost", lat: 51.5231, lng: -0.1296 },
  { title: "Striped glove", kind: "found", lat: 51.5231, lng: -0.1296 },
  { title: "Bunch of keys", kind: "lost", lat: 51.5258, lng: -0.1312 },
];

const service = useService({
  prepare: async ({ base }) => {
    const admin = await signIn(base, "admin", "admin-demo-pass");
    for (const item of ITEMS) await admin("POST", "/api/items?fields=id", { ...item, status: "approved", radius: 10 });
  },
});
const asAdmin = () => signIn(service.base, "admin", "admin-demo-pass");

/** The page's POST /api/items requests, as they are made. */
function itemPosts(page) {
  const posts = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/items") posts.push(request);
  });
  return posts;
}

/** The item view's "Where" (its <dd>). */
const where = (dialog) => dialog.locator("#item-fields dt", { hasText: /^Where$/ }).locator("+ dd");

/** Opens the item `title` from Browse's list (on a phone the list shows first). */
async function openFromList(page, title) {
  await page.locator("#item-list .item-card", { hasText: title }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("heading", { name: title }).waitFor();
  return dialog;
}

/** Waits until the item view's small map shows one pin, of `kind`, and one circle, fitted
 *  inside the map's box. */
async function mapShows(dialog, kind) {
  const map = dialog.getByRole("region", { name: "Where it was, on the map" });
  await count(map.locator(".item-marker"), 1);
  await map.locator(`.item-marker.${kind}`).waitFor();
  const circle = map.locator(".leaflet-overlay-pane path");
  await count(circle, 1);
  const [box, ring] = [await map.boundingBox(), await circle.boundingBox()];
  assert.ok(ring.width > 4, `the circle is ${ring.width}px wide`);
  assert.ok(
    ring.x >= box.x && ring.y >= box.y && ring.x + ring.width <= box.x + box.width && ring.y + ring.height <= box.y + box.height,
    `the circle ${JSON.stringify(ring)} is not inside the map ${JSON.stringify(box)}`,
  );
}

test("a report's place in words is sent, and shows on its card and in its view before the coordinates", async () => {
  const page = await service.open("/#/report");
  await login(page, "alice", "alice-demo-pass");
  const posts = itemPosts(page);
  const form = page.locator("#report-form");
  await form.getByLabel("Title").fill(TITLE);
  await form.getByLabel("Place", { exact: true }).fill(PLACE);
  assert.equal(await form.getByLabel("Place", { exact: true }).getAttribute("placeholder"), "Building, room or desk");
  await page.locator("#report-map").click({ position: { x: 200, y: 120 } });
  await page.waitForFunction(() => document.querySelector("#report-form [name=lat]").value !== "");
  await form.getByLabel("Radius (m)").fill("30");
  const answer = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/items");
  await form.getByRole("button", { name: "Send report" }).click();
  const { id } = await (await answer).json();
  await page.getByText(`“${TITLE}” is reported and waits for review`).waitFor();
  assert.equal(posts.length, 1);
  assert.equal(posts[0].postDataJSON().place, PLACE);
  const admin = await asAdmin();
  assert.equal((await admin("GET", `/api/items/${id}?fields=place`)).place, PLACE);
  await admin("PATCH", `/api/items/${id}?fields=id`, { status: "approved" });

  await page.goto(`${service.base}/#/browse`);
  const card = page.locator("#item-list .item-card", { hasText: TITLE });
  await card.locator(".card-place", { hasText: PLACE }).waitFor();
  const dialog = await openFromList(page, TITLE);
  const words = await where(dialog).textContent();
  assert.ok(words.startsWith(PLACE), `"Where" reads ${words}`);
  assert.match(words.slice(PLACE.length), /^\d+\.\d{5}, -?\d+\.\d{5} \(within 30 m\)$/);
  await mapShows(dialog, "lost");
  await screenshot(page, "places-item-desktop");

  // The same map, made once, shows the next item opened.
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
  await mapShows(await openFromList(page, ITEMS[1].title), "found");
  await count(page.locator("#item-map.leaflet-container"), 1);
  noPageErrors(page);

  const phone = await service.open("/", { size: "phone" });
  await mapShows(await openFromList(phone, TITLE), "lost");
  await screenshot(phone, "places-item-phone");
  noPageErrors(phone);
});

test("a word of the place finds the item from Browse's search box", async () => {
  const page = await service.open("/");
  await page.locator("#item-list li").first().waitFor();
  await page.locator("#filters").getByLabel("Search").fill("quillfeath");
  await page.locator("#result-count", { hasText: /^1 item$/ }).waitFor();
  await count(page.locator("#item-list li"), 1);
  await page.locator("#item-list li", { hasText: TITLE }).waitFor();
  noPageErrors(page);
});

test("without a place on the map nothing is sent: the form says so and the map has the focus", async () => {
  for (const size of ["desktop", "phone"]) {
    const title = `Silver bracelet seen on a ${size}`;
    const page = await service.open("/#/report", { size });
    await login(page, "bob", "bob-demo-pass");
    const posts = itemPosts(page);
    const form = page.locator("#report-form");
    const map = page.locator("#report-map");
    await form.getByLabel("Title").fill(title);
    await form.getByRole("button", { name: "Send report" }).click();
    await form.getByRole("alert").getByText("Choose the place on the map").waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "report-map");
    assert.equal(await map.getAttribute("aria-invalid"), "true");
    assert.equal(await form.getByLabel("Latitude").getAttribute("aria-invalid"), "true");
    assert.equal(await map.getAttribute("aria-describedby"), "report-map-error");
    await screenshot(page, `places-report-error-${size}`);
    assert.equal(posts.length, 0, "no report was sent");
    const admin = await asAdmin();
    // (A search finds what is close in meaning too: the title itself must not be among them.)
    const found = await admin("GET", `/api/items?q=${encodeURIComponent(title)}&status=pending&fields=title`);
    assert.deepEqual(found.filter((item) => item.title === title), []);
    if (size === "phone") break;

    // A place chosen: the error goes, and the report goes out, without a place in words.
    await map.click({ position: { x: 180, y: 100 } });
    await count(form.getByText("Choose the place on the map"), 0);
    assert.equal(await map.getAttribute("aria-invalid"), null);
    await form.getByRole("button", { name: "Send report" }).click();
    await page.getByText(`“${title}” is reported and waits for review`).waitFor();
    assert.equal(posts.length, 1);
    assert.equal(posts[0].postDataJSON().place ?? null, null);
    noPageErrors(page);
  }
});

test("lost and found pins differ in shape and colour, a legend names them, and clusters are no tab stops", async () => {
  const page = await service.open("/");
  const lost = page.locator("#browse-map .leaflet-marker-icon.item-marker.lost").first();
  const found = page.locator("#browse-map .leaflet-marker-icon.item-marker.found").first();
  await lost.waitFor();
  await found.waitFor();
  const look = (pin) => pin.evaluate((el) => {
    const shape = el.querySelector("svg path");
    return { shape: shape.getAttribute("d"), colour: getComputedStyle(shape).fill, tabindex: el.getAttribute("tabindex") };
  });
  const [l, f] = [await look(lost), await look(found)];
  assert.notEqual(l.shape, f.shape);
  assert.notEqual(l.colour, f.colour);
  assert.deepEqual([l.tabindex, f.tabindex], [null, null]);
  assert.ok((await lost.getAttribute("title")).length > 0, "a pin is named by its item's title");
  await legendShows(page);

  const clusters = page.locator("#browse-map .marker-cluster");
  await clusters.first().waitFor();
  const stops = await clusters.evaluateAll((els) => els.map((el) => [el.getAttribute("tabindex"), el.getAttribute("role")]));
  assert.deepEqual(stops, stops.map(() => [null, null]), "clusters are no tab stops");
  assert.equal(await page.locator("#browse-map").getAttribute("tabindex"), "0", "the map itself still takes keys");
  await screenshot(page, "places-browse-legend-desktop");
  noPageErrors(page);

  // On a phone, the map once asked for.
  const phone = await service.open("/", { size: "phone" });
  await phone.locator("#item-list li").first().waitFor();
  await phone.locator(".browse-switch").getByRole("button", { name: "Map" }).click();
  await legendShows(phone);
  await phone.locator("#browse-map .item-marker, #browse-map .marker-cluster").first().waitFor();
  await screenshot(phone, "places-browse-legend-phone");
  noPageErrors(phone);
});

/** Waits for Browse's map to show its legend: each kind's pin, with its word. */
async function legendShows(page) {
  const legend = page.locator("#browse-map").getByRole("list", { name: "Legend" });
  await legend.waitFor();
  assert.deepEqual(await legend.getByRole("listitem").allTextContents(), ["Lost", "Found"]);
  await count(legend.locator(".legend-pin.lost svg"), 1);
  await count(legend.locator(".legend-pin.found svg"), 1);
}

test("an administrator imports named places; a report chooses one by name from the keyboard, without the map", async () => {
  const admin = await service.open("/#/desks");
  await login(admin, "admin", "admin-demo-pass");
  const panel = admin.locator("#places-panel");
  await panel.getByRole("heading", { name: "Named places" }).waitFor();
  // A file: two places and a line that is refused, named with its line.
  await panel.getByLabel("Import a CSV file with the columns name, lat, lng and radius").setInputFiles({
    name: "places.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("name,lat,lng,radius\nMain library,51.5246,-0.1340,60\nBus stop 4,51.5230,-0.1300,\nGym,north,-0.13,\n"),
  });
  await admin.getByText("2 places saved from the file.").waitFor();
  await admin.getByText("Line 4: lat must be a number").waitFor();
  await panel.locator("#place-list li", { hasText: "Main library" }).getByText("within 60 m").waitFor();
  // One more by hand.
  const form = panel.getByRole("form", { name: "New place" });
  await form.getByLabel("Name").fill("Quillfeather Hall");
  await form.getByLabel("Latitude").fill("51.5231");
  await form.getByLabel("Longitude").fill("-0.1296");
  await form.getByRole("button", { name: "Add place" }).click();
  await admin.getByText("The place “Quillfeather Hall” is added.").waitFor();
  await count(panel.locator("#place-list li"), 3);
  await screenshot(admin, "named-places-desktop");
  noPageErrors(admin);

  const page = await service.open("/#/report");
  await login(page, "alice", "alice-demo-pass");
  const posts = itemPosts(page);
  const report = page.locator("#report-form");
  await report.getByLabel("Title").fill("Blue pencil case");
  const place = report.getByRole("combobox", { name: "Place" });
  await place.focus();
  await page.keyboard.type("libr");
  const options = page.getByRole("listbox", { name: "Named places" }).getByRole("option");
  await count(options, 1);
  assert.equal(await place.getAttribute("aria-expanded"), "true");
  await page.keyboard.press("ArrowDown");
  assert.equal(await options.first().getAttribute("aria-selected"), "true");
  assert.equal(await place.getAttribute("aria-activedescendant"), await options.first().getAttribute("id"));
  await screenshot(page, "place-suggestions-desktop");
  await page.keyboard.press("Enter");
  assert.equal(await place.inputValue(), "Main library");
  assert.equal(await place.getAttribute("aria-expanded"), "false");
  assert.equal(await report.getByLabel("Latitude").inputValue(), "51.524600");
  assert.equal(await report.getByLabel("Radius (m)").inputValue(), "60");
  await page.getByRole("status").filter({ hasText: "Place set: Main library." }).waitFor();
  await report.getByRole("button", { name: "Send report" }).click();
  await page.getByText("“Blue pencil case” is reported and waits for review").waitFor();
  assert.deepEqual(
    (({ place, lat, lng, radius }) => ({ place, lat, lng, radius }))(posts[0].postDataJSON()),
    { place: "Main library", lat: 51.5246, lng: -0.134, radius: 60 },
  );

  // A named place typed out in full is that place too; Escape closes the list.
  await report.getByLabel("Title").fill("Red umbrella");
  await place.fill("bus stop 4");
  await place.press("Escape");
  assert.equal(await place.getAttribute("aria-expanded"), "false");
  await report.getByRole("button", { name: "Send report" }).click();
  await page.getByText("“Red umbrella” is reported and waits for review").waitFor();
  assert.deepEqual([posts[1].postDataJSON().lat, posts[1].postDataJSON().lng], [51.523, -0.13]);
  noPageErrors(page);

  // At 320 pixels, the suggestions fit under the field.
  const narrow = await service.open("/#/report", { size: "narrow" });
  await login(narrow, "alice", "alice-demo-pass");
  const field = narrow.locator("#report-form").getByRole("combobox", { name: "Place" });
  await field.focus();
  await narrow.keyboard.type("l");
  await count(narrow.getByRole("listbox", { name: "Named places" }).getByRole("option"), 2);
  await noHorizontalOverflow(narrow, "the place suggestions at 320 px");
  await screenshot(narrow, "place-suggestions-narrow");
  noPageErrors(narrow);
});
