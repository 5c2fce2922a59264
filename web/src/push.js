// Notices on this device (Web Push): what the service emails a person also comes to the
// devices they turn it on for, as a system notification the service worker shows (sw.js).
// The browser asks for permission only when the person chooses it: in My account, or in the
// offer after a lost report (never on first load).
import { api, attempt } from "./api.js";

/** Set when the person said "Not now" to the offer: it is not made again on this device. */
const DECLINED = "lostfound.pushDeclined";

/** Whether this browser can receive push messages at all. */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

let key = null;
/** The service's key (`applicationServerKey`), or null while push is off on the service. */
async function serviceKey() {
  key ??= api("GET", "/api/push/key").then((answer) => answer.publicKey, () => null);
  return key;
}

/** This device's subscription, or null. Through the worker's registration as it is, never
 *  waiting for one: where none was made (a private window refuses them), logging out must
 *  not wait forever. */
async function subscription() {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Where this device stands: "unsupported" (the browser or the service cannot, or the app's
 *  worker is not installed), "blocked" (the browser's setting), "on" or "off". */
export async function pushState() {
  if (!pushSupported() || !(await navigator.serviceWorker.getRegistration()) || !(await serviceKey())) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  return Notification.permission === "granted" && (await subscription()) ? "on" : "off";
}

/** Asks the browser for permission (from a click: browsers ask only then) and sends the
 *  person's notices to this device; whether it worked. */
export async function turnOnPush() {
  if ((await Notification.requestPermission()) !== "granted") return false;
  const registration = await navigator.serviceWorker.ready;
  let device;
  try {
    device = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: await serviceKey() });
  } catch {
    return false;
  }
  return Boolean(await attempt("POST", "/api/me/push", device.toJSON()));
}

/** Stops sending notices to this device (at logout too: the next person on it must not get
 *  the last one's). */
export async function turnOffPush() {
  if (!pushSupported()) return;
  const device = await subscription();
  if (!device) return;
  await attempt("DELETE", "/api/me/push", { endpoint: device.endpoint });
  await device.unsubscribe();
}

/** Tells the service this device's subscription again when the app starts signed in: the
 *  browser may have renewed it. */
export async function renewPush() {
  if ((await pushState()) !== "on") return;
  const device = await subscription();
  // Quietly: the app starts whether or not this works.
  await api("POST", "/api/me/push", device.toJSON()).catch(() => {});
}

/** Whether to offer notices on this device now: it can have them, does not, and the person
 *  has not said "Not now". */
export async function mayOfferPush() {
  return pushSupported() && localStorage.getItem(DECLINED) === null && Notification.permission === "default" && (await pushState()) === "off";
}

export function declinePush() {
  localStorage.setItem(DECLINED, "1");
}
