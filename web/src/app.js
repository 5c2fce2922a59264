// Start-up, the session in the header, and the addresses: a screen each (#/browse, #/report,
// #/mine, #/intake, #/labels, #/stats, #/desks, #/categories, #/account, #/signup, #/follow/TOKEN, ...) and an item's view over the
// screen shown (#/items/ID), which Back closes.
import { SESSION_ENDED, api, attempt } from "./api.js";
import { clearAnnouncements, showError, showNotice } from "./announce.js";
import { languageChosen, loadLanguage, t } from "./i18n.js";
import { sendLanguage, wireLanguageSwitch } from "./language.js";
import { forgetNick } from "./nick.js";
import { renewPush, turnOffPush } from "./push.js";
import { reconnect } from "./socket.js";
import { Account } from "./account.js";
import { Accounts } from "./accounts.js";
import { Bell } from "./bell.js";
import { Browse } from "./browse.js";
import { CategoriesAdmin } from "./categories-admin.js";
import { useCategories } from "./categories.js";
import { Chat } from "./chat.js";
import { Desks, runsService } from "./desks.js";
import { watchFieldChecks } from "./fields.js";
import { Follow } from "./follow.js";
import { Forgot } from "./forgot.js";
import { Header } from "./header.js";
import { Intake } from "./intake.js";
import { ItemDialog, closed, closingItem, itemIn } from "./item.js";
import { Labels } from "./labels.js";
import { LoginPanel } from "./login.js";
import { Mine } from "./mine.js";
import { Report } from "./report.js";
import { Reset } from "./reset.js";
import { Review } from "./review.js";
import { Signup } from "./signup.js";
import { SsoFailed } from "./sso.js";
import { Stats } from "./stats.js";
import { showTitle } from "./title.js";
import { Verify } from "./verify.js";

/** `config`: the map settings; `access`: the ways in the service offers (sign-up and its
 *  email domains, single sign-on, password resets by email); `user`: who is logged in. */
const state = { user: null, config: null, access: null };
const views = {};
let bell, header, dialog;
/** The screen shown, under an item's view when one is open. */
let shown = null;

async function main() {
  // The language first: every screen is built in it.
  await loadLanguage();
  const [config, access, me, sites, categories] = await Promise.all([
    api("GET", "/config.json"),
    api("GET", "/api/config"),
    whoIsIn(),
    api("GET", "/api/sites"),
    api("GET", "/api/categories"),
  ]);
  Object.assign(state, { config, access, user: await withAccess(me.user), sites });
  // Before the screens: their forms offer the categories.
  useCategories(categories);
  header = new Header();
  watchFieldChecks();
  dialog = new ItemDialog(state);
  const login = new LoginPanel(state, async (user) => {
    setUser(await withAccess(user));
    showNotice(t("login.welcome", { name: user.name }));
    // Emails go out in the language chosen here.
    if (languageChosen()) sendLanguage();
  });
  bell = new Bell(state);
  // The skip link moves the focus, not the address (`#main` would name no screen).
  document.querySelector("a.skip").addEventListener("click", (event) => {
    event.preventDefault();
    document.getElementById("main").focus();
  });
  views.browse = new Browse(state, dialog);
  views.report = new Report(state);
  views.mine = new Mine(state, dialog);
  views.intake = new Intake(state);
  views.labels = new Labels(state);
  views.review = new Review(state, dialog);
  views.stats = new Stats(state);
  views.desks = new Desks(state);
  views.categories = new CategoriesAdmin(state);
  views.accounts = new Accounts(state);
  views.chat = new Chat(state);
  views.account = new Account(state, setUser);
  views.signup = new Signup(state);
  views.verify = new Verify(state, setUser);
  views.follow = new Follow(state, setUser);
  views.forgot = new Forgot(state);
  views.reset = new Reset(state, login);
  views["sso-failed"] = new SsoFailed(state);
  // Every Log in button of the page opens the login panel.
  for (const button of document.querySelectorAll("[data-login]")) button.addEventListener("click", () => login.open());
  wireSession();
  wireLanguageSwitch(state);
  renderSession();
  if (state.user) renewPush();
  // A link to an item (a notification, a match) opens it like a click on its card does. A
  // screen's link followed while an item's closing step is under way waits for the step, which
  // would otherwise step back from the screen's address to the item's.
  document.addEventListener("click", async (event) => {
    const link = event.target.closest?.('a[href^="#/"]');
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const href = link.getAttribute("href");
    const item = itemIn(href);
    if (!item && !closingItem()) return;
    event.preventDefault();
    if (item) return dialog.open(item);
    await closed();
    location.hash = href;
  });
  // Opened at an item's address (a label's QR code, a shared link): Browse is put behind it,
  // so Back closes the item instead of leaving the app.
  const item = itemIn(location.hash);
  if (item) {
    history.replaceState(null, "", "#/browse");
    history.pushState({ itemDepth: 1 }, "", `#/items/${item}`);
  }
  window.addEventListener("hashchange", () => route());
  route();
}

