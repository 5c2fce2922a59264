// Accounts in the browser: staff create, change, disable and enable accounts, set new
// passwords and unlock them; every user changes their own password and may delete their
// account (on My account); the review screen shows an item's history. Each test makes the accounts it changes, so the
// demo ones stay as they are.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  confirmInApp, count, fieldSays, login, loginStatus, noHorizontalOverflow, noPageErrors, openLogin, openMenu, postJson, screenshot, signIn, tryLogin,
  unlabelledFields, useService,
} from "./harness.mjs";

const service = useService();
const open = (path, options) => service.open(path, options);
const asAdmin = () => signIn(service.base, "admin", "admin-demo-pass");

/** The card of the account named `name` on the Accounts screen. */
function accountCard(page, name) {
  return page.locator("#account-list > li").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

/** Waits until the focused element's text is `text`. */
function focusedIs(page, text) {
  return page.waitForFunction((text) => document.activeElement?.textContent === text, text);
}

test("an administrator creates an account, the new user logs in, and staff change its name, email and role", async () => {
  // The taken id is the point of the first try: its 409 is expected.
  const page = await open("/", { allowedErrors: ["409 POST /api/users"] });
  await login(page, "admin", "admin-demo-pass");
  await page.getByRole("navigation").getByRole("link", { name: "Accounts" }).click();
  await accountCard(page, "Alice Student").getByText("alice · no email").waitFor();
  await page.locator("#accounts-count", { hasText: "3 accounts" }).waitFor();

  const form = page.locator("#account-form");
  await form.getByLabel("User id").fill("alice");
  await form.getByLabel("Name").fill("Carol Example");
  await form.getByLabel("Password").fill("carol-first-pass");
  await form.getByLabel("Email").fill("carol@example.org");
  await form.getByRole("button", { name: "Create account" }).click();
  await fieldSays(form.getByLabel("User id"), "User already exists");
  await form.getByLabel("User id").fill("carol");
  await form.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("status").getByText("Account “carol” is created: Carol Example can log in now.").waitFor();
  const card = accountCard(page, "Carol Example");
  await card.getByText("carol · carol@example.org · created").waitFor();
  await card.locator(".state", { hasText: "User" }).waitFor();
  await count(card.locator(".state", { hasText: "Disabled" }), 0);
  assert.equal(await form.getByLabel("User id").inputValue(), "", "the form is emptied");
  await page.locator("#accounts-count", { hasText: "4 accounts" }).waitFor();

  const user = await open("/");
  await login(user, "carol", "carol-first-pass");
  await user.locator("#user-name", { hasText: /^Carol Example$/ }).waitFor();
  await count(user.getByRole("navigation").getByRole("link", { name: "Review" }), 0);

  // Edit opens a form on the card, its first field focused.
  const edit = card.getByRole("button", { name: "Edit" });
  assert.equal(await edit.getAttribute("aria-expanded"), "false");
  await edit.click();
  assert.equal(await edit.getAttribute("aria-expanded"), "true");
  const editForm = card.getByRole("form", { name: "Edit carol" });
  await page.waitForFunction(() => document.activeElement?.name === "name");
  await editForm.getByLabel("Name").fill("Carol Staff");
  await editForm.getByLabel("Email").fill("");
  await editForm.getByLabel("Administrator").check();
  await screenshot(page, "accounts-desktop");
  await editForm.getByRole("button", { name: "Save" }).click();
  await page.getByText("“carol” is saved.").waitFor();
  const changed = accountCard(page, "Carol Staff");
  await changed.getByText("carol · no email").waitFor();
  await changed.locator(".state", { hasText: "Administrator" }).waitFor();
  await focusedIs(page, "Carol Staff"); // the keyboard stays on the account it changed
  const [stored] = (await (await asAdmin())("GET", "/api/users")).filter((a) => a.id === "carol");
  assert.deepEqual([stored.name, stored.email, stored.isAdmin], ["Carol Staff", null, true]);

  // Carol, now an administrator, sees the staff screens and Accounts.
  await user.reload();
  await user.locator("#user-name", { hasText: /^Carol Staff$/ }).waitFor();
  await user.getByRole("banner").locator(".state", { hasText: "Staff" }).waitFor();
  await user.getByRole("navigation").getByRole("link", { name: "Accounts" }).waitFor();

  // Administrators cannot demote, disable or reset themselves here: their card does not offer it.
  const own = accountCard(page, "Front Desk");
  await own.getByText("admin (you)").waitFor();
  await own.getByRole("button", { name: "Edit" }).click();
  await count(own.getByLabel("Administrator"), 0);
  for (const name of ["Disable", "Reset password"]) await count(own.getByRole("button", { name }), 0);
  noPageErrors(page);
  noPageErrors(user);
});

test("disabling an account ends its sessions at once; enabling it lets its user back in", async () => {
  await (await asAdmin())("POST", "/api/users", { id: "dave", name: "Dave Example", password: "dave-first-pass" });
  const user = await open("/#/mine", { allowedErrors: ["403 POST /api/login"] });
  await login(user, "dave", "dave-first-pass");
  await user.getByText("You have not reported anything yet.").waitFor();

  const page = await open("/#/accounts");
  await login(page, "admin", "admin-demo-pass");
  const card = accountCard(page, "Dave Example");
  const disable = card.getByRole("button", { name: "Disable" });
  assert.equal(await disable.getAttribute("class"), "danger secondary");
  // Asked in the app's own dialog, which starts on Cancel; cancelled, nothing changes.
  await disable.click();
  await page.locator("dialog.ask-dialog").getByRole("button", { name: "Cancel", exact: true }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Cancel");
  await screenshot(page, "confirm-disable-desktop");
  await confirmInApp(page, { cancel: true });
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Disable", "back on the button");
  await disable.click();
  const question = await confirmInApp(page);
  await page.getByText("“dave” is disabled and logged out everywhere.").waitFor();
  assert.match(question, /Disable “dave” \(Dave Example\)\? They are logged out at once/);
  await card.locator(".state", { hasText: "Disabled" }).waitFor();
  await count(card.getByRole("button", { name: "Disable" }), 0);
  const enable = card.getByRole("button", { name: "Enable" });
  assert.equal(await enable.getAttribute("class"), null, "enabling is no danger");

  // Dave's open page: his session is gone, and he cannot log in again.
  await user.reload();
  await user.getByText("Log in to see the items you reported.").waitFor();
  await user.locator("#login-open").waitFor();
  assert.deepEqual(await user.evaluate(async () => (await fetch("/api/me")).json()), { user: null });
  await tryLogin(user, "dave", "dave-first-pass");
  await user.getByRole("alert").getByText("Account disabled").waitFor();

  await enable.click();
  await page.getByText("“dave” can log in again.").waitFor();
  await count(card.locator(".state", { hasText: "Disabled" }), 0);
  await login(user, "dave", "dave-first-pass");
  await user.getByText("You have not reported anything yet.").waitFor();
  noPageErrors(page);
  noPageErrors(user);
});

test("a session ended elsewhere: the next request answered 401 shows the page logged out", async () => {
  const admin = await asAdmin();
  await admin("POST", "/api/users", { id: "gwen", name: "Gwen Example", password: "gwen-first-pass" });
  const user = await open("/", { allowedErrors: ["401 GET /api/claims"] });
  await login(user, "gwen", "gwen-first-pass");
  await user.locator("#user-name", { hasText: "Gwen Example" }).waitFor();
  // Staff set a new password: every session of hers ends, this page's too.
  await admin("POST", "/api/users/gwen/password", { password: "gwen-second-pass" });
  await user.getByRole("navigation").getByRole("link", { name: "My reports" }).click();
  await user.getByRole("alert").getByText("Login required").waitFor();
  await user.locator("#login-open").waitFor();
  await user.locator("#signed-in").waitFor({ state: "hidden" });
  await user.getByText("Log in to see the items you reported.").waitFor();
  noPageErrors(user);
});

test("an administrator sets a new password, and unlocks an account after failed logins", async () => {
  await (await asAdmin())("POST", "/api/users", { id: "erin", name: "Erin Example", password: "erin-first-pass" });
  const elsewhere = await signIn(service.base, "erin", "erin-first-pass");
  const page = await open("/#/accounts");
  await login(page, "admin", "admin-demo-pass");
  const card = accountCard(page, "Erin Example");
  const reset = card.getByRole("button", { name: "Reset password" });
  await reset.click();
  assert.equal(await reset.getAttribute("aria-expanded"), "true");
  const form = card.getByRole("form", { name: "New password for erin" });
  await form.getByLabel("New password").fill("erin-second-pass");
  await form.getByRole("button", { name: "Set password" }).click();
  await page.getByText("“erin” has a new password and is logged out everywhere.").waitFor();
  assert.deepEqual(await elsewhere("GET", "/api/me"), { user: null }, "her sessions ended");
  assert.equal(await loginStatus(service.base, "erin", "erin-first-pass"), 401);
  const user = await open("/");
  await login(user, "erin", "erin-second-pass");
  noPageErrors(user);

  // Five wrong passwords from this address: the next try from here is refused, the right
  // password too (from a browser that never logged in to her account, so without its
  // device cookie), until staff unlock the account.
  // Unlock shows only on an account that failed logins lock.
  await count(accountCard(page, "Erin Example").getByRole("button", { name: "Unlock" }), 0);
  for (let n = 0; n < 5; n++) assert.equal(await loginStatus(service.base, "erin", "not-her-password"), 401);
  const locked = await open("/", { allowedErrors: ["429 POST /api/login"] });
  await tryLogin(locked, "erin", "erin-second-pass");
  await locked.getByRole("alert").getByText("Too many failed login attempts").waitFor();
  await page.getByLabel("Search (id, name or email)").fill("erin");
  await accountCard(page, "Erin Example").locator(".state", { hasText: "Locked" }).waitFor();
  await count(page.locator("#account-list > li"), 1);
  await accountCard(page, "Erin Example").getByRole("button", { name: "Unlock" }).click();
  await page.getByText("Failed logins of “erin” are forgotten: they can log in again.").waitFor();
  await count(accountCard(page, "Erin Example").getByRole("button", { name: "Unlock" }), 0);
  await login(locked, "erin", "erin-second-pass");
  noPageErrors(page);
  noPageErrors(locked);
});

test("Accounts: a search, filters by role and desk, an order, and a page at a time", async () => {
  const admin = await asAdmin();
  for (let n = 1; n <= 52; n++) {
    const id = `guest${String(n).padStart(2, "0")}`;
    await admin("POST", "/api/users", { id, name: `Guest ${n}`, password: "guest-first-pass", email: `${id}@visitors.example` });
  }
  const page = await open("/#/accounts");
  await login(page, "admin", "admin-demo-pass");
  const list = page.locator("#account-list > li");
  const total = (await admin("GET", "/api/users")).length;
  await page.locator("#accounts-count", { hasText: `1–50 of ${total} accounts` }).waitFor();
  await count(list, 50);
  await page.getByRole("button", { name: "Next" }).click();
  await page.locator("#accounts-count", { hasText: `51–${total} of ${total} accounts` }).waitFor();
  await count(page.getByRole("button", { name: "Next" }), 0);
  await screenshot(page, "accounts-page-two-desktop");
  await page.getByRole("button", { name: "Previous" }).click();
  await page.locator("#accounts-count", { hasText: `1–50 of ${total}` }).waitFor();

  // A search by address; a role; the newest first.
  const filters = page.getByRole("search", { name: "Find accounts" });
  await filters.getByLabel("Search (id, name or email)").fill("VISITORS.example");
  await page.locator("#accounts-count", { hasText: "1–50 of 52 accounts" }).waitFor();
  await filters.getByLabel("Sort by").selectOption("newest");
  await list.first().getByRole("heading", { name: "Guest 52" }).waitFor();
  await filters.getByLabel("Search (id, name or email)").fill("guest07");
  await page.locator("#accounts-count", { hasText: "1 account" }).waitFor();
  await filters.getByLabel("Search (id, name or email)").fill("");
  await filters.getByLabel("Role").selectOption("administrator");
  await count(list.locator(".state", { hasText: "User" }), 0);
  await list.first().waitFor();
  await filters.getByLabel("Search (id, name or email)").fill("nobody-like-this");
  await page.locator("#accounts-count", { hasText: "No account matches." }).waitFor();
  assert.deepEqual(await unlabelledFields(page), []);
  await screenshot(page, "accounts-filtered-desktop");

  const phone = await open("/#/accounts", { size: "phone" });
  await login(phone, "admin", "admin-demo-pass");
  await phone.locator("#accounts-count", { hasText: `of ${total} accounts` }).waitFor();
  await noHorizontalOverflow(phone, "Accounts with the search and filters");
  await screenshot(phone, "accounts-phone");
  noPageErrors(page);
  noPageErrors(phone);
});

test("a user changes her own password: only with the current one, and the new one logs her in", async () => {
  await (await asAdmin())("POST", "/api/users", { id: "fay", name: "Fay Example", password: "fay-first-pass" });
  const elsewhere = await signIn(service.base, "fay", "fay-first-pass");
  // The wrong current password is the point of the first try: its 403 is expected.
  const page = await open("/", { allowedErrors: ["403 POST /api/me/password"] });
  await login(page, "fay", "fay-first-pass");
  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  const toggle = page.getByRole("button", { name: "Change password" });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");
  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-expanded"), "true");
  const form = page.getByRole("form", { name: "Change your password" });
  await page.waitForFunction(() => document.activeElement?.name === "current");
  await form.getByLabel("Current password").fill("not-my-password");
  await form.getByLabel("New password").fill("fay-second-pass");
  await form.getByRole("button", { name: "Save new password" }).click();
  await fieldSays(form.getByLabel("Current password"), "Wrong password");
  await screenshot(page, "password-desktop");

  await form.getByLabel("Current password").fill("fay-first-pass");
  await form.getByRole("button", { name: "Save new password" }).click();
  await page.getByText("Your password is changed.").waitFor();
  await form.waitFor({ state: "hidden" });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");
  // This page has a new session and stays logged in; the others ended.
  await page.reload();
  await page.locator("#user-name", { hasText: "Fay Example" }).waitFor();
  assert.deepEqual(await elsewhere("GET", "/api/me"), { user: null });
  assert.equal(await loginStatus(service.base, "fay", "fay-first-pass"), 401);
  const again = await open("/");
  await login(again, "fay", "fay-second-pass");
  // Opened again, the form is empty.
  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  await toggle.click();
  assert.equal(await form.getByLabel("Current password").inputValue(), "");
  noPageErrors(page);
  noPageErrors(again);
});

test("a user chooses which notices come by email in My account, and the choice stays", async () => {
  const page = await open("/");
  await login(page, "bob", "bob-demo-pass");
  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  const choices = page.getByRole("group", { name: "Email me when" });
  const match = choices.getByRole("checkbox", { name: "a found item may be mine" });
  assert.equal(await match.isChecked(), true);
  assert.equal(await choices.getByRole("checkbox", { name: "reports wait for review" }).count(), 0, "staff's own kinds are for staff");
  await match.uncheck();
  await page.getByText("No more emails when a found item may be mine.").waitFor();
  await page.reload();
  await choices.getByRole("checkbox", { name: "a found item may be mine" }).waitFor();
  assert.equal(await choices.getByRole("checkbox", { name: "a found item may be mine" }).isChecked(), false);
  assert.equal(await choices.getByRole("checkbox", { name: "a report of mine is approved or rejected" }).isChecked(), true);
  await screenshot(page, "mail-choices-desktop");
  await choices.getByRole("checkbox", { name: "a found item may be mine" }).check();
  await page.getByText("You will get emails when a found item may be mine.").waitFor();
  noPageErrors(page);
});

test("a user deletes her own account: only with her password; then she is logged out everywhere and her report stays, anonymous", async () => {
  const admin = await asAdmin();
  await admin("POST", "/api/users", { id: "gil", name: "Gil Example", password: "gil-first-pass" });
  const elsewhere = await signIn(service.base, "gil", "gil-first-pass");
  const report = await elsewhere("POST", "/api/items", { title: "Gil's green scarf", lat: 51.5, lng: -0.12 });
  // The wrong password is the point of the first try: its 403 is expected.
  const page = await open("/", { allowedErrors: ["403 DELETE /api/me"] });
  await login(page, "gil", "gil-first-pass");
  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  await page.getByRole("button", { name: "Delete my account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.getByLabel("Current password").fill("not-my-password");
  assert.deepEqual(await unlabelledFields(page), []);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await fieldSays(dialog.getByLabel("Current password"), "Wrong password");
  await screenshot(page, "erase-desktop");
  assert.equal((await elsewhere("GET", "/api/me")).user.id, "gil", "nothing happened");

  await dialog.getByLabel("Current password").fill("gil-first-pass");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await page.getByText("Your account is deleted.").waitFor();
  await page.getByRole("banner").getByRole("button", { name: "Log in" }).waitFor();
  assert.equal(new URL(page.url()).hash, "#/");
  assert.deepEqual(await elsewhere("GET", "/api/me"), { user: null });
  assert.equal(await loginStatus(service.base, "gil", "gil-first-pass"), 401);
  const { createdBy } = await admin("GET", `/api/items/${report.id}`);
  assert.match(createdBy, /^erased-[a-z0-9]{10}$/);
  noPageErrors(page);
});

test("the Accounts screen is for staff only, and shows nothing once they log out", async () => {
  const page = await open("/#/accounts");
  const hint = page.getByText("Only staff can manage accounts. Log in with a staff account.");
  await hint.waitFor();
  const nav = page.getByRole("navigation");
  await login(page, "admin", "admin-demo-pass");
  await nav.getByRole("link", { name: "Accounts" }).waitFor();
  const list = page.locator("#account-list > li");
  await list.first().waitFor();
  await hint.waitFor({ state: "hidden" });

  await page.getByRole("button", { name: "Log out" }).click();
  await hint.waitFor();
  await count(list, 0);
  await login(page, "alice", "alice-demo-pass");
  await nav.getByRole("link", { name: "My reports" }).waitFor();
  await count(nav.getByRole("link", { name: "Accounts" }), 0);
  await hint.waitFor();
  assert.equal(await page.locator("#account-form").isVisible(), false);
  await count(list, 0);
  noPageErrors(page);
});

test("with sign-up off and no mail, the way in is a staff-made account: nothing offers more", async () => {
  const signup = { id: "zed", name: "Zed Outsider", email: "zed@uni.example", password: "zed-first-pass" };
  assert.deepEqual(await postJson(service.base, "/api/signup", signup), { status: 403, json: { error: "Sign-up is closed" } });
  const page = await open("/#/report");
  // No word of an account nobody can make: the desks, where staff help instead.
  const visitor = page.locator("#report-visitor");
  await visitor.getByText("Log in to report a lost or found item. No account? Come to a lost and found desk").waitFor();
  await count(visitor.getByRole("link", { name: "Create account" }), 0);
  const desks = visitor.getByRole("list", { name: "Lost and found desks" });
  const sites = await fetch(`${service.base}/api/sites`).then((r) => r.json());
  assert.deepEqual(await desks.getByRole("listitem").locator("strong").allTextContents(), sites.map((site) => site.name));
  await screenshot(page, "report-visitor-no-signup");
  // Browse tells visitors the same, after the items; a logged-in user does not need it.
  await page.goto(`${service.base}/#/browse`);
  const browseDesks = page.getByRole("region", { name: "Lost and found desks" });
  assert.deepEqual(await browseDesks.getByRole("listitem").locator("strong").allTextContents(), sites.map((site) => site.name));
  await browseDesks.getByText("its staff help with or without an account").waitFor();
  await screenshot(page, "browse-visitor-desks");
  await page.goto(`${service.base}/#/report`);
  const panel = await openLogin(page);
  await panel.getByLabel("Password").waitFor();
  for (const name of ["Forgot password?", "Create account"]) await count(panel.getByRole("link", { name }), 0);
  await count(panel.getByRole("button", { name: /^Log in with/ }), 0);
  await page.keyboard.press("Escape");

  // Followed from an old link, the screens say why they offer nothing.
  await page.goto(`${service.base}/#/signup`);
  await page.getByText("Sign-up is closed here: staff make the accounts. Ask at the lost-and-found desk.").waitFor();
  await count(page.locator("#signup-form:visible"), 0);
  await screenshot(page, "signup-closed-desktop");
  await page.goto(`${service.base}/#/forgot`);
  await page.getByText("Passwords cannot be reset by email here. Ask staff to set a new one for you.").waitFor();
  await count(page.locator("#forgot-form:visible"), 0);
  noPageErrors(page);
});

test("Review shows an item's history, opened and closed from the keyboard", async () => {
  const [admin, alice, bob] = await Promise.all([
    asAdmin(), signIn(service.base, "alice", "alice-demo-pass"), signIn(service.base, "bob", "bob-demo-pass"),
  ]);
  const title = "Grey wool scarf";
  const item = await bob("POST", "/api/items?fields=id", { title, kind: "found", lat: 51.52, lng: -0.13 });
  await admin("PATCH", `/api/items/${item.id}?fields=id`, { status: "approved" });
  await admin("PATCH", `/api/items/${item.id}?fields=id`, { storagePlace: "Desk 4" });
  const claim = await alice("POST", `/api/items/${item.id}/claims`, { message: "A name tag: A.S." });
  await admin("PATCH", `/api/claims/${claim.id}`, { status: "accepted" });
  await admin("POST", `/api/claims/${claim.id}/handover`, { idChecked: "Student card", collectedBy: "Bo Kim" });

  const page = await open("/#/review");
  await login(page, "admin", "admin-demo-pass");
  await page.locator("#review-status").selectOption("approved");
  const card = page.locator("#review-list .review-card", { hasText: title });
  const toggle = card.getByRole("button", { name: "History" });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");
  await toggle.focus();
  await page.keyboard.press("Enter");
  const panel = card.getByRole("region", { name: `History of ${title}` });
  const entries = panel.locator("li");
  await count(entries, 4);
  assert.equal(await toggle.getAttribute("aria-expanded"), "true");
  assert.deepEqual(await entries.locator(".what").allTextContents(), [
    "approved", "kept at Desk 4", `ready for pickup by alice (claim ${claim.id})`,
    `handed over to Bo Kim for alice (claim ${claim.id})`,
  ]);
  for (const entry of await entries.all()) await entry.getByText(/^by admin · \S/).waitFor();
  await screenshot(page, "history-desktop");
  await page.keyboard.press("Enter");
  await panel.waitFor({ state: "hidden" });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");

  // Whatever else the log records reads as words too (desks by name where the page knows
  // them), unknown fields as `field: value`.
  const words = await page.evaluate(async () => {
    const { describeChange } = await import("/assets/history.js");
    return [
      { status: "rejected", storagePlace: null }, { deleted: true }, { created: { title: "Scarf" } },
      { status: "pending" }, { colour: "grey", size: { cm: 180 } }, "renamed",
      { edited: { title: "Grey scarf", cat: "clothing", lat: 51.5, lng: -0.1, radius: 20, photo: false } },
      { edited: { happenedFrom: null, happenedUntil: null } },
      { status: "rejected", reason: "Not ours" }, { binId: 4 },
      { posted: { claim: 7, to: "alice", carrier: "Royal Mail", tracking: "RM123" } },
      { sent: { from: 1, to: 2, note: "Owner lives there" } }, { received: { from: 1, at: 2, binId: null } },
    ].map((change) => describeChange(change, { sites: [{ id: 1, name: "Library" }] }));
  });
  assert.deepEqual(words, [
    "rejected, storage place cleared", "deleted", "reported", "set back to pending review",
    'colour: grey, size: {"cm":180}', "renamed",
    "corrected: the title, the category, the place on the map, and the photo",
    "corrected: when it happened",
    "rejected, reason: Not ours", "put in bin #4",
    "posted to alice by Royal Mail, tracking RM123 (claim 7)",
    "sent from Library to #2: Owner lives there", "received at #2 from Library",
  ]);
  noPageErrors(page);
});

test("accounts, the password form and the history panel fit a phone, every field labelled", async () => {
  const page = await open("/#/accounts", { size: "phone" });
  await login(page, "admin", "admin-demo-pass");
  const card = accountCard(page, "Bob Visitor");
  await card.getByRole("button", { name: "Edit" }).click();
  await card.getByRole("button", { name: "Reset password" }).click();
  await card.getByRole("form", { name: "New password for bob" }).getByLabel("New password").waitFor();
  await noHorizontalOverflow(page, "Accounts");
  await screenshot(page, "accounts-phone");

  // The account and the screens are in the header's menu on a phone.
  await openMenu(page);
  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByLabel("Current password").waitFor();
  await noHorizontalOverflow(page, "My account with the password form");

  await openMenu(page);
  await page.getByRole("navigation").getByRole("link", { name: "Review" }).click();
  const first = page.locator("#review-list .review-card").first();
  await first.getByRole("button", { name: "History" }).click();
  await first.locator(".history-list li").first().waitFor();
  await noHorizontalOverflow(page, "Review with a history open");
  // The accounts' forms (still on the page) and the password form included.
  assert.deepEqual(await unlabelledFields(page), [], "every field is labelled");
  noPageErrors(page);
});
