"""trec_eval's preference measures (m_prefs_*.c) over a query's PrefsCounts (prefs_counts.py).

Per JG: ful = fulfilled, poss = possible (retrieved both: `_ret`; one retrieved: `_imp`; neither: notoccur).
The three families, each in a full / `_ret` / `_imp` variant (which preferences count):
  simp   = sum ful / sum poss over every preference of the query (0 when there is none);
  avgjg  = mean over JGs of ful_jg / poss_jg (a JG without preferences adds 0; 0 unless the sum is > 0);
  pair   = mean over doc pairs of the share of JGs preferring the pair as the run orders it
           (pref_counts[i, j] / (pref_counts[i, j] + pref_counts[j, i]) for i ranked above j).
Full: ful = ful_ret + ful_imp, poss = poss_ret + poss_imp + notoccur; `_ret`: ful_ret / poss_ret; `_imp`:
ful_ret + ful_imp over poss_ret + poss_imp. The counts (prefs_num_prefs_*) are summed over queries, not averaged.
prefs_avgjg_Rnonrel(_ret) count a JG as if it had as many nonrelevant docs as relevant ones (m_prefs_avgjg_Rnonrel.c).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rankflavor.dropin.prefs_counts import JudgmentGroup, PrefsCounts
from rankflavor.dropin.te_text import c_div


def _full(jg: JudgmentGroup) -> tuple[int, int]:
    return jg.fulfilled_ret + jg.fulfilled_imp, jg.possible_ret + jg.possible_imp + jg.possible_notoccur


def _ret(jg: JudgmentGroup) -> tuple[int, int]:
    return jg.fulfilled_ret, jg.possible_ret


def _imp(jg: JudgmentGroup) -> tuple[int, int]:
    return jg.fulfilled_ret + jg.fulfilled_imp, jg.possible_ret + jg.possible_imp


def simp(counts: PrefsCounts, part: Callable[[JudgmentGroup], tuple[int, int]]) -> float:
    """m_prefs_simp.c, m_prefs_simp_ret.c, m_prefs_simp_imp.c: sum ful / sum poss (0 when poss is 0)."""
    ful = sum(part(jg)[0] for jg in counts.jgs)
    poss = sum(part(jg)[1] for jg in counts.jgs)
    return ful / poss if poss else 0.0


def avgjg(counts: PrefsCounts, part: Callable[[JudgmentGroup], tuple[int, int]]) -> float:
    """m_prefs_avgjg.c, m_prefs_avgjg_ret.c, m_prefs_avgjg_imp.c: (sum over JGs with poss > 0 of ful / poss)
    / number of JGs, or 0 when that sum is not > 0."""
    total = 0.0
    for jg in counts.jgs:
        ful, poss = part(jg)
        if poss:
            total += ful / poss
    return total / len(counts.jgs) if total > 0.0 else 0.0


def pair(counts: PrefsCounts, *, implied: bool, unretrieved: bool) -> float:
    """m_prefs_pair.c (implied and unretrieved pairs), m_prefs_pair_imp.c (implied), m_prefs_pair_ret.c (neither):
    sum over judged pairs i above j of C[i,j] / (C[i,j] + C[j,i]) divided by the number of pairs with
    C[i,j] + C[j,i] > 0; a pair of two unretrieved docs adds 0 to the sum and 1 to the count. Summed in C's
    order (row by row, retrieved pairs first), so the float sum is the same."""
    njr, c = counts.num_judged_ret, counts.pref_counts
    both = c + c.T
    upper = np.triu_indices(njr, 1)
    ratios = [c[upper][both[upper] > 0] / both[upper][both[upper] > 0]]
    if implied:
        block, block_both = c[:njr, njr:], both[:njr, njr:]
        ratios.append(block[block_both > 0] / block_both[block_both > 0])
    values = np.concatenate(ratios)
    num_pairs = len(values)
    if unretrieved:
        tail = both[njr:, njr:]
        num_pairs += int(np.count_nonzero(np.triu(tail, 1)))
    if not num_pairs:
        return 0.0
    return float(np.cumsum(values)[-1]) / num_pairs if len(values) else 0.0


def avgjg_rnonrel(counts: PrefsCounts, *, retrieved_only: bool) -> float:
    """m_prefs_avgjg_Rnonrel.c (`retrieved_only`: m_prefs_avgjg_Rnonrel_ret.c): per JG with R relevant and N
    nonrelevant docs (retrieved ones only for _ret), when R >= N: (ful + R_ret * (R - N)) / (poss + R * (R - N))
    over the full (_ret: retrieved) preferences; else the preferences recounted with only the first R
    nonrelevant docs kept (recalculate). Mean over JGs, 0 unless the sum is > 0; 0/0 is C's NaN, which
    makes the sum not > 0."""
    total = 0.0
    for jg in counts.jgs:
        rel, nonrel = (jg.num_rel_ret, jg.num_nonrel_ret) if retrieved_only else (jg.num_rel, jg.num_nonrel)
        if rel >= nonrel:
            ful, poss = _ret(jg) if retrieved_only else _full(jg)
            ful += jg.num_rel_ret * (rel - nonrel)
            poss += jg.num_rel * (rel - nonrel)
        elif jg.ecs:
            ful, poss = _recount_ecs(jg, counts.num_judged_ret, retrieved_only)
        else:
            ful, poss = _recount_matrix(jg, counts.num_judged_ret, retrieved_only)
        total += c_div(ful, poss)
    return total / len(counts.jgs) if total > 0.0 else 0.0


def _recount_ecs(jg: JudgmentGroup, njr: int, retrieved_only: bool) -> tuple[int, int]:
    """recalculate(), EC case: the last EC cut to its first R docs (R = num_rel, num_rel_ret for _ret); pairs
    of ECs before the last, then every EC (the last one too, as in C) against the cut one; a pair is fulfilled
    when r1 < r2 and r1 < NJR (for _ret only pairs of retrieved docs count, fulfilled when r1 < r2)."""
    keep = jg.num_rel_ret if retrieved_only else jg.num_rel
    cut_last = jg.ecs[-1][1][:keep]
    pairs = [(a, b) for i, (_l, a) in enumerate(jg.ecs) for _m, b in jg.ecs[i + 1:len(jg.ecs) - 1]]
    pairs += [(a, cut_last) for _l, a in jg.ecs]
    ful = poss = 0
    for a, b in pairs:
        if retrieved_only:
            a, b = a[a < njr], b[b < njr]
            fulfilled = a[:, None] < b[None, :]
        else:
            fulfilled = (a[:, None] < b[None, :]) & (a[:, None] < njr)
        ful += int(np.count_nonzero(fulfilled))
        poss += fulfilled.size - int(np.count_nonzero(fulfilled))
    return ful, poss + ful


def _recount_matrix(jg: JudgmentGroup, njr: int, retrieved_only: bool) -> tuple[int, int]:
    """recalculate(), matrix case: the nonrelevant docs after the (num_rel + 1)-th one in docid-rank order
    (searched among the retrieved docs only for _ret) are dropped from rows and columns; then the areas of
    add_pa_pref_to_jg are counted again (for _ret only the retrieved block)."""
    matrix, rel = jg.matrix, jg.rel_array
    assert matrix is not None and rel is not None
    span = njr if retrieved_only else len(rel)
    nonrel_seen = np.cumsum(rel[:span] == 0.0)
    past = np.flatnonzero((rel[:span] == 0.0) & (nonrel_seen == jg.num_rel + 1))
    first_dropped = int(past[0]) if len(past) else span
    kept = ~((np.arange(len(rel)) >= first_dropped) & (rel == 0.0))
    live = matrix & kept[:, None] & kept[None, :]
    block = live[:njr, :njr]
    ful = int(np.count_nonzero(np.triu(block, 1)))
    poss = int(np.count_nonzero(np.tril(block, -1)))
    if not retrieved_only:
        ful += int(np.count_nonzero(live[:njr, njr:]))
        poss += int(np.count_nonzero(live[njr:, :]))
    return ful, poss + ful


PREFS_DOUBLE: dict[str, Callable[[PrefsCounts], float]] = {
    "prefs_simp": lambda c: simp(c, _full),
    "prefs_pair": lambda c: pair(c, implied=True, unretrieved=True),
    "prefs_avgjg": lambda c: avgjg(c, _full),
    "prefs_avgjg_Rnonrel": lambda c: avgjg_rnonrel(c, retrieved_only=False),
    "prefs_simp_ret": lambda c: simp(c, _ret),
    "prefs_pair_ret": lambda c: pair(c, implied=False, unretrieved=False),
    "prefs_avgjg_ret": lambda c: avgjg(c, _ret),
    "prefs_avgjg_Rnonrel_ret": lambda c: avgjg_rnonrel(c, retrieved_only=True),
    "prefs_simp_imp": lambda c: simp(c, _imp),
    "prefs_pair_imp": lambda c: pair(c, implied=True, unretrieved=False),
    "prefs_avgjg_imp": lambda c: avgjg(c, _imp),
}
"""The averaged preference measures: name -> the query's value."""

PREFS_COUNT: dict[str, Callable[[PrefsCounts], int]] = {
    "prefs_num_prefs_poss": lambda c: sum(_full(jg)[1] for jg in c.jgs),
    "prefs_num_prefs_ful": lambda c: sum(_full(jg)[0] for jg in c.jgs),
    "prefs_num_prefs_ful_ret": lambda c: sum(jg.fulfilled_ret for jg in c.jgs),
}
"""The summed counts (m_prefs_num_prefs_poss.c, m_prefs_num_prefs_ful.c, m_prefs_num_prefs_ful_ret.c)."""
