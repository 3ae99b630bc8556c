"""Help text: the axes, their values and examples, generated from the axis registry (rankflavor.flavor.axes),
and the runnable examples each subcommand's help ends with (on the built-in example files)."""

from __future__ import annotations

import os
import shlex

from rankflavor.flavor.axes import help_lines

EXAMPLES = ("ndcg@10", "ndcg@10 gain=exp2 ties=average", "dcg@5 discount=log(e)", "trec_eval", "sklearn@10",
            "lightgbm@5 empty=zero")

# what each subcommand's help ends with; $EX is the folder of the built-in example files (rankflavor/examples:
# seed000.qrels, one query q1; X.run and Y.run), set by the first line of the block
COMMAND_EXAMPLES: dict[str, tuple[str, ...]] = {
    "eval": ("rankflavor eval $EX/seed000.qrels $EX/X.run $EX/Y.run -m ndcg@10 -m map",
             "rankflavor eval $EX/seed000.qrels $EX/X.run -m trec_eval.official --format trec",
             "rankflavor eval $EX/seed000.qrels $EX/X.run $EX/Y.run -m 'ndcg@3 gain=exp2' --per-query --format json"),
    "explain": ("rankflavor explain $EX/seed000.qrels $EX/X.run -q q1 -m sklearn@10",
                "rankflavor explain $EX/seed000.qrels $EX/Y.run -q q1 -m 'ndcg@3 gain=exp2' --all",
                "rankflavor explain $EX/seed000.qrels $EX/Y.run -q q1 -m map --format json"),
    "check": ("rankflavor check $EX/seed000.qrels $EX/X.run $EX/Y.run",
              "rankflavor check $EX/seed000.qrels $EX/X.run --format json"),
    "presets": ("rankflavor presets",
                "rankflavor presets sklearn",
                "rankflavor presets --diff sklearn@10 trec_eval@10"),
    "metrics": ("rankflavor metrics",
                "rankflavor metrics --format json"),
    "axes": ("rankflavor axes",
             "rankflavor axes ties"),
    "demo": ("rankflavor demo",),
    "compare": ("rankflavor compare $EX/seed000.qrels $EX/X.run $EX/Y.run --grid gain -k 3 -k 4",
                "rankflavor compare $EX/seed000.qrels $EX/X.run $EX/Y.run -m ndcg@3 -m 'ndcg@3 gain=exp2'",
                "rankflavor compare --grids"),
    "power": ("rankflavor power $EX/seed000.qrels $EX/X.run $EX/Y.run -m ndcg@3 -m 'ndcg@3 gain=exp2' --delta 0.05",
              "rankflavor power $EX/seed000.qrels $EX/X.run $EX/Y.run --grid gain -k 3 --format json"),
    "diff": ("rankflavor diff $EX/seed000.qrels $EX/X.run -m ndcg@3 -m 'ndcg@4 gain=exp2'",
             "rankflavor diff $EX/seed000.qrels $EX/X.run $EX/Y.run -m trec_eval@3 -m sklearn@3 --shapley"),
    "report": ("rankflavor report $EX/seed000.qrels $EX/X.run $EX/Y.run --grid gain -k 3 -o report.html",
               "rankflavor report $EX/seed000.qrels $EX/X.run $EX/Y.run -m ndcg@3 -m map --baseline Y.run"),
    "trec_eval": ("rankflavor trec_eval $EX/seed000.qrels $EX/X.run",
                  "rankflavor trec_eval -q -m ndcg_cut.3,5 -m P.3 --flavors $EX/seed000.qrels $EX/Y.run"),
}


def example_dir() -> str:
    """The folder of the built-in example files (what `rankflavor demo` reads)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def examples_epilog(command: str) -> str:
    """The runnable examples of `command`, with the line that sets $EX when they read the example files."""
    commands = COMMAND_EXAMPLES[command]
    lines = ["examples:"]
    if any("$EX" in c for c in commands):
        lines = ["examples (on the built-in example files; in a POSIX shell, run the EX= line first):",
                 f"  EX={shlex.quote(example_dir())}"]
    return "\n".join([*lines, *(f"  {c}" for c in commands)])


def axes_epilog() -> str:
    """The flavor grammar, every axis with its values and default, and example specs."""
    lines = ["a flavor spec is METRIC[(params)][@k] or PRESET[@k], then any axes as key=value (in any order):",
             *help_lines(),
             "spec examples: " + "; ".join(f"'{spec}'" for spec in EXAMPLES),
             "every value's meaning, source and presets: rankflavor axes [AXIS] (docs/axes.md); "
             "presets: rankflavor presets"]
    return "\n".join(lines)


def command_epilog(command: str, axes: bool = False) -> str:
    """A subcommand's epilog: the axes' summary (when it reads specs), then its examples, last."""
    return (axes_epilog() + "\n\n" if axes else "") + examples_epilog(command)
