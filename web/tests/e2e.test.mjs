// End-to-end: the real binary with its demo data, driven in headless Chromium by Playwright.
// Run by scripts/test after `cargo build` (node --test web/tests/*.test.mjs). Screenshots of
// every screen, at desktop and phone sizes, go to screenshots/ for people to look at.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  confirmInApp, count, frameWhere, login, noHorizontalOverflow, noPageErrors, openMenu, say, screenshot, signIn, tryLogin, unlabelledFields,
  useService, valueIs,
} from "./harness.mjs";

// A 64×48 red PNG with a white disc: the report form scales it and sends it as a JPEG.
const PHOTO = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAAeElEQVR42u3YQQ3AMAxD0SLZefxRjJUHYcpaKY71rQDou9Vez3WPvgUAAAAAAAAAiALoK74AVWIHUD1GAP2NBUB7aQboRNoAOhcAra/fMQAAAAAAAAAAZgL4zBkAxveBhEaW0IkTVomEXShhmWPcBQAAAAAAAKr3AsSbQo9fIfRIAAAAAElFTkSuQmCC",
  "base64",
);
const TITLE = "Red water bottle";

const OFFICE = "Student Union, room 12, Mon–Fri 9–17; bring your student card";
const service = useService({ env: () => ({ LOSTFOUND_OFFICE: OFFICE }) });
const open = (path, options) => service.open(path, options);

/** What the page keeps in the browser's storage. */
function storage(page) {
  return page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage } }));
}

test("a user logs in and reports an item with a photo and a place picked on the map", async () => {
  const page = await open("/#/report");
  await login(page, "alice", "alice-demo-pass");
  const form = page.locator("#report-form");
  await form.getByLabel("Title").fill(TITLE);
  await form.getByLabel("Description").fill("Steel, with a <b>sticker</b> of a fox.");
  assert.equal(await form.getByLabel("Category").inputValue(), "", "no category is chosen for the reporter");
  await form.getByLabel("Category").selectOption("other");
  await form.getByLabel("Photo").setInputFiles({ name: "bottle.png", mimeType: "image/png", buffer: PHOTO });
  await page.locator("#report-map").click({ position: { x: 200, y: 120 } });
  await page.waitForFunction(() => document.querySelector("#report-form [name=lat]").value !== "");
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
  await count(card.locator("img"), 1); // the photo
  await card.getByLabel("Kept at").fill("Front desk, shelf B");
  await card.getByRole("button", { name: "Save place" }).click();
  await page.getByText(`Save place: “${TITLE}”`).waitFor();
  await screenshot(page, "review-desktop");
  await page.locator(".review-card", { hasText: TITLE }).getByRole("button", { name: "Approve" }).click();
  await page.getByText(`Approve: “${TITLE}”`).waitFor();
  await page.locator(".review-card", { hasText: TITLE }).waitFor({ state: "detached" });

  const doomed = page.locator(".review-card", { hasText: "Calculator" });
  await doomed.getByRole("button", { name: "Delete" }).click();
  assert.match(await confirmInApp(page), /^Delete “Calculator” and its messages\?/);
  await page.getByText("Deleted “Calculator”").waitFor();
  await doomed.waitFor({ state: "detached" });
  noPageErrors(page);
});

/** The page's requests for lists of items, oldest first. */
/** The lists a page asked for (not the titles of the items its claims name, by `ids`). */
function listRequests(page) {
  return page.requests.filter((url) => url.pathname === "/api/items" && !url.searchParams.has("ids"));
}

test("anyone finds it by a search the service answers: the list and the map show only matches", async () => {
  const page = await open("/");
  const list = page.locator("#item-list li");
  await list.first().waitFor();
  assert.ok((await list.count()) > 1);
  const before = listRequests(page).length;
  // Typed key by key: one request once the typing pauses, not one per key.
  const typed = "Water bottl";
  // The list for all of it: a shorter prefix may already show the one item (by words, before
  // the other bottles' meanings are in), and the checks below would pass on its answer.
  const answered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === "/api/items" && url.searchParams.get("q") === typed;
  });
  await page.locator("#filters").getByLabel("Search").pressSequentially(typed);
  await answered;
  await count(page.locator("#item-list li", { hasText: TITLE }), 1);
  await count(list, 1);
  await page.locator("#result-count", { hasText: /^1 item$/ }).waitFor();
  const searches = listRequests(page).slice(before);
  assert.ok(searches.length >= 1 && searches.length < typed.length, `${searches.length} requests for ${typed.length} keys`);
  assert.equal(searches.at(-1).searchParams.get("q"), typed);
  assert.equal(searches.at(-1).searchParams.get("status"), "approved");
  const marker = page.locator(`.leaflet-marker-icon[title="${TITLE}"]`);
  await count(marker, 1); // one marker on the map
  await count(page.locator(".leaflet-marker-icon"), 1); // and nothing else
  await count(page.locator(".leaflet-overlay-pane path"), 1); // with its accuracy circle
  await screenshot(page, "browse-desktop");
  noPageErrors(page);
});

