// Correcting a report from its view: its reporter fixes the title and category of an approved
// report, which goes back to review; the desk's staff correct the description and it stays
// approved. At desktop and phone sizes.
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
