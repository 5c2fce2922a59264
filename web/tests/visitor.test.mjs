// A visitor without an account, in the browser: staff take her lost report at the desk on the
// Report screen with her name, email and phone; the service mails her a link (an SMTP sink,
// smtp.mjs) that opens her report in My reports, logged in without a password; a found item
// handed in later is mailed to her and she claims it there. A link that no longer works says
// what to do. At desktop and phone sizes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { login, noHorizontalOverflow, noPageErrors, screenshot, signIn, unlabelledFields, useService } from "./harness.mjs";

const service = useService({ mail: true });
const asAdmin = () => signIn(service.base, "admin", "admin-demo-pass");
const mineCard = (page, title) =>
  page.locator("#mine-list > li").filter({ has: page.locator(".item-card strong").getByText(title, { exact: true }) });

test("staff take a visitor's lost report at the desk; she follows it by the mailed link and claims what was handed in", async () => {
  for (const size of ["desktop", "phone"]) {
    const visitor = { name: `Min-jun Lee ${size}`, email: `minjun.${size}@example.org`, phone: "+44 20 7946 0000" };
    const title = `Navy backpack with a silver zip (${size})`;
    // Each size its own place: the other's backpack is no match.
    const lat = size === "desktop" ? 51.5246 : 51.5446;
    const desk = await service.open("/", { size });
    await login(desk, "admin", "admin-demo-pass");
    await desk.goto(`${service.base}/#/report`);
    const form = desk.locator("#report-form");
    const fields = form.getByRole("group", { name: /^For a visitor at the desk/ });
    await fields.waitFor();
    // Found items are not taken for visitors: the fields go with "I found it".
    await form.getByLabel("I found it").check();
    await fields.waitFor({ state: "hidden" });
    await form.getByLabel("I lost it").check();
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Description").fill("Navy, a silver zip, a library book inside");
    await form.getByLabel("Latitude").fill(String(lat));
    await form.getByLabel("Longitude").fill("-0.1340");
    await fields.getByLabel("Visitor's name").fill(visitor.name);
    await fields.getByLabel("Visitor's email").fill(visitor.email);
    await fields.getByLabel("Visitor's phone").fill(visitor.phone);
    assert.deepEqual(await unlabelledFields(desk), []);
    await noHorizontalOverflow(desk, `the report form for a visitor on a ${size}`);
    await fields.scrollIntoViewIfNeeded();
    await screenshot(desk, `report-visitor-${size}`);
    await form.getByRole("button", { name: "Send report" }).click();
    await desk.getByText(`“${title}” is recorded for ${visitor.name}; they hear of it by mail at ${visitor.email}.`).waitFor();
    assert.equal(await fields.getByLabel("Visitor's email").inputValue(), "", "the form is empty for the next visitor");

    // The account made for her: a visitor, with her phone, in Accounts.
    await desk.goto(`${service.base}/#/accounts`);
    const account = desk.locator("#account-list > li").filter({ has: desk.getByRole("heading", { name: visitor.name }) });
    await account.locator(".state", { hasText: "Visitor" }).waitFor();
    await account.getByText(visitor.phone, { exact: false }).waitFor();
    noPageErrors(desk);

    // The mail: her link opens her report, logged in, and leaves the address bar.
    const mail = await service.mail.next(visitor.email);
    assert.equal(mail.subject, "Your lost report at the lost-and-found desk");
    assert.ok(mail.link?.startsWith(`${service.base}/#/follow/`), mail.link);
    const page = await service.open(mail.link.slice(service.base.length), { size });
    // Logged in as her (on a phone the name sits behind the menu).
    await page.waitForFunction((name) => document.getElementById("user-name").textContent === name, visitor.name);
    await page.getByText(`Welcome, ${visitor.name}. Here is your report: we email you when something may be yours.`).waitFor();
    const card = mineCard(page, title);
    await card.waitFor();
    assert.equal(await page.evaluate(() => location.hash), "#/mine");
    await noHorizontalOverflow(page, `My reports from the link on a ${size}`);
    await screenshot(page, `follow-mine-${size}`);

    // A backpack handed in: she is told by mail, and claims it from her report's card.
    const admin = await asAdmin();
    const found = await admin("POST", "/api/items?fields=id", {
      title: `Navy backpack (${size})`, desc: "Silver zip; a library book inside", kind: "found", status: "approved",
      lat, lng: -0.134, radius: 10,
    });
    const notice = await service.mail.next(visitor.email);
    assert.match(notice.body, new RegExp(`Navy backpack \\(${size}\\)`));
    await page.reload();
    const mine = mineCard(page, title).getByRole("button", { name: `This is mine: Navy backpack (${size})` });
    await mine.click();
    const dialog = page.locator("#item-dialog");
    await dialog.locator("#claim-form").getByLabel(/^Describe it/).fill("A library book on birds is inside");
    await dialog.locator("#claim-form").getByRole("button", { name: "Claim it" }).click();
    await page.waitForFunction(() => !document.querySelector("#claim-form") || document.querySelector("#claim-form").hidden);
    const claims = await admin("GET", `/api/items/${found.id}/claims?contact=true`);
    assert.deepEqual(claims.map((c) => [c.status, c.contact.name, c.contact.email]), [["open", visitor.name, visitor.email]]);
    noPageErrors(page);
  }
});

test("a link that does not work says so, and where the desks are", async () => {
  const page = await service.open(`/#/follow/${"A".repeat(43)}`, { allowedErrors: ["400 POST /api/follow"] });
  const result = page.locator("#follow-result");
  await result.getByText(/^This link does not work any more/).waitFor();
  await page.getByRole("alert").getByText("Invalid or expired link").waitFor();
  await result.locator(".desk-list li").first().waitFor();
  assert.equal(await page.evaluate(() => location.hash), "#/follow");
  await page.getByRole("banner").getByRole("button", { name: "Log in" }).waitFor();
  await screenshot(page, "follow-failed-desktop");
  noPageErrors(page);
});
