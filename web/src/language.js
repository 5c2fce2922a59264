// The language switch in the header: each language in its own name; the choice is kept in
// this browser (i18n.js) and, for a logged-in user, told to the service so that emails go out
// in it. The page then loads again in the new language.
import { h } from "./dom.js";
import { LANGUAGES, language, rememberLanguage } from "./i18n.js";

/** Fills the header's switch; `state.user` says whether the service is told. */
export function wireLanguageSwitch(state) {
  const select = document.getElementById("lang-select");
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code }, name)));
  select.value = language();
  select.addEventListener("change", async () => {
    select.disabled = true;
    rememberLanguage(select.value);
    if (state.user) await sendLanguage(select.value);
    location.reload();
  });
}

/**
 * Tells the service the user's language (`PATCH /api/me { lang }`), for the emails it sends
 * them. A call in the background: whatever the answer (a service that does not know `lang`
 * yet says 400), nothing is shown.
 */
export async function sendLanguage(lang = language()) {
  try {
    const response = await fetch("/api/me", {
      method: "PATCH",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ lang }),
    });
    // Read to the end: a page loaded again right after would otherwise cut it off.
    await response.arrayBuffer();
  } catch {
    // Offline: the next switch or login tells it.
  }
}
