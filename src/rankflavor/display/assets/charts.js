// rankflavor report, part 2 of 4: the charts, under the chosen flavor and over the query set only. One panel per run
// for the distributions (no overlapping histograms); per pair, the histogram of a − b in a diverging colour (a
// higher: green, b higher: red, equal: grey) and the scatter of a against b; the measure on every axis.
const COLORS = ["#3b6ea8", "#d9822b", "#4a9a5b", "#b5485d", "#7a5ea8", "#8c6d46", "#c564a6", "#6f7680"];
const POS = "#2f7d46", NEG = "#b3261e", EVEN = "#9aa3af";
const BASE_LAYOUT = { font: { size: 12 }, paper_bgcolor: "#fff", plot_bgcolor: "#fff", margin: { l: 56, r: 12, t: 28, b: 48 },
  hoverlabel: { namelength: -1 } };
const narrow = () => window.matchMedia("(max-width: 600px)").matches;
function plotConfig() { return { displaylogo: false, responsive: true, displayModeBar: narrow() ? false : "hover" }; }
function axis(title, extra) { return Object.assign({ title: { text: title }, zeroline: false, gridcolor: "#eef0f3" }, extra || {}); }

function drawDistributions() {
  const div = byId("rf-dist");
  if (!div || typeof Plotly === "undefined") return;
  const fi = state.flavor, js = setPositions(fi), name = ptxt(flavorLabel(fi));
  const columns = narrow() ? 1 : Math.min(3, D.runs.length), rowsN = Math.ceil(D.runs.length / columns);
  const all = [];
  D.runs.forEach((run) => js.forEach((j) => { const v = value(fi, run, j); if (v !== null) all.push(v); }));
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const size = (hi - lo) / 20 || 0.05;
  const layout = Object.assign({}, BASE_LAYOUT, { grid: { rows: rowsN, columns: columns, pattern: "independent", ygap: 0.35 },
    showlegend: false, height: 60 + 250 * rowsN, annotations: [] });
  const traces = D.runs.map((run, i) => {
    const k = i === 0 ? "" : String(i + 1);
    layout["xaxis" + k] = axis(name, { range: [lo, hi] });
    layout["yaxis" + k] = axis("queries", { rangemode: "tozero" });
    const x = js.map((j) => value(fi, run, j)).filter((v) => v !== null);
    layout.annotations.push({ text: "<b>" + ptxt(run) + "</b> (" + x.length + " queries)", showarrow: false,
      xref: "x" + k + " domain", yref: "y" + k + " domain", x: 0, y: 1.12, xanchor: "left" });
    return { type: "histogram", x: x, xaxis: "x" + k, yaxis: "y" + k, name: ptxt(run), marker: { color: COLORS[i % COLORS.length] },
      xbins: { start: lo, end: hi + size, size: size }, hovertemplate: ptxt(run) + ": %{y} queries in %{x}<extra></extra>" };
  });
  Plotly.react(div, traces, layout, plotConfig());
  byId("rf-dist-caption").innerHTML = txt(flavorLabel(fi)) + " per query, one panel per run, over the " + js.length +
    " queries of the set under this flavor";
}

function pairValues(fi, a, b) {
  const js = setPositions(fi).filter((j) => value(fi, a, j) !== null && value(fi, b, j) !== null);
  return js.map((j) => ({ j: j, a: value(fi, a, j), b: value(fi, b, j), d: value(fi, a, j) - value(fi, b, j) }));
}