/** The session's user (`{ user }`). Offline, nobody: the app starts from the settings the
 *  service worker kept, says it is offline, and starts again once back (install.js). */
async function whoIsIn() {
  try {
    return await api("GET", "/api/me");
  } catch (error) {
    if (navigator.onLine) throw error;
    return { user: null };
  }
}

/** `user` with what they are to the service (`role`, `sites`), asked when they may review:
 *  staff of some desks, or an administrator. */
async function withAccess(user) {
  if (!user?.isAdmin) return user;
  try {
    return { ...user, ...(await api("GET", "/api/me/access")) };
  } catch {
    return user;
  }
}

/** Shows what the address names: a screen, or an item over the screen shown (Browse at
 *  first). `refresh`: the screen is shown again even if it is (the user changed). */
function route(refresh = false) {
  header.toggle(false);
  const item = itemIn(location.hash);
  if (item) {
    if (!shown || refresh) showScreen(shown ?? "browse");
    dialog.show(item);
    return;
  }
  const [, asked = "browse", arg] = location.hash.split("/");
  const name = Object.hasOwn(views, asked) ? asked : "browse";
  // Back from an item: the screen behind it stays as it was (its list, its scroll).
  const leftItem = dialog.isOpen();
  dialog.hide();
  if (leftItem && name === shown && !arg && !refresh) return titleScreen(name);
  showScreen(name, arg);
}

/** Titles the page after screen `name`'s heading. */
function titleScreen(name) {
  const view = document.getElementById(`view-${name}`);
  showTitle(document.getElementById(view.getAttribute("aria-labelledby")).textContent);
}

function showScreen(name, arg) {
  // What was said was about the screen left.
  if (name !== shown) clearAnnouncements();
  shown = name;
  for (const key of Object.keys(views)) {
    document.getElementById(`view-${key}`).hidden = key !== name;
  }
  for (const link of document.querySelectorAll("a[data-view]")) {
    if (link.dataset.view === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  views[name].show(arg);
  titleScreen(name);
}

function wireSession() {
  document.getElementById("logout").addEventListener("click", async () => {
    // This device stops getting notices first: the next person on it must not get them.
    await turnOffPush();
    if (!(await attempt("POST", "/api/logout"))) return;
    forgetNick();
    setUser(null);
    showNotice(t("logout.done"));
  });
  // Any request answered "Login required": the session ended elsewhere (logout on another
  // tab, a new password, an expired session). The header says so at once.
  window.addEventListener(SESSION_ENDED, () => state.user && setUser(null));
}

/** Makes the page `user`'s (null: logged out): the header, the live connection's session and
 *  the screen shown. */
function setUser(user) {
  state.user = user;
  renderSession();
  reconnect();
  route(true);
}

function renderSession() {
  const user = state.user;
  document.getElementById("signed-in").hidden = !user;
  document.getElementById("user-name").textContent = user ? user.name : "";
  for (const el of document.querySelectorAll("[data-user]")) el.hidden = !user;
  for (const el of document.querySelectorAll("[data-admin]")) el.hidden = !user?.isAdmin;
  for (const el of document.querySelectorAll("[data-manager]")) el.hidden = !runsService(user);
  for (const el of document.querySelectorAll("[data-visitor]")) el.hidden = Boolean(user);
  bell.load();
}

main().catch((error) => showError(error.message));
