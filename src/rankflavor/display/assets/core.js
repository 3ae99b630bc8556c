// rankflavor report, part 1 of 4 (core.js, charts.js, sides.js, init.js share one scope, page.py wraps them):
// the data, text helpers, the query set, the per-query table, the downloads, the scroll hints.
const D = JSON.parse(document.getElementById("rf-data").textContent);
const PAGE = 25;
const NOT_SCORED = 1, TIES = 2, UNJUDGED = 4;
const state = { flavor: 0, pair: 0, query: null, filter: "", only: "set", sort: null, dir: 1, shown: PAGE };
const byId = (id) => document.getElementById(id);
// control characters (C0 but tab and newline, DEL, C1) and the bidi controls (U+202A-E, U+2066-9) shown as \uXXXX,
// as rankflavor/escape.py `visible`: a U+2069 cannot close an isolate early, a U+202E cannot reverse a panel's line
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const vis = (s) => String(s).replace(CONTROL, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
const esc = (s) => vis(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
// user text (ids, run names, labels) in an element: escaped, isolated in a <bdi> when it holds right-to-left
// or bidi control characters (a U+202E reverses that text only; display/text.py html_text); `label` also
// cuts a long id to LABEL characters, the whole id on hover
const REORDERING = /[\u0590-\u08FF\u200F\u202A-\u202E\u2066-\u2069\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const wrapped = (s) => (/\S{33}/.test(s) ? '<span class="long">' + esc(s) + "</span>" : esc(s));
const txt = (s) => (REORDERING.test(String(s)) ? "<bdi>" + wrapped(String(s)) + "</bdi>" : wrapped(String(s)));
const LABEL = 80;
const label = (s) => {
  const text = String(s);
  if (text.length <= LABEL) return txt(text);
  return '<span class="cut" title="' + esc(text) + '">' + txt(text.slice(0, LABEL)) + "…</span>";
};
// user text in a plotly string: its & < > % and newlines as entities, FSI..PDI around bidi text (text.py plotly_text)
const ptxt = (s) => {
  const t = vis(s).replace(/[&<>%\n\r]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "%": "&#37;", "\n": "&#10;", "\r": "&#13;" }[c]));
  return REORDERING.test(String(s)) ? "\u2068" + t + "\u2069" : t;
};
const fmt = (v, d = 4) => (v === null || v === undefined ? "null" : Number(v).toFixed(d));
const signed = (v) => (v === null ? "null" : (v > 0 ? "+" : "") + Number(v).toFixed(4));
const runIndex = Object.fromEntries(D.runs.map((r, i) => [r, i]));
const queryIndex = new Map(D.queries.map((q, j) => [q, j]));

function inSet(fi, j) { return D.in_set[fi][j] === 1; }
function value(fi, run, j) { return D.values[fi][runIndex[run]][j]; }
function setPositions(fi) { const out = []; for (let j = 0; j < D.queries.length; j++) if (inSet(fi, j)) out.push(j); return out; }
function flavorLabel(fi) { return D.flavors[fi].label; }

function shellQuote(s) { return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }
function explainCommand(j, run, fi) {  // (HTML: each word isolated, so a U+202E in a path reverses that path only)
  return ["rankflavor", "explain", D.explain.qrels, D.explain.runs[run], "-q", shellQuote(D.queries[j]), "-m",
    shellQuote(D.flavors[fi].spec)].map(txt).join(" ");
}

// ---- the per-query table -------------------------------------------------------------------------------
function columns() {
  const cols = [{ key: "query", html: "query", num: false }];  // (html: each name a label of its own)
  D.runs.forEach((r) => cols.push({ key: "run:" + r, html: label(r), num: true }));
  D.pairs.forEach(([a, b], k) => cols.push({ key: "diff:" + k, html: label(a) + " − " + label(b), num: true }));
  return cols;
}
function cell(j, key) {
  const fi = state.flavor;
  if (key === "query") return D.queries[j];
  const kind = key.slice(0, key.indexOf(":")), rest = key.slice(key.indexOf(":") + 1);
  if (!inSet(fi, j)) return null;
  if (kind === "run") return value(fi, rest, j);
  const [a, b] = D.pairs[Number(rest)];
  const x = value(fi, a, j), y = value(fi, b, j);
  return x === null || y === null ? null : x - y;
}
function rows() {
  const fi = state.flavor;
  const needle = state.filter.trim().toLowerCase();
  let out = [];
  for (let j = 0; j < D.queries.length; j++) {
    if (needle && !D.queries[j].toLowerCase().includes(needle)) continue;
    const flags = D.runs.reduce((acc, _, i) => acc | D.flags[fi][i][j], 0);
    if (state.only === "set" && !inSet(fi, j)) continue;
    if (state.only === "outside" && inSet(fi, j)) continue;
    if (state.only === "ties" && !(inSet(fi, j) && flags & TIES)) continue;
    if (state.only === "unjudged" && !(inSet(fi, j) && flags & UNJUDGED)) continue;
    out.push(j);
  }
  if (state.sort) {
    const key = state.sort, dir = state.dir;
    out.sort((a, b) => {
      const x = cell(a, key), y = cell(b, key);
      if (x === null && y === null) return a - b;
      if (x === null) return 1;
      if (y === null) return -1;
      if (x < y) return -dir;
      if (x > y) return dir;
      return a - b;
    });
  }
  return out;
}
function whyOutside(j) {
  const fi = state.flavor;
  if (D.outside[String(j)]) return D.outside[String(j)];
  const status = D.runs.map((r, i) => D.status[fi][i][String(j)]).filter((s) => s);
  return "not scored by every run under this flavor" + (status.length ? " (" + status.join(", ").replace(/_/g, " ") + ")" : "");
}
function flagText(j, i) {
  const f = D.flags[state.flavor][i][j];
  const t = [];
  if (f & TIES) t.push("ties at k");
  if (f & UNJUDGED) t.push("unjudged in top k");
  return t.length ? '<span class="flag" title="' + esc(t.join(", ")) + '">⚑</span>' : "";
}
function renderTable() {
  const cols = columns();
  const head = cols.map((c) => {
    const cls = ["sortable", c.num ? "num" : "", state.sort === c.key ? (state.dir > 0 ? "asc" : "desc") : ""].join(" ");
    return '<th class="' + cls + '" data-key="' + esc(c.key) + '">' + c.html + "</th>";
  }).join("");
  const all = rows();
  const body = all.slice(0, state.shown).map((j) => {
    if (!inSet(state.flavor, j)) {
      return '<tr data-j="' + j + '" class="outside"><td>' + label(D.queries[j]) + '</td><td colspan="' + (cols.length - 1) +
        '" class="muted">' + esc(whyOutside(j)) + "</td></tr>";
    }
    const tds = cols.map((c) => {
      if (c.key === "query") return "<td>" + label(D.queries[j]) + "</td>";
      const v = cell(j, c.key);
      if (c.key.startsWith("diff:")) {
        const cls = v === null ? "" : v > 0 ? "pos" : v < 0 ? "neg" : "";
        return '<td class="num ' + cls + '">' + signed(v) + "</td>";
      }
      return '<td class="num">' + fmt(v) + flagText(j, runIndex[c.key.slice(4)]) + "</td>";
    }).join("");
    return '<tr data-j="' + j + '">' + tds + "</tr>";
  }).join("");
  byId("rf-queries").innerHTML = "<thead><tr>" + head + "</tr></thead><tbody>" + body + "</tbody>";
  const inside = setPositions(state.flavor).length;
  byId("rf-count").textContent = "showing " + Math.min(state.shown, all.length).toLocaleString() + " of " +
    all.length.toLocaleString() + " queries (" + inside.toLocaleString() + " in the set under this flavor, " +
    D.queries.length.toLocaleString() + " judged)";
  byId("rf-more").style.display = all.length > state.shown ? "" : "none";
  markOverflow();
}

// ---- take it away: the per-query values and the comparison, made here (no request) ----------------------
function csvCell(v) {
  let s = v === null || v === undefined ? "" : String(v);
  if (/^[=+\-@\t\r]/.test(s) && Number.isNaN(Number(s))) s = "'" + s;  // (a formula is not run by a spreadsheet)
  return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}
function perQueryCsv() {
  const lines = ["query,in_set,flavor_label,flavor,run,value,status"];
  D.flavors.forEach((f, fi) => D.runs.forEach((run, i) => D.queries.forEach((q, j) => {
    const status = D.status[fi][i][String(j)] || (D.values[fi][i][j] === null ? "not scored" : "ok");
    lines.push([q, inSet(fi, j) ? 1 : 0, f.label, f.flavor, run, D.values[fi][i][j], status].map(csvCell).join(","));
  })));
  return lines.join("\n") + "\n";
}
function download(kind) {
  const text = kind === "csv" ? perQueryCsv() : JSON.stringify(D.comparison_json, null, 2) + "\n";
  const blob = new Blob([text], { type: kind === "csv" ? "text/csv" : "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = kind === "csv" ? "rankflavor-per-query.csv" : "rankflavor-comparison.json";
  document.body.appendChild(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 0);
}

// ---- a box wider than its content shows it: a shadow at the hidden edge and a 'scroll' hint ---------------
function markOverflow() {
  document.querySelectorAll(".scroll").forEach((el) => {
    const over = el.scrollWidth > el.clientWidth;
    el.classList.toggle("overflows", over);
    el.classList.toggle("at-end", !over || el.scrollLeft + el.clientWidth >= el.scrollWidth - 1);
  });
}
