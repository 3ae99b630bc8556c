"""Text renderings for the terminal (plain aligned columns) and CSV."""

from __future__ import annotations

import csv
from typing import IO, TYPE_CHECKING, Any

from rankflavor.escape import cell, formula_safe

if TYPE_CHECKING:
    from rankflavor.report.result import ReportView


def add_csv_option(p: Any) -> None:
    """--csv-formulas (eval, compare, power): CSV cells a spreadsheet would evaluate written as they are."""
    p.add_argument("--csv-formulas", action="store_true",
                   help="with --format csv, write a text cell that starts with = + - @, a tab or a CR as it is "
                        "(default: with a leading ' so a spreadsheet shows it rather than evaluating it)")


def print_json(obj: Any) -> None:
    """The JSON form of a command's output on stdout, indented, with a final newline."""
    import json
    import sys

    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")


def console():
    import sys

    from rich.console import Console

    from rankflavor.escape import raw

    return Console(file=raw(sys.stdout), soft_wrap=False)  # (rich's own sequences beneath the CLI's Visible stream)


def fmt(x: Any, digits: int = 6) -> str:
    """A number for a text table: `digits` decimals for a float, null for None or NaN."""
    if x is None or (isinstance(x, float) and x != x):
        return "null"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def text_columns(rows: list[list[str]]) -> list[str]:
    """Left-aligned plain-text columns; the last column is never wrapped or cut (it holds the flavor). Each cell's
    control characters, tab and newline shown as `\\uXXXX` (rankflavor/escape.py `cell`)."""
    rows = [[cell(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) + "  " + r[-1] for r in rows]


# a metric's `aggregate`, as the table says it
SUMMARY_KIND = {"mean": "mean", "sum": "sum", "gm": "geomean", "log_gm": "geomean"}


def summary_cell(value: float | None, aggregate: str) -> str:
    """A summary for a text table: a sum of whole counts without decimals (as trec_eval prints num_ret), else
    fmt's six decimals."""
    if aggregate == "sum" and value is not None and value == value and float(value).is_integer():
        return str(int(value))
    return fmt(value)


def flavor_key(pairs: list[tuple[str, Any]], title: str = "flavors") -> list[str]:
    """The lines under a table that name each distinct flavor once, keyed by its label (`label: flavor`): the
    table's rows carry the label, JSON and CSV the whole flavor per row."""
    seen: dict[tuple[str, str], None] = dict.fromkeys((label, str(flavor)) for label, flavor in pairs)
    return [f"\n{title}:", *(f"  {label}: {flavor}" for label, flavor in seen)] if seen else []


def print_report(report: ReportView, per_query: bool = False) -> None:
    """One line per run x flavor: run, label (the name the user gave the flavor), mean, n (the queries it
    averages), counts; then each label's full canonical flavor once (never abbreviated); either engine's report.
    A metric whose summary is not the mean (trec_eval's counts: the sum over queries; gm_map: the geometric
    mean) turns the `mean` column into `summary` with a `kind` column beside it."""
    kinds = [result.metric.aggregate for result in report.results]
    plain_means = all(kind == "mean" for kind in kinds)
    rows = [["run", "label", *(["mean"] if plain_means else ["summary", "kind"]), "n", "scored", "zero_ideal",
             "missing"]]
    for result, kind in zip(report.results, kinds, strict=True):
        c = result.counts
        n = result.denominator()["queries"]
        summary = [fmt(result.mean)] if plain_means else [summary_cell(result.mean, kind), SUMMARY_KIND[kind]]
        rows.append([result.run, result.label, *summary, str(n), str(c["scored"]),
                     str(c[result.metric.undefined_status]), str(c["missing"])])
    for line in aligned(rows):
        print(line)
    for line in flavor_key([(result.label, result.flavor) for result in report.results]):
        print(line)
    if per_query:
        for result in report.results:
            print(f"\n{cell(result.run)} | {cell(result.label)}")
            parts = result.parts
            rows = [["query", "value", *parts, "status"]]
            rows += [[r["query"], fmt(r["value"]), *(fmt(r[p]) for p in parts), r["status"]]
                     for r in result.per_query()]
            for line in text_columns(rows):
                print(line)


def aligned(rows: list[list[str]]) -> list[str]:
    """Left-aligned plain-text columns, trailing spaces stripped (each cell as `text_columns`')."""
    rows = [[cell(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def print_warnings(report: ReportView, stream: IO[str]) -> None:
    """Every result's warnings, one line each, named by run and label (on stderr: stdout stays the table)."""
    for result in report.results:
        for warning in result.warnings:
            stream.write(f"warning: {result.run} {result.label}: {warning}\n")


def count_left_out(text: str, stream: IO[str]) -> None:
    """--quiet: one line counting the warnings left out of `text` (what stderr would have held), if any."""
    n = sum(line.startswith("warning") for line in text.splitlines())
    if n:
        stream.write(f"rankflavor: {n} warning{'s' if n > 1 else ''} not shown (--quiet); run without -q to read "
                     f"{'them' if n > 1 else 'it'}\n")


def _table(title: str, header: list[str], rows: list[list[str]]) -> list[str]:
    """A titled plain-text table, columns aligned (fast for a ranked list of thousands of rows; each cell as
    `text_columns`')."""
    header, rows = [cell(c) for c in header], [[cell(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["", title, *("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
                         for row in [header, ["-" * w for w in widths], *rows])]


DIGITS = {"grade": 3, "gain": 4}  # decimals a record's column is printed with (others: 6)


def _cell(name: str, value: Any) -> str:
    return fmt(value, DIGITS.get(name, 6))


def _universe_example(record) -> dict[str, Any]:
    """A row of the record's judged universe (the metric's columns when the universe is empty)."""
    if record.universe:
        return record.universe[0]
    from rankflavor import registry
    from rankflavor.flavor import Flavor

    flavor = Flavor.parse(record.flavor)
    return registry.get(flavor.metric).universe_columns(flavor, 0.0, False, 0.0)


def print_record(record, hidden: str = "", universe: bool = True) -> None:
    """Print the record behind one score (record_lines)."""
    print("\n".join(record_lines(record, hidden, universe)))


def record_lines(record, hidden: str = "", universe: bool = True, list_hidden: dict[str, str] | None = None,
                 ) -> list[str]:
    """The record behind one score: the ranked list (then `hidden`, the line counting the rows left out of it),
    what was removed, the metric's lists (ndcg: the ideal list; then `list_hidden[name]`), and with `universe`
    the judged universe."""
    parts = "".join(f"  {name.upper()} {fmt(value, 9)}" for name, value in record.parts.items())
    out = [f"run {record.run}  query {record.query}", f"flavor {record.flavor}",
           f"status {record.status}  value {fmt(record.value, 9)}{parts}", f"why: {record.reason}"]
    if record.ranked:
        columns = [k for k in record.ranked[0] if k not in ("rank", "doc", "score", "grade", "judged", "tie_group")]
        out += _table("ranked list", ["rank", "doc", "score", "grade", *columns, "tie group"],
                      [[str(r["rank"]), r["doc"], repr(r["score"]), fmt(r["grade"], 3) if r["judged"] else "unjudged",
                        *(_cell(k, r[k]) for k in columns), str(r["tie_group"])]
                       for r in record.ranked])
    if hidden:
        out.append(hidden)
    if record.dropped:
        out += _table("removed before scoring", ["doc", "reason"], [[r["doc"], r["reason"]] for r in record.dropped])
    for name, rows in record.lists.items():
        if rows:
            columns = [k for k in rows[0] if k not in ("rank", "doc")]
            out += _table(f"{name} list", ["rank", "doc", *columns],
                          [[str(r["rank"]), r["doc"], *(_cell(k, r[k]) for k in columns)] for r in rows])
        if (list_hidden or {}).get(name):
            out.append(list_hidden[name])
    if universe:
        extra = [k for k in _universe_example(record) if k not in ("doc", "grade", "judged")]
        out += _table("judged universe", ["doc", "grade", "judged", *extra],
                      [[u["doc"], fmt(u["grade"], 3), str(u["judged"]), *(_cell(k, u[k]) for k in extra)]
                       for u in record.universe])
    return out


def print_against(compared, path: str, stream: IO[str]) -> None:
    """The change of each mean from the saved results (report/against.py)."""
    rows = [["run", "saved", "mean", "change", "label"]]
    rows += [[r["run"], fmt(r["saved"]), fmt(r["mean"]), "null" if r["change"] is None else f"{r['change']:+.6f}",
              r["label"]] for r in compared.rows]
    stream.write(f"\nagainst {path}\n" + "\n".join(text_columns(rows)) + "\n")


def write_csv(report: ReportView, stream: IO[str], per_query: bool = False) -> None:
    """CSV: one row per run x flavor (Report.means_frame: the mean, the counts, the warnings), or with
    per_query one row per run x flavor x judged query (Report.to_frame)."""
    frame = report.to_frame() if per_query else report.means_frame()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(list(frame.columns))
    for row in frame.itertuples(index=False):  # (a cell a spreadsheet would evaluate quoted: escape.formula_safe)
        writer.writerow([formula_safe("" if (isinstance(v, float) and v != v) or v is None else v) for v in row])