test("lists load thumbnails; the item view alone loads the full photo", async () => {
  const page = await open("/");
  const card = page.locator("#item-list li", { hasText: TITLE });
  const thumb = card.locator('img[loading="lazy"][width="64"][height="64"]');
  await thumb.waitFor();
  assert.match(await thumb.getAttribute("src"), /^\/api\/items\/\d+\/thumb\?v=\w+$/);
  await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await thumb.elementHandle());
  const photos = () => page.requests.filter((url) => /^\/api\/items\/\d+\/photo$/.test(url.pathname));
  assert.deepEqual(photos(), [], "browsing loads no full photo");
  for (const url of listRequests(page)) {
    assert.ok(url.searchParams.get("limit"), `${url} asks for a page`);
    const fields = url.searchParams.get("fields")?.split(",") ?? [];
    assert.ok(fields.includes("thumbUrl") && !fields.includes("imgData"), `${url} names its fields, without imgData`);
  }

  await page.locator(`.leaflet-marker-icon[title="${TITLE}"]`).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("heading", { name: TITLE }).waitFor();
  for (const expected of ["Published", "Lost", "within 40 m", "Steel, with a <b>sticker</b> of a fox."]) {
    await dialog.locator("#item-fields dd", { hasText: expected }).waitFor();
  }
  // A visitor is not told where it is kept nor who reported it.
  for (const withheld of ["Front desk, shelf B", "alice"]) await count(dialog.locator("#item-fields dd", { hasText: withheld }), 0);
  await count(dialog.locator("#item-fields b"), 0); // user text is not HTML
  const photo = dialog.locator("#item-photo");
  await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await photo.elementHandle());
  assert.match(await photo.getAttribute("src"), /^\/api\/items\/\d+\/photo\?v=\w+$/);
  assert.equal(photos().length, 1, "the item view loads its photo");
  const item = page.requests.find((url) => /^\/api\/items\/\d+$/.test(url.pathname));
  assert.ok(item.searchParams.get("fields").split(",").includes("photoUrl"));
  assert.ok(!item.searchParams.get("fields").split(",").includes("imgData"));
  await screenshot(page, "item-desktop");
  noPageErrors(page);
});

test("a found item is reported as found; the kind and date filters are answered by the service", async () => {
  const found = "Brown leather glove";
  const page = await open("/#/report");
  await login(page, "bob", "bob-demo-pass");
  const form = page.locator("#report-form");
  await form.getByLabel("I found it").check();
  await form.getByLabel("Title").fill(found);
  await form.getByLabel("Latitude").fill("51.5244");
  await form.getByLabel("Longitude").fill("-0.1336");
  await page.getByRole("button", { name: "Send report" }).click();
  await page.getByText(`“${found}” is reported and waits for review`).waitFor();
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  const [item] = await admin("GET", `/api/items?q=${encodeURIComponent(found)}&fields=id,kind&limit=1`);
  assert.equal(item.kind, "found");
  await admin("PATCH", `/api/items/${item.id}?fields=id`, { status: "approved" });

  await page.goto(`${service.base}/#/browse`);
  const filters = page.locator("#filters");
  const list = page.locator("#item-list li");
  await list.filter({ hasText: TITLE }).waitFor();
  // The demo data has found items of its own: the list shows exactly the approved found ones still open.
  const approvedFound = await admin("GET", "/api/items?kind=found&status=approved&open=true&fields=id");
  await filters.getByLabel("Lost or found").selectOption("found");
  await count(list, approvedFound.length);
  await list.filter({ hasText: found }).getByText("Found ·").waitFor();
  await count(list.filter({ hasText: "Found ·" }), approvedFound.length);
  assert.equal(listRequests(page).at(-1).searchParams.get("kind"), "found");
  await filters.getByLabel("Lost or found").selectOption("lost");
  await list.filter({ hasText: TITLE }).waitFor();
  await count(list.filter({ hasText: found }), 0);
  assert.equal(listRequests(page).at(-1).searchParams.get("kind"), "lost");

  // Reported since tomorrow (the reader's): nothing yet.
  const tomorrow = await page.evaluate(() => new Date(Date.now() + 86_400_000).toLocaleDateString("sv"));
  await filters.getByLabel("Reported since").fill(tomorrow);
  await page.locator("#result-count", { hasText: "No items match." }).waitFor();
  await count(list, 0);
  const since = new Date(listRequests(page).at(-1).searchParams.get("since"));
  assert.ok(since > new Date(), `since ${since.toISOString()}`);
  noPageErrors(page);
});

