"""Help text generated from the axis registry (rankflavor.flavor.axes): the axes, their values, examples."""

from __future__ import annotations

from rankflavor.flavor.axes import help_lines

EXAMPLES = ("ndcg@10", "ndcg@10 gain=exp2 ties=average", "dcg@5 discount=log(e)", "trec_eval", "sklearn@10",
            "lightgbm@5 empty=zero")


def axes_epilog() -> str:
    """The flavor grammar, every axis with its values and default, and example specs."""
    lines = ["a flavor spec is METRIC[(params)][@k] or PRESET[@k], then any axes as key=value (in any order):",
             *help_lines(),
             "examples: " + "; ".join(f"'{spec}'" for spec in EXAMPLES),
             "every value's meaning and source: docs/axes.md; presets: rankflavor presets"]
    return "\n".join(lines)
