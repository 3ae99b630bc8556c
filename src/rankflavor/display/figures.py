"""Plots of a Report or a Comparison with plotly (the `rankflavor[report]` extra): the same figures the HTML
page (`rankflavor report`) shows, for users who make their own.

- `distribution(source, flavor)`: each run's per-query values (histogram, one trace per run);
- `differences(source, run_a, run_b, flavor)`: the per-query differences a - b (histogram);
- `scatter(source, run_a, run_b, flavor)`: run vs run, one point per query (hover: the query id);
- `flavor_heatmap(comparison)`: runs x flavors, each cell a mean (the flavor grid as a heat map).

`source` is a `rankflavor.Report`, a `rankflavor.compare.Comparison` or a `compare.Scores`; `flavor` a Flavor,
a spec or a label the source shows (default: its first flavor). User text (run names, labels, query ids) is
shown as text, never read as plotly's markup (display/text.py `plotly_text`). Each function returns a
`plotly.graph_objects.Figure`: `.show()` in a notebook, `.write_html(...)`, `.update_layout(...)`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import plotly.graph_objects as go
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("rankflavor.plots (display/figures.py) needs plotly: pip install 'rankflavor[report]'") from exc

from rankflavor.display.text import plotly_text
from rankflavor.flavor import Flavor
from rankflavor.report.numbers import TOLERANCE

COLORS = ("#3b6ea8", "#d9822b", "#4a9a5b", "#b5485d", "#7a5ea8", "#8c6d46", "#c564a6", "#6f7680")
LAYOUT: dict[str, Any] = {
    "template": "simple_white", "font": {"family": "system-ui, -apple-system, Segoe UI, sans-serif", "size": 12},
    "margin": {"l": 56, "r": 16, "t": 44, "b": 48}, "height": 340,
    "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1.0},
}


class _Values:
    """Per-query values of (run, flavor) over the judged queries, whatever the source."""

    def __init__(self, source: Any) -> None:
        scores = getattr(source, "scores", None)
        self.report = None if scores is not None or not hasattr(source, "results") else source
        self.scores = scores if scores is not None else (None if self.report is not None else source)
        if self.report is None and self.scores is None:
            raise TypeError("plot a rankflavor Report, Comparison or Scores")
        self.flavors: list[Flavor] = list(source.flavors) if hasattr(source, "flavors") else []
        self.labels: dict[str, str] = dict(getattr(source, "labels", {}) or {})
        if self.report is not None:
            self.labels = {str(r.flavor): r.label for r in self.report.results}

    @property
    def runs(self) -> list[str]:
        return self.report.runs if self.report is not None else self.scores.runs

    def flavor(self, wanted: Flavor | str | None) -> Flavor:
        if wanted is None:
            if not self.flavors:
                raise ValueError("name the flavor to plot")
            return self.flavors[0]
        if isinstance(wanted, Flavor):
            return wanted
        by_label = {label: canonical for canonical, label in self.labels.items()}
        return Flavor.parse(by_label.get(wanted, wanted))

    def label(self, flavor: Flavor) -> str:
        return self.labels.get(str(flavor), flavor.short)

    def values(self, run: str, flavor: Flavor) -> tuple[np.ndarray, np.ndarray]:
        """(query ids, unrounded values; NaN = not scored)."""
        if self.report is not None:
            queries = getattr(self.report.result(run, flavor), "queries", None)
            if queries is None:  # (a report read back from its JSON, rankflavor.load: its per-query rows)
                return self._saved_values(run, flavor)
            return self.report.dataset.query_ids[queries.query], queries.raw_value
        return self.scores.query_ids, self.scores.values(run, flavor)

    def _saved_values(self, run: str, flavor: Flavor) -> tuple[np.ndarray, np.ndarray]:
        """A saved report's per-query values (as saved: rounded where the flavor rounds) over the queries any run
        has a row for, sorted, so that two runs' values pair up query by query."""
        assert self.report is not None
        rows = {r: {row["query"]: row.get("value") for row in self.report.result(r, flavor).per_query()}
                for r in self.runs}
        ids = sorted(set().union(*rows.values()))
        mine = rows[run]
        values = [np.nan if mine.get(q) is None else float(mine[q]) for q in ids]
        return np.array(ids, dtype=object), np.array(values, dtype=np.float64)


