// rankflavor report, part 3 of 4: two ranked lists side by side, for any query of the set, pair and flavor: the
// query's two values and their difference on top; each run's top k with rank, doc, grade (as the qrels wrote it),
// the metric's columns (gain and contribution for NDCG) and a few ranks under a drawn cutoff; documents both runs
// retrieved highlighted together, unjudged ones marked; the ideal list once; the explain commands for the rest.
function sideRecord(fi, run, j) {
  const F = D.lists.flavors[String(fi)];
  return F && F.records[run] ? F.records[run][String(j)] : undefined;
}

function listTable(rec, other, cutoff, side) {
  const shared = new Set(other ? other.rows.map((r) => r[1]) : []);
  const head = ["rank", "doc", "grade"].concat(rec.columns).map((c) => '<th class="' + (c === "doc" ? "" : "num") + '">' + esc(c) + "</th>").join("");
  const body = rec.rows.map((row) => {
    const [rank, doc, grade, judged] = row;
    const cls = [judged ? "" : "unjudged", shared.has(doc) ? "shared" : "", cutoff !== null && rank === cutoff ? "at-cut" : "",
      cutoff !== null && rank > cutoff ? "below" : ""].join(" ");
    const cells = ['<td class="num">' + rank + "</td>", '<td class="doc" data-doc="' + esc(doc) + '">' + label(doc) + "</td>",
      '<td class="num">' + (judged ? esc(grade) : "unjudged") + "</td>"]
      .concat(row.slice(4).map((v) => '<td class="num">' + (v === null ? "null" : Number.isInteger(v) ? v : Number(v).toFixed(4)) + "</td>"));
    return '<tr class="' + cls + '" data-side="' + side + '">' + cells.join("") + "</tr>";
  }).join("");
  const more = rec.more ? '<p class="note">… ' + rec.more + " more ranked documents below</p>" : "";
  return '<div class="scroll"><table class="side-list"><thead><tr>' + head + "</tr></thead><tbody>" + body + "</tbody></table></div>" + more;
}

function idealHtml(list, title) {
  if (!list || !list.rows.length) return "";
  const head = ["rank", "doc", "grade"].concat(list.columns).map((c) => "<th>" + esc(c) + "</th>").join("");
  const body = list.rows.map((r) => "<tr>" + r.map((v, k) => '<td class="' + (k === 1 ? "doc" : "num") + '">' +
    (k === 1 ? label(v) : v === null ? "null" : typeof v === "number" && !Number.isInteger(v) ? Number(v).toFixed(4) : esc(v)) + "</td>").join("") + "</tr>").join("");
  return "<details><summary><b>" + esc(title) + "</b></summary>" + '<div class="scroll"><table class="side-list">' +
    "<thead><tr>" + head + "</tr></thead><tbody>" + body + "</tbody></table></div></details>";
}

function column(fi, run, j, other) {
  const rec = sideRecord(fi, run, j);
  const cutoff = D.flavors[fi].cutoff;
  if (!rec) return '<div class="side-col"><h4>' + txt(run) + "</h4><p>Not embedded in the page (" + esc(D.lists.note || "") +
    "). Print it with:</p><code class=\"explain\">" + explainCommand(j, run, fi) + "</code></div>";
  const parts = Object.entries(rec.parts).map(([k, v]) => esc(k.toUpperCase()) + " " + fmt(v)).join(" · ");
  return '<div class="side-col"><h4>' + txt(run) + ': <span class="best">' + fmt(rec.value) + "</span> " +
    '<span class="badge ' + (rec.status === "ok" ? "ok" : "warn") + '">' + esc(rec.status) + "</span></h4>" +
    '<p class="parts">' + parts + " — " + esc(rec.reason) + "</p>" + listTable(rec, other, cutoff, run) +
    '<p class="note">Every rank: <code class="explain">' + explainCommand(j, run, fi) + "</code></p></div>";
}

