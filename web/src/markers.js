// The items on a map: a marker each, clustered where markers overlap (leaflet.markercluster:
// a cluster zooms in when clicked, or fans out at the last zoom), and the item's accuracy
// circle while its own marker shows. A marker opens its item.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { L } from "./map.js";

/** The map never zooms in further than this to show a few items. */
const MAX_FIT_ZOOM = 17;

export class ItemMarkers {
  constructor(map, open) {
    this.map = map;
    this.open = open;
    this.circles = L.layerGroup().addTo(map);
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

  /** Adds markers for `items` (with id, title, lat, lng, radius). */
  add(items) {
    this.clusters.addLayers(items.map((item) => this.marker(item)));
  }

  marker(item) {
    const open = () => this.open(item.id);
    // Fully drawn circles of clustered items would cover the map: one shows with its marker.
    const circle = L.circle([item.lat, item.lng], { radius: item.radius, weight: 1, fillOpacity: 0.1, interactive: false });
    return L.marker([item.lat, item.lng], {
      title: item.title,
      alt: item.title,
      // The list holds the same items: markers are no tab stops between the filters and it.
      keyboard: false,
      icon: new L.Icon.Default({ className: "item-marker" }),
    })
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
