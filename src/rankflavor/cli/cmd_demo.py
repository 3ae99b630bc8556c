"""`rankflavor demo`: the built-in example of seed 000 (what `make demo` runs): seed 000's four-document
example, where a change of gain reorders X and Y's NDCG on its one query (no test: a worked example, not a sample)."""

from __future__ import annotations

import argparse

from rankflavor.errors import EXIT_OK
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

SPECS = ("ndcg@3", "ndcg@3 gain=exp2", "ndcg@4")


def run_demo() -> None:
    from rankflavor import evaluate
    from rankflavor.cli.render import console as make_console
    from rankflavor.cli.render import print_record, print_report

    report = evaluate(SEED000_QRELS, list(SEED000_RUNS), list(SPECS))
    console = make_console()
    console.print("Seed 000: universe A=3 B=2 C=2 D=0; X = (B, C, A, D), Y = (A, D, B, C)\n", highlight=False)
    print_report(report)
    console.print()  # (the flavors listed under the table, then the leaders)
    x, y = "X.run", "Y.run"
    for spec in SPECS:
        vx, vy = report.mean(x, spec), report.mean(y, spec)
        leader = "X" if vx > vy else "Y"
        console.print(f"{spec:<18} X {vx:.9f}  Y {vy:.9f}  -> {leader} ahead", highlight=False)
    console.print("\nSame lists, same labels: only the flavor changed. The records that explain why:\n")
    for spec in SPECS[:2]:
        for run in (x, y):
            print_record(report.explain(run, "q1", spec))
            console.print()
    problems = report.verify()
    console.print(f"verify(): {len(problems)} disagreements between the scores and their records", highlight=False)


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    sub.add_parser("demo", help="the built-in example (seed 000): a change of gain reorders X and Y on one query",
                   epilog=command_epilog("demo"), formatter_class=argparse.RawDescriptionHelpFormatter)


def run(args: argparse.Namespace) -> int:
    run_demo()
    return EXIT_OK
