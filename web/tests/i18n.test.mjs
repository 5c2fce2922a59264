// Languages and WCAG 2.1 AA: every screen, as a visitor, a user and staff, in English, Korean
// and Spanish — at a desktop's size and a phone's 320 pixels, with a screenshot of each — shows
// no catalog key and, in Korean and Spanish, no English sentence the catalogs translate; the
// page's static text is the language's own, `<html lang>` says which, dates have no seconds,
// no button's text overflows it, the page has its own title, nothing scrolls sideways, text
// fields' borders stand 3:1, and axe-core finds nothing against WCAG 2.1 A and AA. The
// language follows the browser, and the header's switch is remembered across a reload and
// told to the service (PATCH /api/me { lang }) for a logged-in user.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  axeViolations, loginInAnyLanguage, noPageErrors, openMenu, overflowing, screenshot, signIn, useService, weakBorders,
} from "./harness.mjs";

const service = useService();
const CATALOG_DIR = fileURLToPath(new URL("../src/i18n/", import.meta.url));
const LANGS = ["en", "ko", "es"];
const catalogs = Object.fromEntries(LANGS.map((lang) => [lang, JSON.parse(readFileSync(`${CATALOG_DIR}${lang}.json`, "utf8"))]));
/** The browser language each walk starts with: the app follows it. */
const LOCALES = { en: "en-US", ko: "ko-KR", es: "es-ES" };
/** A language service that answers `lang` with 400 until it knows it: the app ignores that. */
const ALLOWED = ["400 PATCH /api/me"];

/** English sentences (the parts around placeholders, 12 characters or more) that `lang`
 *  says otherwise: none may show on a page in `lang`. */
function englishLeftovers(lang) {
  if (lang === "en") return [];
  const phrases = new Set();
  for (const [key, english] of Object.entries(catalogs.en)) {
    const own = catalogs[lang][key] ?? catalogs[lang][key.replace(/\.\w+$/, ".other")];
    if (own === english) continue;
    for (const part of english.split(/\{\w+\}/)) if (part.trim().length >= 12) phrases.add(part.trim());
  }
  return [...phrases];
}

/** What is wrong with the page as it shows now in `lang`: a list of findings (none: fine). */
async function findings(page, lang) {
  const namespaces = [...new Set(Object.keys(catalogs.en).map((key) => key.split(".")[0]))];
  return page.evaluate(
    ({ lang, messages, namespaces, leftovers }) => {
      const found = [];
      if (document.documentElement.lang !== lang) found.push(`<html lang="${document.documentElement.lang}">`);
      const visible = (el) => el.checkVisibility({ visibilityProperty: true });
      const texts = [document.body.innerText];
      for (const el of document.querySelectorAll("[placeholder], [aria-label], [title], img[alt]")) {
        if (!visible(el)) continue;
        for (const attr of ["placeholder", "aria-label", "title", "alt"]) if (el.getAttribute(attr)) texts.push(el.getAttribute(attr));
      }
      const all = texts.join("\n");
      // A catalog key shown instead of its message.
      for (const [token] of all.matchAll(/\b[a-zA-Z]+(?:\.[a-zA-Z]+)+\b/g)) {
        if (namespaces.includes(token.split(".")[0])) found.push(`key shown: ${token}`);
      }
      for (const phrase of leftovers) if (all.includes(phrase)) found.push(`English left: “${phrase}”`);
      // Korean particles chosen by the word before them, never written both ways.
      const both = /이\(가\)|을\(를\)|은\(는\)|\(으\)로|와\(과\)|과\(와\)/.exec(all);
      if (both) found.push(`a particle written both ways: ${both[0]}`);
      const seconds = /\b\d{1,2}:\d{2}:\d{2}\b/.exec(all);
      if (seconds) found.push(`a time with seconds: ${seconds[0]}`);
      // The page's static text is the language's own.
      for (const el of document.querySelectorAll("[data-i18n]")) {
        if (!visible(el) || el.closest("title")) continue;
        const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.data.trim());
        const shown = (node ? node.data : el.textContent).replace(/\s+/g, " ").trim();
        const expected = messages[el.dataset.i18n].replace(/\s+/g, " ").trim();
        if (shown !== expected) found.push(`${el.dataset.i18n} shows “${shown}”, not “${expected}”`);
      }
      // Its own title (WCAG 2.4.2): the item shown, else the screen's heading, then the service.
      const item = document.querySelector("#item-dialog[open] #item-title");
      const view = [...document.querySelectorAll("section.view")].find((v) => !v.hidden);
      const heading = item ?? document.getElementById(view?.getAttribute("aria-labelledby"));
      const title = `${heading?.textContent} – ${messages["app.title"]}`;
      if (document.title !== title) found.push(`the page's title is “${document.title}”, not “${title}”`);
      return found;
    },
    { lang, messages: catalogs[lang], namespaces, leftovers: englishLeftovers(lang) },
  );
}

