// The app's languages: the message catalogs (web/src/i18n/LANG.json, one flat file a
// language, edited by translators without reading code), the language in use, and dates,
// numbers and distances in it through Intl. Static text of index.html carries `data-i18n`
// (its text) and `data-i18n-attr` ("placeholder:key;aria-label:key"), translated on load.
// Importing this module touches no browser object: the key check (web/tests/i18n-keys.test.mjs)
// reads API_ERRORS from it in Node.
import { chooseParticles } from "./particles.js";

/** The languages there are catalogs for, each in its own name (the header's switch). */
export const LANGUAGES = { en: "English", ko: "한국어", es: "Español" };
const DEFAULT = "en";
const STORAGE_KEY = "lostfound.lang";

/**
 * The API's error texts the app knows, as the service sends them (they stay so on the wire),
 * and the catalog key each is shown with. Others are shown as the service wrote them.
 */
export const API_ERRORS = {
  "Account disabled": "apiError.accountDisabled",
  "Admin privileges required": "apiError.adminRequired",
  "At least one administrator must remain": "apiError.lastAdmin",
  "Bad request": "apiError.badRequest",
  "Claim already decided": "apiError.claimDecided",
  "Claim already open": "apiError.claimOpen",
  "Claim not found": "apiError.claimNotFound",
  "Content-Type must be application/json": "apiError.contentType",
  "Could not read the request body": "apiError.unreadableBody",
  "Cross-site request refused": "apiError.crossSite",
  "Current password required": "apiError.currentPasswordRequired",
  "A place has that name": "apiError.placeTaken",
  "name must be 1-200 characters": "apiError.placeName",
  "The file must be CSV with the columns name, lat, lng and radius": "apiError.placeFile",
  "Email domain not allowed": "apiError.emailDomain",
  "Email not verified": "apiError.emailNotVerified",
  "ID and password required": "apiError.idAndPassword",
  "Id already taken": "apiError.idTaken",
  "Log in to confirm this address": "apiError.logInToConfirm",
  "Image too large": "apiError.imageTooLarge",
  "Internal server error": "apiError.internal",
  "Invalid email": "apiError.invalidEmail",
  "Invalid or expired link": "apiError.invalidLink",
  "Invalid password": "apiError.invalidPassword",
  "Item cannot be claimed": "apiError.cannotClaim",
  "Item cannot be closed": "apiError.cannotClose",
  "Item cannot be disposed": "apiError.cannotDispose",
  "Item not found": "apiError.itemNotFound",
  "Login required": "apiError.loginRequired",
  "Malformed JSON body": "apiError.malformedJson",
  "Message not found": "apiError.messageNotFound",
  "Method not allowed": "apiError.methodNotAllowed",
  "Name must be 1-100 characters without control characters": "apiError.badName",
  "No fields to update": "apiError.noFields",
  "Not found": "apiError.notFound",
  "Not your claim": "apiError.notYourClaim",
  "Not your report": "apiError.notYourReport",
  "Password must be at least 8 characters": "apiError.passwordShort",
  "Password must be at most 1024 characters": "apiError.passwordLong",
  "Photo not found": "apiError.photoNotFound",
  "Request body must be a JSON object": "apiError.notAnObject",
  "Request body too large": "apiError.bodyTooLarge",
  "Request timed out": "apiError.timeout",
  "Required fields missing": "apiError.fieldsMissing",
  "Service temporarily unavailable": "apiError.unavailable",
  "Sign-up is closed": "apiError.signupClosed",
  "Single sign-on is not set up": "apiError.ssoNotSetUp",
  "That name belongs to staff: choose another": "apiError.staffName",
  "Too many failed login attempts, try again later": "apiError.tooManyLogins",
  "Too many messages, slow down": "apiError.tooManyMessages",
  "This account signs in with single sign-on": "apiError.singleSignOnOnly",
  "Too many requests, try again later": "apiError.tooManyRequests",
  "User already exists": "apiError.userExists",
  "User id must be 1-64 characters of letters, digits, '.', '_', '@' or '-'": "apiError.badUserId",
  "User not found": "apiError.userNotFound",
  "Wrong password": "apiError.wrongPassword",
  "You cannot demote or disable yourself": "apiError.notYourself",
  "You reported this item": "apiError.ownItem",
  "imgData is not a valid image": "apiError.badImage",
  "imgData must be a PNG, JPEG, GIF or WebP image": "apiError.imageType",
  "imgData must be at most 5 MiB": "apiError.imageOver5MiB",
  "message is required": "apiError.messageRequired",
  "text is required": "apiError.textRequired",
  "happenedFrom is in the future": "apiError.happenedFuture",
  "happenedUntil is before happenedFrom": "apiError.happenedOrder",
  "The time it happened spans at most 31 days": "apiError.happenedSpan",
};

/** API error texts with a part that varies: the pattern, and the key shown with its parts. */
const API_ERROR_PATTERNS = [
  [/^Invalid (.+)$/, "apiError.invalidField", ["field"]],
  [/^(\w+) must be at most (\d+) characters$/, "apiError.tooLong", ["field", "max"]],
  [/^(\w+) must be between (-?[\d.]+) and (-?[\d.]+)$/, "apiError.outOfRange", ["field", "min", "max"]],
  [/^(\w+) must be a (?:finite )?number$/, "apiError.notANumber", ["field"]],
  [/^(\w+) missing$/, "apiError.fieldMissing", ["field"]],
  [/^(\w+) must not contain characters that override the text direction$/, "apiError.directionOverride", ["field"]],
];

