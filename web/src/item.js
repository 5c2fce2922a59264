// The item view: every field, the photo, where it is kept, and its live thread.
import { api } from "./api.js";
import { h, showError, formatTime, nickFrom, prefillNick } from "./dom.js";
import { socket, sendMessage } from "./socket.js";

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
      if (itemId === this.itemId) this.log.replaceChildren(...msgs.map(entry));
    });
    socket.on("thread:new", ({ itemId, msg }) => {
      if (itemId === this.itemId) this.log.append(entry(msg));
    });
    // After a reconnection (or a login) the thread is joined again.
    socket.on("connect", () => this.itemId && this.join());
  }

  async open(id) {
    let item;
    try {
      item = await api("GET", `/api/items/${id}`);
    } catch (error) {
      showError(error.message);
      return;
    }
    if (this.itemId !== null) this.leave();
    this.itemId = item.id;
    document.getElementById("item-title").textContent = item.title;
    const photo = document.getElementById("item-photo");
    photo.hidden = !item.imgData;
    if (item.imgData) {
      photo.src = item.imgData;
      photo.alt = `Photo of ${item.title}`;
    }
    const fields = [
      ["Description", item.desc ?? "—"],
      ["Category", item.cat ?? "—"],
      ["Status", item.status],
      ["Kept at", item.storagePlace ?? "not recorded"],
      ["Reported", `${formatTime(item.created_at)} by ${item.createdBy}`],
      ["Where", `${item.lat.toFixed(5)}, ${item.lng.toFixed(5)} (within ${item.radius} m)`],
    ];
    document.getElementById("item-fields").replaceChildren(...fields.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
    this.log.replaceChildren();
    prefillNick(this.form.elements.nick, this.state.user);
    if (!this.dialog.open) {
      this.dialog.showModal();
      // A modal dialog covers the page: its messages must show inside it.
      this.dialog.append(...messageRegions());
    }
    this.join();
  }

  join() {
    socket.emit("thread:join", { itemId: this.itemId, nick: nickFrom(this.form.elements.nick, this.state.user) });
  }

  leave() {
    if (this.itemId === null) return;
    document.body.append(...messageRegions());
    socket.emit("thread:leave", { itemId: this.itemId });
    this.itemId = null;
    if (location.hash.startsWith("#/browse/")) history.replaceState(null, "", "#/browse");
  }

  say(event) {
    event.preventDefault();
    sendMessage(this.form, this.state.user, "thread:send", { itemId: this.itemId });
  }
}

function messageRegions() {
  return [document.getElementById("messages"), document.getElementById("notices")];
}

/** One message of a thread or the chat. */
export function entry(msg) {
  return h("li", {}, h("span", { class: "nick" }, msg.nick), " ", h("span", { class: "text" }, msg.text), " ", h("time", { datetime: msg.ts }, formatTime(msg.ts)));
}
