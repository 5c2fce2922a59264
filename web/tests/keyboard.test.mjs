// The keyboard: the skip link moves the focus to the screen without leaving it, the login
// leaves the focus on the screen, and Escape closes the notifications; each screen's title; the
// focus after an item's view closes and after a card leaves the Review queue (WCAG 2.4.3); the
// focus ring stands out wherever it lands (1.4.11); errors and notices cover no control and
// stay on their screen; a report and a claim made with the keyboard alone (2.1.1); text spaced
// out (1.4.12) still fits. What axe-core checks is in i18n.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";

import { confirmInApp, focusIndicator, login, noPageErrors, overflowing, screenshot, useService } from "./harness.mjs";

const service = useService();

test("the skip link, the focus after login and Escape on the notifications", async () => {
  const page = await service.open("/#/chat");
  await page.locator("#view-chat").waitFor();
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.className), "skip");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement.id === "main");
  // Still the chat: the link names no screen.
  assert.equal(await page.evaluate(() => location.hash), "#/chat");
  assert.ok(await page.locator("#view-chat").isVisible());

  await login(page, "alice", "alice-demo-pass");
  await page.waitForFunction(() => document.activeElement.id === "main");

  await page.locator("#bell").click();
  await page.locator("#bell-panel").waitFor();
  await page.keyboard.press("Escape");
  await page.locator("#bell-panel").waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement.id), "bell");
  noPageErrors(page);
});

test("each screen and each item has its own title; closing an item gives the screen's back", async () => {
  const page = await service.open("/");
  const browse = "Lost and found items – Lost & Found";
  await page.waitForFunction((title) => document.title === title, browse);
  const card = page.locator("#item-list .item-card").first();
  const itemTitle = await card.locator("strong").textContent();
  await card.click();
  await page.locator("#item-dialog[open]").waitFor();
  await page.waitForFunction((title) => document.title === title, `${itemTitle} – Lost & Found`);
  await page.keyboard.press("Escape");
  await page.locator("#item-dialog").waitFor({ state: "hidden" });
  await page.waitForFunction((title) => document.title === title, browse);
  await page.locator("nav a[data-view=chat]").click();
  await page.waitForFunction(() => document.title === "Chat – Lost & Found");
  noPageErrors(page);
});

/** What has the focus: its tag, its text, the item its card shows (`data-item` on it or its card). */
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el.tagName, text: el.textContent.trim(), item: el.closest("[data-item]")?.dataset.item ?? null };
  });

test("the focus goes back to what opened an item, and stays in the Review queue after a card leaves it", async () => {
  const page = await service.open("/");
  const cards = page.locator("#item-list .item-card");
  await cards.nth(1).waitFor();
  for (const [n, close] of [[0, () => page.keyboard.press("Escape")], [1, () => page.locator("#item-close").click()]]) {
    const card = cards.nth(n);
    const item = await card.getAttribute("data-item");
    await card.focus();
    await page.keyboard.press("Enter");
    await page.locator("#item-dialog[open]").waitFor();
    await close();
    await page.locator("#item-dialog").waitFor({ state: "hidden" });
    await page.waitForFunction((item) => document.activeElement.dataset.item === item, item);
  }

  await page.goto(`${service.base}/#/review`);
  await login(page, "admin", "admin-demo-pass");
  const queue = page.locator("#review-list > li.review-card");
  await queue.nth(2).waitFor();
  // Approved, the first pending report leaves the queue: the focus is on the one after it.
  const second = await queue.nth(1).getAttribute("data-item");
  await queue.first().getByRole("button", { name: "Approve" }).click();
  await page.waitForFunction((item) => document.activeElement.closest("[data-item]")?.dataset.item === item, second);
  assert.equal((await focused(page)).tag, "BUTTON");
  // Deleted (after the app's own question), the same.
  const third = await queue.nth(1).getAttribute("data-item");
  await queue.first().getByRole("button", { name: "Delete" }).click();
  await confirmInApp(page);
  await page.waitForFunction((item) => document.activeElement.closest("[data-item]")?.dataset.item === item, third);
  // A place saved keeps the card in the queue, and the focus on its button.
  const kept = await queue.first().getAttribute("data-item");
  await queue.first().getByRole("button", { name: "Save place" }).click();
  await page.locator("#notices .notice", { hasText: "Save place" }).waitFor();
  await page.waitForFunction(
    (item) => document.activeElement.closest("[data-item]")?.dataset.item === item && document.activeElement.textContent === "Save place",
    kept,
  );
  noPageErrors(page);
});

test("the focus ring stands 3:1 against what is behind it, on every control Tab reaches", async () => {
  const page = await service.open("/#/report");
  await login(page, "admin", "admin-demo-pass");
  const weak = [];
  // The header, the report form (its fields, the map, its buttons), then Browse: its filters,
  // the cards, the pages.
  for (const hash of ["#/report", "#/browse"]) {
    await page.evaluate((hash) => (location.hash = hash), hash);
    await page.locator(`#view-${hash.slice(2)}`).waitFor();
    await page.locator("#main").focus();
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press("Tab");
      const found = await focusIndicator(page);
      if (found && found.ratio < 3) weak.push(`${found.what}: ${found.ratio.toFixed(2)}:1`);
    }
  }
  await screenshot(page, "focus-ring-desktop");
  assert.deepEqual(weak, []);
  noPageErrors(page);
});

/** The visible controls that another element covers at their centre. */
const coveredControls = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("button, a[href], input, select, textarea")]
      .filter((el) => el.checkVisibility({ visibilityProperty: true }))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
        if (r.width === 0 || y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
        const top = document.elementFromPoint(x, y);
        return top && !el.contains(top) && !top.contains(el) && !el.closest("label")?.contains(top);
      })
      .map((el) => el.name || el.id || el.textContent.trim()));

