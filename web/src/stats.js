// Statistics, for staff (#/stats): what was reported in a period (the last 30 days, this
// term, all time, or between two dates) and what became of it — figures, and charts of the
// reports per week, by category and by review state, and of the disposals by method. Each
// chart has its figures in a table beside it, for screen readers and for copying. "Export
// CSV" downloads the period's reports.
import { api, showingErrors } from "./api.js";
import { showError } from "./announce.js";
import { STATES } from "./cards.js";
import { loadChart } from "./charts.js";
import { DISPOSAL_METHODS } from "./custody.js";
import { h } from "./dom.js";
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
    const day = (date) => date.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
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
    let words = "All time";
    if (since && until) words = `${day(since)} to ${day(new Date(until.getTime() - 1))}`;
    else if (since) words = `Since ${day(since)}`;
    else if (until) words = `Until ${day(new Date(until.getTime() - 1))}`;
    return { since: since?.toISOString() ?? "", until: until?.toISOString() ?? "", words };
  }

  async load() {
    const { since, until, words } = this.period();
    const query = new URLSearchParams();
    if (since) query.set("since", since);
    if (until) query.set("until", until);
    this.exportLink.href = `/api/items.csv?${query}`;
    this.range.textContent = `${words}: loading…`;
    const stats = await showingErrors(this.fetch(`/api/stats?${query}`));
    // Logged out while it was on its way: not for the next person.
    if (!stats || !this.state.user?.isAdmin) return;
    this.range.textContent = `${words}: ${count(stats.reports.total, "report")}`;
    this.showFigures(stats);
    await this.showCharts(stats);
  }

  showFigures(stats) {
    const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });
    const figure = (name, value, note) =>
      h("div", { class: "figure" }, h("dt", {}, name), h("dd", {}, h("span", { class: "value" }, value), note ? h("span", { class: "meta" }, note) : null));
    this.figures.replaceChildren(
      figure("Reports", String(stats.reports.total), `${stats.reports.lost} lost · ${stats.reports.found} found`),
      figure("Returned", String(stats.returned), "to their owners"),
      figure("Return rate", stats.returnRate == null ? "—" : percent.format(stats.returnRate), "of found items"),
      figure("Median time to return", stats.medianDaysToReturn == null ? "—" : duration(stats.medianDaysToReturn), "from report to return"),
      figure("Disposed of", String(stats.disposed.total), "after their holding period"),
      figure("Closed", String(stats.closed), "by their reporter or staff"),
    );
  }

  async showCharts(stats) {
    const weekLabel = (week, long) =>
      new Date(`${week}T00:00:00Z`).toLocaleDateString(undefined, { day: "numeric", month: "short", year: long ? "numeric" : undefined, timeZone: "UTC" });
    const byKind = (rows, label) => ({
      labels: rows.map(label),
      series: [
        { name: "Lost", colour: COLOURS.lost, values: rows.map((r) => r.lost) },
        { name: "Found", colour: COLOURS.found, values: rows.map((r) => r.found) },
      ],
    });
    const states = Object.keys(STATES);
    const methods = Object.keys(DISPOSAL_METHODS);
    const charts = [
      {
        id: "weeks",
        title: "Reports per week",
        what: "a bar chart of the reports each week, lost and found",
        head: "Week of",
        stacked: true,
        ...byKind(stats.weeks, (w) => weekLabel(w.week, false)),
        rowNames: stats.weeks.map((w) => weekLabel(w.week, true)),
      },
      {
        id: "categories",
        title: "Reports by category",
        what: "a bar chart of the reports in each category, lost and found",
        head: "Category",
        stacked: true,
        horizontal: true,
        ...byKind(stats.categories, (c) => c.cat ?? "uncategorised"),
      },
      {
        id: "states",
        title: "Reports by review state",
        what: "a bar chart of the reports pending review, approved and rejected",
        head: "State",
        labels: states.map((s) => STATES[s]),
        series: [{ name: "Reports", colour: states.map((s) => COLOURS[s]), values: states.map((s) => stats.states[s] ?? 0) }],
      },
      {
        id: "disposals",
        title: "Disposals by method",
        what: "a bar chart of the found items disposed of, by what was done with them",
        head: "Method",
        horizontal: true,
        labels: methods.map((m) => DISPOSAL_METHODS[m]),
        series: [{ name: "Items", colour: COLOURS.disposed, values: methods.map((m) => stats.disposed[m] ?? 0) }],
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
    for (const { spec, canvas } of drawn) {
      if (canvas) this.charts.push(new Chart(canvas, chartConfig(spec)));
    }
  }
}

function count(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A number of days in words: "2.5 days", or hours under a day ("5 hours", "under an hour"). */
function duration(days) {
  if (days >= 1) return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(days)} ${days === 1 ? "day" : "days"}`;
  const hours = Math.round(days * 24);
  return hours < 1 ? "under an hour" : count(hours, "hour");
}

/** A chart's section: heading, canvas (none when every figure is 0: a note says so) and its
 *  figures as a table under "Show as table". */
function chartSection(spec) {
  const headingId = `chart-${spec.id}-heading`;
  const empty = spec.series.every((s) => s.values.every((v) => v === 0));
  const canvas = empty
    ? null
    : h("canvas", { role: "img", "aria-label": `${spec.title}: ${spec.what}. The table below has the figures.` });
  const rowNames = spec.rowNames ?? spec.labels;
  const totals = spec.series.length > 1;
  const table = h(
    "table",
    {},
    h("caption", { class: "visually-hidden" }, spec.title),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, spec.head), ...spec.series.map((s) => h("th", { scope: "col" }, s.name)),
      totals ? h("th", { scope: "col" }, "Total") : null)),
    h(
      "tbody",
      {},
      rowNames.map((name, i) =>
        h("tr", {}, h("th", { scope: "row" }, name), ...spec.series.map((s) => h("td", {}, String(s.values[i]))),
          totals ? h("td", {}, String(spec.series.reduce((sum, s) => sum + s.values[i], 0))) : null)),
    ),
  );
  const section = h(
    "section",
    { class: `panel chart chart-${spec.id}`, "aria-labelledby": headingId },
    h("h3", { id: headingId }, spec.title),
    canvas
      ? h("div", { class: `chart-box${spec.horizontal ? " horizontal" : ""}`, style: chartHeight(spec) }, canvas)
      : h("p", { class: "hint" }, "None in this period."),
    rowNames.length ? h("details", {}, h("summary", {}, "Show as table"), h("div", { class: "table-wrap" }, table)) : null,
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
