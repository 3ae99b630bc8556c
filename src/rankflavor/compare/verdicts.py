"""The verdicts of a comparison, decided once (`decide`) for the CLI, the JSON, the paper table, the `report` page and
the notebook, from the declared test and correction only (each row's `finding`: compare/pair_tests.py).

Per pair and measure (a measure is a metric: `ndcg@5` and `ndcg@10 gain=exp2` are flavors of ndcg), over its
flavors:
- `robust`: the same run significantly better under every flavor;
- `flavor-dependent`: one run significantly better under some flavors, no significant difference under the others
  (named);
- `reverses`: significant winners that differ between flavors (each run significantly better under some flavor):
  only this is a reversal;
- `no finding`: no significant difference under any flavor, whatever the order of the means;
- `none`: no query scored in both runs under any flavor.
A flavor where the test is significant but its statistic favours the other run than the mean (`mean and test
disagree`) credits neither run: it counts as no significant difference, and the verdict says so.
Per pair, over all its flavors: `reverses` when some measure reverses; `measures disagree` when different
measures have different significant winners; else the words above over all its flavors.

A flip of the means without significance is never called a reversal or a win: `flips` holds, per pair and
measure, the smallest changes of axes between flavors whose significant winners differ (kind `reversal`), and,
for a measure that does not reverse, those that only flip the order of the means (kind `order of the means`,
said as such: seed 000's gain and cutoff effects on its one query are of this kind).

Each verdict carries the runs' judged@k under each cutoff of its flavors, says when they differ by POOL_GAP or
more, and when unjudged=skip changes a significant winner (compare/pool.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from rankflavor.compare.pair_tests import DISAGREE, NONE, NOT_SIGNIFICANT, SIGNIFICANT, TIE
from rankflavor.compare.pool import POOL_GAP, depth_name
from rankflavor.flavor import Flavor

ROBUST, DEPENDS, REVERSES, NO_FINDING = "robust", "flavor-dependent", "reverses", "no finding"
MEASURES_DISAGREE = "measures disagree"
REVERSAL, ORDER = "reversal", "order of the means"
FLIP_COLUMNS = ["run_a", "run_b", "measure", "kind", "n_axes", "axis", "change", "from_label", "to_label",
                "from_flavor", "to_flavor", "from_winner", "to_winner"]
SHOWN = 4  # flavors named in a clause before "and N more"


def describe_change(diffs: list[tuple[str, str, str]]) -> str:
    return ", ".join(f"{axis} {a} -> {b}" for axis, a, b in diffs)


def measure_of(flavor: Flavor) -> str:
    """The measure a flavor is a flavor of: its metric (a cutoff, parameter or axis is a change of flavor)."""
    return flavor.metric


@dataclass
class Pool:
    """compare/pool.py's findings: (flavor index, run) -> judged@k; (flavor index, pair index) -> the pair under
    unjudged=skip."""

    shares: dict[tuple[int, str], float | None] = field(default_factory=dict)
    skip: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)


@dataclass
class Split:
    """One pair's flavors (rows of the pairs table) by what each finds."""

    a: str
    b: str
    rows: pd.DataFrame
    label: Callable[[Flavor], str]
    by_str: dict[str, Flavor]
    floor: float = 0.0  # a Monte Carlo test's smallest p, 1 / (R + 1): a p at it is a bound, said "<="

    def under(self, mask: Any) -> list[Flavor]:
        return [self.by_str[s] for s in self.rows.flavor[mask]]

    @property
    def significant(self) -> dict[str, list[Flavor]]:
        return {w: self.under(self.rows.significant_winner == w) for w in (self.a, self.b)}

    @property
    def quiet(self) -> list[Flavor]:
        return self.under((self.rows.finding != SIGNIFICANT) & (self.rows.finding != NONE))

    @property
    def not_significant(self) -> list[Flavor]:
        return self.under(self.rows.finding == NOT_SIGNIFICANT)

    @property
    def disagree(self) -> list[Flavor]:
        return self.under(self.rows.finding == DISAGREE)

    @property
    def scored(self) -> int:
        return int((self.rows.finding != NONE).sum())

    def means_won(self) -> dict[str, list[Flavor]]:
        return {w: self.under(self.rows.winner == w) for w in (self.a, self.b, TIE, NONE)}

    def verdict(self) -> str:
        sig = self.significant
        if not self.scored:
            return NONE
        if sig[self.a] and sig[self.b]:
            return REVERSES
        if sig[self.a] or sig[self.b]:
            return DEPENDS if self.quiet else ROBUST
        return NO_FINDING

    def winner(self) -> str | None:
        """The significant winner of a robust or flavor-dependent split."""
        sig = self.significant
        return (self.a if sig[self.a] else self.b) if self.verdict() in (ROBUST, DEPENDS) else None

    def names(self, flavors: list[Flavor]) -> str:
        shown = ", ".join(self.label(f) for f in flavors[:SHOWN])
        return shown + (f" and {len(flavors) - SHOWN} more" if len(flavors) > SHOWN else "")

    def row(self, flavor: Flavor) -> Any:
        return self.rows[self.rows.flavor == str(flavor)].iloc[0]

    def p_text(self, flavors: list[Flavor]) -> str:
        """`p_holm 0.0004` for one flavor, `p_holm <= 0.002` (the largest) for several, or for one at a Monte Carlo
        test's floor (its p is a bound)."""
        rows = [self.row(f) for f in flavors]
        p = [float(r.p_adjusted) for r in rows]
        floored = any(not r.exact and float(r.p) <= self.floor * (1 + 1e-9) for r in rows)
        name = "p_" + str(self.rows.correction.iloc[0])
        return f"{name} {p[0]:.3g}" if len(p) == 1 and not floored else f"{name} <= {max(p):.3g}"

    def summary(self) -> str:
        """The words after the verdict: who is significantly better where, and what the other flavors say."""
        verdict, sig, n = self.verdict(), self.significant, self.scored
        if verdict == NONE:
            return "no query is scored in both runs under any flavor"
        if verdict == NO_FINDING:
            return self._quiet_clause(n)
        parts = []
        for w in (self.a, self.b):
            if sig[w]:
                p = self.p_text(sig[w])
                every = (f"all {n} flavors ({p})" if len(sig[w]) == n and n > 1 else
                         f"{len(sig[w])} of {n} flavors ({self.names(sig[w])}; {p})" if n > 1 else
                         f"{self.label(sig[w][0])} by {abs(self.row(sig[w][0])['diff']):.4f} ({p})")
                parts.append(f"{w} significantly better under {every}")
        quiet = self.not_significant
        if quiet:
            parts.append(f"no significant difference under {self.names(quiet)}")
        return "; ".join(parts) + self._disagree_clause()

    def _quiet_clause(self, n: int) -> str:
        won = self.means_won()
        if n == 1 and self.disagree:
            return self._disagree_clause()[2:]
        if n == 1:
            f = self.quiet[0]
            row = self.row(f)
            higher = (f"{row.winner}'s mean higher by {abs(row['diff']):.4f}" if row.winner in (self.a, self.b)
                      else "equal means")
            return f"no significant difference under {self.label(f)} ({self.p_text([f])}; {higher}: the order may be chance)"
        order = ", ".join(f"{w} under {len(won[w])}" for w in (self.a, self.b) if won[w])
        ties = f", equal under {len(won[TIE])}" if won[TIE] else ""
        what = "no run is significantly better" if self.disagree else "no significant difference"
        return (f"{what} under any of the {n} flavors (the means favour {order}{ties}: the order may be chance)"
                + self._disagree_clause())

    def _disagree_clause(self) -> str:
        if not self.disagree:
            return ""
        f = self.disagree[0]
        row = self.row(f)
        more = f" (and {len(self.disagree) - 1} more flavors)" if len(self.disagree) > 1 else ""
        return (f"; under {self.label(f)}{more} the test is significant ({self.p_text([f])}) but favours "
                f"{row.favours} while the mean favours {row.winner}: mean and test disagree, neither is credited")


