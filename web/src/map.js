// Leaflet maps with the tiles and starting view the service is configured with. Leaflet and
// its marker-cluster plugin are the minified classic scripts index.html loads before the
// app: they set window.L.
export const L = window.L;

export function createMap(element, config) {
  const map = L.map(element, { keyboard: true }).setView(config.center, config.zoom);
  L.tileLayer(config.tileUrl, { attribution: config.tileAttribution, maxZoom: 19 }).addTo(map);
  return map;
}
