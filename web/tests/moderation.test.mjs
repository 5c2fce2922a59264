// Who says what in the chat and in item threads: a message sent from a staff account carries a
// Staff badge (one from any other account a quiet mark), staff delete messages and they leave
// every open page, and nobody else posts under a staff member's name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { confirmInApp, count, login, noHorizontalOverflow, noPageErrors, say, screenshot, useService } from "./harness.mjs";

const service = useService();
const open = (path, options) => service.open(path, options);

/** The message of the log `log` (a selector) whose text has `text`. */
const entry = (page, log, text) => page.locator(`${log} > li`, { hasText: text });


test("chat: a staff member's message carries the Staff badge, and staff delete a message from every open page", async () => {
  const visitor = await open("/#/chat");
  const alice = await open("/#/chat");
  await login(alice, "alice", "alice-demo-pass");
  const staff = await open("/#/chat");
  await login(staff, "admin", "admin-demo-pass");

  await say(visitor, "#chat-form", "Has anyone seen a red scarf?", "Sam");
  await entry(alice, "#chat-log", "red scarf").waitFor();
  await say(alice, "#chat-form", "I lost my keys near the library.");
  await entry(staff, "#chat-log", "my keys").waitFor();
  await say(staff, "#chat-form", "Keys were handed in at the front desk.");
  for (const page of [visitor, alice, staff]) {
    await entry(page, "#chat-log", "front desk").locator(".state", { hasText: "Staff" }).waitFor();
    // Alice's account is no staff; the name Sam typed is no account.
    await entry(page, "#chat-log", "my keys").locator(".signed").waitFor();
    await count(entry(page, "#chat-log", "my keys").locator(".state"), 0);
    await count(entry(page, "#chat-log", "red scarf").locator(".state, .signed"), 0);
  }
  // Only staff can delete.
  await entry(staff, "#chat-log", "red scarf").getByRole("button", { name: "Delete the message of Sam" }).waitFor();
  for (const page of [visitor, alice]) await count(page.locator("#chat-log button"), 0);
  await screenshot(staff, "chat-staff-desktop");

  await entry(staff, "#chat-log", "red scarf").getByRole("button", { name: /^Delete/ }).click();
  assert.match(await confirmInApp(staff), /^Delete this message of Sam\?[\s\S]*Has anyone seen a red scarf\?/);
  await staff.getByRole("status").getByText("The message is deleted.").waitFor();
  for (const page of [visitor, alice, staff]) await count(entry(page, "#chat-log", "red scarf"), 0);
  // For good: the history no longer has it.
  const later = await open("/#/chat");
  await entry(later, "#chat-log", "front desk").waitFor();
  await count(entry(later, "#chat-log", "red scarf"), 0);

  // A confirmation declined deletes nothing.
  await entry(staff, "#chat-log", "my keys").getByRole("button", { name: /^Delete/ }).click();
  await confirmInApp(staff, { cancel: true });
  await entry(staff, "#chat-log", "my keys").waitFor();
  assert.equal(staff.requests.filter((url) => url.pathname.startsWith("/api/messages/")).length, 1);
  for (const page of [visitor, alice, staff, later]) noPageErrors(page);

  const phone = await open("/#/chat", { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  await entry(phone, "#chat-log", "front desk").locator(".state", { hasText: "Staff" }).waitFor();
  await entry(phone, "#chat-log", "my keys").getByRole("button", { name: /^Delete/ }).waitFor();
  await noHorizontalOverflow(phone, "The chat, for staff");
  await screenshot(phone, "chat-staff-phone");
  noPageErrors(phone);
});

test("an item's thread: a staff reply carries the badge, and a deleted message leaves the open thread", async () => {
  const [item] = await (await fetch(`${service.base}/api/items?status=approved&fields=id,title&limit=1`)).json();
  const visitor = await open(`/#/browse/${item.id}`);
  const staff = await open("/");
  await login(staff, "admin", "admin-demo-pass");
  await staff.goto(`${service.base}/#/browse/${item.id}`);
  for (const page of [visitor, staff]) await page.getByRole("dialog").getByRole("heading", { name: item.title }).waitFor();

  await say(visitor, "#thread-form", "Is this the one from room 101?", "Sam");
  await entry(staff, "#thread-log", "room 101?").waitFor();
  await say(staff, "#thread-form", "Yes: it was found in room 101.");
  await entry(visitor, "#thread-log", "found in room 101").locator(".state", { hasText: "Staff" }).waitFor();
  await count(visitor.locator("#thread-log button"), 0);

  await entry(staff, "#thread-log", "room 101?").getByRole("button", { name: "Delete the message of Sam" }).click();
  await confirmInApp(staff);
  for (const page of [visitor, staff]) await count(entry(page, "#thread-log", "room 101?"), 0);
  await entry(visitor, "#thread-log", "found in room 101").waitFor();
  noPageErrors(visitor);
  noPageErrors(staff);
});

test("a visitor cannot post under a staff member's name", async () => {
  const visitor = await open("/#/chat");
  const other = await open("/#/chat");
  await say(visitor, "#chat-form", "Bring your lost phones to me.", "Front Desk");
  await visitor.getByRole("alert").getByText("That name belongs to staff: choose another").waitFor();
  // What was typed stays, to send under another name.
  const form = visitor.locator("#chat-form");
  assert.equal(await form.getByLabel("Message").inputValue(), "Bring your lost phones to me.");
  await form.getByLabel("Name").fill("Sam");
  await form.getByRole("button", { name: "Send" }).click();
  // Sent once, under Sam: the refused message never reached anyone.
  await entry(other, "#chat-log", "lost phones").locator(".nick", { hasText: "Sam" }).waitFor();
  await count(entry(other, "#chat-log", "lost phones"), 1);
  noPageErrors(visitor);
  noPageErrors(other);
});
