// Browsing at scale: 150 more items with photos, on a service of its own (the other test file
// counts on the demo's dozen). What the first browse costs in bytes, paging as the list
// scrolls, and clusters on the map.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { count, noHorizontalOverflow, noPageErrors, screenshot, signIn, useService } from "./harness.mjs";

const ITEMS = 150;
const PAGE = 24;
const BUDGET = 1.5 * 1024 * 1024;

const service = useService({ prepare: addItems });
/** The approved items, the demo's and these. */
let total;

/**
 * A 280×210 PNG of about 130 KB: a colour gradient under fine noise, which PNG cannot
 * compress but which scaling smooths out, so the service's thumbnail is about as big as a
 * real photo's (pure noise would make a thumbnail several times bigger than any photo does).
 */
function photoPng(width = 280, height = 210) {
  const noise = randomBytes(width * height * 3);
  const row = width * 3 + 1; // filter byte 0, then RGB
  const pixels = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * row + 1 + x * 3;
      const n = (y * width + x) * 3;
      pixels[at] = Math.floor((x * 248) / width) + (noise[n] & 7);
      pixels[at + 1] = Math.floor((y * 248) / height) + (noise[n + 1] & 7);
      pixels[at + 2] = 150 + (noise[n + 2] & 7);
    }
  }
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Alice reports the items with a photo each; staff approve them. */
async function addItems({ base }) {
  const alice = await signIn(base, "alice", "alice-demo-pass");
  const admin = await signIn(base, "admin", "admin-demo-pass");
  const png = photoPng();
  assert.ok(png.length > 100_000 && png.length < 150_000, `the photo is ${png.length} bytes`);
  const imgData = `data:image/png;base64,${png.toString("base64")}`;
  const report = async (n) => {
    const { id } = await alice("POST", "/api/items?fields=id", {
      title: `Scale item ${n}`,
      desc: `Number ${n} of a pile of things found on the square.`,
      cat: "other",
      kind: n % 2 ? "found" : "lost",
      // Scattered within a few hundred metres of the map's centre, so they overlap.
      lat: 51.5246 + (((n * 37) % 41) - 20) * 0.0001,
      lng: -0.134 + (((n * 53) % 43) - 21) * 0.00015,
      radius: 20,
      imgData,
    });
    await admin("PATCH", `/api/items/${id}?fields=id`, { status: "approved" });
  };
  // A few at a time: the service makes each thumbnail on upload.
  for (let n = 1; n <= ITEMS; n += 5) {
    await Promise.all([0, 1, 2, 3, 4].map((i) => report(n + i)));
  }
  const response = await fetch(`${base}/api/items?status=approved&limit=1&fields=id`);
  total = Number(response.headers.get("x-total-count"));
  assert.ok(total > ITEMS, `${total} approved items`);
}

test("the first browse costs under 1.5 MB, shows the first page, and loads the next as the list scrolls", async (t) => {
  let bytes = 0;
  const page = await service.open("/", {
    // Bytes as they came over the wire: compressed bodies and headers, every request.
    beforeLoad: async (page) => {
      const cdp = await page.context().newCDPSession(page);
      cdp.on("Network.loadingFinished", ({ encodedDataLength }) => (bytes += encodedDataLength));
      await cdp.send("Network.enable");
    },
  });
  const list = page.locator("#item-list li");
  await page.locator("#result-count", { hasText: `${PAGE} of ${total} items` }).waitFor();
  await count(list, PAGE);
  await page.waitForLoadState("networkidle");
  await screenshot(page, "browse-many-desktop");
  t.diagnostic(`first browse: ${bytes} bytes (${(bytes / 1024).toFixed(0)} KiB) over ${page.requests.length} requests`);
  assert.ok(bytes < BUDGET, `the first browse took ${bytes} bytes`);

  // Thumbnails in the list, at the size they are shown, loaded as they come into view.
  const thumbs = page.locator("#item-list img[loading=lazy][width][height]");
  await count(thumbs, PAGE);
  // The map clusters the overlapping markers: every item loaded is in a cluster or a marker.
  const clusters = page.locator(".marker-cluster");
  await clusters.first().waitFor();
  const onMap = await page.evaluate(() => {
    const inClusters = [...document.querySelectorAll(".marker-cluster .cluster-count")].map((el) => Number(el.textContent));
    return inClusters.reduce((a, b) => a + b, 0) + document.querySelectorAll(".leaflet-marker-icon.item-marker").length;
  });
  assert.equal(onMap, PAGE);

  await list.last().scrollIntoViewIfNeeded();
  await page.locator("#result-count", { hasText: `${2 * PAGE} of ${total} items` }).waitFor();
  await count(list, 2 * PAGE);
  const pages = page.requests.filter((url) => url.pathname === "/api/items");
  assert.equal(pages.length, 2, "one request per page");
  assert.ok(pages[1].searchParams.get("cursor"), "the second page follows the Link header");
  for (const url of pages) {
    assert.equal(url.searchParams.get("limit"), String(PAGE));
    assert.ok(!url.searchParams.get("fields").split(",").includes("imgData"), "no photos in lists");
  }
  assert.deepEqual(page.requests.filter((url) => url.pathname.endsWith("/photo")), [], "no full photos");
  noPageErrors(page);
});

/** The zoom level of a map tile's URL (/tiles/{z}/{x}/{y}.png), or -1 for other URLs. */
function tileZoom(address) {
  const url = new URL(address);
  return url.pathname.startsWith("/tiles/") ? Number(url.pathname.split("/")[2]) : -1;
}

// No tab stop (the list holds the same items): the map's own keys zoom (places.test.mjs).
test("a cluster zooms the map in when clicked", async () => {
  const page = await service.open("/");
  await count(page.locator("#item-list li"), PAGE);
  const cluster = page.locator(".marker-cluster").first();
  await cluster.waitFor();
  // Leaflet asks for the tiles of a new zoom level as soon as it zooms.
  const zoom = Math.max(...page.requests.map((url) => tileZoom(url.href)));
  const zoomed = page.waitForRequest((request) => tileZoom(request.url()) > zoom);
  await cluster.click();
  await zoomed;
  await screenshot(page, "browse-clusters-desktop");
  noPageErrors(page);
});

test("many items with thumbnails and clusters fit a phone", async () => {
  const page = await service.open("/", { size: "phone" });
  await count(page.locator("#item-list li"), PAGE);
  await noHorizontalOverflow(page, "browse");
  await screenshot(page, "browse-many-phone");
  // The map is a button away on a phone.
  await page.getByRole("button", { name: "Map", exact: true }).click();
  await page.locator(".marker-cluster").first().waitFor();
  await noHorizontalOverflow(page, "browse's map");
  await screenshot(page, "browse-many-phone-map");
  noPageErrors(page);
});