function sameLists(x, y) { return JSON.stringify(x) === JSON.stringify(y); }

function sideHtml(j, fi, pairIndex) {
  const f = D.flavors[fi];
  const runs = D.pairs.length ? D.pairs[pairIndex] : [D.runs[0]];
  const recs = runs.map((run) => sideRecord(fi, run, j));
  const vals = runs.map((run) => value(fi, run, j));
  let top = '<h3>query ' + label(D.queries[j]) + ' <span class="muted">under</span> <span class="flv" title="' + esc(f.flavor) + '">' + txt(f.label) + "</span></h3>";
  if (!inSet(fi, j)) top += '<p class="caveat-line">' + esc(whyOutside(j)) + ": not in any mean or test of this page.</p>";
  else if (runs.length === 2 && vals[0] !== null && vals[1] !== null) {
    const d = vals[0] - vals[1];
    top += '<p class="side-values">' + txt(runs[0]) + " " + fmt(vals[0]) + " · " + txt(runs[1]) + " " + fmt(vals[1]) +
      ' · Δ <span class="' + (d > 0 ? "pos" : d < 0 ? "neg" : "") + '">' + signed(d) + "</span></p>";
  }
  const cols = runs.map((run, k) => column(fi, run, j, recs[1 - k])).join("");
  let ideal = "";
  const lists = recs.filter((r) => r).map((r) => r.lists);
  if (lists.length) {
    const names = Object.keys(lists[0]);
    ideal = names.map((name) => (lists.every((l) => sameLists(l[name], lists[0][name]))
      ? idealHtml(lists[0][name], name + " list (the same for " + (runs.length > 1 ? "both runs" : "the run") + ")")
      : runs.map((run, k) => recs[k] ? idealHtml(recs[k].lists[name], name + " list of " + run) : "").join(""))).join("");
  }
  const cut = f.cutoff === null ? "no cutoff: the first " + D.lists.flavors[String(fi)].depth + " ranks shown" :
    "the line under rank " + f.cutoff + " is the cutoff; greyed ranks below it do not count";
  return top + '<div class="side-cols">' + cols + "</div>" + ideal + '<p class="note">Highlighted: documents both runs ' +
    "retrieved within the ranks shown (hover one to find it in the other list); italic: unjudged; " + esc(cut) + ".</p>";
}

function entryPoints() {
  const box = byId("rf-entries");
  if (!box) return;
  if (!D.pairs.length) { box.innerHTML = ""; return; }
  const [a, b] = D.pairs[state.pair];
  const key = a + "|" + b;
  const fi0 = 0;
  const item = (j) => {
    const d = value(fi0, a, j) !== null && value(fi0, b, j) !== null ? value(fi0, a, j) - value(fi0, b, j) : null;
    return '<button type="button" class="entry" data-j="' + j + '">' + label(D.queries[j]) + ' <span class="muted">' + signed(d) + "</span></button>";
  };
  const differ = (D.differ[key] || []).slice(0, 8).map(item).join("");
  const disagree = (D.disagree[key] || []).slice(0, 8).map(item).join("");
  box.innerHTML = '<p><b>where ' + txt(a) + " and " + txt(b) + " differ most</b> (under " + txt(flavorLabel(0)) + ", a − b): " + differ + "</p>" +
    (disagree ? "<p><b>where the flavors disagree most</b> about this pair: " + disagree + "</p>" : "");
}

function openSide(j, pairIndex, scroll = true) {
  if (pairIndex !== undefined && pairIndex >= 0) state.pair = pairIndex;
  state.query = j;
  const select = byId("rf-side-pair");
  if (select) select.value = String(state.pair);
  byId("rf-side-query").value = D.queries[j];
  byId("rf-side").innerHTML = sideHtml(j, state.flavor, state.pair);
  entryPoints();
  markOverflow();
  if (scroll) byId("side").scrollIntoView({ behavior: "auto", block: "start" });
}