/** Closes any open dialog but an item's view (the app closes it when its address is left) and
 *  goes to `hash`. */
async function navigate(page, hash) {
  await page.evaluate((hash) => {
    for (const dialog of document.querySelectorAll("dialog[open]:not(#item-dialog)")) dialog.close();
    location.hash = hash;
  }, hash);
}

/** Goes to `hash`, waiting until its screen shows. */
async function go(page, hash, view) {
  await navigate(page, hash);
  await page.locator(`#view-${view}`).waitFor();
}

/** Opens item `id` at its address, over the screen shown. */
async function openItem(page, id) {
  await navigate(page, `#/items/${id}`);
  await page.locator("#item-dialog #item-fields dt").first().waitFor();
}

async function logOut(page) {
  await page.evaluate(() => document.querySelectorAll("dialog[open]").forEach((d) => d.close()));
  await openMenu(page);
  await page.locator("#logout").click();
  await page.locator("#login-open").waitFor();
}

const nonEmpty = (page, selector) => page.waitForFunction((s) => document.querySelector(s)?.textContent.trim(), selector);

/** The screens of each role: how to get there and what shows once it is ready. */
const SCREENS = {
  visitor: [
    ["browse", async (page) => {
      await go(page, "#/browse", "browse");
      await page.locator("#item-list li").first().waitFor();
      await nonEmpty(page, "#result-count");
    }],
    ["item", async (page, { itemId }) => {
      await openItem(page, itemId);
    }],
    ["report", async (page) => {
      await go(page, "#/report", "report");
      await page.locator("#report-visitor").waitFor();
    }],
    ["chat", async (page) => {
      await go(page, "#/chat", "chat");
      await page.locator("#chat-form").waitFor();
    }],
    ["login", async (page) => {
      await go(page, "#/browse", "browse");
      await page.locator("#login-open").click();
      await page.locator("#login-dialog #login-form").waitFor();
    }],
    ["signup", async (page) => {
      await go(page, "#/signup", "signup");
      await page.locator("#signup-form, #signup-closed").first().waitFor();
    }],
    ["forgot", async (page) => {
      await go(page, "#/forgot", "forgot");
      await page.locator("#forgot-form, #forgot-off").first().waitFor();
    }],
    ["reset", async (page) => {
      await go(page, "#/reset", "reset");
      await page.locator("#reset-no-link").waitFor();
    }],
    ["verify", async (page) => {
      await go(page, "#/verify", "verify");
      await page.locator("#verify-result p").waitFor();
    }],
    ["mine-visitor", async (page) => {
      await go(page, "#/mine", "mine");
      await page.locator("#mine-login-hint").waitFor();
    }],
  ],
  user: [
    ["mine", async (page) => {
      await go(page, "#/mine", "mine");
      await page.locator("#mine-list li").first().waitFor();
      await nonEmpty(page, "#mine-count");
    }],
    ["report-form", async (page) => {
      await go(page, "#/report", "report");
      await page.locator("#report-form").waitFor();
    }],
    ["account", async (page) => {
      await go(page, "#/account", "account");
      await nonEmpty(page, "#email-current");
      await page.locator("#password-toggle").click();
      await page.locator("#password-form").waitFor();
    }],
    ["notifications", async (page) => {
      await go(page, "#/browse", "browse");
      await page.locator("#bell").click();
      await page.locator("#bell-panel li").first().waitFor();
    }],
    ["item-user", async (page, { itemId }) => {
      await page.locator("#bell").click(); // closes the list
      await openItem(page, itemId);
    }],
  ],
  staff: [
    ["intake", async (page) => {
      await go(page, "#/intake", "intake");
      await page.locator("#intake-form").waitFor();
    }],
    ["review", async (page) => {
      await go(page, "#/review", "review");
      await page.locator("#review-list li.review-card").first().waitFor();
      await page.locator("#claims-list li").first().waitFor();
      await nonEmpty(page, "#due-count");
      await page.locator("#review-list li.review-card").first().locator("button.toggle").click();
      await page.locator("#review-list .history-list li").first().waitFor();
    }],
    ["close-dialog", async (page, { itemId }) => {
      await openItem(page, itemId);
      await page.locator("#item-actions button.danger").click();
      await page.locator("dialog.ask-dialog input[name=reason]").waitFor();
    }],
    ["dispose-dialog", async (page, { dueId }) => {
      if (!dueId) return false;
      await go(page, "#/review", "review");
      await page.locator("#due-list li").first().locator(".actions button").first().click();
      await page.locator("dialog.ask-dialog select[name=method]").waitFor();
      return true;
    }],
    ["stats", async (page) => {
      await go(page, "#/stats", "stats");
      await page.locator("#stats-period select[name=period]").selectOption("all");
      // Four charts (one without figures has a note instead), each canvas drawn by Chart.js.
      await page.waitForFunction(() => {
        const canvases = document.querySelectorAll("#stats-charts canvas");
        return document.querySelectorAll("#stats-charts section").length === 4 && canvases.length > 0
          && Object.keys(window.Chart?.instances ?? {}).length === canvases.length;
      });
      await page.waitForFunction(() => !document.querySelector("#stats-range").textContent.includes("…"));
    }],
    ["accounts", async (page) => {
      await go(page, "#/accounts", "accounts");
      await page.locator("#account-list li").first().waitFor();
      await nonEmpty(page, "#accounts-count");
    }],
    ["desks", async (page) => {
      await go(page, "#/desks", "desks");
      await page.locator("#desk-bins li").first().waitFor();
      await page.locator("#desk-incoming li").first().waitFor();
    }],
    ["categories", async (page) => {
      await go(page, "#/categories", "categories");
      await page.locator("#category-list li").first().waitFor();
    }],
    ["category-dialog", async (page) => {
      await page.locator("#category-list li").first().locator("button").first().click();
      await page.locator("dialog.ask-dialog input[name=holdDays]").waitFor();
    }],
    ["labels", async (page, { foundId }) => {
      await go(page, `#/labels/${foundId}`, "labels");
      await nonEmpty(page, "#labels-count");
    }],
  ],
};

