"""The bounds for unjudged documents as text (`compare --unjudged-bounds`, `eval --unjudged-bounds`):
compare/unjudged_bounds.py makes them."""

from __future__ import annotations

from rankflavor.cli import render
from rankflavor.cli.render import fmt


def add_option(p, command: str) -> None:
    """--unjudged-bounds [GRADE] of `compare` and `eval`."""
    what = ("add each mean's and difference's interval of judgments" if command == "compare" else
            "also print each mean's interval of judgments")
    p.add_argument("--unjudged-bounds", nargs="?", const="top", metavar="GRADE",
                   help=f"{what}: unjudged retrieved docs nonrelevant and relevant at GRADE (default: each query's "
                        "top grade)" + (", and whether each winner is robust to the holes" if command == "compare"
                                        else "") + " (compare/unjudged_bounds.py)")


def add_bounds(cmp, grade: str | None) -> None:
    """compare --unjudged-bounds GRADE: the bounds added to the comparison's tables (nothing without the flag)."""
    if grade is not None:
        from rankflavor.compare.unjudged_bounds import add_unjudged_bounds

        add_unjudged_bounds(cmp, grade)


def _signed(x: float) -> str:
    return "null" if x != x else f"{x:+.4f}"


def print_compare_bounds(cmp, comment: str = "") -> None:
    """Each pair's difference with its interval of judgments and whether its winner is robust to the holes, then
    each run's low and high mean (nothing when the comparison has no bounds); each line after `comment` (`% `
    under a LaTeX table, so that the file still compiles)."""
    if "unjudged_verdict" not in cmp.pairs:
        return
    rows = [["label", "run_a", "run_b", "diff", "unjudged interval", "winner", "robust to unjudged"]]
    for r in cmp.pairs.itertuples():
        rows.append([r.label, r.run_a, r.run_b, _signed(r.diff),
                     f"[{_signed(r.unjudged_low)}, {_signed(r.unjudged_high)}]", r.winner, r.unjudged_verdict])
    lines = ["", "bounds for unjudged documents:", *render.aligned(rows),
             *mean_bounds_lines([(r.label, r.run, r.mean, r.mean_low, r.mean_high) for r in cmp.means.itertuples()]),
             cmp.settings["unjudged_bounds"]["description"]]
    print("\n".join(comment + line if line else comment.rstrip() for line in lines))


def mean_bounds_lines(rows: list[tuple[str, str, float | None, float, float]]) -> list[str]:
    """One line per (flavor label, run): its mean, and its low and high mean."""
    table = [["label", "run", "mean", "unjudged nonrelevant", "unjudged relevant"]]
    table += [[label, run, fmt(mean), fmt(low), fmt(high)] for label, run, mean, low, high in rows]
    return list(render.aligned(table))


def print_eval_bounds(report, grade: str) -> None:
    """eval --unjudged-bounds: each run's mean with its low and high mean."""
    from rankflavor.compare.unjudged_bounds import describe, parse_grade, report_bounds

    print("\nbounds for unjudged documents:")
    print("\n".join(mean_bounds_lines([(label, run, mean, _nan(low), _nan(high))
                                       for label, run, mean, low, high in report_bounds(report, grade)])))
    print(describe(parse_grade(grade)).split("; a difference")[0])


def _nan(x: float | None) -> float:
    return float("nan") if x is None else x
