"""Compact HTML for Jupyter (`Report._repr_html_`, `Comparison._repr_html_`: a small table of means, each flavor
by its label with its canonical string on hover; `Record._repr_html_`: the value, its parts and why, the ranked
and ideal lists); no script, no plotly."""

from __future__ import annotations

from typing import Any

from rankflavor.escape import html as escape  # (markup escaped, control and bidi characters shown)
from rankflavor.plural import counted

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
    scored = {r.run: r.counts.get("scored") for r in report.results if str(r.flavor) == flavors[0][1]}
    own = ", ".join(f"{escape(run)} {n}" for run, n in scored.items())
    return (f"<div><b>rankflavor Report</b>: {counted(len(report.runs), 'run', 'runs')} x "
            f"{counted(len(flavors), 'flavor', 'flavors')}, "
            f"{report.judged_queries} judged queries, {warned} warnings{more}; hover a flavor for its "
            f"full string"
            + _table(report.runs, flavors[:shown], lambda r, c: _num(means.get((r, c))))
            + f'<div style="font-size:11px;color:#666">Each mean over its run\'s own queries (scored under '
              f"{escape(flavors[0][0])}: {own}); rankflavor.compare.compare compares them over one query set.</div>"
            + "</div>")


def comparison_html(cmp: Any, shown: int = 12) -> str:
    """The verdicts, then the paper table (means with significance marks and intervals) of the first `shown`
    flavors, and its note (the test, the correction, the query set, the settings' canonical string)."""
    table = cmp.paper_table()
    verdicts = "".join(f"<li>{escape(v.run_a)} vs {escape(v.run_b)}: <b>{escape(v.verdict)}</b>: "
                       f"{escape(v.summary.split(': ', 1)[-1])}</li>" for v in cmp.verdicts.itertuples())
    flavors = list(zip(table.measures, table.flavors, strict=True))[:shown]
    by_flavor = dict(zip(table.flavors, table.measures, strict=True))

    def cell(run: str, flavor: str) -> str:
        measure = by_flavor[flavor]
        interval = table.interval(run, measure)  # (each mean's interval, as the note says)
        return (_num(table.means[(run, measure)]) + escape(table.marks(run, measure))
                + (f' <small style="color:#666;white-space:nowrap">{escape(interval)}</small>' if interval else ""))

    over = "" if cmp.query_set is None else f"; every number {escape(cmp.query_set.describe())}"
    return (f"<div><b>rankflavor Comparison</b>: {len(cmp.runs)} runs x {len(cmp.flavors)} flavors{over}"
            f'<ul style="margin:4px 0">{verdicts}</ul>' + _table(table.runs, flavors, cell)
            + f'<div style="font-size:11px;color:#666">{escape(table.note)}</div></div>')


RECORD_DIGITS = {"grade": 3, "gain": 4}  # decimals a record's column is shown with (others: 6), as `explain` prints
RECORD_SKIPPED = ("score", "judged", "tie_group")  # (in record.ranked, not in the compact table)


def _record_cell(name: str, value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool) or not isinstance(value, int | float) or name == "rank":
        return escape(str(value))
    return "null" if value != value else f"{value:.{RECORD_DIGITS.get(name, 6)}f}"


def _record_table(title: str, rows: list[dict[str, Any]], shown: int) -> str:
    """One list of a record (ranked, ideal, ...): rank, doc, grade ('unjudged' for an unjudged doc of the ranked
    list), then the metric's columns; the first `shown` rows, then a line counting the rest."""
    columns = [k for k in rows[0] if k not in RECORD_SKIPPED]
    head = "".join(f'<th style="{HEAD}">{escape(c)}</th>' for c in columns)
    body = "".join("<tr>" + "".join(
        f'<td style="{CELL}">{"unjudged" if c == "grade" and row.get("judged") is False else _record_cell(c, row[c])}'
        "</td>" for c in columns) + "</tr>" for row in rows[:shown])
    hidden = len(rows) - shown
    more = (f'<tr><td colspan="{len(columns)}" style="{CELL}">... {hidden} more row{"s" * (hidden != 1)} (all in '
            f"the record)</td></tr>" if hidden > 0 else "")
    return (f'<table style="{STYLE};margin:4px 12px 4px 0"><caption style="text-align:left">{escape(title)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}{more}</tbody></table>")


def record_html(record: Any, shown: int = 20) -> str:
    """`Record._repr_html_`: run, query, the flavor's short form (its canonical string on hover), the value and
    status with the metric's parts (ndcg: DCG, IDCG), why (a query left out of the mean says so), then the ranked
    list and the metric's lists (ndcg: the ideal) side by side, the first `shown` rows of each."""
    from rankflavor.flavor import Flavor

    short = Flavor.parse(record.flavor).short
    value = "null" if record.value is None else f"{record.value:.6f}"
    parts = "".join(f" &middot; {escape(name.upper())} {_record_cell(name, v)}" for name, v in record.parts.items())
    tables = [("ranked list", record.ranked), *((f"{name} list", rows) for name, rows in record.lists.items()),
              ("removed before scoring", record.dropped)]
    shown_tables = "".join(_record_table(title, rows, shown) for title, rows in tables if rows)
    return (f"<div><b>rankflavor Record</b>: run {escape(record.run)}, query {escape(record.query)}, "
            f'<span title="{escape(record.flavor)}">{escape(short)}</span><br>value <b>{value}</b> '
            f"({escape(record.status)}){parts}<br><i>why: {escape(record.reason)}</i>"
            f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{shown_tables}</div></div>')