/** The form field (its `name`) each refusal of the service is about, beyond the patterns'
 *  own `{field}`: the form shows the message by that field. */
const API_ERROR_FIELDS = {
  "apiError.passwordShort": "password",
  "apiError.passwordLong": "password",
  "apiError.invalidEmail": "email",
  "apiError.emailDomain": "email",
  "apiError.idTaken": "id",
  "apiError.userExists": "id",
  "apiError.badUserId": "id",
  "apiError.badName": "name",
  "apiError.staffName": "name",
  "apiError.currentPasswordRequired": "current",
  "apiError.placeTaken": "name",
  "apiError.placeName": "name",
  "apiError.wrongPassword": "current",
  "apiError.messageRequired": "message",
  "apiError.textRequired": "text",
};

/** Every key the app uses without writing it out in a t() call: the tables above. */
export const DYNAMIC_KEYS = [...new Set([...Object.values(API_ERRORS), ...API_ERROR_PATTERNS.map(([, key]) => key)])];

let current = DEFAULT;
let messages = {};

/** The language in use ("en", "ko" or "es"). */
export function language() {
  return current;
}

/** The language chosen here before, else the first of the browser's we have, else English. */
function preferred() {
  let chosen = null;
  try {
    chosen = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode, a sandbox): the browser's languages decide.
  }
  if (chosen && Object.hasOwn(LANGUAGES, chosen)) return chosen;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return DEFAULT;
}

/** Whether the user picked a language with the switch (not just the browser's). */
export function languageChosen() {
  try {
    return Object.hasOwn(LANGUAGES, localStorage.getItem(STORAGE_KEY) ?? "");
  } catch {
    return false;
  }
}

/** Loads the catalog of the preferred language and translates the page; call before
 *  anything is shown. */
export async function loadLanguage() {
  const lang = preferred();
  try {
    messages = await fetchCatalog(lang);
    current = lang;
  } catch {
    messages = await fetchCatalog(DEFAULT);
    current = DEFAULT;
  }
  document.documentElement.lang = current;
  translatePage(document);
}

async function fetchCatalog(lang) {
  const response = await fetch(`/assets/i18n/${lang}.json`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`no catalog for ${lang}`);
  return response.json();
}

/** Remembers `lang` for this browser; the page then loads again in it. */
export function rememberLanguage(lang) {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Not remembered: it still applies until the page is left.
  }
}

/** The message `key` with `{name}` placeholders filled from `params`; the key itself when
 *  the catalog lacks it (the key test makes sure none does). */
export function t(key, params = {}) {
  const text = Object.hasOwn(messages, key) ? messages[key] : key;
  const filled = text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
  return current === "ko" ? chooseParticles(filled) : filled;
}

/** A message that depends on a number: `key.one`, `key.other` (and whichever plural forms
 *  the language has), `{count}` filled with the number as the language writes it. */
export function tn(key, count, params = {}) {
  const form = new Intl.PluralRules(current).select(count);
  const full = Object.hasOwn(messages, `${key}.${form}`) ? `${key}.${form}` : `${key}.other`;
  return t(full, { ...params, count: formatNumber(count) });
}

/** An API error text in the reader's language, when it is one the app knows. */
export function translateError(text) {
  return knownError(text)?.message ?? text;
}

/** The form field (its `name`) an API error text is about, or undefined. */
export function errorField(text) {
  return knownError(text)?.field;
}

/** An API error text the app knows: its `message` in the reader's language and the `field`
 *  it is about, if any; null for any other. */
function knownError(text) {
  if (typeof text !== "string") return null;
  if (Object.hasOwn(API_ERRORS, text)) {
    const key = API_ERRORS[text];
    return { message: t(key), field: API_ERROR_FIELDS[key] };
  }
  for (const [pattern, key, names] of API_ERROR_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, match[i + 1]]));
    return { message: t(key, params), field: params.field };
  }
  return null;
}

/** A timestamp, without seconds ("12 Mar 2026, 21:45" in the reader's language); blank if
 *  it cannot be read. */
export function formatDate(ts) {
  const date = ts instanceof Date ? ts : new Date(ts);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(current, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** A day ("12 Mar 2026"); `options` as Intl.DateTimeFormat takes them. */
export function formatDay(date, options = { day: "numeric", month: "short", year: "numeric" }) {
  return new Intl.DateTimeFormat(current, options).format(date);
}

export function formatNumber(n, options = {}) {
  return new Intl.NumberFormat(current, options).format(n);
}

/** A distance in metres as the language writes it: "250 m", "1.5 km". */
export function formatDistance(metres) {
  const m = Math.round(Number(metres) || 0);
  if (m < 1000) return formatNumber(m, { style: "unit", unit: "meter" });
  return formatNumber(m / 1000, { style: "unit", unit: "kilometer", maximumFractionDigits: 1 });
}

/** Translates the `data-i18n` and `data-i18n-attr` elements under `root`. An element with
 *  children (a label around its input) gets its first piece of text replaced, the rest kept. */
export function translatePage(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const text = t(el.dataset.i18n);
    const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.data.trim());
    if (!node) {
      if (el.children.length === 0) el.textContent = text;
      else el.prepend(text);
      continue;
    }
    const [, before, , after] = /^(\s*)([\s\S]*?)(\s*)$/.exec(node.data);
    node.data = before + text + after;
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}
