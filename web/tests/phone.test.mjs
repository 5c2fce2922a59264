// The app on a phone (390×844) and its addresses: the header is one row of at most 15% of the
// screen in every language, for visitors and staff, with a menu for the screens; the
// notifications fit the screen, in the reader's language; Browse shows items before the map;
// notices take their own room instead of covering a field; every
// screen has an address of its own, and an item's address opens it over the screen, Back
// closing it again.
import { test } from "node:test";
import assert from "node:assert/strict";

import { login, loginInAnyLanguage, noPageErrors, openMenu, screenshot, useService } from "./harness.mjs";

const service = useService();
const PHONE = { width: 390, height: 844 };
const LANGUAGES = { en: "en-US", ko: "ko-KR", es: "es-ES" };

/** The top bar's height, in pixels, with nothing announced in it. */
const barHeight = (page) => page.evaluate(() => document.getElementById("top-bar").getBoundingClientRect().height);

for (const [lang, locale] of Object.entries(LANGUAGES)) {
  test(`the header takes at most 15% of a phone's screen (${lang})`, async () => {
    const page = await service.open("/#/browse", { size: "phone", locale });
    await page.locator("#item-list li").first().waitFor();
    const visitor = await barHeight(page);
    assert.ok(visitor <= 0.15 * PHONE.height, `a visitor's header is ${visitor}px high`);
    await screenshot(page, `phone-header-visitor-${lang}`);

    await loginInAnyLanguage(page, "admin", "admin-demo-pass");
    const staff = await barHeight(page);
    assert.ok(staff <= 0.15 * PHONE.height, `staff's header is ${staff}px high`);
    // The screens are in the menu, hidden until it opens.
    const review = page.locator("nav a[data-view=review]");
    assert.ok(!(await review.isVisible()));
    await openMenu(page);
    await review.waitFor();
    assert.equal(await page.locator("#menu-button").getAttribute("aria-expanded"), "true");
    await screenshot(page, `phone-menu-staff-${lang}`);
    // Choosing a screen closes the menu.
    await review.click();
    await page.locator("#view-review").waitFor();
    await review.waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => location.hash), "#/review");
    // Opened again, the focus is on the current screen's link; Escape closes it, and the
    // focus is back on its button.
    await openMenu(page);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.view), "review");
    await page.keyboard.press("Escape");
    await review.waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => document.activeElement.id), "menu-button");
    noPageErrors(page);
  });
}

test("the notifications open across a phone's screen, in the reader's language", async () => {
  const page = await service.open("/", { size: "phone", locale: "ko-KR" });
  await loginInAnyLanguage(page, "admin", "admin-demo-pass");
  await page.locator("#bell").click();
  const first = page.locator("#bell-list li a").first();
  await first.waitFor();
  // The demo's notifications of the front desk, said in Korean, not as the API's English.
  for (const text of await page.locator("#bell-list li a").allTextContents()) {
    assert.match(text, /[가-힣]/);
    assert.doesNotMatch(text, /report|kept|approved/i);
  }
  const [left, right] = await page.evaluate(() => {
    const box = document.getElementById("bell-panel").getBoundingClientRect();
    return [box.left, box.right];
  });
  assert.ok(left >= 0 && right <= PHONE.width, `the notifications span ${left}–${right}px`);
  await screenshot(page, "phone-notifications-ko");
  noPageErrors(page);
});

