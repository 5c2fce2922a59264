// The staff screens of several desks: an administrator adds a desk and puts staff at it in
// Accounts; staff see Desks (not Accounts), keep their desk's bins, move an item between bins,
// send it to another desk, whose staff receive it into a bin there. At desktop and phone sizes.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  login, noHorizontalOverflow, noPageErrors, openMenu, screenshot, signIn, unlabelledFields, useService,
} from "./harness.mjs";

const service = useService();
const asAdmin = () => signIn(service.base, "admin", "admin-demo-pass");

/** Makes account `id` (password `${id}-password`) through the API. */
async function account(admin, id, name) {
  await admin("POST", "/api/users", { id, name, password: `${id}-password` });
}

/** Opens Desks from the header's menu, as a person would. */
async function openDesks(page) {
  await openMenu(page);
  await page.getByRole("link", { name: "Desks" }).click();
  await page.getByRole("heading", { name: "Desks", level: 2 }).waitFor();
}

test("an administrator adds a desk and puts staff at it in Accounts", async () => {
  const page = await service.open("/", { size: "desktop" });
  await login(page, "admin", "admin-demo-pass");
  await openDesks(page);
  const form = page.locator("#site-form");
  await form.getByLabel("Name").fill("Sports centre");
  await form.getByLabel("Opening hours").fill("Mon-Fri 8-20");
  await form.getByLabel("To collect, bring").fill("Your student card");
  await form.getByRole("button", { name: "Add desk" }).click();
  await page.getByText("The desk “Sports centre” is added.").waitFor();
  assert.equal(await page.locator("#desk-picker").inputValue(), "2");
  await page.locator("#desk-about").getByText("Your student card").waitFor();
  // Changed later: its own holding period, its hours cleared.
  await page.locator("#desk-about").getByRole("button", { name: "Change details" }).click();
  assert.equal(await form.getByLabel("Opening hours").inputValue(), "Mon-Fri 8-20");
  await form.getByLabel("Keeps found items for").fill("30");
  await form.getByLabel("Opening hours").fill("");
  await form.getByRole("button", { name: "Save" }).click();
  await page.getByText("The desk “Sports centre” is saved.").waitFor();
  await page.locator("#desk-about").getByText("30 days").waitFor();
  const saved = await fetch(`${service.base}/api/sites`).then((r) => r.json());
  assert.deepEqual(
    (({ hours, holdDays, collect }) => ({ hours, holdDays, collect }))(saved.find((s) => s.id === 2)),
    { hours: null, holdDays: 30, collect: "Your student card" },
  );
  assert.equal(await form.getByRole("button", { name: "Add desk" }).isVisible(), true, "the form adds again");
  await screenshot(page, "desks-changed-desktop");

  const admin = await asAdmin();
  await account(admin, "sam", "Sam at the gym");
  await page.getByRole("link", { name: "Accounts" }).click();
  const card = page.locator(".account-card", { has: page.getByRole("heading", { name: "Sam at the gym" }) });
  await card.getByRole("button", { name: "Edit" }).click();
  await card.getByRole("group", { name: "Works at these desks" }).getByLabel("Sports centre").check();
  await card.getByRole("button", { name: "Save" }).click();
  await card.getByText("Works at Sports centre").waitFor();
  assert.equal(await card.locator(".state").first().textContent(), "Staff");
  assert.deepEqual(await admin("GET", "/api/users").then((all) => all.find((a) => a.id === "sam").sites), [2]);
  await screenshot(page, "desks-accounts-desktop");
  assert.deepEqual(await unlabelledFields(page), []);
  noPageErrors(page);
});