test("an item's view shows what may match it, and the owner claims a found item privately", async () => {
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  const alice = await signIn(service.base, "alice", "alice-demo-pass");
  const bob = await signIn(service.base, "bob", "bob-demo-pass");
  // Away from the demo data, so nothing else matches.
  const lost = await alice("POST", "/api/items?fields=id", {
    title: "Green umbrella, wooden handle", kind: "lost", cat: "Umbrellas", lat: 51.6101, lng: -0.2001, radius: 50,
  });
  const found = await bob("POST", "/api/items?fields=id", {
    title: "Green umbrella", kind: "found", cat: "umbrellas", lat: 51.6103, lng: -0.2002, radius: 20,
  });
  for (const { id } of [lost, found]) await admin("PATCH", `/api/items/${id}?fields=id`, { status: "approved" });

  const page = await open("/#/browse");
  await login(page, "alice", "alice-demo-pass");
  await page.goto(`${service.base}/#/browse/${lost.id}`);
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("heading", { name: "Could this be yours?" }).waitFor();
  const match = dialog.locator("#match-list li", { hasText: "Green umbrella" });
  await match.getByText("m away").waitFor();
  assert.equal(await dialog.locator("#claim-form").isVisible(), false, "a lost report is not claimed");

  await match.getByRole("link", { name: "Green umbrella" }).click();
  await dialog.getByRole("heading", { name: "Green umbrella", exact: true }).waitFor();
  await dialog.getByRole("heading", { name: "Lost reports that may be this item" }).waitFor();
  const form = dialog.locator("#claim-form");
  await form.getByLabel(/^Describe it/).fill("My initials, A.S., are cut into the handle");
  await screenshot(page, "claim-desktop");
  await form.getByRole("button", { name: "Claim it" }).click();
  await page.getByText("Your claim is sent").waitFor();
  assert.equal(await form.isVisible(), false);
  const [claim] = await admin("GET", `/api/items/${found.id}/claims`);
  assert.equal(claim.claimant, "alice");
  assert.equal(claim.message, "My initials, A.S., are cut into the handle");
  assert.equal(claim.status, "open");

  // Her claims are listed with her reports, with what became of them.
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await page.getByRole("navigation").getByRole("link", { name: "My reports" }).click();
  const mine = page.locator("#my-claims-list li", { hasText: "Green umbrella" });
  await mine.getByText("waiting for staff").waitFor();
  // Her lost report's card names the found umbrella, which opens from there.
  const report = page.locator("#mine-list li", { hasText: "Green umbrella, wooden handle" });
  const named = report.locator(".card-matches", { hasText: "May have been found:" });
  await named.getByText(/\(\d+ m\)/).waitFor();
  await screenshot(page, "my-claims-desktop");

  // Accepted: her claim says where to collect it. Handed over: her lost report is closed (no
  // longer looked for, so no longer matched), and the receipt is hers.
  await admin("PATCH", `/api/claims/${claim.id}`, { status: "accepted" });
  await page.getByRole("navigation").getByRole("link", { name: "Browse" }).click();
  await page.getByRole("navigation").getByRole("link", { name: "My reports" }).click();
  await mine.getByText("accepted: ready for pickup at the desk").waitFor();
  await mine.getByText(`Collect it at: ${OFFICE}`).waitFor();
  await admin("POST", `/api/claims/${claim.id}/handover`, { idChecked: "Passport" });
  await page.getByRole("navigation").getByRole("link", { name: "Browse" }).click();
  await page.getByRole("navigation").getByRole("link", { name: "My reports" }).click();
  await mine.getByText("handed over").waitFor();
  await mine.getByRole("link", { name: "Receipt (printable)" }).waitFor();
  await report.locator(".state.closed", { hasText: "Closed" }).waitFor();
  await count(report.locator(".card-matches"), 0);
  await mine.getByRole("button", { name: "Green umbrella", exact: true }).click();
  await dialog.getByRole("heading", { name: "Green umbrella", exact: true }).waitFor();
  await dialog.locator("#item-badges .state", { hasText: "Returned" }).waitFor();
  noPageErrors(page);
});

