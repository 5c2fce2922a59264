// The item view: every field, the full photo (only here: lists show thumbnails), where it is
// kept, and its live thread.
import { api } from "./api.js";
import { announceWithin, showError } from "./announce.js";
import { KINDS, STATES } from "./cards.js";
import { h, formatTime } from "./dom.js";
import { appendMessage, sendMessage, showHistory } from "./messages.js";
import { fillNick } from "./nick.js";
import { socket } from "./socket.js";

const FIELDS = "id,title,desc,cat,kind,lat,lng,radius,status,storagePlace,created_at,createdBy,photoUrl";

export class ItemDialog {
  constructor(state) {
    this.state = state;
    this.itemId = null;
    this.dialog = document.getElementById("item-dialog");
    this.log = document.getElementById("thread-log");
    this.form = document.getElementById("thread-form");
    document.getElementById("item-close").addEventListener("click", () => this.dialog.close());
    this.dialog.addEventListener("close", () => this.leave());
    this.form.addEventListener("submit", (event) => this.say(event));
    socket.on("thread:history", ({ itemId, msgs }) => {
      if (itemId === this.itemId) showHistory(this.log, msgs);
    });
    socket.on("thread:new", ({ itemId, msg }) => {
      if (itemId === this.itemId) appendMessage(this.log, msg);
    });
    // After a reconnection (or a login) the thread is joined again.
    socket.on("connect", () => this.itemId && this.join());
  }

  async open(id) {
    let item;
    try {
      item = await api("GET", `/api/items/${id}?fields=${FIELDS}`);
    } catch (error) {
      showError(error.message);
      return;
    }
    if (this.itemId !== null) this.leave();
    this.itemId = item.id;
    document.getElementById("item-title").textContent = item.title;
    const photo = document.getElementById("item-photo");
    photo.hidden = !item.photoUrl;
    if (item.photoUrl) {
      photo.src = item.photoUrl;
      photo.alt = `Photo of ${item.title}`;
    } else {
      photo.removeAttribute("src");
    }
    const fields = [
      ["Description", item.desc ?? "—"],
      ["Lost or found", KINDS[item.kind] ?? "—"],
      ["Category", item.cat ?? "—"],
      ["Status", STATES[item.status] ?? item.status],
      ["Kept at", item.storagePlace ?? "not recorded"],
      ["Reported", `${formatTime(item.created_at)} by ${item.createdBy}`],
      ["Where", `${item.lat.toFixed(5)}, ${item.lng.toFixed(5)} (within ${item.radius} m)`],
    ];
    document.getElementById("item-fields").replaceChildren(...fields.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
    this.log.replaceChildren();
    fillNick(this.form.elements.nick, this.state.user);
    if (!this.dialog.open) {
      this.dialog.showModal();
      announceWithin(this.dialog);
    }
    this.join();
  }

  join() {
    socket.emit("thread:join", { itemId: this.itemId });
  }

  leave() {
    if (this.itemId === null) return;
    announceWithin(document.body);
    socket.emit("thread:leave", { itemId: this.itemId });
    this.itemId = null;
    if (location.hash.startsWith("#/browse/")) history.replaceState(null, "", "#/browse");
  }

  say(event) {
    event.preventDefault();
    sendMessage(this.form, this.state.user, "thread:send", { itemId: this.itemId });
  }
}