def _title(text: str, flavor_label: str) -> dict[str, Any]:
    """A figure's title: `text` (its user text escaped already) and the flavor's label, smaller."""
    note = f"<span style='font-size:12px;color:#666'>({plotly_text(flavor_label)})</span>"
    return {"font": {"size": 14}, "text": f"{text} {note}", "x": 0.01}


def distribution(source: Any, flavor: Flavor | str | None = None, runs: list[str] | None = None,
                 bins: int = 40) -> go.Figure:
    """Histogram of each run's per-query values under one flavor (queries not scored left out)."""
    data = _Values(source)
    f = data.flavor(flavor)
    fig = go.Figure()
    for i, run in enumerate(runs or data.runs):
        _, values = data.values(run, f)
        values = values[~np.isnan(values)]
        fig.add_trace(go.Histogram(x=values, name=plotly_text(run), opacity=0.6, marker_color=COLORS[i % len(COLORS)],
                                   xbins={"start": 0.0, "end": max(1.0, float(values.max(initial=0.0))),
                                          "size": max(1.0, float(values.max(initial=0.0))) / bins},
                                   hovertemplate="%{x}: %{y} queries<extra>" + plotly_text(run) + "</extra>"))
    fig.update_layout(**LAYOUT, barmode="overlay", title=_title("Per-query values", data.label(f)),
                      xaxis_title="value per query", yaxis_title="queries")
    return fig


def _pair(data: _Values, run_a: str | None, run_b: str | None) -> tuple[str, str]:
    if run_a is None or run_b is None:
        if len(data.runs) < 2:
            raise ValueError("two runs are needed")
        return data.runs[0], data.runs[1]
    return run_a, run_b


def differences(source: Any, run_a: str | None = None, run_b: str | None = None, flavor: Flavor | str | None = None,
                bins: int = 41) -> go.Figure:
    """Histogram of the per-query differences a - b over the queries scored in both runs; bars right of 0 are
    queries run_a wins."""
    data = _Values(source)
    f = data.flavor(flavor)
    a, b = _pair(data, run_a, run_b)
    d = data.values(a, f)[1] - data.values(b, f)[1]
    d = d[~np.isnan(d)]
    edge = max(float(np.abs(d).max(initial=0.0)), 1e-9)
    wins = (int((d > TOLERANCE).sum()), int((d < -TOLERANCE).sum()), int((np.abs(d) <= TOLERANCE).sum()))
    fig = go.Figure(go.Histogram(x=d, xbins={"start": -edge, "end": edge, "size": 2 * edge / bins},
                                 marker_color=COLORS[2], hovertemplate="%{x}: %{y} queries<extra></extra>"))
    fig.add_vline(x=0, line={"dash": "dot", "color": "#444", "width": 1}, opacity=1)  # (the template's width is 0)
    pair = f"{plotly_text(a)} − {plotly_text(b)}"
    fig.update_layout(**LAYOUT, title=_title(f"{pair}: + on {wins[0]}, − on {wins[1]}, = on {wins[2]} queries",
                                             data.label(f)),
                      xaxis_title="difference per query", yaxis_title="queries", showlegend=False)
    return fig


