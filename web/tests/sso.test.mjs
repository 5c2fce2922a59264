// Single sign-on in the browser against a real OpenID provider (tests/oidc/provider.mjs):
// "Log in with University account" goes to the provider and back logged in, staff by the
// provider's group; a sign-on whose `state` was tampered with, or whose ID token is for
// another client, lands on #/sso-failed, logged out.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { count, noHorizontalOverflow, noPageErrors, openLogin, openMenu, screenshot, useService } from "./harness.mjs";
import { startOidcProvider } from "./oidc.mjs";

const FAILED = "Logging in with University account did not work. Try again, or log in with your user id and password.";

/** The service, with single sign-on at a provider of its own (`service.provider`), started
 *  with `tamper` (oidc.mjs) when given. */
function useSsoService({ tamper } = {}) {
  const service = useService({
    env: async ({ base }) => {
      service.provider = await startOidcProvider({ redirectUri: `${base}/api/oidc/callback`, tamper });
      return {
        LOSTFOUND_OIDC_ISSUER: service.provider.issuer,
        LOSTFOUND_OIDC_CLIENT_ID: service.provider.clientId,
        LOSTFOUND_OIDC_CLIENT_SECRET: service.provider.clientSecret,
        LOSTFOUND_OIDC_NAME: "University account",
        LOSTFOUND_OIDC_ADMIN_GROUP: "lost-found-staff",
      };
    },
  });
  after(() => service.provider?.stop());
  return service;
}

/** From the login panel to the provider's sign-in page, as `username`, and back to the app. */
async function signOn(service, page, username) {
  await openLogin(page);
  await page.getByRole("dialog", { name: "Log in" }).getByRole("button", { name: "Log in with University account" }).click();
  await page.waitForURL((url) => url.origin === service.provider.issuer);
  await page.getByLabel("Username").fill(username);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The page shows that the sign-on failed, and it is logged out. */
async function failedAndLoggedOut(service, page) {
  await page.waitForURL(`${service.base}/#/sso-failed`);
  await page.getByText(FAILED).waitFor();
  await page.getByRole("banner").getByRole("button", { name: "Log in" }).waitFor();
  assert.deepEqual(await page.evaluate(async () => (await fetch("/api/me")).json()), { user: null });
}

/** Sends the browser on to the provider with another `state` than the one the service bound
 *  to it (its `lf_sso` cookie): the provider hands that state back with the code. */
async function tamperState(route) {
  const response = await route.fetch({ maxRedirects: 0 });
  const location = new URL(response.headers().location);
  location.searchParams.set("state", `${location.searchParams.get("state")}x`);
  await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
}

describe("with a provider", () => {
  const service = useSsoService();
  const open = (path, options) => service.open(path, options);

  test("staff log in with the university account and get the staff screens", async () => {
    const page = await open("/");
    await openLogin(page);
    await screenshot(page, "login-sso-desktop");
    await signOn(service, page, "olivia");
    await page.waitForURL(`${service.base}/`);
    const header = page.getByRole("banner");
    await header.locator("#user-name", { hasText: /^Olivia Officer$/ }).waitFor();
    await header.locator(".state", { hasText: "Staff" }).waitFor();
    await page.getByRole("navigation").getByRole("link", { name: "Review" }).click();
    await page.locator("#review-list .review-card").first().waitFor();
    const me = await page.evaluate(async () => (await fetch("/api/me")).json());
    assert.equal(me.user.name, "Olivia Officer");
    assert.equal(me.user.isAdmin, true);
    noPageErrors(page);
  });

  test("a student logs in with it too, without the staff screens", async () => {
    const page = await open("/", { size: "phone" });
    await openLogin(page);
    await noHorizontalOverflow(page, "The login panel with single sign-on");
    await screenshot(page, "login-sso-phone");
    await signOn(service, page, "sam");
    await page.waitForURL(`${service.base}/`);
    // The app started (its first screen shown closes the menu): the bell shows once it has.
    await page.locator("#bell").waitFor();
    await openMenu(page);
    await page.locator("#user-name", { hasText: /^Sam Student$/ }).waitFor();
    await page.getByRole("navigation").getByRole("link", { name: "My reports" }).waitFor();
    await count(page.getByRole("banner").locator(".state:visible", { hasText: "Staff" }), 0);
    await count(page.getByRole("navigation").getByRole("link", { name: "Review" }), 0);
    noPageErrors(page);
  });

  test("a sign-on that comes back with a tampered state fails, and leaves the page logged out", async () => {
    const page = await open("/");
    const isLogin = (url) => url.origin === service.base && url.pathname === "/api/oidc/login";
    await page.route(isLogin, tamperState);
    await signOn(service, page, "olivia");
    await failedAndLoggedOut(service, page);
    await screenshot(page, "sso-failed-desktop");

    // Try again: the provider still knows this browser, so it comes straight back, this time
    // untouched, and logged in.
    await page.unroute(isLogin, tamperState);
    await page.getByRole("button", { name: "Try again" }).click();
    await page.waitForURL(`${service.base}/`);
    await page.locator("#user-name", { hasText: "Olivia Officer" }).waitFor();
    noPageErrors(page);

    const phone = await open("/#/sso-failed", { size: "phone" });
    await phone.getByText(FAILED).waitFor();
    await phone.getByRole("button", { name: "Log in with user id" }).click();
    await phone.getByRole("dialog", { name: "Log in" }).getByRole("button", { name: "Log in with University account" }).waitFor();
    await phone.keyboard.press("Escape");
    await noHorizontalOverflow(phone, "Single sign-on failed");
    await screenshot(phone, "sso-failed-phone");
    noPageErrors(phone);
  });
});

describe("with a provider whose ID tokens are for another client", () => {
  const service = useSsoService({ tamper: "audience" });

  test("a sign-on with an ID token for someone else fails, and leaves the page logged out", async () => {
    const page = await service.open("/");
    await signOn(service, page, "olivia");
    await failedAndLoggedOut(service, page);
    noPageErrors(page);
  });
});
