"""Per-query views: where two runs differ most under a flavor, and whose winner changes between two flavors.

Every row carries the `rankflavor explain` command lines that print the records behind its values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from rankflavor.compare.pair_tests import winner_of
from rankflavor.compare.scores import Scores
from rankflavor.flavor import Flavor

DIFF_COLUMNS = ["query", "run_a", "run_b", "a", "b", "diff", "winner", "flavor", "explain_a", "explain_b"]
CHANGE_COLUMNS = ["query", "run_a", "run_b", "a_1", "b_1", "winner_1", "a_2", "b_2", "winner_2", "flavor_1",
                  "flavor_2", "explain_a_1", "explain_b_1", "explain_a_2", "explain_b_2"]


def _flavor(f: str | Flavor) -> Flavor:
    return f if isinstance(f, Flavor) else Flavor.parse(f)


def _two(scores: Scores, run_a: str | None, run_b: str | None) -> tuple[str, str]:
    if run_a is None or run_b is None:
        if len(scores.runs) != 2:
            raise ValueError(f"name the two runs to compare; runs: {', '.join(scores.runs)}")
        return scores.runs[0], scores.runs[1]
    return run_a, run_b


def query_differences(scores: Scores, flavor: Flavor, run_a: str | None = None, run_b: str | None = None,
                      top: int | None = 10) -> pd.DataFrame:
    """Queries scored in both runs, sorted by |a - b| (largest first), the first `top` of them."""
    a_name, b_name = _two(scores, run_a, run_b)
    va, vb = scores.values(a_name, flavor), scores.values(b_name, flavor)
    qids = scores.query_ids
    both = np.flatnonzero(~np.isnan(va) & ~np.isnan(vb))
    d = va[both] - vb[both]
    order = both[np.argsort(-np.abs(d), kind="stable")]
    if top is not None:
        order = order[:top]
    rows = [{"query": str(qids[j]), "run_a": a_name, "run_b": b_name, "a": va[j], "b": vb[j], "diff": va[j] - vb[j],
             "winner": winner_of(va[j] - vb[j], a_name, b_name), "flavor": str(flavor),
             "explain_a": scores.explain_command(a_name, str(qids[j]), flavor),
             "explain_b": scores.explain_command(b_name, str(qids[j]), flavor)} for j in order]
    return pd.DataFrame(rows, columns=DIFF_COLUMNS)


def winner_changes(scores: Scores, flavor_1: Flavor, flavor_2: Flavor, run_a: str | None = None,
                   run_b: str | None = None, top: int | None = None) -> pd.DataFrame:
    """Queries whose per-query winner (a, b or tie) differs between the two flavors, largest swing first.

    swing = |(a_1 - b_1) - (a_2 - b_2)|; queries excluded under either flavor are left out.
    """
    a_name, b_name = _two(scores, run_a, run_b)
    a1, b1 = scores.values(a_name, flavor_1), scores.values(b_name, flavor_1)
    a2, b2 = scores.values(a_name, flavor_2), scores.values(b_name, flavor_2)
    qids = scores.query_ids
    ok = ~(np.isnan(a1) | np.isnan(b1) | np.isnan(a2) | np.isnan(b2))
    rows: list[dict[str, Any]] = []
    for j in np.flatnonzero(ok):
        w1, w2 = winner_of(a1[j] - b1[j], a_name, b_name), winner_of(a2[j] - b2[j], a_name, b_name)
        if w1 != w2:
            q = str(qids[j])
            rows.append({"query": q, "run_a": a_name, "run_b": b_name, "a_1": a1[j], "b_1": b1[j], "winner_1": w1,
                         "a_2": a2[j], "b_2": b2[j], "winner_2": w2, "flavor_1": str(flavor_1),
                         "flavor_2": str(flavor_2),
                         "explain_a_1": scores.explain_command(a_name, q, flavor_1),
                         "explain_b_1": scores.explain_command(b_name, q, flavor_1),
                         "explain_a_2": scores.explain_command(a_name, q, flavor_2),
                         "explain_b_2": scores.explain_command(b_name, q, flavor_2),
                         "_swing": abs((a1[j] - b1[j]) - (a2[j] - b2[j]))})
    frame = pd.DataFrame(rows, columns=[*CHANGE_COLUMNS, "_swing"])
    frame = frame.sort_values("_swing", ascending=False, kind="stable").drop(columns="_swing").reset_index(drop=True)
    return frame if top is None else frame.head(top)


def top_differences(qrels: Any, runs: Any, flavor: str | Flavor = "ndcg@10", top: int | None = 10) -> pd.DataFrame:
    """The queries where two runs differ most under `flavor` (DataFrame, with explain command lines)."""
    return query_differences(Scores.load(qrels, runs), _flavor(flavor), top=top)


def changed_winners(qrels: Any, runs: Any, flavor_1: str | Flavor, flavor_2: str | Flavor,
                    top: int | None = None) -> pd.DataFrame:
    """The queries whose winner between two runs changes from `flavor_1` to `flavor_2` (DataFrame)."""
    return winner_changes(Scores.load(qrels, runs), _flavor(flavor_1), _flavor(flavor_2), top=top)