def _flips(split: Split, measure: str) -> list[dict[str, Any]]:
    """The smallest changes of axes between flavors whose significant winners differ (a reversal), or, for a
    measure that does not reverse, between flavors whose means order the runs differently."""
    a, b = split.a, split.b
    sig = split.significant
    if sig[a] and sig[b]:
        kind, left, right = REVERSAL, sig[a], sig[b]
    else:
        won = split.means_won()
        kind, left, right = ORDER, won[a], won[b]
    if not left or not right:
        return []
    best = min(len(f.differences(g)) for f in left for g in right)
    out = []
    for f in left:
        for g in right:
            d = f.differences(g)
            if len(d) == best:
                out.append({"run_a": a, "run_b": b, "measure": measure, "kind": kind, "n_axes": best,
                            "axis": ",".join(x[0] for x in d), "change": describe_change(d),
                            "from_label": split.label(f), "to_label": split.label(g), "from_flavor": str(f),
                            "to_flavor": str(g), "from_winner": a, "to_winner": b})
    return out


def _counts(split: Split) -> dict[str, Any]:
    """The columns a verdict row and a measure row share."""
    sig, won = split.significant, split.means_won()
    a, b, label = split.a, split.b, split.label
    return {"verdict": split.verdict(), "winner": split.winner(), "flavors": len(split.rows),
            "a_significant": len(sig[a]), "b_significant": len(sig[b]), "not_significant": len(split.quiet),
            "disagree": len(split.disagree), "a_wins": len(won[a]), "b_wins": len(won[b]), "ties": len(won[TIE]),
            "a_significant_under": [label(f) for f in sig[a]], "b_significant_under": [label(f) for f in sig[b]],
            "not_significant_under": [label(f) for f in split.quiet],
            "a_wins_under": [label(f) for f in won[a]], "b_wins_under": [label(f) for f in won[b]]}