const ACCOUNTS = { user: ["alice", "alice-demo-pass"], staff: ["admin", "admin-demo-pass"] };

/** Items the screens open: an approved found item of alice's (with its matches, claims and
 *  history), and one due for disposal when there is one. */
async function fixtures() {
  const get = async (query) => (await fetch(`${service.base}/api/items?${query}`)).json();
  const [item] = await get("status=approved&kind=found&fields=id&limit=1");
  const due = await get("due=true&fields=id&limit=1").catch(() => []);
  return { itemId: item.id, foundId: item.id, dueId: due[0]?.id };
}

/** Gives alice a notification she has not read: a report of hers approved. The bell shows
 *  the count on her screens, and axe checks that its name holds it. */
async function unreadForAlice() {
  const alice = await signIn(service.base, ...ACCOUNTS.user);
  const admin = await signIn(service.base, ...ACCOUNTS.staff);
  const item = await alice("POST", "/api/items?fields=id", { kind: "lost", title: "Blue scarf", lat: 37.5665, lng: 126.978, radius: 50 });
  await admin("PATCH", `/api/items/${item.id}?fields=id`, { status: "approved" });
}

for (const lang of LANGS) {
  test(`every screen in ${lang}: no key, no English left, no seconds, nothing overflowing, WCAG 2.1 AA by axe`, async () => {
    const ids = await fixtures();
    const problems = [];
    // A phone at the narrowest width WCAG asks a page to fit.
    for (const size of ["desktop", "narrow"]) {
      const page = await service.open("/", { size, locale: LOCALES[lang], allowedErrors: ALLOWED });
      await page.waitForFunction((lang) => document.documentElement.lang === lang && document.querySelector("#item-list li"), lang);
      for (const role of ["visitor", "user", "staff"]) {
        if (role === "user") await unreadForAlice();
        if (role !== "visitor") await loginInAnyLanguage(page, ...ACCOUNTS[role]);
        for (const [name, reach] of SCREENS[role]) {
          if ((await reach(page, ids)) === false) continue;
          const found = [
            ...(await findings(page, lang)), ...(await overflowing(page)), ...(await weakBorders(page)), ...(await axeViolations(page)),
          ];
          for (const finding of found) problems.push(`${lang} ${size} ${name}: ${finding}`);
          await screenshot(page, `i18n-${lang}-${name}-${size}`);
        }
        if (role !== "visitor") await logOut(page);
      }
      noPageErrors(page);
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });
}

test("the switch in the header: each language in its own name, remembered across a reload", async () => {
  const page = await service.open("/", { allowedErrors: ALLOWED });
  const select = page.locator("#lang-select");
  await page.waitForFunction(() => document.documentElement.lang === "en" && document.querySelector("#item-list li"));
  assert.equal(await select.inputValue(), "en");
  assert.deepEqual(await select.locator("option").allTextContents(), ["English", "한국어", "Español"]);
  // It has a label, in the page's language.
  assert.equal(await page.getByLabel("Language").count(), 1);
  await Promise.all([page.waitForEvent("load"), select.selectOption("ko")]);
  await page.waitForFunction(() => document.documentElement.lang === "ko" && document.querySelector("#item-list li"));
  assert.equal(await page.locator("nav a[data-view=browse]").textContent(), catalogs.ko["nav.browse"]);
  assert.equal(await page.locator("#browse-heading").textContent(), catalogs.ko["browse.heading"]);
  await page.getByLabel(catalogs.ko["header.language"]).waitFor();
  // Remembered: a reload (and a new tab) stays in Korean, although the browser says English.
  await page.reload();
  await page.waitForFunction(() => document.documentElement.lang === "ko" && document.querySelector("#item-list li"));
  assert.equal(await select.inputValue(), "ko");
  const again = await page.context().newPage();
  await again.goto(`${service.base}/`);
  await again.waitForFunction(() => document.documentElement.lang === "ko");
  // Dates in Korean, without seconds.
  const meta = await page.locator("#item-list .meta").first().textContent();
  assert.match(meta, /\d{1,2}:\d{2}/);
  assert.doesNotMatch(meta, /\d{1,2}:\d{2}:\d{2}/);
  assert.match(meta, /년|월|일|오전|오후/);
  noPageErrors(page);
});

test("a logged-in user's language goes to the service, and its refusal shows no error", async () => {
  const page = await service.open("/", { locale: "ko-KR", allowedErrors: ALLOWED });
  const patches = [];
  page.on("request", (request) => request.method() === "PATCH" && patches.push(request.postDataJSON()));
  await page.waitForFunction(() => document.documentElement.lang === "ko" && document.querySelector("#item-list li"));
  // Only the browser's language, nothing chosen: logging in tells the service nothing.
  await loginInAnyLanguage(page, "alice", "alice-demo-pass");
  await page.locator("#notices .notice").waitFor();
  assert.deepEqual(patches, []);
  const patch = page.waitForRequest((request) => request.method() === "PATCH" && new URL(request.url()).pathname === "/api/me");
  await Promise.all([page.waitForEvent("load"), page.locator("#lang-select").selectOption("es")]);
  assert.deepEqual((await patch).postDataJSON(), { lang: "es" });
  await page.waitForFunction(() => document.documentElement.lang === "es" && document.querySelector("#signed-in:not([hidden])"));
  assert.equal(await page.locator("#messages .error").count(), 0);

  // Chosen before logging in: the login tells the service, silently too.
  await logOut(page);
  const told = page.waitForRequest((request) => request.method() === "PATCH" && new URL(request.url()).pathname === "/api/me");
  await loginInAnyLanguage(page, "alice", "alice-demo-pass");
  assert.deepEqual((await told).postDataJSON(), { lang: "es" });
  await page.locator("#notices .notice", { hasText: catalogs.es["login.welcome"].replace("{name}", "Alice Student") }).waitFor();
  assert.equal(await page.locator("#messages .error").count(), 0);
  noPageErrors(page);
});

test("a known API error shows in the reader's language; an unknown one as the service said it", async () => {
  const page = await service.open("/", { locale: "es-ES", allowedErrors: ["401 POST /api/login", ...ALLOWED] });
  await page.waitForFunction(() => document.documentElement.lang === "es");
  await page.locator("#login-open").click();
  const form = page.locator("#login-form");
  await form.locator("[name=id]").fill("alice");
  await form.locator("[name=pw]").fill("not-her-password");
  await form.locator("button[type=submit]").click();
  await page.locator("#messages .error", { hasText: catalogs.es["apiError.invalidPassword"] }).waitFor();
  // The mapping itself: known texts, texts with a part that varies, and unknown ones.
  const shown = await page.evaluate(async () => {
    const { translateError } = await import("/assets/i18n.js");
    return ["Item not found", "Invalid within", "title must be at most 200 characters", "Something new"].map(translateError);
  });
  assert.deepEqual(shown, [
    catalogs.es["apiError.itemNotFound"],
    catalogs.es["apiError.invalidField"].replace("{field}", "within"),
    catalogs.es["apiError.tooLong"].replace("{field}", "title").replace("{max}", "200"),
    "Something new",
  ]);
  noPageErrors(page);
});
