// Getting in without staff, in the browser: the login panel, creating an account and
// confirming its address from the mail, a forgotten password set anew from the mail, the
// address on My account, and the Report screen for visitors. The service mails to an SMTP
// sink (smtp.mjs); sign-up is open to addresses at uni.example.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  confirmInApp, count, fieldSays, login, loginStatus, noHorizontalOverflow, noPageErrors, openLogin, openMenu, screenshot, signIn, tryLogin,
  unlabelledFields, useService,
} from "./harness.mjs";

const service = useService({ mail: true, env: () => ({ LOSTFOUND_SIGNUP: "uni.example" }) });
const open = (path, options) => service.open(path, options);
const asAdmin = () => signIn(service.base, "admin", "admin-demo-pass");

/** The path and hash of a link mailed by the service, which points to it. */
function inApp(link, kind) {
  assert.ok(link?.startsWith(`${service.base}/#/${kind}/`), `a #/${kind}/ link to the service: ${link}`);
  return link.slice(service.base.length);
}

/** Waits until the focused element is the one `selector` matches. */
function focusIn(page, selector) {
  return page.waitForFunction((selector) => document.activeElement?.matches(selector), selector);
}

/** Fills in the Create account form and sends it. */
async function signUp(page, { id, name, email, password }) {
  const form = page.locator("#signup-form");
  await form.getByLabel("User id").fill(id);
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Create account" }).click();
}

const checkInbox = (email) => `Check your inbox: we sent a link to ${email}. Open it within 48 hours to finish.`;

test("the login panel opens from the header with the ways in, closes with Escape or Close, and a login lands on the content", async () => {
  const page = await open("/");
  const opener = page.getByRole("banner").getByRole("button", { name: "Log in" });
  await opener.click();
  const panel = page.getByRole("dialog", { name: "Log in" });
  await focusIn(page, "#login-form [name=id]");
  await panel.getByRole("link", { name: "Forgot password?" }).waitFor();
  await panel.getByRole("link", { name: "Create account" }).waitFor();
  await count(panel.getByRole("button", { name: /^Log in with/ }), 0); // no single sign-on here
  assert.deepEqual(await unlabelledFields(page), [], "every field is labelled");
  await screenshot(page, "login-desktop");

  await page.keyboard.press("Escape");
  await panel.waitFor({ state: "hidden" });
  await focusIn(page, "#login-open");
  await page.keyboard.press("Enter");
  await focusIn(page, "#login-form [name=id]");
  await page.keyboard.type("alice");
  await panel.getByRole("button", { name: "Close" }).click();
  await panel.waitFor({ state: "hidden" });
  await focusIn(page, "#login-open");
  // Nothing typed stays behind.
  await opener.click();
  assert.equal(await panel.getByLabel("User id").inputValue(), "");

  await login(page, "alice", "alice-demo-pass");
  await panel.waitFor({ state: "hidden" });
  await focusIn(page, "#main");
  const header = page.getByRole("banner");
  await header.locator("#user-name", { hasText: /^Alice Student$/ }).waitFor();
  await header.getByRole("link", { name: "My account" }).waitFor();
  await header.getByRole("button", { name: "Log out" }).waitFor();
  await count(header.locator(".state:visible", { hasText: "Staff" }), 0);
  await count(opener, 0);
  noPageErrors(page);

  const phone = await open("/", { size: "phone" });
  await openLogin(phone);
  await noHorizontalOverflow(phone, "The login panel");
  await screenshot(phone, "login-phone");
  noPageErrors(phone);
});

