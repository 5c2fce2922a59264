// Browse: the items on a map and, equivalently, in a list; search, category and status filters.
import { api } from "./api.js";
import { h, showError, formatTime, CATEGORIES } from "./dom.js";
import { L, createMap } from "./map.js";

export class Browse {
  constructor(state, dialog) {
    this.state = state;
    this.dialog = dialog;
    this.items = [];
    this.form = document.getElementById("filters");
    this.list = document.getElementById("item-list");
    const categories = this.form.elements.cat;
    for (const cat of CATEGORIES) categories.append(h("option", { value: cat }, cat));
    this.form.addEventListener("input", () => this.render());
    this.form.elements.status.addEventListener("change", () => this.refresh());
    this.form.addEventListener("submit", (event) => event.preventDefault());
  }

  show(itemId) {
    if (!this.map) {
      this.map = createMap(document.getElementById("browse-map"), this.state.config);
      this.layer = L.layerGroup().addTo(this.map);
    }
    this.map.invalidateSize();
    this.refresh();
    if (itemId) this.dialog.open(Number(itemId));
  }

  async refresh() {
    const status = this.form.elements.status.value;
    // Only the answer to the latest request is shown, whatever order answers arrive in.
    const request = (this.latest = Symbol("refresh"));
    try {
      const items = await api("GET", `/api/items${status ? `?status=${status}` : ""}`);
      if (request !== this.latest) return;
      this.items = items;
      this.render();
    } catch (error) {
      showError(error.message);
    }
  }

  /** The items that match the search and the category. */
  matching() {
    const q = this.form.elements.q.value.trim().toLowerCase();
    const cat = this.form.elements.cat.value;
    return this.items.filter(
      (item) =>
        (!cat || item.cat === cat) &&
        (!q || `${item.title} ${item.desc ?? ""}`.toLowerCase().includes(q)),
    );
  }

  render() {
    const items = this.matching();
    this.layer.clearLayers();
    for (const item of items) {
      const open = () => this.dialog.open(item.id);
      L.circle([item.lat, item.lng], { radius: item.radius, weight: 1, fillOpacity: 0.1 }).addTo(this.layer);
      L.marker([item.lat, item.lng], { title: item.title, alt: item.title, keyboard: true })
        .on("click", open)
        .on("keypress", (event) => event.originalEvent.key === "Enter" && open())
        .addTo(this.layer);
    }
    document.getElementById("result-count").textContent =
      items.length === 1 ? "1 item" : `${items.length} items`;
    this.list.replaceChildren(
      ...items.map((item) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: "item-card", onclick: () => this.dialog.open(item.id) },
            item.imgData ? h("img", { src: item.imgData, alt: "" }) : h("span", { class: "no-photo" }),
            h(
              "span",
              { class: "card-text" },
              h("strong", {}, item.title),
              h("span", { class: "meta" }, [item.cat ?? "uncategorised", item.status, formatTime(item.created_at)].join(" · ")),
            ),
          ),
        ),
      ),
    );
  }
}
