// The keyboard: the skip link moves the focus to the screen without leaving it, the login
// leaves the focus on the screen, and Escape closes the notifications; and each screen's title.
import { test } from "node:test";
import assert from "node:assert/strict";

import { login, noPageErrors, useService } from "./harness.mjs";

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