/** Logs in as alice with a wrong password, then closes the login panel: its error goes back to
 *  the page's top bar. */
async function failLogin(page) {
  await page.locator("#login-open").click();
  await page.locator("#login-form [name=id]").fill("alice");
  await page.locator("#login-form [name=pw]").fill("not-her-password");
  await page.locator("#login-form button[type=submit]").click();
  await page.locator("#login-dialog #messages .error").waitFor();
  await page.keyboard.press("Escape");
}

test("an error and a notice cover no control, and are gone on the next screen", async () => {
  for (const size of ["desktop", "narrow"]) {
    const page = await service.open("/#/chat", { size, allowedErrors: ["401 POST /api/login"] });
    await page.locator("#chat-form").waitFor();
    const before = await coveredControls(page);
    await failLogin(page);
    // Back in the page's top bar, where it stays until the next outcome or screen.
    await page.locator("#top-bar #messages .error").waitFor();
    assert.deepEqual(await coveredControls(page), before);
    await screenshot(page, `error-in-flow-${size}`);
    // Dismissed from the keyboard, it goes, and the focus stays on the screen.
    await page.locator("#messages .dismiss").focus();
    await page.keyboard.press("Enter");
    await page.locator("#messages .error").waitFor({ state: "detached" });
    assert.equal(await page.evaluate(() => document.activeElement.id), "main");
    // Again, and away to another screen.
    await failLogin(page);
    await page.locator("nav a[data-view=browse]").evaluate((link) => link.click());
    await page.locator("#view-browse").waitFor();
    assert.equal(await page.locator("#messages .error").count(), 0, "the error followed to Browse");

    await login(page, "alice", "alice-demo-pass");
    await page.locator("#notices .notice").waitFor();
    assert.deepEqual(await coveredControls(page), [], "a notice covers controls");
    await page.locator("nav a[data-view=chat]").evaluate((link) => link.click());
    await page.locator("#view-chat").waitFor();
    assert.equal(await page.locator("#notices .notice").count(), 0, "the notice followed to Chat");
    noPageErrors(page);
    await page.context().close();
  }
});

/** Presses Tab (Shift+Tab with `back`) until the focused element matches `selector`; fails
 *  after 80 presses. */
async function tabTo(page, selector, { back = false } = {}) {
  for (let i = 0; i < 80; i += 1) {
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

test("a report and a claim made with the keyboard alone", async () => {
  const page = await service.open("/#/report");
  await page.locator("#view-report").waitFor();
  await tabTo(page, "#report-visitor button[data-login]");
  await page.keyboard.press("Enter");
  await page.keyboard.type("alice");
  await page.keyboard.press("Tab");
  await page.keyboard.type("alice-demo-pass");
  await page.keyboard.press("Enter");
  await page.locator("#report-form").waitFor();

  // The report: found, a title, the place in words and as coordinates typed, sent with Enter.
  await tabTo(page, "#report-form input[name=kind][value=lost]");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.value), "found");
  await tabTo(page, "#report-form input[name=title]");
  await page.keyboard.type("Green thermos");
  for (const [name, value] of [["lat", "51.5247"], ["lng", "-0.1337"]]) {
    await tabTo(page, `#report-form input[name=${name}]`);
    await page.keyboard.type(value);
  }
  await tabTo(page, "#report-form button[type=submit]");
  await page.keyboard.press("Enter");
  await page.locator("#notices .notice", { hasText: "“Green thermos”" }).waitFor();

  // The claim: to Browse by the menu, a found item's card, its claim form.
  await tabTo(page, "nav a[data-view=browse]", { back: true });
  await page.keyboard.press("Enter");
  const listed = page.locator("#item-list .item-card", { has: page.locator("strong", { hasText: /^Student ID card$/ }) });
  const card = `#item-list .item-card[data-item="${await listed.getAttribute("data-item")}"]`;
  await tabTo(page, card);
  await page.keyboard.press("Enter");
  await page.locator("#item-dialog[open]").waitFor();
  await tabTo(page, "#claim-form textarea[name=message]");
  await page.keyboard.type("My own card: Alice Student, a scratch across the photo.");
  await tabTo(page, "#claim-form button[type=submit]");
  await page.keyboard.press("Enter");
  await page.locator("#item-dialog #notices .notice", { hasText: "Your claim is sent." }).waitFor();
  await screenshot(page, "keyboard-claim-sent");
  noPageErrors(page);
});

test("text spaced as WCAG 1.4.12 asks loses nothing: no button's words run out of it, nothing scrolls sideways", async () => {
  const problems = [];
  for (const size of ["desktop", "narrow"]) {
    const page = await service.open("/#/browse", { size });
    await login(page, "admin", "admin-demo-pass");
    await page.addStyleTag({
      content: "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }",
    });
    for (const [hash, ready] of [["#/browse", "#item-list li"], ["#/report", "#report-form"], ["#/review", "#review-list li.review-card"], ["#/stats", "#stats-charts canvas"]]) {
      await page.evaluate((hash) => (location.hash = hash), hash);
      await page.locator(ready).first().waitFor();
      // Chart.js fits a chart to its box when its resize observer fires, some frames after it
      // is drawn (more on a busy machine): wait for the page to fit the screen, for at most
      // 5 s; what still does not is reported below.
      await page
        .waitForFunction(
          () => document.documentElement.scrollWidth <= innerWidth,
          null,
          { timeout: 5000 },
        )
        .catch(() => {});
      for (const finding of await overflowing(page)) problems.push(`${size} ${hash}: ${finding}`);
    }
    await screenshot(page, `text-spacing-${size}`);
    noPageErrors(page);
    await page.context().close();
  }
  assert.deepEqual(problems, []);
});
