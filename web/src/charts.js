// Chart.js, for the statistics screen: its UMD build (a classic script that sets
// window.Chart), loaded the first time a chart is drawn, so no other screen pays for it.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SCRIPT = "/vendor/chart.js/dist/chart.umd.min.js";
let loading = null;

/** Resolves with Chart.js's `Chart` once loaded; rejects with a message for the user. */
export function loadChart() {
  loading ??= new Promise((resolve, reject) => {
    const script = h("script", { src: SCRIPT });
    script.addEventListener("load", () => resolve(window.Chart));
    script.addEventListener("error", () => {
      script.remove();
      loading = null;
      reject(new Error(t("stats.chartsFailed")));
    });
    document.head.append(script);
  });
  return loading;
}