test("Browse on a phone shows items before the map, and the map on demand", async () => {
  const page = await service.open("/#/browse", { size: "phone" });
  const first = page.locator("#item-list .item-card").first();
  await first.waitFor();
  const top = await first.evaluate((card) => card.getBoundingClientRect().top);
  assert.ok(top < PHONE.height - 64, `the first item starts at ${top}px, below the first screen`);
  assert.ok(!(await page.locator("#browse-map").isVisible()), "the map shows before the list");
  // The filters but the words fold behind one button, which says how many are set.
  const filters = page.getByRole("button", { name: "Filters" });
  const category = page.locator("#filters").getByLabel("Category");
  assert.equal(await filters.getAttribute("aria-expanded"), "false");
  assert.ok(!(await category.isVisible()), "the filters show before the items");
  await screenshot(page, "phone-browse-list");
  await filters.click();
  await category.selectOption("bags");
  await page.getByLabel("Show closed and returned").check();
  await page.getByRole("button", { name: "Filters (2 set)" }).waitFor();
  await page.locator("#item-list .item-card", { hasText: "Black backpack" }).waitFor();
  await screenshot(page, "phone-browse-filters");
  await category.selectOption("");
  await page.getByLabel("Show closed and returned").uncheck();
  await page.getByRole("button", { name: "Filters", exact: true }).click();
  await category.waitFor({ state: "hidden" });

  await page.getByRole("button", { name: "Map", exact: true }).click();
  await page.locator("#browse-map").waitFor();
  assert.ok(!(await first.isVisible()), "the list stays beside the map");
  // The map moved to the items once it had a size: their markers or clusters are in it.
  await page.locator("#browse-map .item-marker, #browse-map .marker-cluster").first().waitFor();
  assert.equal(await page.getByRole("button", { name: "Map", exact: true }).getAttribute("aria-pressed"), "true");
  await screenshot(page, "phone-browse-map");
  await page.getByRole("button", { name: "List", exact: true }).click();
  await first.waitFor();
  noPageErrors(page);
});

test("a notice on a phone covers no field, and a focused field is not under the header", async () => {
  const page = await service.open("/#/report", { size: "phone" });
  await login(page, "alice", "alice-demo-pass");
  const form = page.locator("#report-form");
  await form.getByLabel("Title").fill("Blue umbrella");
  await form.locator("input[name=lat]").fill("51.5247");
  await form.locator("input[name=lng]").fill("-0.1337");
  // The form's fields: in sight below the top bar or not, under the notice or not.
  const fields = () =>
    page.evaluate(() => {
      const bar = document.getElementById("top-bar").getBoundingClientRect().bottom;
      const notice = document.querySelector("#notices .notice")?.getBoundingClientRect();
      return [...document.querySelectorAll("#report-form input, #report-form select, #report-form textarea, #report-form button")]
        .filter((field) => field.checkVisibility())
        .map((field) => {
          const r = field.getBoundingClientRect();
          return {
            name: field.name || field.id || field.textContent.trim(),
            inSight: r.top >= bar && r.bottom <= innerHeight,
            covered: Boolean(notice && r.bottom > notice.top && r.top < notice.bottom),
          };
        });
    });
  // Sent from the end of the form, where the fields are at the screen's foot and top alike,
  // without moving the page.
  await page.evaluate(() => document.querySelector("#report-form button[type=submit]").scrollIntoView({ block: "end" }));
  const inSight = (await fields()).filter((field) => field.inSight).map((field) => field.name);
  assert.ok(inSight.length >= 4, `only ${inSight} in sight`);
  await page.evaluate(() => document.getElementById("report-form").requestSubmit());
  await page.locator("#notices .notice").waitFor();
  const covered = (await fields()).filter((field) => field.covered && inSight.includes(field.name));
  assert.deepEqual(covered, [], "the notice covers fields that were in sight");
  await screenshot(page, "phone-report-notice");

  // With the notice still showing, a field moved into view lands below the top bar.
  await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  await form.getByLabel("Title").focus();
  const [field, bar] = await page.evaluate(() => [
    document.querySelector("#report-form input[name=title]").getBoundingClientRect().top,
    document.getElementById("top-bar").getBoundingClientRect().bottom,
  ]);
  assert.ok(field >= bar, `the focused field (at ${field}px) is under the top bar (to ${bar}px)`);
  noPageErrors(page);
});

