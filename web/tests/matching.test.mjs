// Matching lost and found, in the browser: staff see on a pending report's card the found
// items likely its object (read as the cards come into view, a few at a time); the owner of a
// lost report sees its likely matches on its card in My reports, says one is not theirs (and
// takes it back) or opens its claim form; an item's view says why each match may be it, its
// reporter sees the likely ones first and the rest behind "Less likely", everyone else the
// list with the likely ones marked; and a search can be ordered newest first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { count, login, loginInAnyLanguage, noHorizontalOverflow, noPageErrors, screenshot, signIn, useService } from "./harness.mjs";

/** Where it all happens: away from the demo data, so nothing else matches. */
const HERE = { lat: 51.6301, lng: -0.2201 };
const near = (dLat, dLng) => ({ lat: HERE.lat + dLat, lng: HERE.lng + dLng });
/** Reports waiting for review besides the owner's: more cards than requests allowed at once. */
const OTHERS_PENDING = 8;
/** Requests for matches the review screen may have under way at once. */
const AT_ONCE = 3;

const ids = {};
const service = useService({
  prepare: async ({ base }) => {
    const admin = await signIn(base, "admin", "admin-demo-pass");
    const alice = await signIn(base, "alice", "alice-demo-pass");
    const bob = await signIn(base, "bob", "bob-demo-pass");
    // Reports waiting for review elsewhere, older than the owner's (the queue is newest first).
    for (let n = 1; n <= OTHERS_PENDING; n++) {
      await bob("POST", "/api/items?fields=id", { title: `Lost notebook ${n}`, kind: "lost", lat: 51.4 + n / 100, lng: -0.3, radius: 10 });
    }
    // The owner reports her wallet lost, in Korean; it waits for review.
    ({ id: ids.lost } = await alice("POST", "/api/items?fields=id", { title: "검은색 지갑", kind: "lost", cat: "other", ...HERE, radius: 50 }));
    // The office logs a black wallet handed in nearby (approved at once), in English and filed
    // under another category.
    ({ id: ids.found } = await admin("POST", "/api/items?fields=id", {
      title: "Black wallet", kind: "found", cat: "accessories", ...near(0.0001, -0.0001), radius: 20, status: "approved",
    }));
    // Found nearby too, but hardly a wallet: a less likely match.
    ({ id: ids.umbrella } = await bob("POST", "/api/items?fields=id", { title: "Blue umbrella", kind: "found", cat: "other", ...near(0.0002, -0.0002), radius: 20 }));
    await admin("PATCH", `/api/items/${ids.umbrella}?fields=id`, { status: "approved" });
    // Someone else lost a black leather wallet there: the found wallet shares words with it.
    ({ id: ids.leather } = await bob("POST", "/api/items?fields=id", {
      title: "Black leather wallet", kind: "lost", cat: "accessories", ...near(0, -0.0001), radius: 30,
    }));
    await admin("PATCH", `/api/items/${ids.leather}?fields=id`, { status: "approved" });
  },
});
const asAlice = () => signIn(service.base, "alice", "alice-demo-pass");

/** The ids of the items whose matches the page asked for, in order. */
const matchRequests = (page) =>
  page.requests.map((url) => /^\/api\/items\/(\d+)\/matches$/.exec(url.pathname)?.[1]).filter(Boolean).map(Number);

/** Counts the page's requests for matches under way; `most()` is the most there were at once. */
function inFlight(page) {
  let now = 0;
  let most = 0;
  const isMatches = (request) => /\/matches$/.test(new URL(request.url()).pathname);
  page.on("request", (request) => {
    if (isMatches(request)) most = Math.max(most, ++now);
  });
  for (const event of ["requestfinished", "requestfailed"]) {
    page.on(event, (request) => isMatches(request) && now--);
  }
  return { most: () => most };
}

/** The card of report `title` in My reports. */
const mineCard = (page, title) =>
  page.locator("#mine-list > li").filter({ has: page.locator(".item-card strong").getByText(title, { exact: true }) });
const nav = (page, name) => page.getByRole("navigation").getByRole("link", { name, exact: true });
/** The ids of the found items the owner's report matches, as the service answers her. */
const matchesForAlice = async () => (await (await asAlice())("GET", `/api/items/${ids.lost}/matches?fields=id`)).map((m) => m.item.id);
const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.name);

