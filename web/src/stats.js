// Statistics, for staff (#/stats): what was reported in a period (the last 30 days, this
// term, all time, or between two dates) and what became of it — figures, and charts of the
// reports per week, by category and by review state, and of the disposals by method. Each
// chart has its figures in a table beside it, for screen readers and for copying. "Export
// CSV" downloads the period's reports.
import { api, showingErrors } from "./api.js";
import { showError } from "./announce.js";
import { KINDS, STATES } from "./cards.js";
import { categoryName } from "./categories.js";
import { loadChart } from "./charts.js";
import { DISPOSAL_METHODS } from "./custody.js";
import { fillDeskChoice } from "./desks.js";
import { h } from "./dom.js";
import { formatDay, formatNumber, language, t, tn } from "./i18n.js";
import { latestOnly } from "./latest.js";

const COLOURS = { lost: "#c2410c", found: "#0b5cad", pending: "#bf8700", approved: "#1a7f37", rejected: "#cf222e", disposed: "#6e7781" };

export class Stats {
  constructor(state) {
    this.state = state;
    this.hint = document.getElementById("stats-hint");
    this.content = document.getElementById("stats-content");
    this.form = document.getElementById("stats-period");
    this.range = document.getElementById("stats-range");
    this.figures = document.getElementById("stats-figures");
    this.area = document.getElementById("stats-charts");
    this.exportLink = document.getElementById("stats-export");
    this.charts = [];
    // Periods changed in quick succession each ask: only the last answer shows.
    this.fetch = latestOnly((url) => api("GET", url));
    this.form.addEventListener("change", () => this.load());
    this.form.addEventListener("submit", (event) => event.preventDefault());
  }

  show() {
    const admin = Boolean(this.state.user?.isAdmin);
    this.hint.hidden = admin;
    this.content.hidden = !admin;
    if (admin) {
      fillDeskChoice(this.form.elements.site, this.state.sites ?? [], this.state.user);
      this.load();
    } else {
      this.clear();
    }
  }

  clear() {
    for (const chart of this.charts) chart.destroy();
    this.charts = [];
    this.area.replaceChildren();
    this.figures.replaceChildren();
    this.range.textContent = "";
  }

  /** The period chosen: `since` and `until` (RFC 3339 or ""), and how it reads. */
  period() {
    const f = this.form.elements;
    const custom = f.period.value === "dates";
    for (const label of this.form.querySelectorAll("[data-dates]")) label.hidden = !custom;
    const today = new Date();
    const midnight = (y, m, d) => new Date(y, m, d); // the reader's
    const day = (date) => formatDay(date);
    let since = null;
    let until = null;
    if (f.period.value === "30") {
      since = midnight(today.getFullYear(), today.getMonth(), today.getDate() - 30);
    } else if (f.period.value === "term") {
      // Terms start on 1 September: before it, this term began last year.
      since = midnight(today.getMonth() >= 8 ? today.getFullYear() : today.getFullYear() - 1, 8, 1);
    } else if (custom) {
      const parse = (value) => (value ? new Date(`${value}T00:00`) : null);
      since = parse(f.from.value);
      const to = parse(f.to.value);
      // The last day included: until the next midnight.
      until = to && midnight(to.getFullYear(), to.getMonth(), to.getDate() + 1);
    }
    const valid = (date) => date && !Number.isNaN(date.getTime());
    since = valid(since) ? since : null;
    until = valid(until) ? until : null;
    let words = t("stats.allTime");
    if (since && until) words = t("stats.fromTo", { from: day(since), to: day(new Date(until.getTime() - 1)) });
    else if (since) words = t("stats.sinceDay", { date: day(since) });
    else if (until) words = t("stats.untilDay", { date: day(new Date(until.getTime() - 1)) });
    return { since: since?.toISOString() ?? "", until: until?.toISOString() ?? "", words };
  }

  async load() {
    const { since, until, words } = this.period();
    const query = new URLSearchParams();
    if (since) query.set("since", since);
    if (until) query.set("until", until);
    if (this.form.elements.site.value) query.set("site", this.form.elements.site.value);
    this.exportLink.href = `/api/items.csv?${query}`;
    this.range.textContent = t("stats.loading", { period: words });
    const stats = await showingErrors(this.fetch(`/api/stats?${query}`));
    // Logged out while it was on its way: not for the next person.
    if (!stats || !this.state.user?.isAdmin) return;
    this.range.textContent = `${words}: ${tn("stats.reportCount", stats.reports.total)}`;
    this.showFigures(stats);
    await this.showCharts(stats);
  }