test("a visitor signs up, confirms the address with the mailed link, and is logged in", async () => {
  const ann = { id: "ann", name: "Ann Newcomer", email: "ann@uni.example", password: "ann-first-pass" };
  const page = await open("/", {
    allowedErrors: ["400 POST /api/signup", "409 POST /api/signup", "403 POST /api/login"],
  });
  await openLogin(page);
  await page.getByRole("dialog", { name: "Log in" }).getByRole("link", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Create an account" }).waitFor();
  await page.getByRole("dialog", { name: "Log in" }).waitFor({ state: "hidden" });
  const form = page.locator("#signup-form");
  await form.getByText("(addresses at uni.example only)").waitFor();

  // Sent empty: each field says it must be filled in, by itself, and the first has the focus.
  await form.getByRole("button", { name: "Create account" }).click();
  for (const label of ["User id", "Name", "Email", "Password"]) await fieldSays(form.getByLabel(label), "Fill in this field.");
  await focusIn(page, "#signup-form [name=id]");
  await screenshot(page, "signup-empty-desktop");
  // Only addresses at uni.example; a taken id is refused too: each by its field, which has
  // the focus. A field's message goes once it is changed to pass the browser's checks.
  await signUp(page, { ...ann, email: "ann@elsewhere.example" });
  await fieldSays(form.getByLabel("Email"), "Email domain not allowed");
  await focusIn(page, "#signup-form [name=email]");
  for (const label of ["User id", "Name", "Password"]) await fieldSays(form.getByLabel(label), null);
  await signUp(page, { ...ann, id: "alice" });
  await fieldSays(form.getByLabel("User id"), "Id already taken");
  await focusIn(page, "#signup-form [name=id]");
  await fieldSays(form.getByLabel("Email"), null);
  await form.getByLabel("User id").fill(ann.id);
  await form.getByLabel("Password").fill("");
  await screenshot(page, "signup-desktop");
  await signUp(page, ann);
  const done = page.getByText(checkInbox(ann.email));
  await done.waitFor();
  await form.waitFor({ state: "hidden" });
  await focusIn(page, "#signup-done");
  await screenshot(page, "signup-done-desktop");

  // Not verified yet: the account cannot log in, and staff see it waiting.
  await tryLogin(page, ann.id, ann.password);
  await page.getByRole("alert").getByText("Email not verified").waitFor();
  await page.keyboard.press("Escape");
  const admin = await asAdmin();
  const accounts = async () => (await admin("GET", "/api/users")).filter((a) => a.email === ann.email || a.id.startsWith("ann"));
  assert.deepEqual((await accounts()).map((a) => [a.id, a.verified]), [["ann", false]]);
  const staff = await open("/#/accounts");
  await login(staff, "admin", "admin-demo-pass");
  const card = staff.locator("#account-list > li").filter({ has: staff.getByRole("heading", { name: ann.name }) });
  await card.locator(".state", { hasText: "Waiting for email confirmation" }).waitFor();
  await count(staff.locator("#account-list .state", { hasText: "Waiting for email confirmation" }), 1);

  const mail = await service.mail.next(ann.email);
  assert.equal(mail.subject, "Confirm your email address");
  const link = inApp(mail.link, "verify");

  await page.goto(service.base + link);
  const result = page.locator("#verify-result");
  await result.getByText(`Your address is confirmed. Welcome, ${ann.name}.`).waitFor();
  await page.getByRole("banner").locator("#user-name", { hasText: ann.name }).waitFor();
  assert.equal(await page.evaluate(() => location.hash), "#/verify", "the used link left the address bar");
  await screenshot(page, "verify-desktop");
  await result.getByRole("link", { name: "My account" }).click();
  await page.getByText(`Notifications are emailed to ${ann.email}.`).waitFor();
  // Confirmed, it waits no more.
  await staff.reload();
  await staff.locator("#account-list > li").first().waitFor();
  await count(staff.locator("#account-list .state", { hasText: "Waiting for email confirmation" }), 0);
  assert.equal(await loginStatus(service.base, ann.id, ann.password), 200);
  noPageErrors(page);
  noPageErrors(staff);

  // The same address again, under another id: the same answer, and a mail saying it has an
  // account. The id is taken as for any sign-up (so it tells nothing either), by an account
  // that no link can verify.
  const again = await open("/#/signup");
  await signUp(again, { ...ann, id: "ann2", name: "Ann Again" });
  await again.getByText(checkInbox(ann.email)).waitFor();
  const notice = await service.mail.next(ann.email);
  assert.equal(notice.subject, "You already have an account");
  assert.doesNotMatch(notice.body, /#\/verify\//);
  assert.deepEqual((await accounts()).map((a) => [a.id, a.verified]), [["ann", true], ["ann2", false]]);
  noPageErrors(again);

  // A link works once.
  const used = await open(link, { allowedErrors: ["400 POST /api/signup/verify"] });
  await used.getByText("This link is invalid or has expired.").waitFor();
  await used.getByRole("alert").getByText("Invalid or expired link").waitFor();
  await used.locator("#verify-result").getByRole("link", { name: "Sign up again" }).waitFor();
  await screenshot(used, "verify-failed-desktop");
  await used.locator("#verify-result").getByRole("link", { name: "Forgot password?" }).click();
  await used.getByRole("heading", { name: "Forgot your password?" }).waitFor();
  await count(used.locator("#signed-in:visible"), 0);
  noPageErrors(used);
});

test("sign-up and its confirmation fit a phone", async () => {
  const dan = { id: "dan", name: "Dan Phone", email: "dan@uni.example", password: "dan-first-pass" };
  const phone = await open("/#/signup", { size: "phone" });
  await phone.locator("#signup-form").getByLabel("User id").waitFor();
  await noHorizontalOverflow(phone, "Create account");
  await screenshot(phone, "signup-phone");
  await signUp(phone, dan);
  await phone.getByText(checkInbox(dan.email)).waitFor();
  await noHorizontalOverflow(phone, "Check your inbox");
  await screenshot(phone, "signup-done-phone");
  const { link } = await service.mail.next(dan.email);
  await phone.goto(service.base + inApp(link, "verify"));
  await phone.getByText(`Your address is confirmed. Welcome, ${dan.name}.`).waitFor();
  await openMenu(phone);
  await phone.locator("#user-name", { hasText: dan.name }).waitFor();
  await noHorizontalOverflow(phone, "Address confirmed");
  await screenshot(phone, "verify-phone");
  noPageErrors(phone);
});

test("a forgotten password: the mailed link sets a new one, and works once", async () => {
  const bea = { id: "bea", name: "Bea Forgetful", email: "bea@uni.example" };
  await (await asAdmin())("POST", "/api/users", { ...bea, password: "bea-first-pass" });
  // Logged in elsewhere before she forgot: the new password ends that session.
  const elsewhere = await signIn(service.base, bea.id, "bea-first-pass");
  const page = await open("/");
  await openLogin(page);
  await page.getByRole("dialog", { name: "Log in" }).getByRole("link", { name: "Forgot password?" }).click();
  await focusIn(page, "#main");
  const form = page.locator("#forgot-form");
  await form.getByLabel("Email").fill(bea.email);
  await screenshot(page, "forgot-desktop");
  await form.getByRole("button", { name: "Send link" }).click();
  const words = "If an account has this address, it gets a link to set a new password. The link works for an hour.";
  await page.getByText(words).waitFor();
  await form.waitFor({ state: "hidden" });

  // An address without an account gets the same words.
  const phone = await open("/#/forgot", { size: "phone" });
  await phone.locator("#forgot-form").getByLabel("Email").fill("nobody@uni.example");
  await phone.getByRole("button", { name: "Send link" }).click();
  await phone.getByText(words).waitFor();
  await noHorizontalOverflow(phone, "Forgot password");
  await screenshot(phone, "forgot-phone");
  noPageErrors(phone);

  const mail = await service.mail.next(bea.email);
  assert.equal(mail.subject, "Set a new password");
  const link = inApp(mail.link, "reset");
  await page.goto(service.base + link);
  const reset = page.locator("#reset-form");
  await reset.getByLabel("New password").fill("bea-second-pass");
  await reset.getByLabel("Repeat the password").fill("bea-second-typo");
  await screenshot(page, "reset-desktop");
  await reset.getByRole("button", { name: "Set password" }).click();
  await fieldSays(reset.getByLabel("Repeat the password"), "The two passwords differ: type the same one twice.");
  await focusIn(page, "#reset-form [name=repeat]");
  await reset.getByLabel("Repeat the password").fill("bea-second-pass");
  await reset.getByRole("button", { name: "Set password" }).click();
  const done = page.locator("#reset-done");
  await done.getByText("Your password is set.", { exact: true }).waitFor();
  await done.getByRole("button", { name: "Log in with it" }).waitFor();
  // The login panel opens by itself, ready for the new password.
  await focusIn(page, "#login-form [name=id]");
  await screenshot(page, "reset-done-desktop");
  await login(page, bea.id, "bea-second-pass");
  await page.locator("#user-name", { hasText: bea.name }).waitFor();
  await done.getByText("Your password is set.", { exact: true }).waitFor();
  await count(done.getByRole("button", { name: "Log in with it" }), 0);
  assert.equal(await loginStatus(service.base, bea.id, "bea-first-pass"), 401);
  assert.deepEqual(await elsewhere("GET", "/api/me"), { user: null }, "the session from before the reset ended");
  noPageErrors(page);

  const again = await open(link, { size: "phone", allowedErrors: ["400 POST /api/password-reset/confirm"] });
  const form2 = again.locator("#reset-form");
  await form2.getByLabel("New password").fill("bea-third-pass");
  await form2.getByLabel("Repeat the password").fill("bea-third-pass");
  await noHorizontalOverflow(again, "Set a new password");
  await screenshot(again, "reset-phone");
  await form2.getByRole("button", { name: "Set password" }).click();
  await again.getByRole("alert").getByText("Invalid or expired link").waitFor();
  assert.equal(await loginStatus(service.base, bea.id, "bea-second-pass"), 200);
  noPageErrors(again);
});

test("My account: a new address waits for its link, is in use once it is opened, and can be removed", async () => {
  const cem = { id: "cem", name: "Cem Mover", email: "cem@uni.example", password: "cem-first-pass" };
  await (await asAdmin())("POST", "/api/users", cem);
  const api = await signIn(service.base, cem.id, cem.password);
  const page = await open("/");
  await login(page, cem.id, cem.password);
  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  await page.getByText(`Notifications are emailed to ${cem.email}.`).waitFor();

  const form = page.getByRole("form", { name: "Change your email address" });
  await form.getByLabel("New email address").fill("cem.new@uni.example");
  await form.getByRole("button", { name: "Send link" }).click();
  const pending = page.getByText("Waiting for confirmation: cem.new@uni.example — open the link we sent there.");
  await pending.waitFor();
  // The old address stays in use until the link is opened.
  await page.getByText(`Notifications are emailed to ${cem.email}.`).waitFor();
  assert.deepEqual(await api("GET", "/api/me/email"), { email: cem.email, pending: "cem.new@uni.example" });
  assert.deepEqual(await unlabelledFields(page), [], "every field is labelled");
  await screenshot(page, "account-pending-desktop");

  const phone = await open("/", { size: "phone" });
  await login(phone, cem.id, cem.password);
  await openMenu(phone);
  await phone.getByRole("link", { name: "My account" }).click();
  await phone.getByText("Waiting for confirmation: cem.new@uni.example").waitFor();
  await phone.getByRole("button", { name: "Change password" }).click();
  await noHorizontalOverflow(phone, "My account");
  await screenshot(phone, "account-pending-phone");
  noPageErrors(phone);

  const { link } = await service.mail.next("cem.new@uni.example");
  // Whoever holds the link without the account's session (a typo's owner) confirms nothing.
  const stranger = await open(inApp(link, "verify"), { allowedErrors: ["403 POST /api/signup/verify"] });
  await stranger
    .locator("#verify-result")
    .getByText("This link confirms a new address for an account. Log in to that account, then open the link in the email again.")
    .waitFor();
  assert.deepEqual(await stranger.evaluate(async () => (await fetch("/api/me")).json()), { user: null });
  await screenshot(stranger, "verify-log-in-first-desktop");
  await page.goto(service.base + inApp(link, "verify"));
  // Logged in already: no welcome.
  await page.locator("#verify-result").getByText(/^Your address is confirmed\.$/).waitFor();
  await page.locator("#verify-result").getByRole("link", { name: "My account" }).click();
  await page.getByText("Notifications are emailed to cem.new@uni.example.").waitFor();
  await pending.waitFor({ state: "hidden" });
  assert.deepEqual(await api("GET", "/api/me/email"), { email: "cem.new@uni.example", pending: null });

  await page.getByRole("button", { name: "Remove address" }).click();
  const question = await confirmInApp(page);
  await page.getByText("No email address: you see notifications in this app only.").waitFor();
  assert.match(question, /^Remove your email address\?/);
  await count(page.getByRole("button", { name: "Remove address" }), 0);
  await focusIn(page, "#email-form [name=email]");
  assert.deepEqual(await api("GET", "/api/me/email"), { email: null, pending: null });
  noPageErrors(page);
});

test("a visitor's Report screen asks to log in or create an account; its Log in button opens the panel", async () => {
  for (const size of ["desktop", "phone"]) {
    const page = await open("/#/report", { size });
    const panel = page.locator("#report-visitor");
    await panel.getByText("Log in or create an account to report a lost or found item.").waitFor();
    await panel.getByRole("link", { name: "Create account" }).waitFor();
    await count(page.locator("#report-form:visible"), 0);
    await noHorizontalOverflow(page, "Report, logged out");
    await screenshot(page, `report-visitor-${size}`);
    await panel.getByRole("button", { name: "Log in" }).click();
    await focusIn(page, "#login-form [name=id]");
    await login(page, "bob", "bob-demo-pass");
    await page.locator("#report-form").getByLabel("Title").waitFor();
    await panel.waitFor({ state: "hidden" });
    noPageErrors(page);
  }
});

test("My account: Download my data saves a copy of everything the service holds about her", async () => {
  const page = await open("/#/account");
  await login(page, "alice", "alice-demo-pass");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data" }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), "lostfound-alice.json");
  const copy = JSON.parse(readFileSync(await file.path(), "utf8"));
  assert.equal(copy.account.id, "alice");
  assert.ok(copy.reports.length > 0 && copy.reports.every((item) => item.createdBy === "alice"), "her reports");
  assert.ok(["claims", "messages", "notifications", "notMine"].every((part) => Array.isArray(copy[part])));
  await screenshot(page, "account-data-desktop");
  noPageErrors(page);
});
