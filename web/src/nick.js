// The name chat and thread messages are sent under. A logged-in user's is their own display
// name, so nobody posts under the previous person's name on a shared computer. A visitor types
// one; it is kept for this tab only (sessionStorage) and forgotten at logout.
import { t } from "./i18n.js";

const KEY = "lostfound.nick";

/** Puts the name messages will go out under in a Name field, read-only while logged in. */
export function fillNick(input, user) {
  input.readOnly = Boolean(user);
  input.title = user ? t("chat.nickTitle") : "";
  input.value = user ? user.name : (sessionStorage.getItem(KEY) ?? "");
}

/** The nick to send a message under: the user's name, else what the visitor typed, kept for
 *  the tab's other Name fields (the service makes a blank one Anonymous). */
export function nickFrom(input, user) {
  if (user) return user.name;
  const typed = input.value.trim();
  if (typed) sessionStorage.setItem(KEY, typed);
  else sessionStorage.removeItem(KEY);
  return typed;
}

/** Forgets every nick the app kept in this browser, at logout: the next person starts clean. */
export function forgetNick() {
  sessionStorage.removeItem(KEY);
  // Earlier versions kept it in localStorage, where it outlived logouts.
  localStorage.removeItem("nick");
}