  showFigures(stats) {
    const percent = new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 1 });
    const figure = (name, value, note) =>
      h("div", { class: "figure" }, h("dt", {}, name), h("dd", {}, h("span", { class: "value" }, value), note ? h("span", { class: "meta" }, note) : null));
    this.figures.replaceChildren(
      figure(t("stats.reports"), formatNumber(stats.reports.total),
        t("stats.lostFound", { lost: formatNumber(stats.reports.lost), found: formatNumber(stats.reports.found) })),
      figure(t("outcome.returned"), formatNumber(stats.returned), t("stats.returnedNote")),
      figure(t("stats.returnRate"), stats.returnRate == null ? "—" : percent.format(stats.returnRate), t("stats.returnRateNote")),
      figure(t("stats.median"), stats.medianDaysToReturn == null ? "—" : duration(stats.medianDaysToReturn), t("stats.medianNote")),
      figure(t("item.disposedOf"), formatNumber(stats.disposed.total), t("stats.disposedNote")),
      figure(t("outcome.closed"), formatNumber(stats.closed), t("stats.closedNote")),
    );
  }

  async showCharts(stats) {
    const weekLabel = (week, long) =>
      formatDay(new Date(`${week}T00:00:00Z`), { day: "numeric", month: "short", year: long ? "numeric" : undefined, timeZone: "UTC" });
    const byKind = (rows, label) => ({
      labels: rows.map(label),
      series: [
        { name: KINDS.lost, colour: COLOURS.lost, values: rows.map((r) => r.lost) },
        { name: KINDS.found, colour: COLOURS.found, values: rows.map((r) => r.found) },
      ],
    });
    const states = Object.keys(STATES);
    const methods = Object.keys(DISPOSAL_METHODS);
    const charts = [
      {
        id: "weeks",
        title: t("stats.weeks"),
        what: t("stats.weeksWhat"),
        head: t("stats.weekOf"),
        stacked: true,
        ...byKind(stats.weeks, (w) => weekLabel(w.week, false)),
        rowNames: stats.weeks.map((w) => weekLabel(w.week, true)),
      },
      {
        id: "categories",
        title: t("stats.categories"),
        what: t("stats.categoriesWhat"),
        head: t("common.category"),
        stacked: true,
        horizontal: true,
        ...byKind(stats.categories, (c) => categoryName(c.cat)),
      },
      {
        id: "states",
        title: t("stats.states"),
        what: t("stats.statesWhat"),
        head: t("stats.state"),
        labels: states.map((s) => STATES[s]),
        series: [{ name: t("stats.reports"), colour: states.map((s) => COLOURS[s]), values: states.map((s) => stats.states[s] ?? 0) }],
      },
      {
        id: "disposals",
        title: t("stats.disposals"),
        what: t("stats.disposalsWhat"),
        head: t("stats.method"),
        horizontal: true,
        labels: methods.map((m) => DISPOSAL_METHODS[m]),
        series: [{ name: t("stats.items"), colour: COLOURS.disposed, values: methods.map((m) => stats.disposed[m] ?? 0) }],
      },
    ];
    for (const chart of this.charts) chart.destroy();
    this.charts = [];
    const drawn = charts.map((spec) => ({ spec, ...chartSection(spec) }));
    this.area.replaceChildren(...drawn.map((d) => d.section));
    let Chart;
    try {
      Chart = await loadChart();
    } catch (error) {
      showError(error.message);
      return;
    }
    // Another period asked for while Chart.js loaded: that one draws.
    if (!drawn[0].section.isConnected) return;
    Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily;
    Chart.defaults.color = "#1b1f24";
    // Numbers on the axes and in the tooltips as the reader's language writes them.
    Chart.defaults.locale = language();
    for (const { spec, canvas } of drawn) {
      if (canvas) this.charts.push(new Chart(canvas, chartConfig(spec)));
    }
  }
}

/** A number of days in words: "2.5 days", or hours under a day ("5 hours", "under an hour"). */
function duration(days) {
  if (days >= 1) return tn("stats.days", Math.round(days * 10) / 10);
  const hours = Math.round(days * 24);
  return hours < 1 ? t("stats.underAnHour") : tn("stats.hours", hours);
}

/** A chart's section: heading, canvas (none when every figure is 0: a note says so) and its
 *  figures as a table under "Show as table". */
function chartSection(spec) {
  const headingId = `chart-${spec.id}-heading`;
  const empty = spec.series.every((s) => s.values.every((v) => v === 0));
  const canvas = empty
    ? null
    : h("canvas", { role: "img", "aria-label": t("stats.chartLabel", { title: spec.title, what: spec.what }) });
  const rowNames = spec.rowNames ?? spec.labels;
  const totals = spec.series.length > 1;
  const table = h(
    "table",
    {},
    h("caption", { class: "visually-hidden" }, spec.title),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, spec.head), ...spec.series.map((s) => h("th", { scope: "col" }, s.name)),
      totals ? h("th", { scope: "col" }, t("stats.total")) : null)),
    h(
      "tbody",
      {},
      rowNames.map((name, i) =>
        h("tr", {}, h("th", { scope: "row" }, name), ...spec.series.map((s) => h("td", {}, formatNumber(s.values[i]))),
          totals ? h("td", {}, formatNumber(spec.series.reduce((sum, s) => sum + s.values[i], 0))) : null)),
    ),
  );
  const section = h(
    "section",
    { class: `panel chart chart-${spec.id}`, "aria-labelledby": headingId },
    h("h3", { id: headingId }, spec.title),
    canvas
      ? h("div", { class: `chart-box${spec.horizontal ? " horizontal" : ""}`, style: chartHeight(spec) }, canvas)
      : h("p", { class: "hint" }, t("stats.none")),
    rowNames.length ? h("details", {}, h("summary", {}, t("stats.showTable")), h("div", { class: "table-wrap" }, table)) : null,
  );
  return { section, canvas };
}

/** Horizontal bars: room for each. */
function chartHeight(spec) {
  return spec.horizontal ? `height: ${Math.max(10, 3 + spec.labels.length * 2.2)}rem` : null;
}

function chartConfig(spec) {
  const axis = { beginAtZero: true, stacked: Boolean(spec.stacked), ticks: { precision: 0 } };
  const category = { stacked: Boolean(spec.stacked), grid: { display: false } };
  return {
    type: "bar",
    data: {
      labels: spec.labels,
      datasets: spec.series.map((s) => ({ label: s.name, data: s.values, backgroundColor: s.colour, borderRadius: 3, maxBarThickness: 48 })),
    },
    options: {
      indexAxis: spec.horizontal ? "y" : "x",
      responsive: true,
      maintainAspectRatio: false,
      // Drawn at once: nothing moves for people who get motion sickness, or in a screenshot.
      animation: false,
      plugins: { legend: { display: spec.series.length > 1, position: "bottom" } },
      scales: spec.horizontal ? { x: axis, y: category } : { x: category, y: axis },
    },
  };
}
