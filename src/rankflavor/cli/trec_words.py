"""`rankflavor eval` for trec_eval's users: trec_eval's flags answered with the flavor axes that mean the same
(and `rankflavor trec_eval`, which takes them as they are), and trec_eval's bare family names (`-m P`) expanded
into the measures trec_eval prints for them (measures.c's defaults: P_5 ... P_1000), never read as another
measure. The names another dialect reads differently (`ndcg@10` for ranx) are told by flavor/resolve.py
`other_readings` on the way (cli/main.py `_tell_readings`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from rankflavor.dialects.trec_sets import EXPANSIONS
from rankflavor.errors import UsageError

# trec_eval's flag -> (its argument's metavar or None, what it does, the flavor axis that does it)
FLAGS = {
    "-c": (None, "averages over every query of the qrels, a query the run lacks scored over an empty ranking",
           "missing=empty"),
    "-M": ("N", "keeps each query's first N ranked docs", "run_depth=N"),
    "-l": ("N", "counts a doc relevant from grade N (binary measures)", "rel_level=N"),
    "-J": (None, "drops the docs the qrels do not judge, then ranks", "unjudged=skip"),
    "-n": (None, "prints no summary line", None),
}


def add_trec_eval_flags(p: argparse.ArgumentParser) -> None:
    """trec_eval's -c, -M N, -l N, -J, -n, taken (not shown in --help) to be answered by `refuse_trec_eval_flags`."""
    for flag, (metavar, _what, _axis) in FLAGS.items():
        if metavar is None:
            p.add_argument(flag, action="append_const", const=flag, dest="trec_flags", help=argparse.SUPPRESS)
        else:
            p.add_argument(flag, action="append", dest="trec_flags", type=lambda v, f=flag: f"{f} {v}",
                           help=argparse.SUPPRESS)


def refuse_trec_eval_flags(args: argparse.Namespace) -> None:
    """A UsageError naming, for each trec_eval flag given to eval, the axis that means the same and the command
    that takes trec_eval's flags as they are."""
    given = getattr(args, "trec_flags", None)
    if not given:
        return
    parts, axes = [], []
    for item in given:
        flag, _, value = item.partition(" ")
        _metavar, what, axis = FLAGS[flag]
        what = what.replace(" N ", f" {value} ")
        if axis is None:
            parts.append(f"{item} {what} (eval prints each run's mean; --per-query adds each query's values)")
            continue
        axis = axis.replace("N", value)
        parts.append(f"{item} {what}: the axis {axis}")
        axes.append(axis)
    head = "map" if any(axis.startswith("rel_level=") for axis in axes) else "ndcg@10"  # (ndcg reads no rel_level)
    write = f"Write the axes after each spec, e.g. -m '{head} {' '.join(axes)}'; or run" if axes else "Run"
    raise UsageError(f"{', '.join(given)} {'is a flag' if len(given) == 1 else 'are flags'} of trec_eval, not of "
                     f"eval. In trec_eval {'; '.join(parts)}. {write} `rankflavor trec_eval {' '.join(given)} QRELS "
                     "RUN` for trec_eval's command line and output")


def expand_families(specs: list[str], err: TextIO | None = None) -> list[str]:
    """The specs with each trec_eval family name written alone (`P`, `recall`, `ndcg_cut`, `map_cut`, `success`,
    `iprec_at_recall`, `relative_P`, `Rprec_mult`, `unj`; axes may follow) replaced by the measures trec_eval
    prints for it (`trec_eval.P_5` ... `trec_eval.P_1000`), each told on `err` in one line."""
    out: list[str] = []
    for spec in specs:
        words = spec.split()
        if not words or words[0] not in EXPANSIONS:
            out.append(spec)
            continue
        name, axes = words[0], words[1:]
        members = [" ".join([f"trec_eval.{name}_{value}", *axes]) for value in EXPANSIONS[name]]
        own = {"recall": " (rankflavor's uncut recall is set_recall)", "success": "", "P": " (one of them: p@10)",
               "ndcg_cut": " (uncut: ndcg)", "map_cut": " (uncut: map)"}.get(name, "")
        (err or sys.stderr).write(f"{name}: trec_eval's {name}, expanded as trec_eval expands it: "
                                  f"{', '.join(m.split()[0] for m in members)}{own}\n")
        out.extend(members)
    return out
