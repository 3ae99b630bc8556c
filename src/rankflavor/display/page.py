"""One self-contained HTML page: the sections (display/sections.py, tables.py, warnings_section.py), the data
(display/page_data.py) and the script that draws the charts (plotly.js inlined), the per-query table and the
side-by-side lists (assets/*.js), the styles; nothing is fetched when it opens."""

from __future__ import annotations

import datetime as _dt
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from rankflavor.display import sections, tables, warnings_section
from rankflavor.display.bounds import unjudged_bounds
from rankflavor.display.model import PageModel, build_model
from rankflavor.display.page_data import page_data


def _asset(name: str) -> str:
    return resources.files("rankflavor.display").joinpath("assets", name).read_text(encoding="utf-8")


def _json(data: Any) -> str:
    """JSON safe inside a <script> element (no '</', no '<!--'); a non-finite number is null."""
    return json.dumps(_finite(data), separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")


def _finite(data: Any) -> Any:
    if isinstance(data, float):
        return data if data == data and abs(data) != float("inf") else None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_finite(v) for v in data]
    return data


SCRIPTS = ("core.js", "charts.js", "sides.js", "init.js")  # one scope, in this order


def script() -> str:
    """The page's script: its parts in one function scope."""
    return "(function () {\n\"use strict\";\n" + "\n".join(_asset(name) for name in SCRIPTS) + "\n})();"


def render(model: PageModel, generated: str | None = None) -> str:
    """The page's HTML."""
    from plotly.offline import get_plotlyjs

    generated = generated or _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    flavor_select = '<label class="flavor-pick">flavor <select class="rf-flavor" aria-label="flavor"></select></label>'
    pairs = (f'<section id="pairs"><h2>Every pair</h2>{tables.pair_cards(model)}</section>'
             if model.comparison is not None else "")
    pair_pick = ('<label>pair <select id="rf-side-pair"></select></label>' if model.comparison is not None else "")
    body = f"""
<main>
{sections.header(model, generated)}
<nav><a href="#answer">Answer</a><a href="#summary">Systems × measures</a>{'<a href="#pairs">Pairs</a>' if pairs else ''}
<a href="#distributions">Per query</a><a href="#side">Side by side</a><a href="#queries">Queries</a>
<a href="#sensitivity">Flavor sensitivity</a><a href="#warnings">Warnings</a><a href="#inputs">Inputs</a>
{flavor_select}</nav>
<section id="answer"><h2>What was found</h2>{sections.answer(model)}</section>
<section id="summary"><h2>Systems × measures</h2>{tables.paper_table(model)}{unjudged_bounds(model)}</section>
{pairs}
<section id="distributions"><h2>Per-query values</h2><figure class="chart-box"><figcaption id="rf-dist-caption">
</figcaption><div class="chart" id="rf-dist"></div></figure></section>
<section id="side"><h2>Two lists side by side</h2>
<div class="controls">{pair_pick}<label>query <input id="rf-side-query" list="rf-side-queries" autocomplete="off">
</label><datalist id="rf-side-queries"></datalist><button type="button" id="rf-side-go">show</button></div>
<div id="rf-entries"></div><div id="rf-side"></div>{_lists_note(model)}</section>
<section id="queries"><h2>Queries</h2>
<div class="controls"><input type="search" id="rf-filter" placeholder="filter by query id">
<label>show <select id="rf-only"><option value="set">the queries of the set</option><option value="all">every judged query
</option><option value="outside">outside the set</option><option value="ties">ties across the cutoff</option>
<option value="unjudged">unjudged documents in the top k</option></select></label><span id="rf-count"></span></div>
<div class="scroll"><table id="rf-queries"></table></div><button id="rf-more">show more</button>
<p class="note">Click a column to sort, a row to see the query's two lists side by side. ⚑: a warning on that value
(hover it).</p></section>
<section id="sensitivity"><h2>Flavor sensitivity: the means and what is significant under each flavor</h2>
{tables.sensitivity(model)}</section>
<section id="warnings"><h2>Warnings</h2>{warnings_section.warnings(model)}</section>
<section id="inputs"><h2>Inputs and flavors</h2>{sections.inputs(model)}<h3>Flavors</h3>{sections.legend(model)}</section>
</main>"""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>rankflavor report: {_esc(', '.join(model.runs))}</title>"
            f'<meta name="generator" content="rankflavor {_esc(model.version)}">'
            f"<style>{_asset('page.css')}</style></head><body>{body}\n"
            f'<script type="application/json" id="rf-data">{_json(page_data(model))}</script>\n'
            f"<script>{get_plotlyjs()}</script>\n<script>{script()}</script></body></html>\n")


def _lists_note(model: PageModel) -> str:
    from rankflavor.display.lists import LIST_BUDGET

    return (f'<p class="note">The lists of every query of the set are embedded while they fit the page\'s budget of '
            f"{LIST_BUDGET:,} list rows; beyond, the page says which are.</p>")


def _esc(text: str) -> str:
    from rankflavor.escape import html as escape

    return escape(text, quote=True)


def write_report(qrels: Any, runs: Any, path: str | Path, flavors: Any = None, *, grid: Any = None,
                 cutoffs: list[int] | None = None, baseline: str | None = None, command: str = "",
                 **options: Any) -> PageModel:
    """Evaluate, compare and write the page to `path` (the Python form of `rankflavor report`); the model back."""
    from rankflavor.flavor.project import project_files
    from rankflavor.outputs import check_output, input_paths, write_text

    destination = check_output(path, input_paths(qrels, runs, grid if isinstance(grid, str) and os.path.isfile(grid)
                                                 else None, project_files()), "-o")  # (before the evaluation)
    try:
        model = build_model(qrels, runs, flavors, grid=grid, cutoffs=cutoffs, baseline=baseline,
                            command=command or "rankflavor.display.write_report(...)", **options)
        write_text(destination, render(model))  # (into the folder checked, whatever its name points to by now)
    finally:
        destination.close()
    return model
