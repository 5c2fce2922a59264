// Leaflet maps with the tiles and starting view the service is configured with.
import * as L from "/vendor/leaflet/dist/leaflet-src.esm.js";

export { L };

export function createMap(element, config) {
  const map = L.map(element, { keyboard: true }).setView(config.center, config.zoom);
  L.tileLayer(config.tileUrl, { attribution: config.tileAttribution, maxZoom: 19 }).addTo(map);
  return map;
}