test("an item's address opens it over Browse, and Back closes it", async () => {
  const [item] = await (await fetch(`${service.base}/api/items?limit=1&fields=id,title`)).json();
  for (const size of ["phone", "desktop"]) {
    const page = await service.open(`/#/items/${item.id}`, { size });
    const dialog = page.locator("#item-dialog");
    await dialog.getByRole("heading", { name: item.title }).waitFor();
    await page.locator("#view-browse").waitFor({ state: "attached" });
    await screenshot(page, `item-address-${size}`);
    await page.goBack();
    await dialog.waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => location.hash), "#/browse");
    await page.locator("#item-list .item-card").first().waitFor();
    noPageErrors(page);
  }
});

test("an item opened on a screen has its address; closing it or Back returns to the screen", async () => {
  const page = await service.open("/#/review");
  await login(page, "admin", "admin-demo-pass");
  const card = page.locator("#review-list h3 button").first();
  const title = await card.textContent();
  await card.click();
  const dialog = page.locator("#item-dialog");
  await dialog.getByRole("heading", { name: title }).waitFor();
  assert.match(await page.evaluate(() => location.hash), /^#\/items\/\d+$/);
  // A match or a notification links to another item: its address follows, and closing goes
  // back past both to the screen.
  const address = await page.evaluate(() => location.hash);
  await page.locator("#item-close").click();
  await dialog.waitFor({ state: "hidden" });
  await page.waitForFunction(() => location.hash === "#/review");
  assert.ok(await page.locator("#view-review").isVisible());

  // Forward opens it again; Back closes it, the review list as it was.
  await page.goForward();
  await dialog.waitFor();
  assert.equal(await page.evaluate(() => location.hash), address);
  await page.goBack();
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => location.hash), "#/review");
  assert.equal(await card.textContent(), title);
  noPageErrors(page);
});

test("a card or a screen chosen the moment an item is closed is what shows", async () => {
  const page = await service.open("/#/review");
  await login(page, "admin", "admin-demo-pass");
  const cards = page.locator("#review-list h3 button");
  await cards.nth(1).waitFor();
  const [first, second] = [await cards.nth(0).textContent(), await cards.nth(1).textContent()];
  const dialog = page.locator("#item-dialog");
  // Each address change is counted: the closing step and the one chosen make two.
  const closeThen = async (choose) => {
    await cards.first().click();
    await dialog.getByRole("heading", { name: first }).waitFor();
    await page.evaluate((choose) => {
      window.hashChanges = 0;
      window.addEventListener("hashchange", () => window.hashChanges++);
      document.getElementById("item-close").click();
      document.querySelector(choose).click();
    }, choose);
    await page.waitForFunction(() => window.hashChanges >= 2);
  };

  await closeThen("#review-list li:nth-child(2) h3 button");
  await dialog.getByRole("heading", { name: second }).waitFor();
  assert.match(await page.evaluate(() => location.hash), /^#\/items\/\d+$/);
  await page.locator("#item-close").click();
  await page.waitForFunction(() => location.hash === "#/review");

  await closeThen('a[data-view="mine"]');
  assert.equal(await page.evaluate(() => location.hash), "#/mine");
  await page.locator("#view-mine").waitFor();
  assert.equal(await dialog.isVisible(), false);
  noPageErrors(page);
});

test("every screen has an address of its own, and opens at it", async () => {
  const page = await service.open("/");
  await login(page, "admin", "admin-demo-pass");
  const screens = await page.evaluate(() => [...document.querySelectorAll("a[data-view]")].map((a) => [a.dataset.view, a.getAttribute("href")]));
  assert.ok(screens.length >= 9, `only ${screens.length} screens in the header`);
  noPageErrors(page);
  // Each address in a new tab of the same browser (the same session): its screen alone.
  for (const [view, href] of screens) {
    assert.equal(href, `#/${view}`);
    const tab = await page.context().newPage();
    const errors = [];
    tab.on("pageerror", (error) => errors.push(String(error)));
    await tab.goto(`${service.base}/${href}`);
    await tab.locator(`#view-${view}`).waitFor();
    assert.equal(await tab.locator(".view:not([hidden])").count(), 1, `${href} shows more than its screen`);
    assert.equal(await tab.locator("a[aria-current=page]").first().getAttribute("data-view"), view);
    assert.deepEqual(errors, []);
    await tab.close();
  }
});