test("staff see on a pending report's card the found item likely its object, read as the cards come into view", async () => {
  const page = await service.open("/#/review");
  const requests = inFlight(page);
  await login(page, "admin", "admin-demo-pass");
  const card = page.locator("#review-list > li").filter({ has: page.locator("h3").getByText("검은색 지갑", { exact: true }) });
  const matches = card.locator(".review-matches");
  await matches.getByRole("heading", { name: "Likely matches" }).waitFor();
  const entry = matches.getByRole("listitem").filter({ hasText: "Black wallet" });
  await entry.getByText(/· \d+% match · Similar description$/).waitFor();
  // Only the likely one: the umbrella found nearby is not named.
  await count(matches.getByRole("listitem"), 1);
  // Only pending reports' matches, never the same twice, never more than a few at once.
  const asked = matchRequests(page);
  assert.ok(asked.includes(ids.lost));
  assert.equal(new Set(asked).size, asked.length, `asked twice: ${asked}`);
  const pending = (await (await fetch(`${service.base}/api/items?status=pending&fields=id`)).json()).map((item) => item.id);
  for (const id of asked) assert.ok(pending.includes(id), `matches of ${id}, which is not pending`);
  assert.ok(requests.most() <= AT_ONCE, `${requests.most()} requests for matches at once`);
  await screenshot(page, "review-matches-desktop");

  // The title opens the found item.
  await entry.getByRole("button", { name: "Black wallet" }).click();
  const dialog = page.locator("#item-dialog");
  await dialog.getByRole("heading", { name: "Black wallet", exact: true }).waitFor();
  await page.locator("#item-close").click();
  await dialog.waitFor({ state: "hidden" });
  noPageErrors(page);

  // On a phone the cards below the screen are read only once scrolled to.
  const phone = await service.open("/#/review", { size: "phone" });
  const phoneRequests = inFlight(phone);
  await login(phone, "admin", "admin-demo-pass");
  const phoneCard = phone.locator("#review-list > li").filter({ has: phone.locator("h3").getByText("검은색 지갑", { exact: true }) });
  await phoneCard.locator(".review-matches").getByText("Black wallet").waitFor();
  await noHorizontalOverflow(phone, "review");
  await screenshot(phone, "review-matches-phone");
  const last = phone.locator("#review-list > li").last();
  const lastId = Number((await last.locator(".meta").first().textContent()).match(/^#(\d+)/)[1]);
  assert.ok(!matchRequests(phone).includes(lastId), "the last card's matches were read before it came near");
  const before = matchRequests(phone).length;
  assert.ok(before < pending.length, `${before} requests for ${pending.length} pending reports before scrolling`);
  await last.scrollIntoViewIfNeeded();
  await phone.waitForFunction((id) => performance.getEntriesByType("resource").some((r) => r.name.endsWith(`/api/items/${id}/matches?fields=id,title`)), lastId);
  assert.ok(phoneRequests.most() <= AT_ONCE, `${phoneRequests.most()} requests for matches at once`);
  noPageErrors(phone);

  // Approved: the owner is told, and it is published.
  await card.getByRole("button", { name: "Approve" }).click();
  await page.getByRole("status").getByText("Approve: “검은색 지갑”.").waitFor();
  noPageErrors(page);
});

test("the owner's card names the likely match: Not mine takes it away, Undo brings it back, This is mine opens its claim form", async () => {
  const page = await service.open("/");
  await login(page, "alice", "alice-demo-pass");
  await nav(page, "My reports").click();
  const card = mineCard(page, "검은색 지갑");
  const matches = card.locator(".card-matches");
  await matches.getByText("May have been found:").waitFor();
  const suggestion = matches.locator(".suggestion", { hasText: "Black wallet" });
  await suggestion.getByText(/^\s*\(\d+ m\)$/).waitFor();
  await suggestion.getByText("Similar description").waitFor();
  // Only the likely match: the umbrella is not offered.
  await count(matches.locator(".suggestion"), 1);
  assert.equal(await card.getByText("Blue umbrella").count(), 0);
  const mine = suggestion.getByRole("button", { name: "This is mine: Black wallet" });
  const notMine = suggestion.getByRole("button", { name: "Not mine: Black wallet" });
  await mine.waitFor();
  await screenshot(page, "mine-matches-desktop");

  // Not mine, from the keyboard: the suggestion goes at once; a note says so, its Undo focused.
  await notMine.focus();
  const said = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(`/api/items/${ids.found}/not-mine`));
  await page.keyboard.press("Enter");
  await count(matches.locator(".suggestion:not(.dismissed)"), 0);
  const note = matches.getByRole("status");
  await note.getByText("“Black wallet” is no longer suggested.").waitFor();
  assert.equal(await focused(page), "Undo: Black wallet");
  assert.equal((await said).status(), 200);
  assert.deepEqual(await matchesForAlice(), [ids.umbrella], "the service still offers it");
  await screenshot(page, "mine-not-mine-desktop");

  // Undo: back where it was, Not mine focused again; the service offers it again.
  const unsaid = page.waitForResponse((r) => r.request().method() === "DELETE" && r.url().endsWith(`/api/items/${ids.found}/not-mine`));
  await page.keyboard.press("Enter");
  await mine.waitFor();
  assert.equal(await focused(page), "Not mine: Black wallet");
  assert.equal((await unsaid).status(), 200);
  assert.deepEqual(await matchesForAlice(), [ids.found, ids.umbrella]);

  // Read again, the card still offers it.
  await nav(page, "Browse").click();
  await nav(page, "My reports").click();
  await mine.waitFor();

  // This is mine: the found wallet's view, at its claim form.
  await mine.click();
  const dialog = page.locator("#item-dialog");
  await dialog.getByRole("heading", { name: "Black wallet", exact: true }).waitFor();
  const message = dialog.locator("#claim-form").getByLabel(/^Describe it/);
  await page.waitForFunction(() => document.activeElement?.name === "message");
  assert.ok(await message.isVisible());
  await screenshot(page, "mine-claim-desktop");
  noPageErrors(page);
});

test("the owner's view of a report lists the likely matches first, with the two buttons, and the rest behind Less likely", async () => {
  const page = await service.open("/");
  await login(page, "alice", "alice-demo-pass");
  await page.goto(`${service.base}/#/items/${ids.lost}`);
  const dialog = page.locator("#item-dialog");
  await dialog.getByRole("heading", { name: "Could this be yours?" }).waitFor();
  const likely = dialog.locator("#match-list > li");
  await count(likely, 1);
  await likely.getByRole("link", { name: "Black wallet" }).waitFor();
  await likely.getByText(/m away/).waitFor();
  await likely.getByText("Similar description").waitFor();
  await likely.getByRole("button", { name: "Not mine: Black wallet" }).waitFor();
  // The rest: closed until asked for.
  const toggle = dialog.getByRole("button", { name: "Less likely (1)" });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");
  const rest = dialog.locator("#less-likely-list");
  assert.equal(await rest.isVisible(), false);
  await screenshot(page, "item-matches-owner-desktop");
  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-expanded"), "true");
  await rest.getByRole("link", { name: "Blue umbrella" }).waitFor();
  assert.equal(await rest.getByText("Likely match").count(), 0);

  // Not mine on the less likely one, then Undo, in the view.
  const said = page.waitForResponse((r) => r.url().endsWith(`/api/items/${ids.umbrella}/not-mine`));
  await rest.getByRole("button", { name: "Not mine: Blue umbrella" }).click();
  await rest.getByText("“Blue umbrella” is no longer suggested.").waitFor();
  await said;
  assert.deepEqual(await matchesForAlice(), [ids.found]);
  const unsaid = page.waitForResponse((r) => r.request().method() === "DELETE" && r.url().endsWith(`/api/items/${ids.umbrella}/not-mine`));
  await rest.getByRole("button", { name: "Undo: Blue umbrella" }).click();
  await rest.getByRole("button", { name: "Not mine: Blue umbrella" }).waitFor();
  await unsaid;
  assert.deepEqual(await matchesForAlice(), [ids.found, ids.umbrella]);
  await screenshot(page, "item-matches-owner-open-desktop");

  // This is mine: the found wallet's view, at its claim form.
  await likely.getByRole("button", { name: "This is mine: Black wallet" }).click();
  await dialog.getByRole("heading", { name: "Black wallet", exact: true }).waitFor();
  await page.waitForFunction(() => document.activeElement?.name === "message");
  noPageErrors(page);

  // On a phone, in Korean.
  const phone = await service.open("/", { size: "phone", locale: "ko-KR" });
  await loginInAnyLanguage(phone, "alice", "alice-demo-pass");
  await phone.goto(`${service.base}/#/items/${ids.lost}`);
  const phoneDialog = phone.locator("#item-dialog");
  await phoneDialog.getByRole("button", { name: "제 물건 아니에요: Black wallet" }).waitFor();
  await phoneDialog.getByText("설명이 비슷함").waitFor();
  await phoneDialog.getByRole("button", { name: "가능성 낮은 후보 (1)" }).click();
  await phoneDialog.getByRole("link", { name: "Blue umbrella" }).waitFor();
  await screenshot(phone, "item-matches-owner-ko-phone");
  noPageErrors(phone);
});

test("everyone else sees the matches as a list, the likely ones marked, each saying why", async () => {
  const page = await service.open(`/#/items/${ids.found}`);
  const dialog = page.locator("#item-dialog");
  await dialog.getByRole("heading", { name: "Lost reports that may be this item" }).waitFor();
  const leather = dialog.locator("#match-list > li", { hasText: "Black leather wallet" });
  await leather.getByText("Shares: black, wallet").waitFor();
  await leather.getByText("Likely match").waitFor();
  const korean = dialog.locator("#match-list > li", { hasText: "검은색 지갑" });
  await korean.getByText("Similar description").waitFor();
  await korean.getByText("Likely match").waitFor();
  // Nothing to say "not mine" to, nothing hidden.
  assert.equal(await dialog.getByRole("button", { name: /^Not mine/ }).count(), 0);
  assert.equal(await dialog.locator("#less-likely").isVisible(), false);
  await screenshot(page, "item-matches-visitor-desktop");

  // The lost report as someone else sees it: the umbrella listed too, unmarked.
  await page.goto(`${service.base}/#/items/${ids.lost}`);
  await dialog.getByRole("heading", { name: "Could this be yours?" }).waitFor();
  const entries = dialog.locator("#match-list > li");
  await count(entries, 2);
  assert.deepEqual(await entries.locator("a").allTextContents(), ["Black wallet", "Blue umbrella"]);
  assert.equal(await entries.nth(0).getByText("Likely match").count(), 1);
  assert.equal(await entries.nth(1).getByText("Likely match").count(), 0);
  noPageErrors(page);
});

test("My reports in Korean on a phone: the likely match and its buttons fit", async () => {
  const page = await service.open("/#/mine", { size: "phone", locale: "ko-KR" });
  await loginInAnyLanguage(page, "alice", "alice-demo-pass");
  const card = mineCard(page, "검은색 지갑");
  const suggestion = card.locator(".suggestion", { hasText: "Black wallet" });
  await suggestion.getByRole("button", { name: "제 물건이에요: Black wallet" }).waitFor();
  await suggestion.getByRole("button", { name: "제 물건 아니에요: Black wallet" }).waitFor();
  await noHorizontalOverflow(page, "My reports");
  await suggestion.scrollIntoViewIfNeeded();
  await screenshot(page, "mine-matches-ko-phone");
  await suggestion.getByRole("button", { name: "제 물건 아니에요: Black wallet" }).click();
  await card.getByText("“Black wallet” 항목을 더 이상 추천하지 않습니다.").waitFor();
  await screenshot(page, "mine-not-mine-ko-phone");
  const unsaid = page.waitForResponse((r) => r.request().method() === "DELETE");
  await card.getByRole("button", { name: "되돌리기: Black wallet" }).click();
  await suggestion.getByRole("button", { name: "제 물건이에요: Black wallet" }).waitFor();
  await unsaid;
  noPageErrors(page);
});

test("a search offers its order, best match first unless Newest is chosen", async () => {
  for (const size of ["desktop", "phone"]) {
    const page = await service.open("/", { size });
    await page.locator("#item-list li").first().waitFor();
    const filters = page.locator("#filters");
    const order = filters.getByLabel("Order");
    // Nothing typed: nothing to order.
    assert.equal(await order.isVisible(), false);
    const listed = () => page.requests.filter((url) => url.pathname === "/api/items").at(-1);
    await filters.getByLabel("Search").fill("wallet");
    await order.waitFor();
    assert.equal(await order.inputValue(), "");
    assert.equal(await order.locator("option:checked").textContent(), "Best match");
    await page.waitForFunction(() => performance.getEntriesByType("resource").some((r) => r.name.includes("q=wallet")));
    assert.equal(listed().searchParams.get("sort"), null);
    await page.locator("#item-list li", { hasText: "Black wallet" }).waitFor();
    await screenshot(page, `browse-order-${size}`);
    await noHorizontalOverflow(page, "Browse");

    await order.selectOption({ label: "Newest" });
    await page.waitForFunction(() => performance.getEntriesByType("resource").some((r) => r.name.includes("sort=newest")));
    assert.equal(listed().searchParams.get("q"), "wallet");
    assert.equal(listed().searchParams.get("sort"), "newest");
    // The order stays with the words as they change.
    await filters.getByLabel("Search").fill("black wallet");
    await page.waitForFunction(() => performance.getEntriesByType("resource").some((r) => r.name.includes("q=black+wallet")));
    assert.equal(listed().searchParams.get("sort"), "newest");
    // No words: no order, and none asked for.
    await filters.getByLabel("Search").fill("");
    await order.waitFor({ state: "hidden" });
    await page.waitForFunction(() => performance.getEntriesByType("resource").filter((r) => r.name.includes("/api/items?")).at(-1).name.includes("q=") === false);
    assert.equal(listed().searchParams.get("sort"), null);
    noPageErrors(page);
  }
});