test("staff accept a claim, hand the item over on an ID check and print the receipt; review offers only the moves that change something", async () => {
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  const alice = await signIn(service.base, "alice", "alice-demo-pass");
  const bob = await signIn(service.base, "bob", "bob-demo-pass");
  const found = await bob("POST", "/api/items?fields=id", { title: "Blue thermos", kind: "found", lat: 51.52, lng: -0.13 });
  await admin("PATCH", `/api/items/${found.id}?fields=id`, { status: "approved" });
  await alice("POST", `/api/items/${found.id}/claims`, { message: "A dent near the lid, and a <b>sticker</b>" });

  const page = await open("/#/review");
  await login(page, "admin", "admin-demo-pass");
  const claims = page.locator("#claims-list");
  const card = claims.locator(".claim-card", { hasText: "Blue thermos" });
  await card.getByText("alice says it is theirs").waitFor();
  await card.locator("blockquote", { hasText: "A dent near the lid, and a <b>sticker</b>" }).waitFor();
  await count(card.locator("blockquote b"), 0); // user text is not HTML
  await screenshot(page, "claims-desktop");
  await card.getByRole("button", { name: "Accept: ready for pickup" }).click();
  await page.getByText("“Blue thermos” is ready for pickup by alice.").waitFor();
  await count(claims.locator(".claim-card", { hasText: "Blue thermos" }), 0);
  let [item] = await admin("GET", `/api/items?q=thermos&fields=returnedAt&limit=1`);
  assert.equal(item.returnedAt, null, "not returned before she came");

  // She comes to the desk: the ID is required, then the handover is recorded.
  await page.getByLabel("Show claims").selectOption("accepted");
  const waiting = claims.locator(".claim-card", { hasText: "Blue thermos" });
  const handover = waiting.getByRole("form", { name: "Record handover" });
  await handover.getByRole("button", { name: "Record handover" }).click();
  assert.equal(await handover.getByLabel("ID checked").evaluate((input) => input.validity.valueMissing), true);
  await handover.getByLabel("ID checked").fill("Student card 2024-118");
  await screenshot(page, "pickup-desktop");
  // At a phone's width, the two forms fit and every field has its label.
  const phone = await open("/#/review", { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  await phone.getByLabel("Show claims").selectOption("accepted");
  await phone.locator(".claim-card", { hasText: "Blue thermos" }).getByLabel("Why the pickup is cancelled").waitFor();
  await noHorizontalOverflow(phone, "a claim ready for pickup");
  assert.deepEqual(await unlabelledFields(phone), []);
  await screenshot(phone, "pickup-phone");
  await phone.close();
  await handover.getByRole("button", { name: "Record handover" }).click();
  await page.getByText("“Blue thermos” is handed over to alice.").waitFor();
  [item] = await admin("GET", `/api/items?q=thermos&fields=returnedAt&limit=1`);
  assert.ok(item.returnedAt, "the item is returned");
  await page.getByLabel("Show claims").selectOption("collected");
  const collected = claims.locator(".claim-card", { hasText: "Blue thermos" });
  await collected.getByText(/Handed over by admin on .* · ID: Student card 2024-118/).waitFor();
  const [receipt] = await Promise.all([
    page.context().waitForEvent("page"),
    collected.getByRole("link", { name: "Receipt (printable)" }).click(),
  ]);
  await receipt.getByRole("heading", { name: "Receipt: a found item returned to its owner" }).waitFor();
  await receipt.getByText("Student card 2024-118").waitFor();
  await screenshot(receipt, "receipt-desktop");
  await receipt.close();

  // An approved report offers Reject but not Approve; a pending one both, looking different.
  await page.locator("#review-status").selectOption("approved");
  const approved = page.locator("#review-list .review-card", { hasText: "Blue thermos" });
  await approved.getByRole("button", { name: "Reject" }).waitFor();
  await count(approved.getByRole("button", { name: "Approve" }), 0);
  assert.equal(await approved.getByRole("button", { name: "Reject" }).getAttribute("class"), "secondary");

  // Rejecting with a reason: the reporter is told why.
  const pending = await bob("POST", "/api/items?fields=id", { title: "Half a sandwich", kind: "found", lat: 51.52, lng: -0.13 });
  await page.locator("#review-status").selectOption("pending");
  const toReject = page.locator("#review-list .review-card", { hasText: "Half a sandwich" });
  await toReject.getByLabel("Reason").fill("Food is not kept.");
  await screenshot(page, "review-reason-desktop");
  await toReject.getByRole("button", { name: "Reject" }).click();
  await page.getByText("Reject: “Half a sandwich”.").waitFor();
  const [told] = await bob("GET", "/api/notifications?limit=1");
  assert.equal(told.text, "Your report “Half a sandwich” was rejected: Food is not kept.");
  assert.equal(told.itemId, pending.id);
  noPageErrors(page);
});

test("the bell counts what is new, live, and opening it marks it read", async () => {
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  const bob = await signIn(service.base, "bob", "bob-demo-pass");
  const page = await open("/#/browse");
  await login(page, "bob", "bob-demo-pass");
  const bell = page.locator("#bell");
  await bell.waitFor();
  const unread = async () => Number((await page.locator("#bell-count").textContent()) || 0);
  const before = (await bob("GET", "/api/notifications?limit=200")).filter((n) => !n.read).length;
  await page.waitForFunction((n) => Number(document.getElementById("bell-count").textContent || 0) === n, Math.min(before, 20));

  const item = await bob("POST", "/api/items?fields=id", { title: "Yellow raincoat", lat: 51.52, lng: -0.13 });
  await admin("PATCH", `/api/items/${item.id}?fields=id`, { status: "approved" });
  // Without reloading: the event brings it.
  await page.waitForFunction((n) => Number(document.getElementById("bell-count").textContent || 0) === n, Math.min(before + 1, 20));
  assert.match(await bell.getAttribute("aria-label"), /Notifications, \d+ unread/);
  await bell.click();
  const panel = page.getByRole("region", { name: "Your notifications" });
  const newest = panel.locator("li").first();
  await newest.getByText("Your report “Yellow raincoat” is approved and visible to everyone.").waitFor();
  assert.equal(await newest.getAttribute("class"), "unread");
  assert.equal(await bell.getAttribute("aria-expanded"), "true");
  await screenshot(page, "bell-desktop");
  assert.equal(await unread(), 0);
  const [stored] = await bob("GET", "/api/notifications?limit=1");
  assert.equal(stored.read, true);
  await newest.getByRole("link").click();
  await page.getByRole("dialog").getByRole("heading", { name: "Yellow raincoat" }).waitFor();
  noPageErrors(page);
});

test("near me asks the service for the items around the device, and says so when location is refused", async () => {
  const here = { latitude: 51.524, longitude: -0.1365 };
  const page = await open("/");
  await page.context().grantPermissions(["geolocation"]);
  await page.context().setGeolocation({ ...here, accuracy: 20 });
  const filters = page.locator("#filters");
  const titles = page.locator("#item-list li strong");
  await titles.first().waitFor();
  const everywhere = await titles.count();
  await filters.getByLabel("Within").selectOption("250");
  await filters.getByLabel("Near me").check();
  const near = `${here.latitude},${here.longitude}`;
  const expected = await (await fetch(`${service.base}/api/items?status=approved&open=true&near=${near}&within=250&fields=title`)).json();
  assert.ok(expected.length > 0 && expected.length < everywhere, `${expected.length} of ${everywhere} items near`);
  await count(titles, expected.length);
  assert.deepEqual(await titles.allTextContents(), expected.map((item) => item.title));
  const asked = listRequests(page).at(-1).searchParams;
  assert.deepEqual([asked.get("near"), asked.get("within")], [near, "250"]);
  await screenshot(page, "browse-near-desktop");
  noPageErrors(page);

  // Without the permission, the browser refuses: the page says so and shows every item.
  const refused = await open("/");
  await refused.locator("#item-list li").first().waitFor();
  const asks = listRequests(refused).length;
  // A click, not check(): the box does not stay checked, which check() would take for a miss.
  await refused.locator("#filters").getByLabel("Near me").click();
  await refused.getByRole("alert").getByText("Location access is refused").waitFor();
  await refused.locator("#near-status", { hasText: "Showing items everywhere." }).waitFor();
  assert.equal(await refused.locator("#filters").getByLabel("Near me").isChecked(), false);
  assert.ok(listRequests(refused).slice(asks).every((url) => !url.searchParams.has("near")));
  noPageErrors(refused);
});

test("My reports: a user sees her own reports in every state, and only she does", async () => {
  const rejected = "Umbrella I thought I lost";
  const alice = await signIn(service.base, "alice", "alice-demo-pass");
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  const { id } = await alice("POST", "/api/items?fields=id", { title: rejected, lat: 51.5246, lng: -0.134 });
  await admin("PATCH", `/api/items/${id}?fields=id`, { status: "rejected" });
  const reports = async (user) =>
    (await (await fetch(`${service.base}/api/items?createdBy=${user}&fields=title,status`)).json()).map((i) => i.title);
  const hers = await reports("alice");
  const his = await reports("bob");

  const page = await open("/");
  const nav = page.getByRole("navigation").getByRole("link", { name: "My reports" });
  await nav.waitFor({ state: "hidden" }); // not for visitors
  await login(page, "alice", "alice-demo-pass");
  await nav.click();
  const list = page.locator("#mine-list li");
  await count(list, hers.length);
  await list.filter({ hasText: "Wireless earbuds" }).locator(".state", { hasText: "Waiting for review" }).waitFor();
  await list.filter({ hasText: rejected }).locator(".state", { hasText: "Not published" }).waitFor();
  const umbrella = list.filter({ has: page.locator("strong", { hasText: /^Blue umbrella$/ }) });
  await umbrella.locator(".state", { hasText: "Published" }).waitFor();
  await umbrella.getByText("Kept at Front desk, shelf A").waitFor();
  const asked = listRequests(page).at(-1).searchParams;
  assert.equal(asked.get("createdBy"), "alice");
  assert.equal(asked.get("status"), null, "every state");
  assert.ok(asked.get("limit"));
  await screenshot(page, "mine-desktop");

  // Bob at the same computer sees his own reports, none of hers.
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByText("Log in to see the items you reported.").waitFor();
  await count(list, 0);
  await login(page, "bob", "bob-demo-pass");
  await count(list, his.length);
  await list.filter({ hasText: "Student ID card" }).waitFor();
  for (const title of ["Wireless earbuds", rejected]) await count(list.filter({ hasText: title }), 0);
  noPageErrors(page);

  const phone = await open("/", { size: "phone" });
  await login(phone, "alice", "alice-demo-pass");
  await openMenu(phone);
  await phone.getByRole("link", { name: "My reports" }).click();
  await count(phone.locator("#mine-list li"), hers.length);
  await noHorizontalOverflow(phone, "My reports");
  await screenshot(phone, "mine-phone");
  noPageErrors(phone);
});

test("two people talk in the item's thread; closing the view leaves it on the server", async () => {
  const list = await (await fetch(`${service.base}/api/items?status=approved`)).json();
  const id = list.find((item) => item.title === TITLE).id;
  const [owner, finder] = [await open("/"), await open(`/#/browse/${id}`)];
  await login(owner, "alice", "alice-demo-pass");
  await owner.goto(`${service.base}/#/browse/${id}`);
  for (const page of [owner, finder]) await page.getByRole("dialog").getByRole("heading", { name: TITLE }).waitFor();

  await say(finder, "#thread-form", "I handed it in this morning.", "Sam");
  await owner.locator("#thread-log li", { hasText: "I handed it in this morning." }).waitFor();
  // Logged in, Alice's messages go out under her account's name.
  await valueIs(owner.locator("#thread-form").getByLabel("Name"), "Alice Student");
  await say(owner, "#thread-form", "Thank you! Coming to pick it up.");
  const reply = finder.locator("#thread-log li", { hasText: "Coming to pick it up" });
  await reply.locator(".nick", { hasText: "Alice Student" }).waitFor();
  await screenshot(owner, "thread-desktop");

  // Closing the view sends thread:leave for this item, on the WebSocket the page upgraded to.
  const upgrade = await frameWhere(finder.socket, 0, (f) => f.sent && f.payload === "5", "upgrade to WebSocket");
  const closed = finder.socket.frames.length;
  await finder.getByRole("button", { name: "Close", exact: true }).click();
  const leave = await frameWhere(
    finder.socket,
    closed,
    (f) => f.sent && f.name === "thread:leave" && f.data.itemId === id,
    `thread:leave { itemId: ${id} }`,
  );

  // The server no longer sends the thread to the finder. A chat message sent after the
  // thread message reached its sender is a barrier: every client gets chat:new, on one socket
  // in order, so a thread:new for the finder would have come before it.
  await say(owner, "#thread-form", "After you left.");
  await owner.locator("#thread-log li", { hasText: "After you left." }).waitFor();
  await owner.getByRole("button", { name: "Close", exact: true }).click();
  await owner.getByRole("link", { name: "Chat" }).click();
  await say(owner, "#chat-form", "My bottle is found, thank you all!");
  const barrier = await frameWhere(
    finder.socket,
    leave,
    (f) => !f.sent && f.name === "chat:new" && f.data.text === "My bottle is found, thank you all!",
    "the barrier's chat:new",
  );
  const frames = finder.socket.frames;
  assert.ok([leave, barrier].every((i) => frames[i].ws === frames[upgrade].ws), "one WebSocket throughout");
  const leaked = frames.slice(leave, barrier).filter((f) => f.name === "thread:new" && f.data.itemId === id);
  assert.deepEqual(leaked, [], "no thread:new after thread:leave");
  noPageErrors(owner);
  noPageErrors(finder);
});

test("the global chat shows its history and live messages", async () => {
  const first = await open("/#/chat");
  await say(first, "#chat-form", "Has anyone seen a grey scarf?", "Ann");
  await first.locator("#chat-log li", { hasText: "grey scarf" }).waitFor();
  await say(first, "#chat-form", "It has blue stripes.");
  await first.locator("#chat-log li", { hasText: "blue stripes" }).waitFor();

  const second = await open("/#/chat");
  await second.locator("#chat-log li", { hasText: "blue stripes" }).waitFor(); // history
  await say(second, "#chat-form", "Check the library desk.");
  await first.locator("#chat-log li", { hasText: "library desk" }).waitFor(); // live
  // The history comes newest first; the log reads oldest first, live messages at its end.
  await second.locator("#chat-log li", { hasText: "library desk" }).waitFor();
  const texts = await second.locator("#chat-log li .text").allTextContents();
  const at = (words) => texts.findIndex((text) => text.includes(words));
  assert.ok(at("grey scarf") < at("blue stripes") && at("blue stripes") < at("library desk"), texts.join(" | "));
  await screenshot(first, "chat-desktop");
  noPageErrors(first);
  noPageErrors(second);
});

test("on a shared computer, logging out forgets the name and the next user posts under their own", async () => {
  const shared = await open("/#/chat");
  const other = await open("/#/chat");
  const nick = shared.locator("#chat-form").getByLabel("Name");
  // What an earlier version left: the last nick, in localStorage.
  await shared.evaluate(() => localStorage.setItem("nick", "Student Nick"));

  // A visitor types a name, kept for the tab.
  await say(shared, "#chat-form", "Is the library open on Sundays?", "Visitor Sam");
  await other.locator("#chat-log li", { hasText: "library open" }).locator(".nick", { hasText: "Visitor Sam" }).waitFor();
  assert.deepEqual(await storage(shared), {
    local: { nick: "Student Nick" },
    session: { "lostfound.nick": "Visitor Sam" },
  });

  // A student logs in: her name, not editable.
  await login(shared, "alice", "alice-demo-pass");
  await valueIs(nick, "Alice Student");
  await shared.locator("#chat-form input[name=nick][readonly]").waitFor();
  await screenshot(shared, "chat-logged-in-desktop");
  await shared.getByRole("button", { name: "Log out" }).click();
  await shared.getByText("You are logged out.").waitFor();
  await valueIs(nick, "");
  await shared.locator("#chat-form input[name=nick]:not([readonly])").waitFor();
  assert.deepEqual(await storage(shared), { local: {}, session: {} });
  await screenshot(shared, "chat-logged-out-desktop");

  // Staff log in at the same computer: their messages carry their own name, as others see it.
  await login(shared, "admin", "admin-demo-pass");
  await valueIs(nick, "Front Desk");
  await say(shared, "#chat-form", "The umbrella is at the front desk.");
  const received = other.locator("#chat-log li", { hasText: "The umbrella is at the front desk." });
  await received.waitFor();
  assert.equal(await received.locator(".nick").textContent(), "Front Desk");
  noPageErrors(shared);
  noPageErrors(other);
});

test("the place can come from the device's location, and logging out ends the session", async () => {
  const page = await open("/#/report");
  await page.context().grantPermissions(["geolocation"]);
  await page.context().setGeolocation({ latitude: 51.5231, longitude: -0.1312, accuracy: 35 });
  await login(page, "bob", "bob-demo-pass");
  const form = page.locator("#report-form");
  await form.getByRole("button", { name: "Use my location" }).click();
  await valueIs(form.getByLabel("Latitude"), "51.523100");
  await valueIs(form.getByLabel("Longitude"), "-0.131200");
  await valueIs(form.getByLabel("Radius (m)"), "35");

  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByText("You are logged out.").waitFor();
  await page.getByText("Log in to report a lost or found item. No account? Come to a lost and found desk", { exact: false }).waitFor();
  await page.locator("#report-form").waitFor({ state: "hidden" });
  const me = await page.evaluate(async () => (await fetch("/api/me")).json());
  assert.deepEqual(me, { user: null });
  noPageErrors(page);
});

test("errors from the service are shown clearly", async () => {
  // The wrong password is the point here: its 401 is expected.
  const page = await open("/", { allowedErrors: ["401 POST /api/login"] });
  await tryLogin(page, "alice", "not-her-password");
  await page.getByRole("alert").getByText("Invalid password").waitFor();

  await page.goto(`${service.base}/#/report`);
  await page.getByText("Log in to report a lost or found item. No account? Come to a lost and found desk", { exact: false }).waitFor();
  await count(page.getByRole("button", { name: "Send report" }), 0);
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
  assert.equal(created.title, title);
  await page.locator("#filters").getByLabel("Status").selectOption("pending");
  await page.locator("#item-list button", { hasText: title }).click();
  await page.getByRole("dialog").getByRole("heading", { name: title }).waitFor();
  await count(page.locator("img[src=x]"), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
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
  await page.waitForFunction(() => location.hash === "#/report");
  // Every form control has a label.
  assert.deepEqual(await unlabelledFields(page), []);

  // Browse: from the search box, Tab reaches every filter in order, then the map and the
  // list — an item's marker or a cluster, which show items of the list, is no tab stop in its
  // way; Enter on an item in the list opens it.
  await page.goto(`${service.base}/#/browse`);
  await page.locator("#item-list li").first().waitFor();
  await page.locator("#filters").getByLabel("Search").focus();
  const reached = [];
  let card = false;
  for (let n = 0; n < 60 && !card; n++) {
    await page.keyboard.press("Tab");
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      return el.name || (el.matches(".item-card") && "card") || (el.matches(".item-marker") && "marker") || el.id || el.className;
    });
    if (at !== reached.at(-1)) reached.push(at);
    card = at === "card";
  }
  assert.deepEqual(reached.slice(0, 6), ["cat", "kind", "status", "since", "near", "within"]);
  assert.ok(!reached.includes("marker"), `tabbed through ${reached.join(", ")}`);
  assert.ok(card, `tabbed through ${reached.join(", ")} without reaching the list`);
  const title = await page.evaluate(() => document.activeElement.querySelector("strong").textContent);
  await page.keyboard.press("Enter");
  await page.getByRole("dialog").getByRole("heading", { name: title }).waitFor();
  noPageErrors(page);
});

test("every screen works on a phone", async () => {
  const admin = await open("/", { size: "phone" });
  await login(admin, "admin", "admin-demo-pass");
  // Each screen once its content is there: what loads later could widen it.
  const screens = [
    ["browse", "#item-list li"],
    ["report", "#report-form"],
    ["review", ".review-card"],
    ["chat", '#chat-log li:has-text("Seen from a phone.")', () => say(admin, "#chat-form", "Seen from a phone.")],
  ];
  for (const [name, content, act] of screens) {
    await admin.goto(`${service.base}/#/${name}`);
    await admin.locator(`#view-${name}`).waitFor();
    await act?.();
    await admin.locator(content).first().waitFor();
    await noHorizontalOverflow(admin, name);
    await screenshot(admin, `${name}-phone`);
  }
  const items = await (await fetch(`${service.base}/api/items?status=approved`)).json();
  await admin.goto(`${service.base}/#/browse/${items[0].id}`);
  await admin.getByRole("dialog").waitFor();
  await screenshot(admin, "item-phone");
  noPageErrors(admin);
});
