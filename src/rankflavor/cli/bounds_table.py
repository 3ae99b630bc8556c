"""The bounds for unjudged documents as text (`compare --unjudged-bounds`, `eval --unjudged-bounds`): each mean's
and difference's lowest and highest value over the fills (compare/unjudged_bounds.py makes them)."""

from __future__ import annotations

from rankflavor.cli import render
from rankflavor.cli.render import fmt


def add_option(p, command: str) -> None:
    """--unjudged-bounds [GRADE] of `compare` and `eval`."""
    what = ("add each mean's and difference's lowest and highest value" if command == "compare" else
            "also print each mean's lowest and highest value")
    p.add_argument("--unjudged-bounds", nargs="?", const="top", metavar="GRADE",
                   help=f"{what} over every judgment of the holes (the retrieved docs the qrels do not judge, among "
                        "those the flavor reads), each at 0 or a grade up to GRADE (default: each query's top grade)"
                        + (", and whether each winner is robust to them" if command == "compare" else "")
                        + " (compare/unjudged_bounds.py)")


def add_bounds(cmp, grade: str | None) -> None:
    """compare --unjudged-bounds GRADE: the bounds added to the comparison's tables (nothing without the flag)."""
    if grade is not None:
        from rankflavor.compare.unjudged_bounds import add_unjudged_bounds

        add_unjudged_bounds(cmp, grade)


def _signed(x: float) -> str:
    return "null" if x != x else f"{x:+.4f}"


LOWEST, HIGHEST = "lowest over the fills", "highest over the fills"


def print_compare_bounds(cmp, comment: str = "") -> None:
    """Each pair's difference with its interval over the fills and whether its winner is robust to the holes, then
    each run's lowest and highest mean, the queries enumerated and bounded by their measure's range (nothing when
    the comparison has no bounds); each line after `comment` (`% ` under a LaTeX table, so that the file still
    compiles)."""
    if "unjudged_verdict" not in cmp.pairs:
        return
    rows = [["label", "run_a", "run_b", "diff", "interval over the fills", "winner", "robust to unjudged",
             "enumerated", "by range"]]
    for r in cmp.pairs.itertuples():
        rows.append([r.label, r.run_a, r.run_b, _signed(r.diff),
                     f"[{_signed(r.unjudged_low)}, {_signed(r.unjudged_high)}]", r.winner, r.unjudged_verdict,
                     str(r.unjudged_exact), str(r.unjudged_by_range)])
    settings = cmp.settings["unjudged_bounds"]
    lines = ["", "bounds for unjudged documents:", *render.aligned(rows),
             *mean_bounds_lines([(r.label, r.run, r.mean, r.mean_low, r.mean_high, r.unjudged_exact,
                                  r.unjudged_by_range) for r in cmp.means.itertuples()]),
             *settings["by_range"], settings["description"]]
    print("\n".join(comment + line if line else comment.rstrip() for line in lines))


def mean_bounds_lines(rows: list[tuple[str, str, float | None, float, float, int, int]]) -> list[str]:
    """One line per (flavor label, run): its mean, its lowest and highest mean over the fills, and its queries
    enumerated and bounded by their measure's range."""
    table = [["label", "run", "mean", LOWEST, HIGHEST, "enumerated", "by range"]]
    table += [[label, run, fmt(mean), fmt(low), fmt(high), str(exact), str(by_range)]
              for label, run, mean, low, high, exact, by_range in rows]
    return list(render.aligned(table))


def print_eval_bounds(report, grade: str) -> None:
    """eval --unjudged-bounds: each run's mean with its lowest and highest mean over the fills."""
    from rankflavor.compare.unjudged_bounds import describe, parse_grade, range_notes, report_bounds

    rows = report_bounds(report, grade)
    print("\nbounds for unjudged documents:")
    print("\n".join(mean_bounds_lines([(r.label, r.run, r.mean, _nan(r.low), _nan(r.high), r.exact, r.by_range)
                                       for r in rows])))
    for line in range_notes([(f"{r.label} {r.run}", r.flavor, r.by_range) for r in rows]):
        print(line)
    print(describe(parse_grade(grade), pairs=False))


def _nan(x: float | None) -> float:
    return float("nan") if x is None else x