test("staff keep their desk's bins, send an item to another desk, and the other desk receives it", async () => {
  const admin = await asAdmin();
  const sites = await admin("GET", "/api/sites");
  const gym = sites.find((s) => s.name === "Sports centre") ?? (await admin("POST", "/api/sites", { name: "Sports centre" }));
  await account(admin, "lee", "Lee at the library").catch(() => {});
  await admin("PATCH", "/api/users/lee", { sites: [1] });
  await account(admin, "gia", "Gia at the gym").catch(() => {});
  await admin("PATCH", "/api/users/gia", { sites: [gym.id] });
  const { id } = await admin("POST", "/api/items?fields=id", {
    title: "Silver laptop", kind: "found", lat: 51.5, lng: -0.12, status: "approved", siteId: 1,
  });

  for (const size of ["desktop", "phone"]) {
    // The library's staff: Desks, but no Accounts.
    const lee = await service.open("/", { size });
    await login(lee, "lee", "lee-password");
    await openMenu(lee);
    assert.equal(await lee.getByRole("link", { name: "Accounts" }).isVisible(), false);
    await openDesks(lee);
    assert.equal(await lee.locator("#desk-picker").inputValue(), "1", "their own desk first");
    assert.equal(await lee.locator("#site-form").isVisible(), false, "desks are the administrators' to add");
    const code = `SH-${size}`;
    const binForm = lee.locator("#bin-form");
    await binForm.getByLabel("Code on the shelf").fill(code);
    await binForm.getByLabel("Name").fill(`Shelf for the ${size}`);
    await binForm.getByRole("button", { name: "Add bin" }).click();
    await lee.getByText(`Bin ${code} is added.`).waitFor();
    const bin = lee.locator(".bin", { hasText: code });
    assert.equal(await bin.getByRole("link", { name: `Label of ${code}` }).getAttribute("href"), await bin.getByRole("link", { name: `Label of ${code}` }).getAttribute("href"));
    await noHorizontalOverflow(lee, `Desks on a ${size}`);
    await screenshot(lee, `desks-bins-${size}`);

    // Into the bin from the item's view, then on to the sports centre.
    await lee.goto(`${service.base}/#/items/${id}`);
    const view = lee.getByRole("dialog");
    await view.getByRole("button", { name: "Move to bin" }).click();
    const move = lee.getByRole("dialog", { name: "Which bin does Silver laptop go in?" });
    await move.getByLabel("Bin").selectOption({ label: `${code} · Shelf for the ${size}` });
    await move.getByRole("button", { name: "Move to bin" }).click();
    await lee.getByText("Silver laptop is moved.").waitFor();
    await view.locator("#item-fields dd", { hasText: `Shelf for the ${size}` }).waitFor();
    await view.getByRole("button", { name: "Send to desk" }).click();
    const send = lee.getByRole("dialog", { name: "Send Silver laptop to another desk" });
    await send.getByLabel("To").selectOption({ label: "Sports centre" });
    await send.getByLabel("Note").fill("Owner trains there");
    await screenshot(lee, `desks-send-${size}`);
    await send.getByRole("button", { name: "Send to desk" }).click();
    await lee.getByText("Silver laptop is on its way.").waitFor();
    await view.locator("#item-fields dd", { hasText: "to Sports centre" }).waitFor();
    assert.equal(await view.getByRole("button", { name: "Send to desk" }).count(), 0);
    noPageErrors(lee);

    // The sports centre's staff find it on its way, and receive it into a bin of theirs.
    const gia = await service.open("/", { size });
    await login(gia, "gia", "gia-password");
    const gymBin = `G-${size}`;
    await admin("POST", `/api/sites/${gym.id}/bins`, { code: gymBin, name: `Gym locker ${size}` });
    await openDesks(gia);
    const incoming = gia.locator("#desk-incoming li", { hasText: "Silver laptop" });
    await incoming.getByText("from Lost and found office").waitFor();
    await incoming.getByLabel("Bin for Silver laptop").selectOption({ label: `${gymBin} · Gym locker ${size}` });
    await noHorizontalOverflow(gia, `Incoming on a ${size}`);
    await screenshot(gia, `desks-incoming-${size}`);
    await incoming.getByRole("button", { name: "Receive" }).click();
    await gia.getByText("Silver laptop is received here.").waitFor();
    await gia.locator("#desk-incoming").getByText("Nothing.").waitFor();
    const held = await admin("GET", `/api/items/${id}?fields=siteId,transitTo,storagePlace`);
    assert.deepEqual(held, { siteId: gym.id, transitTo: null, storagePlace: `Gym locker ${size}` });

    // Its bin's page lists it.
    const [locker] = (await admin("GET", `/api/sites/${gym.id}/bins`)).filter((b) => b.code === gymBin);
    await gia.goto(`${service.base}/#/desks/bin/${locker.id}`);
    await gia.getByRole("heading", { name: `Bin ${gymBin} · Gym locker ${size}` }).waitFor();
    await gia.locator("#bin-page").getByRole("link", { name: `#${id} Silver laptop` }).waitFor();
    await screenshot(gia, `desks-bin-page-${size}`);
    noPageErrors(gia);

    // Back to the library for the next size.
    await admin("POST", `/api/items/${id}/transfer`, { to: 1 });
    await admin("POST", `/api/items/${id}/receive`, {});
  }
});

