// Categories, in the browser: an administrator adds one on the Categories screen with its
// name in three languages and a holding period, changes it (and marks it sensitive: visitors
// see its items without description) and removes it; the report form
// offers it at once (the catch-all last), an item of it reads by its name in the reader's
// language and holds for its period, and once it is removed the item keeps it as typed.
// Members are told the screen is for administrators. At desktop and phone sizes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { confirmInApp, login, noHorizontalOverflow, noPageErrors, screenshot, signIn, unlabelledFields, useService } from "./harness.mjs";

const service = useService();
const DAY_MS = 24 * 60 * 60 * 1000;

/** The texts of the report form's category choices, after its "not sure" one. */
const offered = (page) => page.locator("#report-form select[name=cat] option[data-category]").allTextContents();

test("an administrator adds, changes and removes a category; the forms and items follow", async () => {
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  for (const [size, names] of [
    ["desktop", { en: "Umbrellas", ko: "우산", es: "Paraguas" }],
    ["phone", { en: "Water bottles", ko: "물병", es: "Botellas" }],
  ]) {
    const key = names.en.toLowerCase();
    const page = await service.open("/", { size });
    await login(page, "admin", "admin-demo-pass");
    await page.goto(`${service.base}/#/categories`);
    const list = page.locator("#category-list");
    // What the app offered before, each named.
    await list.getByRole("heading", { name: "electronics", exact: true }).waitFor();
    assert.equal(await list.locator("> li").count(), 7);

    // Added, named in three languages, kept 30 days.
    await page.getByRole("button", { name: "Add a category" }).click();
    const dialog = page.locator("dialog.ask-dialog[open]");
    await dialog.getByLabel("Name in English").fill(names.en);
    await dialog.getByLabel("Name in Korean").fill(names.ko);
    await dialog.getByLabel("Name in Spanish").fill(names.es);
    await dialog.getByLabel("Keep found items for (days)").fill("30");
    assert.deepEqual(await unlabelledFields(page), []);
    await screenshot(page, `categories-add-${size}`);
    await dialog.getByRole("button", { name: "Add a category" }).click();
    await page.getByText(`The category “${names.en}” is added.`).waitFor();
    const card = list.locator("> li").filter({ has: page.getByRole("heading", { name: names.en, exact: true }) });
    await card.getByText("Found items are kept 30 days.").waitFor();
    await card.getByText(`Reports store it as “${key}”.`).waitFor();
    await card.getByText(`Korean: ${names.ko}`).waitFor();
    // The focus stays with what was changed.
    assert.equal(await page.evaluate(() => document.activeElement.dataset.key), key);
    await noHorizontalOverflow(page, `the categories on a ${size}`);
    await screenshot(page, `categories-${size}`);

    // The report form offers it without a reload, by name, the catch-all last.
    await page.goto(`${service.base}/#/report`);
    const choices = await offered(page);
    assert.ok(choices.includes(names.en), choices.join(", "));
    assert.equal(choices.at(-1), "other");
    assert.equal(await page.locator("#report-form select[name=cat]").inputValue(), "", "nothing chosen beforehand");

    // An item of it holds for its period, and reads by its name in each language.
    const item = await admin("POST", "/api/items?fields=id,created_at,holdUntil", {
      title: `Found: ${names.en.toLowerCase()} (${size})`, cat: key, kind: "found", status: "approved",
      desc: "Initials J.K. under the cap", lat: 51.52, lng: -0.13, radius: 10,
    });
    assert.equal(Date.parse(item.holdUntil) - Date.parse(item.created_at), 30 * DAY_MS);
    const korean = await service.open(`/#/items/${item.id}`, { size, locale: "ko-KR" });
    await korean.locator("#item-fields").getByText(names.ko, { exact: true }).waitFor();
    noPageErrors(korean);
    await korean.context().close();

    // Changed: a new English name, no period of its own, marked sensitive; the card and the
    // form follow.
    await page.goto(`${service.base}/#/categories`);
    await card.getByRole("button", { name: "Change" }).click();
    await dialog.getByLabel("Name in English").fill(`${names.en} and more`);
    await dialog.getByLabel("Keep found items for (days)").fill("");
    const sensitive = dialog.getByRole("checkbox", { name: "Sensitive" });
    assert.equal(await sensitive.isChecked(), false);
    assert.match(await sensitive.getAttribute("aria-describedby"), /category-sensitive-hint/);
    await sensitive.check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.getByText(`The category “${names.en} and more” is saved.`).waitFor();
    const changed = list.locator("> li").filter({ has: page.getByRole("heading", { name: `${names.en} and more`, exact: true }) });
    await changed.getByText("Found items are kept as long as their desk or the service keeps them.").waitFor();
    await changed.getByText("Sensitive: shown to the public without description and photo.").waitFor();
    // A visitor sees its item without the description, and is told why; staff see it.
    const visitor = await service.open(`/#/items/${item.id}`, { size });
    const fields = visitor.locator("#item-fields");
    await fields.getByText("Not shown to protect its owner: describe it in your claim.").waitFor();
    assert.equal(await fields.getByText("Initials J.K.").count(), 0);
    assert.equal(await fields.locator("dt", { hasText: "Kept at" }).count(), 0);
    await screenshot(visitor, `item-sensitive-public-${size}`);
    noPageErrors(visitor);
    await visitor.context().close();
    await page.goto(`${service.base}/#/items/${item.id}`);
    await page.locator("#item-fields").getByText("Initials J.K. under the cap").waitFor();
    await page.goto(`${service.base}/#/categories`);
    const { holdUntil } = await admin("GET", `/api/items/${item.id}?fields=holdUntil`);
    assert.equal(Date.parse(holdUntil) - Date.parse(item.created_at), 90 * DAY_MS, "the service's period again");

    // Removed, after the app's own question: the item keeps it as it was typed.
    await changed.getByRole("button", { name: "Remove" }).click();
    const question = await confirmInApp(page);
    assert.match(question, new RegExp(`Remove the category “${names.en} and more”\\?\\nReports already in it keep it as text`));
    await page.getByText(`The category “${names.en} and more” is removed.`).waitFor();
    await changed.waitFor({ state: "detached" });
    assert.equal(await page.evaluate(() => document.activeElement.id), "category-add");
    await page.goto(`${service.base}/#/items/${item.id}`);
    await page.locator("#item-fields").getByText(key, { exact: true }).waitFor();
    await page.goto(`${service.base}/#/report`);
    assert.ok(!(await offered(page)).some((name) => name.startsWith(names.en)));
    noPageErrors(page);
    await page.context().close();
  }

  // A member is told whose screen it is.
  const member = await service.open("/");
  await login(member, "alice", "alice-demo-pass");
  await member.goto(`${service.base}/#/categories`);
  await member.getByText("Only administrators keep the categories.").waitFor();
  assert.equal(await member.locator("#categories-content").isVisible(), false);
  noPageErrors(member);
});
