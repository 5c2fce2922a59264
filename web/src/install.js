// The installable app: registers the service worker (sw.js) that keeps the app shell for use
// without a connection, reloads onto a new version once it takes over, and shows the banner
// that says the device is offline (#offline).

const banner = document.getElementById("offline");
/** Opened without a connection, the app could not load what it starts with from the API. */
const startedOffline = !navigator.onLine;

function showConnection() {
  banner.hidden = navigator.onLine;
}

window.addEventListener("offline", showConnection);
window.addEventListener("online", () => {
  showConnection();
  // Now it can: start it again.
  if (startedOffline) location.reload();
});
showConnection();

// Only in a secure context (HTTPS, or localhost): elsewhere the app works online only.
if ("serviceWorker" in navigator) {
  // A page a service worker already served gets a new one only when a new version was
  // installed (the browser looks for one at each load): the page reloads onto it, so it never
  // runs an old release's modules beside a new one's. A first visit's worker only takes over.
  const hadWorker = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!hadWorker || reloading) return;
    reloading = true;
    location.reload();
  });
  navigator.serviceWorker.register("/sw.js").catch((error) => {
    console.warn(`The app cannot be kept for offline use: ${error.message}`);
  });
}
