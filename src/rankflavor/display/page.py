"""One self-contained HTML page: the sections, the charts (display/figures.py, plotly.js inlined), the data and
the script of the per-query table and records, the styles; nothing is fetched when it opens."""

from __future__ import annotations

import datetime as _dt
import html
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from rankflavor.display import sections
from rankflavor.display.bounds import unjudged_bounds
from rankflavor.display.model import PageModel, build_model, page_data
from rankflavor.display.text import html_text


def _asset(name: str) -> str:
    return resources.files("rankflavor.display").joinpath("assets", name).read_text(encoding="utf-8")


def _json(data: Any) -> str:
    """JSON safe inside a <script> element (no '</', no '<!--')."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")


def _charts(model: PageModel) -> tuple[str, str]:
    """(the charts' boxes, their specs as JSON script elements), under the first flavor. Each figure's title
    is the box's caption (HTML, which wraps on a narrow screen; plotly's title would be cut)."""
    import plotly.io as pio

    from rankflavor.display import figures as plots

    figures: list[tuple[Any, str]] = [(plots.distribution(model.scores, model.flavors[0]), "")]
    if model.baseline is not None:
        for run in [r for r in model.runs if r != model.baseline][:3]:
            figures.append((plots.differences(model.scores, run, model.baseline, model.flavors[0]), ""))
            figures.append((plots.scatter(model.scores, model.baseline, run, model.flavors[0]), "clickable"))
    boxes, specs = [], []
    for i, (fig, extra) in enumerate(figures):
        title = html.unescape((fig.layout.title.text or "").split(" <span")[0])  # (plotly_text's entities)
        fig.update_layout(title_text=None, margin_t=36 if fig.layout.showlegend is not False else 12)
        spec = pio.to_json(fig, validate=False).replace("<", "\\u003c")
        specs.append(f'<script type="application/json" id="rf-fig-{i}">{spec}</script>')
        boxes.append(f'<figure class="chart-box"><figcaption>{html_text(title)}</figcaption><div class="chart" '
                     f'data-spec="rf-fig-{i}"{" data-clickable=1" if extra else ""}></div></figure>')
    return "".join(boxes), "".join(specs)


def render(model: PageModel, generated: str | None = None) -> str:
    """The page's HTML."""
    from plotly.offline import get_plotlyjs

    generated = generated or _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    label = model.label(model.flavors[0])
    first = sections.flavor_name(model, str(model.flavors[0]))
    charts, chart_specs = _charts(model)
    summary = sections.verdicts(model) + sections.paper_table(model) + unjudged_bounds(model)
    body = f"""
<main>
{sections.header(model, generated)}
<nav><a href="#summary">Summary</a><a href="#sensitivity">Flavor sensitivity</a><a href="#distributions">Per query</a>
<a href="#queries">Queries &amp; records</a><a href="#warnings">Warnings</a><a href="#inputs">Inputs &amp; flavors</a></nav>
<section id="summary"><h2>Systems × measures</h2>{summary}</section>
<section id="sensitivity"><h2>Flavor sensitivity: the means and what is significant under each flavor</h2>
{sections.sensitivity(model)}</section>
<section id="distributions"><h2>Per-query values <span class="muted">under {first}</span></h2>
<div class="charts">{charts}</div>
<p class="note">Click a point of a scatter plot to open that query's record.</p></section>
<section id="queries"><h2>Queries and their records</h2>
<div class="controls"><label>flavor <select id="rf-flavor"></select></label>
<input type="search" id="rf-filter" placeholder="filter by query id">
<label>show <select id="rf-only"><option value="all">all queries</option>
<option value="record">with an embedded record</option>
<option value="notscored">not scored (zero ideal, missing)</option><option value="ties">ties across the cutoff</option>
<option value="unjudged">unjudged documents in the top k</option></select></label><span id="rf-count"></span></div>
<div class="scroll"><table id="rf-queries"></table></div><button id="rf-more">show more</button>
<p class="note">Click a column to sort, a row to open the query's record (the ranked list with grade, gain, discount and
contribution; the ideal list). Records are embedded for {len(model.picks.why)} queries under {html_text(label)} (the worst,
the largest differences, the winner changes, a sample); any other is printed by the <code>rankflavor explain</code>
command the panel shows. ⚑: a warning on that value (hover it).</p></section>
<section id="warnings"><h2>Warnings</h2>{sections.warnings(model)}</section>
<section id="inputs"><h2>Inputs and flavors</h2>{sections.inputs(model)}<h3>Flavors</h3>{sections.legend(model)}</section>
</main>
<div id="rf-panel" role="dialog" aria-label="query record"></div>"""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>rankflavor report: {_esc(', '.join(model.runs))}</title>"
            f'<meta name="generator" content="rankflavor {_esc(model.version)}">'
            f"<style>{_asset('page.css')}</style></head><body>{body}\n"
            f'<script type="application/json" id="rf-data">{_json(page_data(model))}</script>{chart_specs}\n'
            f"<script>{get_plotlyjs()}</script>\n<script>{_asset('page.js')}</script></body></html>\n")


def _esc(text: str) -> str:
    from html import escape

    return escape(text, quote=True)


def write_report(qrels: Any, runs: Any, path: str | Path, flavors: Any = None, *, grid: Any = None,
                 cutoffs: list[int] | None = None, baseline: str | None = None, command: str = "",
                 **options: Any) -> PageModel:
    """Evaluate, compare and write the page to `path` (the Python form of `rankflavor report`); the model back."""
    from rankflavor.outputs import check_output, input_paths, write_text

    check_output(path, input_paths(qrels, runs, grid if isinstance(grid, str) and os.path.isfile(grid) else None),
                 "-o")  # (before the evaluation: an input is never overwritten)
    model = build_model(qrels, runs, flavors, grid=grid, cutoffs=cutoffs, baseline=baseline,
                        command=command or "rankflavor.display.write_report(...)", **options)
    write_text(path, render(model))
    return model
