// rankflavor report, part 4 of 4: the controls wired (one flavor for every chart, table and list), the first
// side-by-side view, the scroll hints kept true on resize.
function setFlavor(fi) {
  state.flavor = fi;
  document.querySelectorAll("select.rf-flavor").forEach((s) => { s.value = String(fi); });
  renderTable();
  drawCharts();
  if (state.query !== null) openSide(state.query, state.pair, false);
}

function setupControls() {
  const options = D.flavors.map((f, i) => '<option value="' + i + '" title="' + esc(f.flavor) + '">' + esc(f.label) + "</option>").join("");
  document.querySelectorAll("select.rf-flavor").forEach((select) => {
    select.innerHTML = options;
    select.addEventListener("change", () => setFlavor(Number(select.value)));
  });
  const pairSelect = byId("rf-side-pair");
  if (pairSelect) {
    // (an option holds no <bdi>: a name with bidi text is isolated by FSI ... PDI)
    const iso = (s) => (REORDERING.test(String(s)) ? "\u2068" + esc(s) + "\u2069" : esc(s));
    pairSelect.innerHTML = D.pairs.map(([a, b], k) => '<option value="' + k + '">' + iso(a) + " vs " + iso(b) + "</option>").join("");
    pairSelect.addEventListener("change", () => {
      state.pair = Number(pairSelect.value);
      entryPoints();
      if (state.query !== null) openSide(state.query, state.pair, false);
    });
  }
  const list = byId("rf-side-queries");
  list.innerHTML = D.queries.map((q) => '<option value="' + esc(q) + '"></option>').join("");
  const query = byId("rf-side-query");
  const shown = new Map(D.queries.map((q, j) => [vis(q), j]));  // (a suggestion shows an id's control characters)
  const go = () => {
    const j = queryIndex.has(query.value) ? queryIndex.get(query.value) : shown.get(query.value);
    if (j !== undefined) openSide(j, state.pair, false);
  };
  query.addEventListener("change", go);
  byId("rf-side-go").addEventListener("click", go);
  byId("rf-entries").addEventListener("click", (e) => {
    const button = e.target.closest("button.entry");
    if (button) openSide(Number(button.dataset.j), state.pair, false);
  });
  byId("rf-side").addEventListener("mouseover", (e) => {
    const cellEl = e.target.closest("td.doc");
    document.querySelectorAll("td.doc.hover").forEach((c) => c.classList.remove("hover"));
    if (cellEl) document.querySelectorAll('td.doc[data-doc="' + CSS.escape(cellEl.dataset.doc) + '"]').forEach((c) => c.classList.add("hover"));
  });
  document.querySelectorAll("button[data-download]").forEach((b) => b.addEventListener("click", () => download(b.dataset.download)));
}

function setupTable() {
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
    if (tr) openSide(Number(tr.dataset.j), state.pair);
  });
  if (D.pairs.length) { state.sort = "diff:0"; state.dir = 1; } else { state.sort = "run:" + D.runs[0]; }
}

setupControls();
setupTable();
renderTable();
drawCharts();
const first = D.pairs.length ? (D.differ[D.pairs[0][0] + "|" + D.pairs[0][1]] || [])[0] : setPositions(0)[0];
if (first !== undefined) openSide(first, 0, false);
else entryPoints();
document.addEventListener("scroll", markOverflow, { capture: true, passive: true });  // (every box, those drawn later too)
window.addEventListener("resize", () => { markOverflow(); drawCharts(); });
markOverflow();
window.rankflavorReport = { openSide, setFlavor, state, data: D, perQueryCsv };
