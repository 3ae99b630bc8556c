"""Text renderings for the terminal (plain aligned columns; rich for the presets table) and CSV."""

from __future__ import annotations

import csv
from typing import IO, Any


def print_json(obj: Any) -> None:
    """The JSON form of a command's output on stdout, indented, with a final newline."""
    import json
    import sys

    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")


def _console():
    from rich.console import Console

    return Console(soft_wrap=False)


def _fmt(x: Any, digits: int = 6) -> str:
    if x is None:
        return "null"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def _columns(rows: list[list[str]]) -> list[str]:
    """Left-aligned plain-text columns; the last column is never wrapped or cut (it holds the flavor)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) + "  " + r[-1] for r in rows]


def print_report(report, per_query: bool = False) -> None:
    """One line per run x flavor: run, mean, counts, then the full canonical flavor (never abbreviated)."""
    rows = [["run", "mean", "scored", "zero_ideal", "missing", "flavor"]]
    for result in report.results:
        c = result.counts
        rows.append([result.run, _fmt(result.mean), str(c["scored"]), str(c["zero_ideal"]), str(c["missing"]),
                     str(result.flavor)])
    lines = _columns(rows)
    for line in lines:
        print(line)
    for result in report.results:
        for warning in result.warnings:
            print(f"warning: {result.run} {result.flavor.head}: {warning}")
    if per_query:
        for result in report.results:
            print(f"\n{result.run} | {result.flavor}")
            rows = [["query", "value", "dcg", "idcg", "status"]]
            rows += [[r["query"], _fmt(r["value"]), _fmt(r["dcg"]), _fmt(r["idcg"]), r["status"]]
                     for r in result.per_query()]
            for line in _columns(rows):
                print(line)


def _table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """A titled plain-text table, columns aligned (fast for a ranked list of thousands of rows)."""
    print(f"\n{title}")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


def print_record(record) -> None:
    """The record behind one score: the judged universe, the ranked list, what was removed, the ideal list."""
    print(f"run {record.run}  query {record.query}")
    print(f"flavor {record.flavor}")
    print(f"status {record.status}  value {_fmt(record.value, 9)}  DCG {_fmt(record.dcg, 9)}  IDCG {_fmt(record.idcg, 9)}")
    print(f"why: {record.reason}")
    _table("judged universe", ["doc", "grade", "judged", "gain"],
           [[u["doc"], _fmt(u["grade"], 3), str(u["judged"]), _fmt(u["gain"], 4)] for u in record.universe])
    if record.ranked:
        _table("ranked list", ["rank", "doc", "score", "grade", "gain", "discount", "contribution", "tie group"],
               [[str(r["rank"]), r["doc"], repr(r["score"]), _fmt(r["grade"], 3) if r["judged"] else "unjudged",
                 _fmt(r["gain"], 4), _fmt(r["discount"], 6), _fmt(r["contribution"], 6), str(r["tie_group"])]
                for r in record.ranked])
    if record.dropped:
        _table("removed before scoring", ["doc", "reason"], [[r["doc"], r["reason"]] for r in record.dropped])
    if record.ideal:
        _table("ideal list", ["rank", "doc", "grade", "gain", "discount", "contribution"],
               [[str(r["rank"]), r["doc"], _fmt(r["grade"], 3), _fmt(r["gain"], 4), _fmt(r["discount"], 6),
                 _fmt(r["contribution"], 6)] for r in record.ideal])


def print_presets(rows: list[dict[str, str]]) -> None:
    from rich.table import Table

    table = Table(title="presets", show_lines=True)
    for col in ("preset", "peer", "default_cutoffs", "flavor", "source"):
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(row["preset"], row["peer"], row["default_cutoffs"], row["flavor"],
                      row["source"] + (f" ({row['note']})" if row["note"] else ""))
    _console().print(table)


def write_csv(report, stream: IO[str]) -> None:
    """Tidy CSV: one row per run x flavor x query, plus the mean with query `all`."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(["run", "flavor", "query", "value", "dcg", "idcg", "status"])
    for row in report.to_frame().itertuples(index=False):
        writer.writerow(["" if (isinstance(v, float) and v != v) or v is None else v for v in row])