def _shared_range(*values: np.ndarray) -> tuple[float, float]:
    """The one range both axes of a run-vs-run scatter share: [0, 1] when every value lies in it (every
    measure bounded by 1: NDCG, AP, P, R, RR, ...), else [min, max] over the values of both runs (DCG, the
    counts, a utility); [0, 1] when there is no value."""
    finite = np.concatenate([v[np.isfinite(v)] for v in values]) if values else np.empty(0)
    if finite.size == 0 or (finite.min() >= 0.0 and finite.max() <= 1.0):
        return 0.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def scatter(source: Any, run_a: str | None = None, run_b: str | None = None, flavor: Flavor | str | None = None,
            ) -> go.Figure:
    """One point per query scored in both runs: x = run_a's value, y = run_b's (hover: the query id; the
    point's `customdata` is the query id). Both axes span the same range (`_shared_range`: [0, 1] for a
    measure bounded by 1), drawn square, with the line y = x across it: points above it are queries run_b
    wins."""
    data = _Values(source)
    f = data.flavor(flavor)
    a, b = _pair(data, run_a, run_b)
    ids, va = data.values(a, f)
    vb = data.values(b, f)[1]
    both = ~np.isnan(va) & ~np.isnan(vb)
    low, high = _shared_range(va[both], vb[both])
    shown = ids[both].astype(str)
    fig = go.Figure(go.Scatter(x=va[both], y=vb[both], mode="markers", customdata=shown,
                               text=[plotly_text(q) for q in shown],
                               marker={"size": 5, "opacity": 0.45, "color": COLORS[0]}, cliponaxis=False,
                               hovertemplate="query %{text}<br>" + plotly_text(a) + " %{x:.4f}<br>" + plotly_text(b)
                                             + " %{y:.4f}<extra></extra>"))
    fig.add_shape(type="line", name="y = x", x0=low, y0=low, x1=high, y1=high, xref="x", yref="y",
                  line={"dash": "dot", "color": "#666", "width": 1.5}, opacity=1, layer="below")
    fig.update_layout(**{**LAYOUT, "height": 380}, title=_title(f"{plotly_text(b)} vs {plotly_text(a)}, per query",
                                                                data.label(f)),
                      xaxis_title=plotly_text(a), yaxis_title=plotly_text(b), showlegend=False)
    # constrain="domain": the square is made by shrinking the plot area, never by widening a range
    ticks = {"dtick": 0.2} if (low, high) == (0.0, 1.0) else {}
    fig.update_xaxes(range=[low, high], constrain="domain", **ticks)
    fig.update_yaxes(range=[low, high], scaleanchor="x", scaleratio=1, constrain="domain", **ticks)
    return fig


def flavor_heatmap(comparison: Any) -> go.Figure:
    """Runs x flavors: each cell the run's mean under the flavor (its label on the axis; hover: the canonical
    flavor), colored by its difference from the flavor's mean over the runs; the highest mean of each flavor is
    marked ● (the highest, significant or not: the verdicts say what is significant)."""
    flavors = [str(f) for f in comparison.flavors]
    labels = [comparison.labels.get(f, f) for f in flavors]
    means = comparison.means.pivot_table(index="run", columns="flavor", values="mean", aggfunc="first", dropna=False)
    means = means.reindex(index=list(comparison.runs), columns=flavors).astype(float)
    z = means.to_numpy()
    centred = z - np.nanmean(z, axis=0, keepdims=True)
    best = np.nanargmax(np.where(np.isnan(z), -np.inf, z), axis=0)
    text = [[("● " if best[j] == i else "") + ("null" if np.isnan(v) else f"{v:.4f}") for j, v in enumerate(row)]
            for i, row in enumerate(z)]
    limit = float(np.nanmax(np.abs(centred))) if np.isfinite(centred).any() else 1.0
    fig = go.Figure(go.Heatmap(z=centred, x=[plotly_text(label) for label in labels],
                               y=[plotly_text(run) for run in comparison.runs], text=text, texttemplate="%{text}",
                               customdata=[[plotly_text(f) for f in flavors]] * len(z), colorscale="RdBu", zmid=0,
                               zmin=-limit or -1, zmax=limit or 1,
                               colorbar={"title": {"text": "mean − flavor's<br>average"}},
                               hovertemplate="%{y} under %{x}<br>%{text}<br>%{customdata}<extra></extra>"))
    fig.update_layout(**{**LAYOUT, "height": 120 + 48 * len(z)},
                      title={"text": "Means under each flavor (●: the highest, significant or not)", "x": 0.01})
    fig.update_xaxes(tickangle=-30)
    return fig