def _pair_verdict(split: Split, per: dict[str, Split]) -> tuple[str, str]:
    """A pair's verdict and summary over all its flavors and measures."""
    if len(per) == 1:
        return split.verdict(), split.summary()
    verdicts = {name: m.verdict() for name, m in per.items()}
    sig = split.significant
    if REVERSES in verdicts.values():
        verdict = REVERSES
    elif sig[split.a] and sig[split.b]:
        verdict = MEASURES_DISAGREE
    else:
        verdict = split.verdict()
    order = sorted(per, key=lambda name: verdicts[name] != REVERSES)  # (a reversing measure first)
    return verdict, "; ".join(f"{name}: {verdicts[name]}, {per[name].summary()}" for name in order)


def _pool(split: Split, pool: Pool, flavors: list[Flavor], j: int) -> tuple[list[dict[str, Any]], bool, list]:
    """(judged@k of both runs per cutoff, whether they differ by POOL_GAP or more, the flavors under which
    unjudged=skip changes the significant winner)."""
    a, b = split.a, split.b
    judged: dict[str, dict[str, Any]] = {}
    for i, f in enumerate(flavors):
        if str(f) in set(split.rows.flavor) and depth_name(f) not in judged:
            judged[depth_name(f)] = {"depth": depth_name(f), "run_a": pool.shares.get((i, a)),
                                     "run_b": pool.shares.get((i, b))}
    unequal = any(x["run_a"] is not None and x["run_b"] is not None and abs(x["run_a"] - x["run_b"]) >= POOL_GAP
                  for x in judged.values())
    changes = []
    for i, f in enumerate(flavors):
        skip = pool.skip.get((i, j))
        if skip is None or str(f) not in set(split.rows.flavor):
            continue
        before = split.row(f).significant_winner
        before = before if isinstance(before, str) else None
        if skip["significant_winner"] != before:
            changes.append({"label": split.label(f), "skip_label": skip["label"], "significant_winner": before,
                            "skip_significant_winner": skip["significant_winner"],
                            "skip_p_adjusted": skip["p_adjusted"]})
    return list(judged.values()), unequal, changes


