// The HTML report page: markup, CSS and JavaScript, with the report's JSON spliced in where
// kDataMarker stands. Everything is inline so the page works offline and can be mailed.
#pragma once

#include <string_view>

namespace vcmon::report::html {

inline constexpr std::string_view kDataMarker = "@VCMON_REPORT_JSON@";

inline constexpr std::string_view kPage = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>vcmon report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 .5em; }
h2 { font-size: 1.15em; margin: 1.5em 0 .5em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; }
td, th { padding: 2px 8px; text-align: left; }
th { background: #f0f0f0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.warn { color: #a00; font-weight: bold; }
.row { display: flex; align-items: center; white-space: nowrap; font-variant-numeric: tabular-nums; }
.row:hover { background: #eef4ff; }
.row.hot { background: #fff2e0; }
.toggle { width: 1.3em; border: none; background: none; cursor: pointer; padding: 0; font: inherit; }
.cols { display: inline-flex; gap: 0; }
.cols span { display: inline-block; width: 6.5em; text-align: right; }
.bar { display: inline-block; width: 80px; height: 10px; background: #eee; margin: 0 8px; position: relative; }
.bar i { position: absolute; left: 0; top: 0; bottom: 0; background: #d9534f; }
.label { margin-left: .5em; }
.collapsed > .children { display: none; }
.flag { color: #777; font-size: .9em; margin-left: .5em; }
#icicle { position: relative; width: 100%; border: 1px solid #ccc; overflow: hidden; }
#icicle div { position: absolute; height: 20px; box-sizing: border-box; border: 1px solid #fff;
  font-size: 11px; overflow: hidden; white-space: nowrap; padding: 1px 3px; cursor: pointer; }
#heatmap { border: 1px solid #ccc; image-rendering: pixelated; }
#cell { margin-left: 1em; }
</style>
</head>
<body>
<h1>vcmon report</h1>
<table id="banner"></table>
<h2>Time per rank</h2>
<p>Application: the program's total on the rank; MPI: the rank's communication records
(transmission + sync delay). Min, mean and max over the ranks.</p>
<table id="timesplit"></table>
<h2>MPI functions by aggregate time</h2>
<p>Summed over call sites and ranks; MPI% and app% of the time summed over the ranks.</p>
<table id="functions"></table>
<h2>Hot path</h2>
<ol id="hotpath"></ol>
<h2>Top-down profile</h2>
<p>Virtual time per rank: mean, min and max inclusive over the ranks, self = exclusive mean;
imb = max/mean, for a partner over the ranks holding its records; count summed over the ranks;
transmission, sync delay and bytes in a label are means over the ranks; ~ = split among call
sites. Click ▸ to expand.</p>
<div class="row"><span class="cols"><span>%total</span><span>mean</span>
<span>min</span><span>max</span><span>imb</span><span>max@</span><span>self</span>
<span>count (sum)</span></span>
<span class="bar"></span><span class="label">site</span></div>
<div id="tree"></div>
<h2>Icicle view</h2>
<p>Width is time; each row is one level deeper. Click a box to find it in the tree.</p>
<div id="icicle"></div>
<h2>Communication statements</h2>
<p>Over all contexts, summed over the ranks.</p>
<table id="statements"></table>
<h2>Message sizes per call site</h2>
<p>Summed over the ranks; mean = bytes / messages; sizes: messages per size class.</p>
<table id="messagesizes"></table>
<h2>Folded into their callers</h2>
<p>Tiny or inline leaf procedures vcmon-instrument did not probe: their time is their callers'.</p>
<table id="folded"></table>
<h2>Communication matrix</h2>
<p>Row: the rank holding the records; column: its partner.
<select id="metric"><option value="time">time</option><option value="messages">messages</option>
<option value="bytes">bytes</option></select><span id="cell"></span></p>
<canvas id="heatmap" width="1" height="1"></canvas>
<pre id="selftest"></pre>
<script type="application/json" id="vcmon-data">@VCMON_REPORT_JSON@</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("vcmon-data").textContent);
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function dur(ns) {
  const units = [[1e9, "s"], [1e6, "ms"], [1e3, "us"]];
  for (const [scale, unit] of units) if (Math.abs(ns) >= scale) return (ns / scale).toFixed(2) + " " + unit;
  return Math.round(ns) + " ns";
}
function bytes(b) {
  const units = [[1073741824, "GiB"], [1048576, "MiB"], [1024, "KiB"]];
  for (const [scale, unit] of units) if (b >= scale) return (b / scale).toFixed(2) + " " + unit;
  return Math.round(b) + " B";
}
function pos(p) { return p && p.file ? p.file + ":" + p.line : ""; }
function label(n) {
  let t = n.name;
  if (n.kind !== "program" && n.kind !== "partner") t += "  " + pos(n.position);
  if (n.call_position) t += "  called at " + pos(n.call_position);
  if (n.kind === "loop") t += "  (" + Math.round(n.iterations) + " iterations)";
  if (n.comm_mean) t += "  [mean transmit " + dur(n.comm_mean.transmission_ns) + ", sync " + dur(n.comm_mean.sync_delay_ns) + ", " + bytes(n.comm_mean.bytes) + "]";
  return t;
}

function banner() {
  const h = data.header, t = document.getElementById("banner");
  const rows = [
    ["command", h.command || "(unknown)"],
    ["ranks", h.ranks + " (" + h.ranks_reported + " in this report) on " + h.hosts.length + " host(s): " + h.hosts.join(", ")],
    ["start", h.start_unix_ns > 0 ? new Date(h.start_unix_ns / 1e6).toISOString() : "unknown"],
    ["end", h.end_unix_ns > 0 ? new Date(h.end_unix_ns / 1e6).toISOString() : "unknown"],
    ["virtual time", dur(h.virtual_ns) + " (longest rank)"],
    ["real time", dur(h.real_ns) + " (longest rank)"],
    ["intrusion", dur(h.intrusion_ns) + " over all ranks (" + (h.real_total_ns > 0 ? (100 * h.intrusion_ns / h.real_total_ns).toFixed(2) : "0.00") + "% of real time)"],
    ["clock", h.clock_source || "(unknown)"],
    ["monitor", h.counters.probe_events + " probe events, " + h.counters.wildcard_decisions + " wildcard decisions, " +
      h.counters.cycle_breaks + " cycle breaks, " + h.counters.control_messages + " control messages, " +
      dur(h.counters.safety_wait_ns) + " safety wait"]];
  if (h.partial) rows.push(["PARTIAL PROFILE", h.partial_reason || "the run did not finish normally"]);
  if (h.counters.folded_activations > 0) rows.push(["FOLDED", h.counters.folded_activations +
    " activations beyond depth " + h.activation_depth + " were folded (counted; their time is in the deepest activation held)"]);
  if (h.counters.forced_decisions > 0) rows.push(["FORCED", h.counters.forced_decisions +
    " wildcard decisions did not wait for ranks stuck in MPI calls that could not answer (the message taken may differ from an unmonitored run)"]);
  if (h.tree_truncated) rows.push(["TREE TRUNCATED", "too many call paths; narrow it with --site"]);
  for (const [k, v] of rows) {
    const tr = el("tr");
    tr.append(el("th", k), el("td", v, /^(PARTIAL|FOLDED|TREE)/.test(k) ? "warn" : ""));
    t.append(tr);
  }
}

const rowsById = new Map();
const hotIds = new Set(data.hot_path.map(n => n.id));
function treeNode(n, depth) {
  const box = el("div", undefined, "node");
  box.dataset.id = n.id;
  const row = el("div", undefined, "row" + (hotIds.has(n.id) ? " hot" : ""));
  const toggle = el("button", n.children.length ? "▾" : "", "toggle");
  toggle.type = "button";
  const cols = el("span", undefined, "cols");
  cols.append(el("span", n.percent.toFixed(1) + "%"), el("span", dur(n.time.mean_ns)),
    el("span", dur(n.time.min_ns)), el("span", dur(n.time.max_ns)),
    el("span", n.time.imbalance.toFixed(2)), el("span", String(n.time.max_rank)),
    el("span", dur(n.self_mean_ns)), el("span", String(Math.round(n.count))));
  const bar = el("span", undefined, "bar"), fill = el("i");
  fill.style.width = Math.min(100, Math.max(0, n.percent)) + "%";
  bar.append(fill);
  // Only the label is indented, so the number columns stay aligned at every depth.
  const text = el("span", undefined, "label");
  text.style.paddingLeft = (1.2 * depth) + "em";
  text.append(toggle, el("span", label(n), "name"));
  row.append(cols, bar, text);
  if (n.recursive) row.append(el("span", "recursive: already in the enclosing activation", "flag"));
  if (n.outside_main) row.append(el("span", "outside main: not added to the program", "flag"));
  if (n.apportioned) row.append(el("span", "~", "flag"));
  if (n.untimed > 0) row.append(el("span", "throttled: time of " + Math.round(n.count - n.untimed) +
    " of " + Math.round(n.count) + " calls", "flag"));
  if (n.counted_only) row.append(el("span", "counted: time in the enclosing loop", "flag"));
  box.append(row);
  if (n.children.length) {
    const kids = el("div", undefined, "children");
    for (const c of n.children) kids.append(treeNode(c, depth + 1));
    box.append(kids);
    toggle.addEventListener("click", () => setCollapsed(box, !box.classList.contains("collapsed")));
    // Open the first levels and the hot path; the rest waits for a click.
    if (depth >= 2 && !hotIds.has(n.id)) setCollapsed(box, true);
  }
  rowsById.set(n.id, box);
  return box;
}
function setCollapsed(box, collapsed) {
  box.classList.toggle("collapsed", collapsed);
  box.querySelector(".toggle").textContent = collapsed ? "▸" : "▾";
}
function reveal(id) {
  let box = rowsById.get(id);
  if (!box) return;
  for (let p = box.parentElement; p; p = p.parentElement)
    if (p.classList && p.classList.contains("node")) setCollapsed(p, false);
  box.scrollIntoView({block: "center"});
  box.firstChild.style.outline = "2px solid #36c";
}

function icicle() {
  const host = document.getElementById("icicle");
  if (!data.tree) return;
  const width = host.clientWidth || 1000;
  let maxDepth = 0;
  const palette = {program: "#9ab", procedure: "#e8a33d", loop: "#6aa84f", comm: "#3d85c6", partner: "#8e7cc3"};
  function place(n, x, w, depth) {
    if (w < 1) return;
    maxDepth = Math.max(maxDepth, depth);
    const box = el("div", n.name);
    box.style.left = x + "px"; box.style.width = w + "px"; box.style.top = depth * 20 + "px";
    box.style.background = palette[n.kind] || "#ccc";
    box.title = label(n) + "\n" + dur(n.time.total_ns) + " (" + n.percent.toFixed(1) + "%)";
    box.addEventListener("click", () => reveal(n.id));
    host.append(box);
    // Children share the parent's width by the time they add to it, never more than the parent.
    const sum = n.children.reduce((s, c) => s + c.counted_ns, 0);
    const scale = Math.max(n.time.total_ns, sum);
    let cx = x;
    for (const c of n.children) {
      const cw = scale > 0 ? w * c.counted_ns / scale : 0;
      place(c, cx, cw, depth + 1);
      cx += cw;
    }
  }
  place(data.tree, 0, width, 0);
  host.style.height = (maxDepth + 1) * 20 + "px";
}

// A table `id` with a header row; cells are numbers (right-aligned) but for the last column
// when `textLast`.
function table(id, heads, rows, textLast = true) {
  const t = document.getElementById(id), head = el("tr");
  const cls = i => textLast && i + 1 === heads.length ? "" : "num";
  heads.forEach((h, i) => head.append(el("th", h, cls(i))));
  t.append(head);
  for (const cells of rows) {
    const tr = el("tr");
    cells.forEach((c, i) => tr.append(el("td", c, cls(i))));
    t.append(tr);
  }
}
function pct(p) { return p.toFixed(2) + "%"; }
function timeSplit() {
  const s = data.time_split;
  const rows = s.ranks.map(r => [String(r.rank), dur(r.application_ns), dur(r.mpi_ns), pct(r.mpi_percent)]);
  for (const k of ["min", "mean", "max"])
    rows.push([k, dur(s.application[k + "_ns"]), dur(s.mpi[k + "_ns"]), pct(s.mpi_percent[k])]);
  table("timesplit", ["rank", "application", "MPI", "MPI%"], rows, false);
}
function functions() {
  table("functions", ["time", "MPI%", "app%", "count", "sites", "function"],
    data.mpi_functions.map(f => [dur(f.time_ns), pct(f.mpi_percent), pct(f.application_percent),
      String(f.count), String(f.sites), f.name]));
}
function statements() {
  table("statements", ["%total", "total", "transmit", "sync", "bytes", "count", "partners", "statement"],
    data.statements.map(s => [s.percent.toFixed(1) + "%", dur(s.time.total_ns), dur(s.transmission_ns),
      dur(s.sync_delay_ns), bytes(s.bytes), String(s.count), String(s.partners), s.name + "  " + pos(s.position)]));
}
function messageSizes() {
  const classes = ["0 B", "1-16 B", "16-256 B", "256 B-4 KiB", "4-64 KiB", "64 KiB-1 MiB", "1-16 MiB", "16 MiB+"];
  const sizes = m => m.sizes_recorded
    ? m.size_classes.map((n, c) => n > 0 ? classes[c] + " x" + n : "").filter(s => s).join(", ")
    : "not recorded";
  table("messagesizes", ["messages", "bytes", "mean", "min", "max", "sizes", "statement"],
    data.message_sizes.map(m => [String(m.sizes_recorded ? m.messages : m.count), bytes(m.bytes),
      bytes(m.mean_bytes), m.sizes_recorded ? bytes(m.min_bytes) : "-",
      m.sizes_recorded ? bytes(m.max_bytes) : "-", sizes(m), m.name + "  " + pos(m.position)]));
}

function folded() {
  table("folded", ["procedure", "folded call sites"],
    data.folded.map(f => [f.name + "  " + pos(f.position), String(f.call_sites)]));
}

function heatmap() {
  const canvas = document.getElementById("heatmap"), select = document.getElementById("metric");
  const n = data.matrix.ranks;
  if (n <= 0) return;
  const cellPx = Math.max(1, Math.min(40, Math.floor(600 / n)));
  canvas.width = canvas.height = n * cellPx;
  const value = (c, m) => m === "time" ? c.transmission_ns + c.sync_delay_ns : c[m];
  function draw() {
    const m = select.value, ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fafafa";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    const top = data.matrix.cells.reduce((t, c) => Math.max(t, value(c, m)), 1);
    for (const c of data.matrix.cells) {
      // Log scale: a few heavy pairs must not hide the rest.
      const v = Math.log1p(value(c, m)) / Math.log1p(top);
      ctx.fillStyle = "rgb(255," + Math.round(230 * (1 - v)) + "," + Math.round(200 * (1 - v)) + ")";
      ctx.fillRect(c.partner * cellPx, c.rank * cellPx, cellPx, cellPx);
    }
  }
  const byPair = new Map(data.matrix.cells.map(c => [c.rank * n + c.partner, c]));
  select.addEventListener("change", draw);
  canvas.addEventListener("mousemove", e => {
    const r = Math.floor(e.offsetY / cellPx), p = Math.floor(e.offsetX / cellPx);
    const c = byPair.get(r * n + p);
    document.getElementById("cell").textContent = "rank " + r + " -> " + p + ": " +
      (c ? c.messages + " messages, " + bytes(c.bytes) + ", " + dur(c.transmission_ns + c.sync_delay_ns) : "nothing");
  });
  draw();
}

// #selftest: expand a collapsed node and write what became visible, for the headless test.
function selftest() {
  const out = document.getElementById("selftest");
  const rows = id => document.querySelectorAll("#" + id + " tr").length - 1;
  const box = document.querySelector(".node.collapsed");
  if (!box) { out.textContent = "selftest: FAIL no collapsed node"; return; }
  const kids = box.querySelector(".children");
  const hiddenBefore = getComputedStyle(kids).display === "none";
  box.querySelector(".toggle").click();
  const shownAfter = getComputedStyle(kids).display !== "none";
  const names = [...kids.children].map(k => k.querySelector(".name").textContent.split("  ")[0]);
  const ok = hiddenBefore && shownAfter && names.length > 0;
  out.textContent = "selftest: " + (ok ? "PASS" : "FAIL") + " expanded " +
    box.querySelector(".name").textContent.split("  ")[0] + " showing " + names.join(", ") +
    "; icicle boxes " + document.querySelectorAll("#icicle div").length +
    "; statements " + rows("statements") + "; time split rows " + rows("timesplit") +
    "; functions " + rows("functions") + "; message sizes " + rows("messagesizes");
}

banner();
timeSplit();
functions();
const hot = document.getElementById("hotpath");
for (const n of data.hot_path) hot.append(el("li", label(n) + " — " + n.percent.toFixed(1) + "%"));
if (data.tree) document.getElementById("tree").append(treeNode(data.tree, 0));
icicle();
statements();
messageSizes();
folded();
heatmap();
if (location.hash === "#selftest") selftest();
</script>
</body>
</html>
)html";

} // namespace vcmon::report::html
