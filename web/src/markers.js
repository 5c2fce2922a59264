// The items on a map: a pin each, lost and found ones of different shapes and colours with a
// legend saying which is which, clustered where pins overlap (leaflet.markercluster: a
// cluster zooms in when clicked, or fans out at the last zoom), and the item's accuracy
// circle while its own pin shows. A pin opens its item. The item view's map uses the pins too.
import { KINDS } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { L } from "./map.js";

/** The map never zooms in further than this to show a few items. */
const MAX_FIT_ZOOM = 17;

// The list beside the map holds the same items: clusters are no tab stops between the filters
// and it, like the pins (the map's own keys still pan and zoom).
L.MarkerCluster.mergeOptions({ keyboard: false });

/** Each kind's colour: its pins' and its circles'. */
const COLOURS = { lost: "#c2410c", found: "#0f766e" };
/** The pins, 32 px, their tip at the bottom: a lost item's is round, orange, with a "?"; a
 *  found item's square, teal, with a check, so that shape alone tells them apart too. */
const PINS = {
  lost: pinSvg(
    `<path d="M16 31S5 20.5 5 13a11 11 0 0 1 22 0c0 7.5-11 18-11 18z" fill="${COLOURS.lost}" stroke="#fff" stroke-width="1.5"/>`
      + '<path d="M12.6 10.6a3.5 3.5 0 1 1 5 3.2c-1.1.6-1.6 1.3-1.6 2.4v.6" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>'
      + '<circle cx="16" cy="20.3" r="1.6" fill="#fff"/>',
  ),
  found: pinSvg(
    `<path d="M8 3h16a3 3 0 0 1 3 3v16a3 3 0 0 1-3 3h-4l-4 6-4-6H8a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3z" fill="${COLOURS.found}" stroke="#fff" stroke-width="1.5"/>`
      + '<path d="M10.5 14.5l4 4 7-8" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>',
  ),
};

/** A marker's icon for an item of each kind (classes `item-marker lost`, `item-marker found`). */
const PIN_ICONS = Object.fromEntries(
  Object.entries(PINS).map(([kind, html]) => [
    kind,
    L.divIcon({ className: `item-marker ${kind}`, html, iconSize: [32, 32], iconAnchor: [16, 31] }),
  ]),
);

/** An item's pin, named by its title (a tooltip); no tab stop: a list or its view says the same. */
export function itemPin(item) {
  return L.marker([item.lat, item.lng], { title: item.title, keyboard: false, icon: PIN_ICONS[item.kind] });
}

/** The circle within which an item was lost or found, in its kind's colour. */
export function itemCircle(item) {
  const style = { color: COLOURS[item.kind], weight: 1, fillOpacity: 0.1, interactive: false };
  return L.circle([item.lat, item.lng], { radius: item.radius, ...style });
}

export class ItemMarkers {
  constructor(map, open) {
    this.map = map;
    this.open = open;
    this.circles = L.layerGroup().addTo(map);
    legend().addTo(map);
    this.clusters = L.markerClusterGroup({
      iconCreateFunction: clusterIcon,
      // The outline of a cluster's items on hover hides the map more than it tells.
      showCoverageOnHover: false,
      // Animated, a cluster fades out where it stood for a moment after splitting, unseen but
      // still taking clicks meant for the markers coming out of it.
      animate: false,
      maxClusterRadius: 50,
    }).addTo(map);
  }

  clear() {
    this.clusters.clearLayers();
    this.circles.clearLayers();
  }

  /** Adds markers for `items` (with id, title, kind, lat, lng, radius). */
  add(items) {
    this.clusters.addLayers(items.map((item) => this.marker(item)));
  }

  marker(item) {
    const open = () => this.open(item.id);
    // Fully drawn circles of clustered items would cover the map: one shows with its marker.
    const circle = itemCircle(item);
    return itemPin(item)
      .on("click", open)
      .on("add", () => circle.addTo(this.circles))
      .on("remove", () => circle.remove());
  }

  /** Moves the map to show every marker; at once, as Leaflet ignores a new view while a
   *  zoom animation runs (a query right after another would keep the first one's view). */
  fit() {
    const bounds = this.clusters.getBounds();
    if (bounds.isValid()) this.map.fitBounds(bounds, { padding: [24, 24], maxZoom: MAX_FIT_ZOOM, animate: false });
  }
}

/** A cluster: a disc with its number of items, sized by it, named for screen readers. */
function clusterIcon(cluster) {
  const n = cluster.getChildCount();
  const size = n < 10 ? 36 : n < 100 ? 44 : 52;
  return L.divIcon({
    className: "marker-cluster",
    iconSize: L.point(size, size),
    html: h("span", {}, h("span", { class: "cluster-count" }, String(n)), h("span", { class: "visually-hidden" }, ` ${t("map.clusterZoom")}`)),
  });
}

/** The key to the pins, at the map's bottom left: each pin with the word for its kind. */
function legend() {
  const control = L.control({ position: "bottomleft" });
  control.onAdd = () =>
    h("ul", { class: "map-legend", "aria-label": t("map.legend") }, Object.keys(PINS).map((kind) => {
      const pin = h("span", { class: `legend-pin ${kind}` });
      pin.innerHTML = PINS[kind]; // our own markup: no user text in it
      return h("li", {}, pin, KINDS[kind]);
    }));
  return control;
}

/** A pin's picture from its shapes: decoration, as the words beside it (or a title) name it. */
function pinSvg(shapes) {
  return `<svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">${shapes}</svg>`;
}
