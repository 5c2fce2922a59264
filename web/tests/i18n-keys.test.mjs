// The message catalogs (web/src/i18n/LANG.json), without a browser: every language has
// exactly the keys English has — a plural message exactly the plural forms its language
// needs (Intl.PluralRules) — every key is used by the app, and every key the app uses is
// there. Uses are `t("key")`, `tn("key", n)` (a plural), `data-i18n="key"` and
// `data-i18n-attr="attr:key"` in index.html, and the keys i18n.js lists in DYNAMIC_KEYS.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DYNAMIC_KEYS, LANGUAGES } from "../src/i18n.js";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));
const PLURAL_FORMS = ["zero", "one", "two", "few", "many", "other"];

const catalog = (lang) => JSON.parse(readFileSync(join(SRC, "i18n", `${lang}.json`), "utf8"));
const en = catalog("en");

/** The app's sources: every .js file under web/src, and index.html. */
function sources(dir = SRC) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(js|html)$/.test(entry.name) ? [readFileSync(path, "utf8")] : [];
  });
}

/** The keys the sources use: `plain` ones and the bases of `plural` ones. */
function usedKeys() {
  const plain = new Set(DYNAMIC_KEYS);
  const plural = new Set();
  for (const text of sources()) {
    for (const [, key] of text.matchAll(/\bt\(\s*"([^"]+)"/g)) plain.add(key);
    for (const [, key] of text.matchAll(/\btn\(\s*"([^"]+)"/g)) plural.add(key);
    for (const [, key] of text.matchAll(/\sdata-i18n="([^"]+)"/g)) plain.add(key);
    for (const [, pairs] of text.matchAll(/\sdata-i18n-attr="([^"]+)"/g)) {
      for (const pair of pairs.split(";")) plain.add(pair.split(":")[1].trim());
    }
  }
  return { plain, plural };
}

/** English's keys, plural messages by their base. */
function englishKeys() {
  const plain = new Set();
  const plural = new Set();
  for (const key of Object.keys(en)) {
    const base = key.replace(/\.(zero|one|two|few|many|other)$/, "");
    if (base !== key && Object.hasOwn(en, `${base}.other`)) plural.add(base);
    else plain.add(key);
  }
  return { plain, plural };
}

const forms = (lang) => new Intl.PluralRules(lang).resolvedOptions().pluralCategories;

test("there is a catalog for each language, and no other", () => {
  const files = readdirSync(join(SRC, "i18n")).filter((name) => name.endsWith(".json")).map((name) => name.slice(0, -5));
  assert.deepEqual(files.sort(), Object.keys(LANGUAGES).sort());
});

for (const lang of Object.keys(LANGUAGES)) {
  test(`${lang}.json has exactly the keys of en.json, each plural with the forms ${lang} needs`, () => {
    const messages = catalog(lang);
    const { plain, plural } = englishKeys();
    const expected = new Set(plain);
    for (const base of plural) for (const form of forms(lang)) expected.add(`${base}.${form}`);
    const keys = new Set(Object.keys(messages));
    const missing = [...expected].filter((key) => !keys.has(key));
    const extra = [...keys].filter((key) => !expected.has(key));
    assert.deepEqual(missing, [], `missing in ${lang}.json`);
    assert.deepEqual(extra, [], `in ${lang}.json but not expected`);
    for (const [key, text] of Object.entries(messages)) {
      assert.equal(typeof text, "string", `${lang} ${key}`);
      assert.ok(text.trim() !== "" || /^\s/.test(en[key] ?? en[`${key.replace(/\.\w+$/, "")}.other`]), `${lang} ${key} is empty`);
      // The same placeholders as English: a translator who drops or misspells one loses a
      // title or a number.
      const english = en[key] ?? en[key.replace(/\.\w+$/, ".other")];
      const names = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(names(text), names(english), `${lang} ${key}: placeholders differ from English`);
    }
  });
}

test("every key is used by the app, and every key it uses is in the catalogs", () => {
  const used = usedKeys();
  const known = englishKeys();
  const unusedPlain = [...known.plain].filter((key) => !used.plain.has(key));
  const unusedPlural = [...known.plural].filter((key) => !used.plural.has(key));
  assert.deepEqual([...unusedPlain, ...unusedPlural], [], "keys no code uses");
  const missingPlain = [...used.plain].filter((key) => !known.plain.has(key));
  const missingPlural = [...used.plural].filter((key) => !known.plural.has(key));
  assert.deepEqual([...missingPlain, ...missingPlural], [], "keys the code uses that en.json lacks");
});

test("plural forms are the ones the language has", () => {
  for (const lang of Object.keys(LANGUAGES)) {
    for (const form of forms(lang)) assert.ok(PLURAL_FORMS.includes(form), `${lang}: ${form}`);
  }
});
