// The global chat: its history when opened, then live messages.
import { nickFrom, prefillNick } from "./dom.js";
import { entry } from "./item.js";
import { socket, sendMessage } from "./socket.js";

export class Chat {
  constructor(state) {
    this.state = state;
    this.joined = false;
    this.log = document.getElementById("chat-log");
    this.form = document.getElementById("chat-form");
    socket.on("chat:history", (msgs) => this.log.replaceChildren(...msgs.map(entry)));
    socket.on("chat:new", (msg) => {
      if (this.joined) {
        this.log.append(entry(msg));
        this.log.lastElementChild.scrollIntoView({ block: "nearest" });
      }
    });
    socket.on("connect", () => this.joined && this.join());
    this.form.addEventListener("submit", (event) => this.say(event));
  }

  show() {
    prefillNick(this.form.elements.nick, this.state.user);
    if (!this.joined) {
      this.joined = true;
      this.join();
    }
  }

  join() {
    socket.emit("chat:join", { nick: nickFrom(this.form.elements.nick, this.state.user) });
  }

  say(event) {
    event.preventDefault();
    sendMessage(this.form, this.state.user, "chat:send");
  }
}