test("staff working at two desks take an item in at the one they choose, straight into a bin", async () => {
  const admin = await asAdmin();
  const sites = await admin("GET", "/api/sites");
  const gym = sites.find((s) => s.name === "Sports centre") ?? (await admin("POST", "/api/sites", { name: "Sports centre" }));
  await account(admin, "kim", "Kim at two desks").catch(() => {});
  await admin("PATCH", "/api/users/kim", { sites: [1, gym.id] });
  await admin("POST", `/api/sites/${gym.id}/bins`, { code: "K-1", name: "Kim's shelf" });
  for (const size of ["desktop", "phone"]) {
    const page = await service.open("/", { size });
    await login(page, "kim", "kim-password");
    await openMenu(page);
    await page.getByRole("link", { name: "Intake" }).click();
    const form = page.locator("#intake-form");
    await form.getByLabel("Title").fill(`Water bottle (${size})`);
    const desk = form.locator("select[name=site]");
    assert.deepEqual(await desk.locator("option").allTextContents(), ["Lost and found office", "Sports centre"], "the two desks Kim works at");
    await desk.selectOption({ label: "Sports centre" });
    await form.getByLabel("Bin").selectOption({ label: "K-1 · Kim's shelf" });
    assert.equal(await form.getByLabel("Kept at").isDisabled(), true, "a bin names where it is kept");
    await form.getByLabel("Latitude").fill("51.5");
    await form.getByLabel("Longitude").fill("-0.12");
    await noHorizontalOverflow(page, `Intake on a ${size}`);
    assert.deepEqual(await unlabelledFields(page), []);
    await screenshot(page, `desks-intake-${size}`);
    await form.getByRole("button", { name: "Log item" }).click();
    const done = page.locator("#intake-done");
    await done.getByText(`“Water bottle (${size})” is published, kept at Kim's shelf.`).waitFor();
    const id = Number((await done.locator("#intake-number").textContent()).slice(1));
    const stored = await admin("GET", `/api/items/${id}?fields=siteId,binId,storagePlace`);
    assert.equal(stored.siteId, gym.id);
    assert.equal(stored.storagePlace, "Kim's shelf");
    // The next item: the desk and bin stay chosen.
    await done.getByRole("button", { name: /another/i }).click();
    assert.equal(await form.getByLabel("Bin").inputValue(), String(stored.binId));
    noPageErrors(page);
  }
});

test("staff review and count their own desk's work first, and every desk's when they choose", async () => {
  const admin = await asAdmin();
  const sites = await admin("GET", "/api/sites");
  const gym = sites.find((s) => s.name === "Sports centre") ?? (await admin("POST", "/api/sites", { name: "Sports centre" }));
  await account(admin, "rae", "Rae at the gym").catch(() => {});
  await admin("PATCH", "/api/users/rae", { sites: [gym.id] });
  await admin("POST", "/api/items", { title: "Gym towel", kind: "lost", lat: 51.5, lng: -0.12, siteId: gym.id });
  await admin("POST", "/api/items", { title: "Library scarf", kind: "lost", lat: 51.5, lng: -0.12, siteId: 1 });
  for (const size of ["desktop", "phone"]) {
    const page = await service.open("/", { size });
    await login(page, "rae", "rae-password");
    await openMenu(page);
    await page.getByRole("link", { name: "Review" }).click();
    // The screen is shown once the address has changed (an event after the click).
    const list = page.locator("#review-list");
    await list.getByText("Gym towel").waitFor();
    const desk = page.locator("#view-review").getByLabel("Desk");
    assert.equal(await desk.inputValue(), String(gym.id), "their own desk first");
    assert.equal(await list.getByText("Library scarf").count(), 0, "another desk's report waits for its own staff");
    await noHorizontalOverflow(page, `Review on a ${size}`);
    await screenshot(page, `desks-review-${size}`);
    await desk.selectOption({ label: "All desks" });
    await list.getByText("Library scarf").waitFor();

    await openMenu(page);
    await page.getByRole("link", { name: "Statistics" }).click();
    await page.locator("#stats-range").getByText(/report/).waitFor();
    const figures = page.locator("#view-stats").getByLabel("Desk");
    assert.equal(await figures.inputValue(), String(gym.id));
    assert.match(await page.locator("#stats-export").getAttribute("href"), new RegExp(`site=${gym.id}`));
    noPageErrors(page);
  }
});
