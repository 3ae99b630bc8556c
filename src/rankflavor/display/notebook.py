"""Compact HTML for Jupyter (`Report._repr_html_`, `Comparison._repr_html_`): a small table of means, each
flavor by its label with its canonical string on hover; no script, no plotly."""

from __future__ import annotations

from html import escape
from typing import Any

STYLE = "border-collapse:collapse;font-size:12px"
CELL = "padding:2px 8px;border-bottom:1px solid #ddd;text-align:right"
HEAD = "padding:2px 8px;border-bottom:2px solid #bbb;text-align:left"


def _num(x: Any) -> str:
    return "null" if x is None or x != x else f"{x:.4f}"


def _table(runs: list[str], flavors: list[tuple[str, str]], cell: Any) -> str:
    head = "".join(f'<th style="{HEAD}" title="{escape(c)}">{escape(label)}</th>' for label, c in flavors)
    rows = "".join(f'<tr><th style="{HEAD}">{escape(r)}</th>'
                   + "".join(f'<td style="{CELL}">{cell(r, c)}</td>' for _, c in flavors) + "</tr>" for r in runs)
    return f'<table style="{STYLE}"><thead><tr><th style="{HEAD}">run</th>{head}</tr></thead><tbody>{rows}</tbody></table>'


def report_html(report: Any, shown: int = 12) -> str:
    """The means (runs x flavors, the first `shown` flavors), the counts of queries and warnings."""
    flavors = list(dict.fromkeys((r.label, str(r.flavor)) for r in report.results))
    means = {(r.run, str(r.flavor)): r.mean for r in report.results}
    warned = sum(len(r.warnings) for r in report.results)
    more = f" (first {shown} of {len(flavors)} flavors)" if len(flavors) > shown else ""
    return (f"<div><b>rankflavor Report</b>: {len(report.runs)} runs x {len(flavors)} flavors, "
            f"{int(report.dataset.judged.sum())} judged queries, {warned} warnings{more}; hover a flavor for its "
            f"full string"
            + _table(report.runs, flavors[:shown], lambda r, c: _num(means.get((r, c)))) + "</div>")


def comparison_html(cmp: Any, shown: int = 12) -> str:
    """The verdicts, then the paper table (means with significance marks) of the first `shown` flavors."""
    table = cmp.paper_table()
    verdicts = "".join(f"<li>{escape(v.run_a)} vs {escape(v.run_b)}: <b>{escape(v.verdict)}</b>: "
                       f"{escape(v.summary.split(': ', 1)[-1])}</li>" for v in cmp.verdicts.itertuples())
    flavors = list(zip(table.measures, table.flavors, strict=True))[:shown]
    by_flavor = dict(zip(table.flavors, table.measures, strict=True))

    def cell(run: str, flavor: str) -> str:
        measure = by_flavor[flavor]
        return _num(table.means[(run, measure)]) + escape(table.marks(run, measure))

    return (f"<div><b>rankflavor Comparison</b>: {len(cmp.runs)} runs x {len(cmp.flavors)} flavors"
            f'<ul style="margin:4px 0">{verdicts}</ul>' + _table(table.runs, flavors, cell)
            + f'<div style="font-size:11px;color:#666">{escape(table.note)}</div></div>')