function drawPairDiff(div, a, b) {
  const fi = state.flavor, points = pairValues(fi, a, b), name = flavorLabel(fi);
  const tol = 1e-9;
  const parts = [["higher: " + a, (p) => p.d > tol, POS, a], ["higher: " + b, (p) => p.d < -tol, NEG, b], ["equal", (p) => Math.abs(p.d) <= tol, EVEN, ""]];
  const counts = parts.map(([, test]) => points.filter(test).length);
  const widest = Math.max(1e-9, ...points.map((p) => Math.abs(p.d)));
  const size = widest / 15;  // (the same bins for the three colours, symmetric about 0)
  const traces = parts.map(([title, test, color], k) => ({ type: "histogram", x: points.filter(test).map((p) => p.d),
    name: ptxt(title) + " (" + counts[k] + ")", marker: { color: color },
    xbins: { start: -widest - size / 2, end: widest + size / 2, size: size }, autobinx: false,
    hovertemplate: "%{y} queries at %{x}<extra>" + ptxt(title) + "</extra>" }));
  const layout = Object.assign({}, BASE_LAYOUT, { barmode: "overlay", height: narrow() ? 340 : 300,
    legend: narrow() ? { orientation: "v", x: 0, y: -0.35 } : { orientation: "h", y: -0.3 },
    xaxis: axis(narrow() ? ptxt(name) + ": difference (see above)" : ptxt(name) + ": " + ptxt(a) + " − " + ptxt(b)),
    yaxis: axis("queries", { rangemode: "tozero" }),
    shapes: [{ type: "line", x0: 0, x1: 0, yref: "paper", y0: 0, y1: 1, line: { color: "#374151", width: 1, dash: "dot" } }] });
  Plotly.react(div, traces, layout, plotConfig());
  return txt(a) + " − " + txt(b) + " under " + txt(name) + ": " + txt(a) + " higher on " + counts[0] + ", " + txt(b) +
    " higher on " + counts[1] + ", equal on " + counts[2] + " of the " + points.length + " queries of the set";
}

function drawPairScatter(div, a, b) {
  const fi = state.flavor, points = pairValues(fi, a, b), name = flavorLabel(fi);
  const color = points.map((p) => (p.d > 1e-9 ? POS : p.d < -1e-9 ? NEG : EVEN));
  const all = points.flatMap((p) => [p.a, p.b]);
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const trace = { type: "scatter", mode: "markers", x: points.map((p) => p.b), y: points.map((p) => p.a),
    customdata: points.map((p) => p.j), text: points.map((p) => ptxt(D.queries[p.j])),
    marker: { color: color, size: 7, opacity: 0.75 },
    hovertemplate: "query %{text}<br>" + ptxt(a) + " %{y:.4f}<br>" + ptxt(b) + " %{x:.4f}<extra></extra>" };
  const layout = Object.assign({}, BASE_LAYOUT, { height: 300, showlegend: false,
    xaxis: axis(ptxt(b) + " (" + ptxt(name) + ")", { range: [lo, hi], constrain: "domain" }),
    yaxis: axis(ptxt(a) + " (" + ptxt(name) + ")", { range: [lo, hi], scaleanchor: "x", scaleratio: 1, constrain: "domain" }),
    shapes: [{ type: "line", x0: lo, y0: lo, x1: hi, y1: hi, line: { color: "#9aa3af", dash: "dot", width: 1 } }] });
  Plotly.react(div, [trace], layout, plotConfig());
  if (!div.dataset.wired) {
    div.dataset.wired = "1";
    div.on("plotly_click", (ev) => openSide(ev.points[0].customdata, D.pairs.findIndex(([x, y]) => x === a && y === b)));
  }
  return txt(a) + " against " + txt(b) + " under " + txt(name) + ", one point per query of the set (" + points.length +
    "); above the diagonal " + txt(a) + " is higher; click a point for the two lists";
}

function drawPairCharts() {
  if (typeof Plotly === "undefined") return;
  document.querySelectorAll(".pair").forEach((card) => {
    const a = card.dataset.a, b = card.dataset.b;
    card.querySelectorAll(".chart[data-chart]").forEach((div) => {
      const caption = div.dataset.chart === "diff" ? drawPairDiff(div, a, b) : drawPairScatter(div, a, b);
      div.parentElement.querySelector("figcaption").innerHTML = caption;  // (each name escaped and isolated: txt)
    });
  });
}

function drawCharts() { drawDistributions(); drawPairCharts(); }
