// Correcting a report from its view: its reporter fixes the title and category of an approved
// report, which goes back to review; the desk's staff correct the description and it stays
// approved. At desktop and phone sizes. And when a thing was lost: said in the report form,
// shown in the view, corrected.
import { test } from "node:test";
import assert from "node:assert/strict";
import { login, noHorizontalOverflow, noPageErrors, screenshot, signIn, unlabelledFields, useService } from "./harness.mjs";

const service = useService();

test("a reporter and the desk's staff correct a report from its view", async () => {
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  const alice = await signIn(service.base, "alice", "alice-demo-pass");
  for (const size of ["desktop", "phone"]) {
    const { id } = await alice("POST", "/api/items?fields=id", { title: `Umbrela ${size}`, lat: 51.5, lng: -0.12 });
    await admin("PATCH", `/api/items/${id}`, { status: "approved" });

    const page = await service.open("/", { size });
    await login(page, "alice", "alice-demo-pass");
    await page.goto(`${service.base}/#/items/${id}`);
    const view = page.getByRole("dialog");
    await view.getByRole("heading", { name: `Umbrela ${size}` }).waitFor();
    await view.getByRole("button", { name: "Edit report" }).click();
    const form = page.getByRole("dialog", { name: `Edit “Umbrela ${size}”` });
    await form.getByLabel("Title").fill(`Blue umbrella ${size}`);
    await form.getByLabel("Category").selectOption({ label: "bags" });
    await form.getByLabel("Place").fill("Library, 2nd floor");
    assert.deepEqual(await unlabelledFields(page), []);
    await noHorizontalOverflow(page, `the edit form on a ${size}`);
    await screenshot(page, `edit-report-${size}`);
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByText(`“Blue umbrella ${size}” is saved; it waits for review again`).waitFor();
    await view.getByRole("heading", { name: `Blue umbrella ${size}` }).waitFor();
    const stored = await admin("GET", `/api/items/${id}?fields=title,cat,place,status`);
    assert.deepEqual(stored, { title: `Blue umbrella ${size}`, cat: "bags", place: "Library, 2nd floor", status: "pending" });

    // The desk's staff: the description, and the report stays as they reviewed it.
    await admin("PATCH", `/api/items/${id}`, { status: "approved" });
    const desk = await service.open("/", { size });
    await login(desk, "admin", "admin-demo-pass");
    await desk.goto(`${service.base}/#/items/${id}`);
    await desk.getByRole("dialog").getByRole("button", { name: "Edit report" }).click();
    const staffForm = desk.getByRole("dialog", { name: `Edit “Blue umbrella ${size}”` });
    await staffForm.getByLabel("Description").fill("Navy blue, wooden handle");
    await staffForm.getByRole("button", { name: "Save" }).click();
    await desk.getByText(`“Blue umbrella ${size}” is saved.`).waitFor();
    await desk.locator("#item-fields dd", { hasText: "Navy blue, wooden handle" }).waitFor();
    assert.equal((await admin("GET", `/api/items/${id}?fields=status`)).status, "approved");
    noPageErrors(page);
    noPageErrors(desk);
  }
});

test("a reporter says when she lost it, between which hours; the view shows it, and she corrects it to the whole day", async () => {
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  for (const size of ["desktop", "phone"]) {
    const title = `Green umbrella ${size}`;
    const page = await service.open("/", { size });
    await login(page, "alice", "alice-demo-pass");
    await page.goto(`${service.base}/#/report`);
    const form = page.locator("#report-form");
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Latitude").fill("51.5");
    await form.getByLabel("Longitude").fill("-0.12");
    const when = form.getByRole("group", { name: /^When/ });
    await when.getByLabel("Day").fill("2026-11-20");
    await when.getByLabel("From").fill("14:00");
    await when.getByLabel("Until").fill("16:30");
    assert.deepEqual(await unlabelledFields(page), []);
    await noHorizontalOverflow(page, `the report form on a ${size}`);
    await when.scrollIntoViewIfNeeded();
    await screenshot(page, `report-when-${size}`);
    await form.getByRole("button", { name: "Send report" }).click();
    await page.getByText(`Thank you. “${title}” is reported and waits for review.`).waitFor();
    // Sent in the browser's own time, as the API writes times.
    const local = (at) => page.evaluate((at) => new Date(at).toISOString(), at);
    const [mine] = await admin("GET", `/api/items?q=${encodeURIComponent(title)}&fields=id,happenedFrom,happenedUntil`);
    assert.deepEqual(mine.happenedFrom, await local("2026-11-20T14:00"));
    assert.deepEqual(mine.happenedUntil, await local("2026-11-20T16:30"));
    // The form is empty again.
    assert.equal(await when.getByLabel("Day").inputValue(), "");

    await page.goto(`${service.base}/#/items/${mine.id}`);
    const view = page.getByRole("dialog");
    const lost = view.locator("#item-fields dt", { hasText: /^When it was lost$/ }).locator("+ dd");
    await lost.getByText(/^Nov 20, 2026, 2:00\s*–\s*4:30\sPM$/).waitFor();
    await screenshot(page, `item-when-${size}`);

    // Corrected to the day alone: the hours go, the view says the day.
    await view.getByRole("button", { name: "Edit report" }).click();
    const edit = page.getByRole("dialog", { name: `Edit “${title}”` });
    assert.equal(await edit.getByLabel("Day").inputValue(), "2026-11-20");
    assert.equal(await edit.getByLabel("From").inputValue(), "14:00");
    await edit.getByLabel("From").fill("");
    await edit.getByLabel("Until").fill("");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });
    await lost.getByText(/^Nov 20, 2026$/).waitFor();
    const stored = await admin("GET", `/api/items/${mine.id}?fields=happenedFrom,happenedUntil`);
    assert.deepEqual(stored, { happenedFrom: await local("2026-11-20T00:00"), happenedUntil: await local("2026-11-20T23:59:59.999") });

    // Emptied: forgotten.
    await view.getByRole("button", { name: "Edit report" }).click();
    await edit.getByLabel("Day").fill("");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });
    await view.locator("#item-fields dt", { hasText: /^When it was lost$/ }).waitFor({ state: "detached" });
    assert.deepEqual(await admin("GET", `/api/items/${mine.id}?fields=happenedFrom`), { happenedFrom: null });
    noPageErrors(page);
  }
});
