// Desks in the app: with more than one, Browse offers them as a filter and the item view of a
// found item says which desk holds it, where it is, when it is open and what to bring; with
// one desk that says nothing of itself, neither shows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { count, noHorizontalOverflow, noPageErrors, screenshot, signIn, useService } from "./harness.mjs";

const GYM = { name: "Sports centre", place: "Sports hall, ground floor", lat: 51.5301, lng: -0.1201,
  hours: "Mon-Fri 9-17", collect: "Bring your student card" };
const LIBRARY = { name: "Library desk", lat: 51.5201, lng: -0.1401 };

const service = useService();
const asAdmin = () => signIn(service.base, "admin", "admin-demo-pass");

test("with one desk Browse offers no choice of desk, and the item view names none", async () => {
  const page = await service.open("/");
  await page.locator("#item-list .item-card").first().waitFor();
  assert.equal(await page.locator("#filters select[name=site]").isVisible(), false);
  await page.locator("#item-list .item-card").first().click();
  const dialog = page.getByRole("dialog");
  await dialog.locator("#item-fields dt").first().waitFor();
  assert.equal(await dialog.locator("#item-fields dt", { hasText: /^Desk$/ }).count(), 0);
  noPageErrors(page);
});

test("with several desks Browse filters by desk and the item view says which holds it", async () => {
  const admin = await asAdmin();
  await admin("POST", "/api/sites", GYM);
  await admin("POST", "/api/sites", LIBRARY);
  for (const [title, at] of [["Blue towel", GYM], ["Chess book", LIBRARY]]) {
    await admin("POST", "/api/items?fields=id", { title, kind: "found", lat: at.lat, lng: at.lng, radius: 10, status: "approved" });
  }
  for (const size of ["desktop", "phone"]) {
    const page = await service.open("/", { size });
    // On a phone the filters fold behind their button.
    if (size === "phone") await page.getByRole("button", { name: "Filters" }).click();
    const desk = page.locator("#filters").getByLabel("Desk");
    await desk.waitFor();
    assert.deepEqual(await desk.locator("option").allTextContents(),
      ["All desks", "Lost and found office", GYM.name, LIBRARY.name]);
    await desk.selectOption({ label: GYM.name });
    const cards = page.locator("#item-list .item-card");
    await count(cards, 1);
    assert.match(await cards.first().textContent(), /Blue towel/);
    await noHorizontalOverflow(page, `Browse on a ${size}`);
    await screenshot(page, `sites-browse-${size}`);
    await cards.first().click();
    const dialog = page.getByRole("dialog");
    const held = dialog.locator("#item-fields dt", { hasText: /^Desk$/ }).locator("+ dd");
    await held.waitFor();
    assert.equal(await held.textContent(), [GYM.name, GYM.place, GYM.hours, GYM.collect].join(" · "));
    await screenshot(page, `sites-item-${size}`);
    noPageErrors(page);
  }
});
