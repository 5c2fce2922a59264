// Start-up, the session in the header, and switching between views (#/browse, #/report,
// #/mine, ...).
import { api } from "./api.js";
import { showError, showNotice } from "./announce.js";
import { forgetNick } from "./nick.js";
import { reconnect } from "./socket.js";
import { Accounts } from "./accounts.js";
import { Bell } from "./bell.js";
import { Browse } from "./browse.js";
import { ItemDialog } from "./item.js";
import { Mine } from "./mine.js";
import { Report } from "./report.js";
import { Review } from "./review.js";
import { Chat } from "./chat.js";

const state = { user: null, config: null };
const views = {};
let bell;

async function main() {
  state.config = await api("GET", "/config.json");
  state.user = (await api("GET", "/api/me")).user;
  const dialog = new ItemDialog(state);
  bell = new Bell(state);
  views.browse = new Browse(state, dialog);
  views.report = new Report(state);
  views.mine = new Mine(state, dialog);
  views.review = new Review(state, dialog);
  views.accounts = new Accounts(state);
  views.chat = new Chat(state);
  wireSession();
  renderSession();
  window.addEventListener("hashchange", route);
  route();
}

function route() {
  const [, name = "browse", arg] = location.hash.split("/");
  const view = views[name] ? name : "browse";
  for (const key of Object.keys(views)) {
    document.getElementById(`view-${key}`).hidden = key !== view;
  }
  for (const link of document.querySelectorAll("nav a[data-view]")) {
    if (link.dataset.view === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  views[view].show(arg);
}

function wireSession() {
  const form = document.getElementById("login-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    try {
      const { user } = await api("POST", "/api/login", { id: data.get("id"), pw: data.get("pw") });
      form.reset();
      setUser(user);
      showNotice(`Welcome, ${user.name}.`);
    } catch (error) {
      showError(error.message);
    }
  });
  document.getElementById("logout").addEventListener("click", async () => {
    try {
      await api("POST", "/api/logout");
      forgetNick();
      setUser(null);
      showNotice("You are logged out.");
    } catch (error) {
      showError(error.message);
    }
  });
}

function setUser(user) {
  state.user = user;
  renderSession();
  reconnect();
  route();
}

function renderSession() {
  const user = state.user;
  document.getElementById("login-form").hidden = Boolean(user);
  document.getElementById("signed-in").hidden = !user;
  document.getElementById("user-name").textContent = user ? `${user.name}${user.isAdmin ? " (staff)" : ""}` : "";
  for (const el of document.querySelectorAll("[data-user]")) el.hidden = !user;
  for (const el of document.querySelectorAll("[data-admin]")) el.hidden = !user?.isAdmin;
  bell.load();
}

main().catch((error) => showError(error.message));