def _pool_clause(a: str, b: str, judged: list[dict[str, Any]], unequal: bool, changes: list[dict[str, Any]]) -> str:
    def share(x: float | None) -> str:
        return "null" if x is None else f"{x:.3f}"

    if all(x["run_a"] == 1.0 and x["run_b"] == 1.0 for x in judged):
        text = ", ".join(x["depth"] for x in judged) + ": 1.000 for both runs (fully judged)"
    else:
        text = "; ".join(f"{x['depth']} {a} {share(x['run_a'])}, {b} {share(x['run_b'])}" for x in judged)
    if unequal:
        text += f": the pool sees the runs unequally (judged@k {POOL_GAP:g} or more apart)"
    if changes:
        listed = ", ".join(f"{c['label']} ({c['significant_winner'] or 'none'} -> {c['skip_significant_winner'] or 'none'})"
                           for c in changes[:3])
        more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
        text += (f"; with unjudged=skip the significant winner changes under {len(changes)} "
                 f"flavor{'s' if len(changes) != 1 else ''}: {listed}{more}")
    return "; " + text


def decide(table: pd.DataFrame, flavors: list[Flavor], pairs: list[tuple[str, str]],
           label: Callable[[Flavor], str], pool: Pool | None = None, floor: float = 0.0,
           ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(verdicts: one row per pair; measures: one row per pair x measure; flips) from the pairs table. floor: a
    Monte Carlo test's smallest p, 1 / (R + 1)."""
    pool = pool or Pool()
    by_str = {str(f): f for f in flavors}
    groups: dict[str, list[str]] = {}
    for f in flavors:
        groups.setdefault(measure_of(f), []).append(str(f))
    verdict_rows, measure_rows, flip_rows = [], [], []
    for j, (a, b) in enumerate(pairs):
        sub = table[(table.run_a == a) & (table.run_b == b)]
        split = Split(a, b, sub, label, by_str, floor)
        per = {name: Split(a, b, sub[sub.flavor.isin(members)], label, by_str, floor)
               for name, members in groups.items()}
        for name, m in per.items():
            flip_rows += _flips(m, name)
            measure_rows.append({"run_a": a, "run_b": b, "measure": name, **_counts(m), "summary": m.summary()})
        verdict, summary = _pair_verdict(split, per)
        sensitive = int(sub.tie_sensitive.sum()) if "tie_sensitive" in sub else 0
        if sensitive:
            summary += (f"; under {sensitive} of them the tie order alone could reverse the means' order (the ranges "
                        "of the means between ties=pessimistic and ties=optimistic overlap)")
        judged, unequal, changes = _pool(split, pool, flavors, j)
        pool_note = _pool_clause(a, b, judged, unequal, changes)[2:] if verdict != NONE else ""
        if pool_note:
            summary += "; " + pool_note
        verdict_rows.append({"run_a": a, "run_b": b, **_counts(split), "verdict": verdict,
                             "tie_sensitive": sensitive, "judged": judged, "pool_unequal": unequal,
                             "skip_changes": changes, "pool_note": pool_note, "summary": f"{verdict}: {summary}"})
    columns = ["run_a", "run_b", "measure", *_counts(Split("a", "b", table.iloc[:0], label, by_str)), "summary"]
    measures = pd.DataFrame(measure_rows, columns=columns)
    measures["summary"] = [f"{m.verdict}: {m.summary}" for m in measures.itertuples()]
    return pd.DataFrame(verdict_rows), measures, pd.DataFrame(flip_rows, columns=FLIP_COLUMNS)
