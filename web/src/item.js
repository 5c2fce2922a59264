// The item view: every field, the full photo (only here: lists show thumbnails), where it is
// kept, and its live thread.
import { attempt } from "./api.js";
import { announceWithin, showNotice } from "./announce.js";
import { KINDS, PUBLIC_STATES } from "./cards.js";
import { h, formatTime } from "./dom.js";
import { appendMessage, sendMessage, showHistory } from "./messages.js";
import { fillNick } from "./nick.js";
import { socket } from "./socket.js";

const FIELDS = "id,title,desc,cat,kind,lat,lng,radius,status,storagePlace,created_at,createdBy,photoUrl,returnedAt";
const MATCH_FIELDS = "id,title,kind";
// What the matches of an item are to the person looking at it.
const MATCHES_HEADING = { lost: "Could this be yours?", found: "Lost reports that may be this item" };

export class ItemDialog {
  constructor(state) {
    this.state = state;
    this.itemId = null;
    this.dialog = document.getElementById("item-dialog");
    this.log = document.getElementById("thread-log");
    this.form = document.getElementById("thread-form");
    this.claimForm = document.getElementById("claim-form");
    this.claimForm.addEventListener("submit", (event) => this.claim(event));
    document.getElementById("item-close").addEventListener("click", () => this.dialog.close());
    this.dialog.addEventListener("close", () => this.leave());
    this.form.addEventListener("submit", (event) => this.say(event));
    socket.on("thread:history", ({ itemId, msgs }) => {
      if (itemId === this.itemId) showHistory(this.log, msgs, this.state.user);
    });
    socket.on("thread:new", ({ itemId, msg }) => {
      if (itemId === this.itemId) appendMessage(this.log, msg, this.state.user);
    });
    // After a reconnection (or a login) the thread is joined again.
    socket.on("connect", () => this.itemId && this.join());
  }

  async open(id) {
    const item = await attempt("GET", `/api/items/${id}?fields=${FIELDS}`);
    if (!item) return;
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
      ["Status", PUBLIC_STATES[item.status] ?? item.status],
      ["Kept at", item.storagePlace ?? "not recorded"],
      ["Reported", `${formatTime(item.created_at)} by ${item.createdBy}`],
      ["Where", `${item.lat.toFixed(5)}, ${item.lng.toFixed(5)} (within ${item.radius} m)`],
    ];
    if (item.returnedAt) fields.push(["Returned", formatTime(item.returnedAt)]);
    document.getElementById("item-fields").replaceChildren(...fields.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
    const user = this.state.user;
    this.claimForm.hidden = !(item.kind === "found" && item.status === "approved" && !item.returnedAt
      && user && user.id !== item.createdBy);
    this.claimForm.reset();
    this.showMatches(item);
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

  /** Lists the approved items of the other kind that may be the same object; none: nothing. */
  async showMatches(item) {
    const section = document.getElementById("item-matches");
    section.hidden = true;
    const matches = await attempt("GET", `/api/items/${item.id}/matches?fields=${MATCH_FIELDS}`);
    if (!matches) return;
    if (item.id !== this.itemId || matches.length === 0) return;
    document.getElementById("matches-heading").textContent = MATCHES_HEADING[item.kind];
    document.getElementById("match-list").replaceChildren(...matches.map(({ item: other, distance }) =>
      h("li", {}, h("a", { href: `#/browse/${other.id}` }, other.title), ` · ${Math.round(distance)} m away`)));
    section.hidden = false;
  }

  async claim(event) {
    event.preventDefault();
    const message = this.claimForm.elements.message.value;
    if (!(await attempt("POST", `/api/items/${this.itemId}/claims`, { message }))) return;
    this.claimForm.hidden = true;
    showNotice("Your claim is sent. Staff will check it and tell you.");
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
