// The global chat: its history when opened, then live messages.
import { appendMessage, sendMessage, showHistory } from "./messages.js";
import { fillNick } from "./nick.js";
import { socket } from "./socket.js";

export class Chat {
  constructor(state) {
    this.state = state;
    this.joined = false;
    this.log = document.getElementById("chat-log");
    this.form = document.getElementById("chat-form");
    socket.on("chat:history", (msgs) => showHistory(this.log, msgs, this.state.user));
    // Live messages reach every client; they are shown once the history is there.
    socket.on("chat:new", (msg) => this.joined && appendMessage(this.log, msg, this.state.user));
    socket.on("connect", () => this.joined && this.join());
    this.form.addEventListener("submit", (event) => this.say(event));
  }

  show() {
    fillNick(this.form.elements.nick, this.state.user);
    if (!this.joined) {
      this.joined = true;
      this.join();
    }
  }

  join() {
    // The service only checks a join's nick; each message carries its own.
    socket.emit("chat:join", {});
  }

  say(event) {
    event.preventDefault();
    sendMessage(this.form, this.state.user, "chat:send");
  }
}
