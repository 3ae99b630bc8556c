// rankflavor report: the per-query table (sort, filter, flavor), the record drill-down, the charts.
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("rf-data").textContent);
  const PAGE = 25;
  const NOT_SCORED = 1, TIES = 2, UNJUDGED = 4;
  const state = { flavor: 0, filter: "", only: "all", sort: null, dir: 1, shown: PAGE };
  const byId = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
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
  const fmt = (v, d = 4) => (v === null || v === undefined ? "null" : Number(v).toFixed(d));
  const signed = (v) => (v === null ? "null" : (v > 0 ? "+" : "") + Number(v).toFixed(4));
  const others = D.baseline === null ? [] : D.runs.filter((r) => r !== D.baseline);
  const runIndex = Object.fromEntries(D.runs.map((r, i) => [r, i]));
  const queryIndex = new Map(D.queries.map((q, j) => [q, j]));

  function shellQuote(s) { return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }
  function explainCommand(j, run, fi) {  // (HTML: each word isolated, so a U+202E in a path reverses that path only)
    return ["rankflavor", "explain", D.explain.qrels, D.explain.runs[run], "-q", shellQuote(D.queries[j]), "-m",
      shellQuote(D.flavors[fi].spec)].map(txt).join(" ");
  }
  function hasRecord(j) { return D.why[String(j)] !== undefined; }

  // ---- the per-query table -------------------------------------------------------------------------------
  function columns() {
    const cols = [{ key: "query", html: "query", num: false }];  // (html: each name a label of its own)
    D.runs.forEach((r) => cols.push({ key: "run:" + r, html: label(r), num: true }));
    others.forEach((r) => cols.push({ key: "diff:" + r, html: label(r) + " − " + label(D.baseline), num: true }));
    cols.push({ key: "record", html: "record", num: false });
    return cols;
  }
  function cell(j, key) {
    const fi = state.flavor;
    if (key === "query") return D.queries[j];
    if (key === "record") return hasRecord(j) ? 1 : 0;
    const kind = key.slice(0, key.indexOf(":")), run = key.slice(key.indexOf(":") + 1);
    const v = D.values[fi][runIndex[run]][j];
    if (kind === "run") return v;
    const b = D.values[fi][runIndex[D.baseline]][j];
    return v === null || b === null ? null : v - b;
  }
  function rows() {
    const fi = state.flavor;
    const needle = state.filter.trim().toLowerCase();
    let out = [];
    for (let j = 0; j < D.queries.length; j++) {
      if (needle && !D.queries[j].toLowerCase().includes(needle)) continue;
      const flags = D.runs.reduce((acc, _, i) => acc | D.flags[fi][i][j], 0);
      if (state.only === "record" && !hasRecord(j)) continue;
      if (state.only === "notscored" && !(flags & NOT_SCORED)) continue;
      if (state.only === "ties" && !(flags & TIES)) continue;
      if (state.only === "unjudged" && !(flags & UNJUDGED)) continue;
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
  function flagText(j, i) {
    const f = D.flags[state.flavor][i][j];
    const status = D.status[state.flavor][i][String(j)];
    const t = [];
    if (status) t.push(status.replace(/_/g, " "));
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
      const tds = cols.map((c) => {
        if (c.key === "query") return "<td>" + label(D.queries[j]) + "</td>";
        if (c.key === "record") {
          return hasRecord(j) ? '<td class="has-record" title="' + esc(D.why[String(j)].join("; ")) + '">open</td>' : '<td class="muted">explain</td>';
        }
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
    byId("rf-count").textContent = "showing " + Math.min(state.shown, all.length).toLocaleString() + " of " +
      all.length.toLocaleString() + " queries" + (all.length < D.queries.length ? " (filtered from " + D.queries.length.toLocaleString() + ")" : "");
    byId("rf-more").style.display = all.length > state.shown ? "" : "none";
  }

  function setupTable() {
    const select = byId("rf-flavor");
    select.innerHTML = D.flavors.map((f, i) => '<option value="' + i + '" title="' + esc(f.flavor) + '">' + esc(f.label) + "</option>").join("");
    select.addEventListener("change", () => { state.flavor = Number(select.value); renderTable(); });
    byId("rf-filter").addEventListener("input", (e) => { state.filter = e.target.value; state.shown = PAGE; renderTable(); });
    byId("rf-only").addEventListener("change", (e) => { state.only = e.target.value; state.shown = PAGE; renderTable(); });
    byId("rf-more").addEventListener("click", () => { state.shown += PAGE * 5; renderTable(); });
    byId("rf-queries").addEventListener("click", (e) => {
      const th = e.target.closest("th.sortable");
      if (th) {
        const key = th.dataset.key;
        state.dir = state.sort === key ? -state.dir : 1;
        state.sort = key;
        renderTable();
        return;
      }
      const tr = e.target.closest("tbody tr");
      if (tr) openRecord(Number(tr.dataset.j), state.flavor);
    });
    if (others.length) { state.sort = "diff:" + others[0]; state.dir = 1; } else { state.sort = "run:" + D.runs[0]; }
    renderTable();
  }

  // ---- the record drill-down ---------------------------------------------------------------------------
  function gradeClass(g) { return g === null ? "" : "g" + Math.max(0, Math.min(4, Math.round(g))); }
  function listTable(list, hiddenNote) {
    const cols = list.columns;
    const gi = cols.indexOf("grade"), ji = cols.indexOf("judged"), ri = cols.indexOf("rank");
    const head = cols.map((c) => '<th class="' + (c === "doc" ? "" : "num") + '">' + esc(c) + "</th>").join("");
    const body = list.rows.map((row, n) => {
      const prev = n > 0 ? list.rows[n - 1][ri] : 0;
      const gap = ri >= 0 && row[ri] > prev + 1 ? '<tr><td colspan="' + cols.length + '" class="muted">⋯</td></tr>' : "";
      const unjudged = ji >= 0 && row[ji] === false;
      return gap + '<tr class="' + (unjudged ? "unjudged" : "") + '">' + row.map((v, k) => {
        if (k === ji) return '<td class="num">' + (v ? "yes" : "no") + "</td>";
        if (k === gi) return '<td class="num ' + gradeClass(v) + '">' + (v === null ? "unjudged" : v) + "</td>";
        if (typeof v === "number" && !Number.isInteger(v)) return '<td class="num">' + Number(v).toFixed(4) + "</td>";
        return '<td class="' + (typeof v === "number" ? "num" : "") + '">' + (typeof v === "string" ? label(v) : esc(v)) + "</td>";
      }).join("") + "</tr>";
    }).join("");
    return '<div class="scroll"><table><thead><tr>' + head + "</tr></thead><tbody>" + body + "</tbody></table></div>" +
      (hiddenNote ? '<p class="note">' + esc(hiddenNote) + "</p>" : "");
  }
  function recordHtml(j, run, fi) {
    const r = D.records[j + "|" + run + "|" + fi];
    const cmd = '<code class="explain">' + explainCommand(j, run, fi) + "</code>";
    if (!r) {
      return '<div class="record"><h3>' + txt(run) + '</h3><p>This record is not embedded in the page. Print it with:</p>' + cmd + "</div>";
    }
    const parts = Object.entries(r.parts).map(([k, v]) => k + " " + fmt(v)).join(" · ");
    let html = '<div class="record"><h3>' + txt(run) + ': <span class="best">' + fmt(r.value) + "</span> " +
      '<span class="badge ' + (r.status === "ok" ? "ok" : "warn") + '">' + esc(r.status) + "</span></h3>" +
      '<div class="parts">' + esc(parts) + " — " + esc(r.reason) + (r.dropped ? " · " + r.dropped + " rows removed before scoring" : "") + "</div>";
    html += "<h3>Ranked list</h3>" + listTable(r.ranked, r.hidden);
    for (const [name, list] of Object.entries(r.lists)) {
      const more = r.lists_hidden[name] ? "… " + r.lists_hidden[name] + " more rows below the cutoff" : "";
      html += "<details open><summary><b>" + esc(name) + " list</b></summary>" + listTable(list, more) + "</details>";
    }
    return html + '<p class="note">The whole record (every rank): ' + "</p>" + cmd + "</div>";
  }
  function openRecord(j, fi) {
    const panel = byId("rf-panel");
    const f = D.flavors[fi];
    const embedded = D.runs.some((run) => D.records[j + "|" + run + "|" + fi]);
    let html = '<button class="close" id="rf-close">close ✕</button><h2>query ' + label(D.queries[j]) + "</h2>" +
      '<p><b>' + txt(f.label) + '</b><br><code>' + esc(f.flavor) + "</code></p>";
    if (hasRecord(j)) html += '<p class="note">embedded because: ' + esc(D.why[String(j)].join("; ")) + "</p>";
    if (!embedded && hasRecord(j)) {
      const alt = D.flavors.findIndex((_, k) => D.runs.some((run) => D.records[j + "|" + run + "|" + k]));
      if (alt >= 0) html += '<p><a href="#" id="rf-alt" data-f="' + alt + '">see the records under ' + txt(D.flavors[alt].label) + "</a></p>";
    }
    html += D.runs.map((run) => recordHtml(j, run, fi)).join("");
    panel.innerHTML = html;
    panel.classList.add("open");
    panel.scrollTop = 0;
    byId("rf-close").addEventListener("click", () => panel.classList.remove("open"));
    const alt = byId("rf-alt");
    if (alt) alt.addEventListener("click", (e) => { e.preventDefault(); openRecord(j, Number(alt.dataset.f)); });
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") byId("rf-panel").classList.remove("open"); });

  // ---- charts ------------------------------------------------------------------------------------------
  function drawCharts() {
    if (typeof Plotly === "undefined") return;
    // on a phone, a drag over a chart scrolls the page (no zoom box) and the toolbar does not cover the legend
    const narrow = window.matchMedia("(max-width: 600px)").matches;
    document.querySelectorAll(".chart[data-spec]").forEach((div) => {
      const spec = JSON.parse(byId(div.dataset.spec).textContent);
      if (narrow) spec.layout.dragmode = false;
      Plotly.newPlot(div, spec.data, spec.layout, { displaylogo: false, responsive: true, displayModeBar: narrow ? false : "hover" });
      if (div.dataset.clickable) {
        div.on("plotly_click", (ev) => {
          const q = ev.points[0].customdata;
          if (queryIndex.has(q)) openRecord(queryIndex.get(q), 0);
        });
      }
    });
  }

  setupTable();
  drawCharts();
  window.rankflavorReport = { openRecord, state, data: D };
})();
