// Past 10,000 matches the service estimates how many items match (`X-Total-Count-Estimated`):
// Browse says "about". 12,000 items come in through `lostfound items import`, as an office
// moving from an earlier system would bring them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { noPageErrors, screenshot, useService } from "./harness.mjs";

const IMPORTED = 12_000;

const service = useService({ prepare: importItems });

async function importItems(service) {
  const now = Date.now();
  const lines = Array.from({ length: IMPORTED }, (_, n) => JSON.stringify({
    title: `Umbrella ${n + 1}`, kind: "found", status: "approved", lat: 51.52, lng: -0.13,
    createdBy: "alice", createdAt: now - (IMPORTED - n) * 60_000,
  }));
  const file = join(mkdtempSync(join(tmpdir(), "lostfound-import-")), "items.jsonl");
  writeFileSync(file, lines.join("\n"));
  assert.match(service.command("items", "import", file), /imported 12000 of 12000 items/);
}

test("past 10,000 matches Browse says about how many", async () => {
  const page = await service.open("/");
  const count = page.locator("#result-count");
  await page.waitForFunction(() => /\d/.test(document.getElementById("result-count").textContent));
  // The demo's approved items and the imported ones, to two significant digits.
  assert.equal(await count.textContent(), "24 of about 12,000 items");
  await screenshot(page, "estimate-browse");
  // A search that matches fewer is counted exactly.
  await page.getByRole("searchbox").fill("umbrella 1199");
  await page.waitForFunction(() => !/about/.test(document.getElementById("result-count").textContent));
  assert.match(await count.textContent(), /^\d+ items?$/);
  noPageErrors(page);
});
