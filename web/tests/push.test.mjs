// Notices on this device (Web Push) in the installed app: not asked for on first load, offered
// after a lost report of one's own, turned on from the offer; the notice the service pushes
// then shows as a system notification; My account shows it on and turns it off; "Not now" is
// kept. The service's messages are received and decrypted by the test's push service
// (tests/clients/push_receiver.mjs) and handed to the page's service worker as Chromium's own
// push service would (DevTools' ServiceWorker.deliverPushMessage).
//
// Chromium's push service is Google's, which this machine cannot reach: the page's
// PushManager hands out the receiver's subscription instead of asking Google for one. All
// else is real: the app sends it to the service, the service encrypts and signs for it, the
// receiver checks and decrypts.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { TIMEOUT, axeViolations, login, noPageErrors, openMenu, screenshot, signIn, useService } from "./harness.mjs";

const RECEIVER = fileURLToPath(new URL("../../tests/clients/push_receiver.mjs", import.meta.url));
const receiver = spawn("node", [RECEIVER], { env: { ...process.env, DEVICES: "2" }, stdio: ["ignore", "pipe", "inherit"] });
after(() => receiver.kill());
/** What the receiver printed, one `[what, JSON]` a line, and those waiting for the next. */
const printed = [];
const waiting = [];
createInterface({ input: receiver.stdout }).on("line", (line) => {
  const space = line.indexOf(" ");
  const entry = [line.slice(0, space), JSON.parse(line.slice(space + 1))];
  const next = waiting.shift();
  if (next) next(entry);
  else printed.push(entry);
});
function nextPrinted() {
  if (printed.length) return Promise.resolve(printed.shift());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the push receiver printed nothing")), TIMEOUT);
    waiting.push((entry) => {
      clearTimeout(timer);
      resolve(entry);
    });
  });
}
const [, devices] = await nextPrinted();

const service = useService({ env: () => ({ LOSTFOUND_PUSH_ANY_ENDPOINT: "true", LOSTFOUND_PUSH_CONTACT: "mailto:lost@example.edu" }) });

/** Before the app loads: the page's PushManager subscribes `device` (the receiver's) and
 *  remembers it, as the browser's would. */
function withDevice(device) {
  return (page) =>
    page.addInitScript((device) => {
      let current = null;
      const subscription = {
        endpoint: device.endpoint,
        toJSON: () => ({ ...device, expirationTime: null }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      };
      PushManager.prototype.subscribe = async function (options) {
        window.subscribedWithKey = options.applicationServerKey;
        current = subscription;
        return subscription;
      };
      PushManager.prototype.getSubscription = async () => current;
    }, device);
}

/** Files a lost report on the page's Report screen. */
async function reportLost(page, title) {
  const form = page.locator("#report-form");
  await form.getByLabel("Title").fill(title);
  await page.locator("#report-map").click({ position: { x: 200, y: 120 } });
  await page.waitForFunction(() => document.querySelector("#report-form [name=lat]").value !== "");
  await page.getByRole("button", { name: "Send report" }).click();
  await page.getByText(`“${title}” is reported and waits for review`).waitFor();
}

/** The notifications the page's service worker shows once it shows any (asked again until
 *  then: the worker shows it after the push event, in its own time). */
async function firstShown(page) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const notifications = await shown(page);
    if (notifications.length > 0 || Date.now() > deadline) return notifications;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The notifications the page's service worker shows: `{ title, body, url }` each. */
function shown(page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const notifications = await registration.getNotifications();
    return notifications.map((n) => ({ title: n.title, body: n.body, url: n.data?.url }));
  });
}

test("after a lost report the app offers notices on this device; one pushed shows as a notification; My account turns them off", async () => {
  const page = await service.open("/", { beforeLoad: withDevice(devices[0]) });
  // Not on first load: nothing asked of the browser, no offer.
  assert.equal(await page.evaluate(() => Notification.permission), "default");
  await login(page, "alice", "alice-demo-pass");
  await openMenu(page);
  await page.getByRole("navigation").getByRole("link", { name: "Report an item" }).click();
  const offer = page.locator("#push-offer");
  assert.equal(await offer.isVisible(), false);

  await reportLost(page, "Green umbrella");
  await offer.getByText("Get a notification on this device when there is news of what you lost?").waitFor();
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, "push-offer");
  await page.setViewportSize({ width: 320, height: 640 });
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, "push-offer-320");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.context().grantPermissions(["notifications"], { origin: service.base });
  await offer.getByRole("button", { name: "Notify me here" }).click();
  await page.getByRole("status").filter({ hasText: "This device will get your notices." }).waitFor();
  assert.equal(await offer.isVisible(), false);
  const key = await fetch(`${service.base}/api/push/key`).then((r) => r.json());
  assert.equal(await page.evaluate(() => window.subscribedWithKey), key.publicKey, "subscribed with the service's key");

  // The desk approves it: the notice is pushed, and the receiver decrypts it…
  const admin = await signIn(service.base, "admin", "admin-demo-pass");
  const [item] = (await admin("GET", "/api/items?q=Green%20umbrella&fields=id,title")).filter((i) => i.title === "Green umbrella");
  await admin("PATCH", `/api/items/${item.id}`, { status: "approved" });
  const approved = "Your report “Green umbrella” is approved and visible to everyone.";
  let pushed;
  // (Other notices, a match's, may come first.)
  do {
    const [what, line] = await nextPrinted();
    assert.equal(what, "push", JSON.stringify(line));
    assert.equal(line.device, 0);
    pushed = line;
  } while (pushed.message.body !== approved);
  // …and handed to the service worker, it shows as a notification that opens the item.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("ServiceWorker.enable");
  const registrationId = await new Promise((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${service.base}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: service.base, registrationId, data: JSON.stringify(pushed.message) });
  assert.deepEqual(await firstShown(page), [
    { title: "Lost & Found", body: pushed.message.body, url: `${service.base}/#/items/${item.id}` },
  ]);

  // My account: on, and turned off there.
  await openMenu(page);
  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  const panel = page.locator("#push-panel");
  await panel.getByText("This device gets your notices.").waitFor();
  await screenshot(page, "push-account");
  await panel.getByRole("button", { name: "Stop notifications on this device" }).click();
  await panel.getByText("This device does not get your notices.").waitFor();
  await panel.getByRole("button", { name: "Notify me on this device" }).waitFor();
  const alice = await signIn(service.base, "alice", "alice-demo-pass");
  assert.deepEqual((await alice("GET", "/api/me/export")).pushDevices, []);
  noPageErrors(page);
});

test("“Not now” is kept: the offer is not made again on this device", async () => {
  const page = await service.open("/#/report", { beforeLoad: withDevice(devices[1]) });
  await login(page, "bob", "bob-demo-pass");
  await reportLost(page, "Grey scarf");
  const offer = page.locator("#push-offer");
  await offer.getByRole("button", { name: "Not now" }).click();
  assert.equal(await offer.isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement?.name), "title", "the focus goes back to the form");
  await reportLost(page, "Grey hat");
  assert.equal(await offer.isVisible(), false);
  assert.equal(await page.evaluate(() => Notification.permission), "default", "the browser was never asked");
  noPageErrors(page);
});
