"""The verdicts of a comparison, decided once (`decide`) for the CLI, the JSON, the `report` page and the notebook.

A reversal is a change of flavor: the flavors of one measure (one metric: `ndcg@5` and `ndcg@10 gain=exp2` are
flavors of ndcg; a cutoff, a parameter or an axis is a change of flavor) are grouped, and a pair's winner
`reverses` when each run wins under some flavor of the same measure. Different measures disagreeing (MRR favours
A, MAP favours B) is no reversal: it is `measures disagree`, with each measure's difference and whether it is
significant (the pair's tests over the comparison's query set, Holm-corrected over the pairs of a flavor).

Per pair and measure (`measures`): `robust` (one winner under every flavor of the measure), `reverses`,
`partly tied`, `tie` or `none`. Per pair (`verdicts`): `reverses` when some measure reverses, else
`measures disagree` when measures favour different runs, else `robust` / `partly tied` / `tie` / `none` over all
its flavors. `flips`: per pair and reversing measure, the smallest changes of axes that flip the winner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from rankflavor.flavor import Flavor

TIE = "tie"
NONE = "none"  # no query scored in both runs: nothing to compare
DISAGREE = "measures disagree"
FLIP_COLUMNS = ["run_a", "run_b", "measure", "n_axes", "axis", "change", "from_label", "to_label", "from_flavor",
                "to_flavor", "from_winner", "to_winner"]


def describe_change(diffs: list[tuple[str, str, str]]) -> str:
    return ", ".join(f"{axis} {a} -> {b}" for axis, a, b in diffs)


def measure_of(flavor: Flavor) -> str:
    """The measure a flavor is a flavor of: its metric (a cutoff, parameter or axis is a change of flavor)."""
    return flavor.metric


def _flavor_verdict(sub: pd.DataFrame, a: str, b: str, by_str: dict[str, Flavor]) -> dict[str, Any]:
    """Who wins under which flavors of `sub` (one pair's rows), the significant counts, the verdict and its summary
    (robust, reverses, partly tied, tie, none)."""
    won = {w: [by_str[s] for s in sub.flavor[sub.winner == w]] for w in (a, b, TIE, NONE)}
    sig = {w: int(sub.significant[sub.winner == w].sum()) for w in (a, b)}
    n = len(sub)
    if won[a] and won[b]:
        verdict = "reverses"
        summary = (f"reverses: {a} wins under {len(won[a])} of {n} flavors ({sig[a]} significant), "
                   f"{b} under {len(won[b])} ({sig[b]} significant)")
    elif won[a] or won[b]:
        w = a if won[a] else b
        verdict = "robust" if not won[TIE] else "partly tied"
        summary = f"{verdict}: {w} wins under {len(won[w])} of {n} flavors ({sig[w]} significant)"
        if won[TIE]:
            summary += f", tie under {len(won[TIE])}"
    elif won[TIE]:
        verdict, summary = TIE, f"tie under all {n} flavors" if not won[NONE] else f"tie under {len(won[TIE])}"
    else:
        verdict, summary = NONE, "no query is scored in both runs under any flavor"
    if won[NONE] and (won[a] or won[b] or won[TIE]):
        summary += f"; no query scored in both runs under {len(won[NONE])} flavors"
    winner = (a if won[a] else b) if verdict in ("robust", "partly tied") else None
    return {"verdict": verdict, "summary": summary, "won": won, "sig": sig, "n": n, "winner": winner}


def _flips(a: str, b: str, measure: str, won: dict[str, list[Flavor]], label: Callable[[Flavor], str],
           ) -> list[dict[str, Any]]:
    """The smallest changes of axes from a flavor where `a` wins to one of the same measure where `b` wins."""
    best = min(len(f.differences(g)) for f in won[a] for g in won[b])
    rows = []
    for f in won[a]:
        for g in won[b]:
            d = f.differences(g)
            if len(d) == best:
                rows.append({"run_a": a, "run_b": b, "measure": measure, "n_axes": best,
                             "axis": ",".join(x[0] for x in d), "change": describe_change(d),
                             "from_label": label(f), "to_label": label(g), "from_flavor": str(f), "to_flavor": str(g),
                             "from_winner": a, "to_winner": b})
    return rows


def _favours(measure: str, sub: pd.DataFrame, m: dict[str, Any]) -> str:
    """One measure's clause: whom it favours, by how much (one flavor) or under how many flavors, and whether
    that is significant."""
    w = m["winner"]
    if m["verdict"] == "reverses":
        return f"within {measure}, " + m["summary"].split(": ", 1)[1]
    if w is None:
        return f"{measure}: {m['summary']}"
    if m["n"] == 1:
        row = sub.iloc[0]
        significant = "significant" if row.significant else "not significant"
        p_name, p = ("p_" + row.correction, row.p_adjusted) if "correction" in sub else ("p_holm", row.p_holm)
        return f"{measure} favours {w} by {abs(row['diff']):.4f} ({significant}, {p_name} {p:.3g})"
    return f"{measure} favours {w} " + m["summary"].split(f"{w} wins ", 1)[1]


def _disagreement(a: str, b: str, measures: dict[str, dict[str, Any]]) -> str:
    """Whether the disagreement is significant: each side has a measure whose difference is significant, or not."""
    sides = {w: [name for name, m in measures.items() if m["winner"] == w and m["sig"][w]] for w in (a, b)}
    if sides[a] and sides[b]:
        return "the disagreement is significant: each side's difference is"
    shown = sides[a] or sides[b]
    if shown:
        return f"the disagreement is not significant: only {', '.join(shown)}'s difference is"
    return "the disagreement is not significant: neither side's difference is"


def _across_measures(a: str, b: str, per: dict[str, dict[str, Any]], rows: list[dict[str, Any]], verdict: str,
                     summary: str) -> tuple[str, str]:
    """A pair's verdict and summary over several measures: `reverses` when a measure's flavors reverse (those
    measures first), `measures disagree` when measures favour different runs; else the verdict over all flavors."""
    reversing = [r["summary"] for r in rows if r["verdict"] == "reverses"]
    others = [r["summary"] for r in rows if r["verdict"] != "reverses"]
    disagree = {m["winner"] for m in per.values()} - {None} == {a, b}
    if disagree:
        others = [f"{DISAGREE}: {'; '.join(others)}; {_disagreement(a, b, per)}"]
    if reversing:
        return "reverses", "reverses: " + "; ".join(reversing + others)
    return (DISAGREE, others[0]) if disagree else (verdict, summary)


def decide(table: pd.DataFrame, flavors: list[Flavor], pairs: list[tuple[str, str]],
           label: Callable[[Flavor], str]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(verdicts: one row per pair; measures: one row per pair x measure; flips) from the pairs table."""
    by_str = {str(f): f for f in flavors}
    groups: dict[str, list[str]] = {}
    for f in flavors:
        groups.setdefault(measure_of(f), []).append(str(f))
    verdict_rows, measure_rows, flip_rows = [], [], []
    for a, b in pairs:
        sub = table[(table.run_a == a) & (table.run_b == b)]
        overall = _flavor_verdict(sub, a, b, by_str)
        per: dict[str, dict[str, Any]] = {}
        for name, members in groups.items():
            rows = sub[sub.flavor.isin(members)]
            m = per[name] = _flavor_verdict(rows, a, b, by_str)
            if m["verdict"] == "reverses":
                flip_rows += _flips(a, b, name, m["won"], label)
            measure_rows.append({"run_a": a, "run_b": b, "measure": name, "verdict": m["verdict"],
                                 "winner": m["winner"], "flavors": m["n"], "a_wins": len(m["won"][a]),
                                 "b_wins": len(m["won"][b]), "ties": len(m["won"][TIE]),
                                 "a_significant": m["sig"][a], "b_significant": m["sig"][b],
                                 "a_wins_under": [label(f) for f in m["won"][a]],
                                 "b_wins_under": [label(f) for f in m["won"][b]], "summary": _favours(name, rows, m)})
        verdict, summary = overall["verdict"], overall["summary"]
        if len(groups) > 1:
            verdict, summary = _across_measures(a, b, per, measure_rows[-len(groups):], verdict, summary)
        won, sig = overall["won"], overall["sig"]
        if verdict != DISAGREE and (won[a] or won[b]) and not (sig[a] or sig[b]):  # (said once, for the pair)
            summary += "; no difference is significant under any flavor: the order may be chance"
        sensitive = int(sub.tie_sensitive.sum())
        if sensitive:
            summary += (f"; under {sensitive} of them the tie order alone could reverse it (the ranges of the means "
                        "between ties=pessimistic and ties=optimistic overlap)")
        verdict_rows.append({"run_a": a, "run_b": b, "verdict": verdict, "flavors": overall["n"],
                             "a_wins": len(won[a]), "b_wins": len(won[b]), "ties": len(won[TIE]),
                             "a_significant": sig[a], "b_significant": sig[b], "tie_sensitive": sensitive,
                             "a_wins_under": [label(f) for f in won[a]],
                             "b_wins_under": [label(f) for f in won[b]], "summary": summary})
    measures = pd.DataFrame(measure_rows, columns=["run_a", "run_b", "measure", "verdict", "winner", "flavors",
                                                   "a_wins", "b_wins", "ties", "a_significant", "b_significant",
                                                   "a_wins_under", "b_wins_under", "summary"])
    return pd.DataFrame(verdict_rows), measures, pd.DataFrame(flip_rows, columns=FLIP_COLUMNS)
