"""`rankflavor compare QRELS RUN_A RUN_B [RUN ...] [-m SPEC ... | --grid NAME|FILE] [-k K ...]`:
does "A beats B" survive a change of flavor? Also `--grids` (list the named grids) and `--example` (seed 000).
"""

from __future__ import annotations

import argparse
import csv
import sys
from typing import Any

from rankflavor.cli import bounds_table, render
from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.cli.cmd_eval import add_cutoff_and_base_options, add_name_option, add_quiet_option, count_of
from rankflavor.cli.compare_method import print_method, print_pairs
from rankflavor.cli.memory_option import add_max_memory
from rankflavor.cli.render import fmt, text_columns
from rankflavor.cli.test_options import add_test_options, chosen_settings
from rankflavor.errors import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE
from rankflavor.escape import formula_safe, formula_safe_frame


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    p = sub.add_parser("compare", help="compare runs across a grid of flavors: is the winner robust or does it reverse?",
                       epilog=command_epilog("compare"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", nargs="?", help="TREC qrels file")
    p.add_argument("runs", nargs="*", metavar="RUN", help="two or more TREC run files")
    p.add_argument("-m", "--measure", action="append", dest="specs", metavar="SPEC",
                   help="a flavor to compare under (repeatable); replaces the grid")
    p.add_argument("--grid", metavar="NAME|FILE",
                   help="a named grid (see --grids; default 'default') or a file of 'axis: v1 v2' lines and specs")
    add_cutoff_and_base_options(p)
    p.add_argument("--baseline", metavar="RUN", action="append",
                   help="compare each run against this one instead of all pairs (its name, its path as typed, or its "
                        "file name); repeatable: each run against each baseline")
    add_name_option(p)
    add_test_options(p)
    p.add_argument("--query-set", choices=("common", "qrels"), default=None,
                   help="the queries every mean, difference and test is over: common (the default) the judged queries "
                        "every run answers; qrels every judged query, one a run lacks counted as the flavor's "
                        "missing= says (refused under missing=skip: use missing=zero). --table pyterrier takes qrels "
                        "when every flavor has missing=zero (ir_measures' flavors), as PyTerrier's table is")
    p.add_argument("--queries", type=count_of("a number of queries", "--queries 5"), default=5, metavar="N",
                   help="per-query views: the N queries that differ most / change winner (0: none)")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table")
    render.add_csv_option(p)
    p.add_argument("--table", nargs="?", const="text", choices=("text", "markdown", "latex", "pyterrier"),
                   metavar="STYLE",
                   help="print the systems x measures table of a paper instead: each run's mean per measure, marked "
                        "where significantly better (letters; with --baseline: ▲/▼ against it); STYLE text "
                        "(default), markdown or latex; with --format json or csv, that table's cells. STYLE "
                        "pyterrier: PyTerrier's Experiment columns (name, each measure, and with --baseline "
                        "'<m> +', '<m> -', '<m> p-value', '<m> reject', '<m> p-value corrected')")
    p.add_argument("--verify", action="store_true",
                   help="recompute every mean, difference, p-value and Holm correction from the per-query values and "
                        "say on stderr which differ (exit 1 if any)")
    bounds_table.add_option(p, "compare")
    add_quiet_option(p)
    add_on_duplicate(p)
    add_max_memory(p)
    p.add_argument("--grids", action="store_true", help="list the named grids and exit")
    p.add_argument("--example", action="store_true", help="the built-in example (seed 000): gain and cutoff effects")


def print_grids() -> None:
    from rankflavor.compare import GRIDS

    rows = [["grid", "axes", "description"]]
    for g in GRIDS.values():
        axes = "; ".join(f"{a}: {' '.join(v)}" for a, v in g.axes.items()) or f"{len(g.specs)} specs"
        rows.append([g.name, axes, g.description])
    print("\n".join(text_columns(rows)))
    print("\nEach grid is crossed with the cutoffs (-k, default 10) on --base (default ndcg). Your own grid: "
          "--grid FILE with lines 'axis: v1 v2 ...' (crossed) and flavor specs (listed), or repeated -m SPEC.")


def print_comparison(cmp, queries: int = 5, example: bool = False, quiet: bool = False, left_out: str = "") -> None:
    """Verdicts first, then how the numbers were made, the table, and the per-query views and warnings; `quiet`:
    the table alone (and one stderr line counting the warnings left out: the table's and `left_out`'s)."""
    if quiet:
        print_pairs(cmp)
        render.count_left_out("warning\n" * len(cmp.warnings) + left_out, sys.stderr)
        return
    _print_verdicts(cmp)
    if example:
        _print_example_story(cmp)
    print()
    print_method(cmp)
    print()
    print_pairs(cmp)
    if queries > 0 and cmp.scores is not None:
        _print_queries(cmp, queries)
    if len(cmp.warnings):
        print_warnings(cmp.warnings)


def _print_verdicts(cmp, shown: int = 12) -> None:
    """Each pair's verdict (compare/verdicts.py), then per measure the smallest changes of flavor that reverse its
    significant winner, or, where nothing reverses, that only change the order of the means (said as such)."""
    for v in cmp.verdicts.itertuples():
        print(f"verdict {v.run_a} vs {v.run_b}: {v.summary}")
        flips = cmp.flips[(cmp.flips.run_a == v.run_a) & (cmp.flips.run_b == v.run_b)]
        several = cmp.measures.measure.nunique() > 1
        for (measure, kind), block in flips.groupby(["measure", "kind"], sort=False):
            n_axes = int(block.n_axes.iloc[0])
            axes = f"{n_axes} ax{'is' if n_axes == 1 else 'es'}"
            within = f" of {measure}" if several else ""
            if kind == "reversal":
                print(f"  smallest changes of flavor{within} that reverse the significant winner ({axes}):")
                said = "{} significantly better"
            else:
                print(f"  smallest changes of flavor{within} that change the order of the means, not significant on "
                      f"both sides ({axes}):")
                said = "{}'s mean higher"
            for f in block.head(shown).itertuples():
                print(f"    {f.change}, from {f.from_label}: {said.format(f.from_winner)} -> "
                      f"{said.format(f.to_winner)} ({f.to_label})")
            if len(block) > shown:
                print(f"    ... and {len(block) - shown} more (--format json lists them all)")


def _print_queries(cmp, queries: int, pairs: int = 3) -> None:
    """For the first pairs: the queries that differ most under the first flavor, and the queries whose
    winner changes across the pair's first smallest flip, each with its explain command line."""
    from rankflavor.compare.views import query_differences, winner_changes

    for v in cmp.verdicts.head(pairs).itertuples():
        top = query_differences(cmp.scores, cmp.flavors[0], v.run_a, v.run_b, top=queries)
        if len(top):
            print(f"\nqueries where {v.run_a} and {v.run_b} differ most under {cmp.pairs.label.iloc[0]} "
                  f"(explain {v.run_a}; the same with {v.run_b}'s file for the other):")
            for q in top.itertuples():
                print(f"  {q.query}  {q.a:.6f} vs {q.b:.6f} ({q.diff:+.6f})  {q.explain_a}")
        flips = cmp.flips[(cmp.flips.run_a == v.run_a) & (cmp.flips.run_b == v.run_b)]
        if len(flips):
            f = flips.iloc[0]
            changed = winner_changes(cmp.scores, cmp.flavor(f.from_flavor), cmp.flavor(f.to_flavor), v.run_a, v.run_b)
            print(f"\nqueries whose higher run changes with {f.change} (from {f.from_label}): {len(changed)}, "
                  f"the {min(queries, len(changed))} largest swings shown:")
            for q in changed.head(queries).itertuples():
                print(f"  {q.query}  {q.winner_1} -> {q.winner_2}  ({q.a_1 - q.b_1:+.6f} -> {q.a_2 - q.b_2:+.6f})  "
                      f"{q.explain_a_1}")
                print(f"  {' ' * len(q.query)}  {q.explain_a_2}")


def _cell(code: str, n: dict[str, Any]) -> str:
    if code == "ties_across_cutoff":
        if "mean_pessimistic" not in n:
            return f"{n['queries']} q"
        return f"{n['queries']} q, mean {fmt(n['mean_pessimistic'])} / {fmt(n['mean_optimistic'])}"
    if code == "unjudged_in_top":
        share = "null" if n["judged_at_k"] is None else f"{n['judged_at_k']:.3f}"
        return f"{share}" + (f", skip: {fmt(n['mean_unjudged_skip'])}" if "mean_unjudged_skip" in n else "")
    if code == "zero_ideal":
        return f"{n['queries']} q, empty={n['empty']}" + ("" if n["empty"] == "skip" else
                                                          f", without: {fmt(n['mean_without'])}")
    if code == "missing":
        other = next(k for k in n if k.startswith("mean_missing_"))
        return f"{n['queries']} q, missing={n['missing']}, {other[5:].replace('_', '=')}: {fmt(n[other])}"
    return str(n.get("queries", ""))


def print_warnings(frame) -> None:
    """One line per run x flavor with a warning; one column per kind of warning (silent columns dropped)."""
    names = {"ties_across_cutoff": "ties across @k (pessimistic / optimistic)",
             "unjudged_in_top": "judged@k (mean with unjudged=skip)", "zero_ideal": "IDCG=0 queries",
             "missing": "missing queries", "unjudged_queries": "unjudged run queries"}
    codes = [c for c in names if c in set(frame.code)]
    print("\nwarnings (full messages in --format json, or rankflavor eval):")
    rows = [["label", "run", *(names[c] for c in codes[:-1]), names[codes[-1]]]]
    for (label, run), block in frame.groupby(["label", "run"], sort=False):
        by_code = {w.code: w.numbers for w in block.itertuples()}
        rows.append([label, run, *(_cell(c, by_code[c]) if c in by_code else "" for c in codes)])
    print("\n".join(text_columns(rows)))


def _print_example_story(cmp) -> None:
    """Seed 000 in words: each minimal flip of the winner is one separate effect, named by its axis."""
    print("\nseed 000: one query, universe A=3 B=2 C=2 D=0; X = (B, C, A, D), Y = (A, D, B, C); nothing changes "
          "but the flavor")
    changed_axes = {a for f in cmp.flips.itertuples() for a in f.axis.split(",")}
    for f in cmp.flips.itertuples():
        source = cmp.flavor(f.from_flavor)
        held = [f"@{source.cutoff}" if a == "cutoff" else f"{a}={getattr(source, a)}"
                for a in sorted(changed_axes - set(f.axis.split(",")))]
        means = cmp.means.set_index(["label", "run"])["mean"]
        a1, b1 = means[(f.from_label, f.run_a)], means[(f.from_label, f.run_b)]
        a2, b2 = means[(f.to_label, f.run_a)], means[(f.to_label, f.run_b)]
        kind = {"gain": "gain effect", "cutoff": "cutoff effect"}.get(f.axis, f"{f.axis} effect")
        print(f"  {kind}{' at ' + ', '.join(held) if held else ''}: {f.change} ({f.from_label} -> {f.to_label}): "
              f"{f.run_a} {a1:.9f} vs {f.run_b} {b1:.9f} "
              f"becomes {a2:.9f} vs {b2:.9f}: {f.to_winner} overtakes {f.from_winner}")


def print_pyterrier_table(cmp, form: str) -> int:
    """PyTerrier's Experiment table (compare/pyterrier.py): text with a note, json records or csv."""
    from rankflavor.compare.pyterrier import note, to_text

    frame = cmp.pyterrier_table()
    if form == "json":
        render.print_json([{k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
                           for row in frame.to_dict(orient="records")])
    elif form == "csv":
        formula_safe_frame(frame).to_csv(sys.stdout, index=False)
    else:
        sys.stdout.write(to_text(frame) + "\n" + note(cmp) + "\n")
    return EXIT_OK


def write_csv(cmp, stream) -> None:
    writer = csv.writer(stream, lineterminator="\n")
    columns = ["flavor", "run_a", "run_b", "mean_a", "mean_b", "n", "excluded", "diff", "ci_low", "ci_high", "p",
               "p_holm", "significant", "winner", "effect_size", "wins", "ties", "losses", "p_adjusted", "favours",
               "finding", "significant_winner"]
    columns += [c for c in ("unjudged_low", "unjudged_high", "unjudged_verdict", "unjudged_exact", "unjudged_by_range")
                if c in cmp.pairs]
    writer.writerow([*columns, "settings"])
    for row in cmp.pairs[columns].itertuples(index=False):
        writer.writerow([formula_safe("" if v is None or (isinstance(v, float) and v != v) else v) for v in row]
                        + [cmp.settings["canonical"]])


def _default_query_set(table: str | None, grid: Any, cutoffs: Any, base: str) -> str:
    """common; for --table pyterrier, qrels when every flavor has missing=zero (PyTerrier averages every run over
    every judged query, ir_measures counting a missing one as 0)."""
    if table != "pyterrier":
        return "common"
    from rankflavor.compare.grid import labelled_grid

    flavors, _ = labelled_grid(grid, cutoffs, base)
    return "qrels" if flavors and all(f.missing == "zero" for f in flavors) else "common"


def report_verify(cmp) -> int:
    """compare --verify: one stderr line when every number agrees, else one line per number that differs."""
    problems = cmp.verify()
    if not problems:
        sys.stderr.write("verify: every mean, interval, difference, effect size, p-value and correction recomputed "
                         "from the per-query values agrees\n")
        return EXIT_OK
    sys.stderr.write(f"verify: {len(problems)} numbers differ from their recomputation from the per-query values:\n")
    sys.stderr.write("".join(f"  {p}\n" for p in problems))
    return EXIT_INTERNAL


def run(args: argparse.Namespace) -> int:
    if args.grids:
        print_grids()
        return EXIT_OK
    from rankflavor.compare import compare
    from rankflavor.inputs.run_names import parse_name_options

    if args.example:
        from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

        qrels, runs = SEED000_QRELS, list(SEED000_RUNS)
        grid, cutoffs = (args.specs or args.grid or "gain"), (args.cutoffs or [3, 4])
    else:
        if args.qrels is None or len(args.runs) < 2:
            sys.stderr.write("rankflavor: error: compare needs QRELS and at least two runs (or --example, --grids)\n")
            return EXIT_USAGE
        if args.specs and args.grid:
            sys.stderr.write("rankflavor: error: give -m SPEC ... or --grid, not both\n")
            return EXIT_USAGE
        qrels, runs = args.qrels, list(args.runs)
        grid, cutoffs = (args.specs or args.grid), args.cutoffs
    test = "t" if args.table == "pyterrier" and not args.test_given else args.test
    query_set = args.query_set or _default_query_set(args.table, grid, cutoffs, args.base)
    chosen = chosen_settings(args, test)
    cmp = compare(qrels, runs, grid=grid, cutoffs=cutoffs, base=args.base, baseline=args.baseline,
                  on_duplicate=args.on_duplicate, names=parse_name_options(args.names) or None,
                  query_set=query_set, **chosen)
    bounds_table.add_bounds(cmp, args.unjudged_bounds)
    set_warning = "" if cmp.query_set is None or not cmp.query_set.warning() else f"warning: {cmp.query_set.warning()}\n"
    if not args.quiet:
        sys.stderr.write(set_warning)
    elif args.table is not None or args.format != "table":
        render.count_left_out(set_warning, sys.stderr)
    code = _output(args, cmp, set_warning)
    return report_verify(cmp) if code == EXIT_OK and args.verify else code


def _output(args: argparse.Namespace, cmp, set_warning: str) -> int:
    """Print the comparison as args say: --table STYLE, or compare's own output (table, json, csv)."""
    from rankflavor.compare.views import query_differences, winner_changes

    if args.table is not None:
        for combination, reason in cmp.skipped:
            sys.stderr.write(f"skipped: {combination}: {reason}\n")
        if args.table == "pyterrier":
            return print_pyterrier_table(cmp, args.format)
        table = cmp.paper_table()
        if args.format == "json":
            render.print_json(table.to_dict())
        elif args.format == "csv":
            formula_safe_frame(table.to_frame().assign(better_than=lambda f: f.better_than.str.join(" "),
                                                       worse_than=lambda f: f.worse_than.str.join(" "))
                               ).to_csv(sys.stdout, index=False)
        else:
            sys.stdout.write(table.render(args.table))
            bounds_table.print_compare_bounds(cmp, comment="% " if args.table == "latex" else "")
        return EXIT_OK
    if args.format == "json":
        out = cmp.to_dict()
        if args.queries > 0:
            out["top_differences"] = [
                {k: (None if isinstance(x, float) and x != x else x) for k, x in row.items()}
                for v in cmp.verdicts.itertuples()
                for row in query_differences(cmp.scores, cmp.flavors[0], v.run_a, v.run_b, args.queries)
                .to_dict(orient="records")]
            out["winner_changes"] = []
            for v in cmp.verdicts.itertuples():
                flips = cmp.flips[(cmp.flips.run_a == v.run_a) & (cmp.flips.run_b == v.run_b)]
                if len(flips):
                    f = flips.iloc[0]
                    changed = winner_changes(cmp.scores, cmp.flavor(f.from_flavor), cmp.flavor(f.to_flavor),
                                             v.run_a, v.run_b, args.queries)
                    out["winner_changes"] += [{"change": f.change, **row} for row in changed.to_dict(orient="records")]
        render.print_json(out)
    elif args.format == "csv":
        write_csv(cmp, sys.stdout)
    else:
        print_comparison(cmp, args.queries, example=args.example, quiet=args.quiet, left_out=set_warning)
        bounds_table.print_compare_bounds(cmp)
    return EXIT_OK
