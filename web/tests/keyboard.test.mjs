// The keyboard: the skip link moves the focus to the screen without leaving it, the login
// leaves the focus on the screen, and Escape closes the notifications; each screen's title; the
// focus after an item's view closes and after a card leaves the Review queue (WCAG 2.4.3).
import { test } from "node:test";
import assert from "node:assert/strict";

import { confirmInApp, login, noPageErrors, useService } from "./harness.mjs";

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
