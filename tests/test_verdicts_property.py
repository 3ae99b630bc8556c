"""Issue 37's property test: on random pairs (ties among the differences, constant differences, a mean and a median
that disagree), every p-value against an independent implementation (SciPy on the integer differences; every sign
vector enumerated for the randomization test), and every finding, verdict word and paper-table mark against its
definition (compare/pair_tests.py, compare/verdicts.py).

P@10 and P@5 of runs that retrieve h relevant documents then nonrelevant ones are h/10 and min(h, 5)/5, so the
per-query differences are integers over 10 and 5: what float noise sets apart, the integers tie exactly.
"""

from __future__ import annotations

import itertools
import math

from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import rankflavor.compare as rc
from test_verdicts import p_at_10


def expected_p(d: list[int], test: str) -> float:
    """The declared test's two-sided p on integer differences, computed without rankflavor."""
    nonzero = [x for x in d if x != 0]
    if test == "sign":
        wins = sum(x > 0 for x in d)
        return 1.0 if not nonzero else stats.binomtest(wins, len(nonzero), 0.5).pvalue
    if test == "wilcoxon":
        if len(nonzero) == 0:
            return 1.0
        if len(nonzero) == 1:
            return 1.0
        return stats.wilcoxon(nonzero, method=stats.PermutationMethod(n_resamples=2**16)).pvalue
    if test == "t":
        if all(x == d[0] for x in d):
            return 1.0 if d[0] == 0 else 0.0
        return stats.ttest_rel(d, [0] * len(d)).pvalue
    total = abs(sum(d))  # randomization, exact: every sign vector
    hits = sum(abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= total
               for signs in itertools.product((1, -1), repeat=len(d)))
    return hits / 2 ** len(d)


def expected_favours(d: list[int], test: str) -> int:
    if test == "sign":
        score = sum(x > 0 for x in d) - sum(x < 0 for x in d)
    elif test == "wilcoxon":
        nonzero = [x for x in d if x != 0]
        ranks = stats.rankdata([abs(x) for x in nonzero]) if nonzero else []
        score = sum(r if x > 0 else -r for r, x in zip(ranks, nonzero, strict=True))
    else:
        score = sum(d)
    return 0 if score == 0 else int(math.copysign(1, score))


HITS = st.integers(0, 10)


@st.composite
def pairs_of_runs(draw) -> tuple[list[int], list[int]]:
    n = draw(st.integers(4, 13))
    h_b = draw(st.lists(HITS, min_size=n, max_size=n))
    kind = draw(st.sampled_from(["random", "constant", "mean against median"]))
    if kind == "random":
        h_a = draw(st.lists(HITS, min_size=n, max_size=n))
    elif kind == "constant":
        shift = draw(st.integers(-2, 2))
        h_b = [min(max(h, 2), 8) for h in h_b]
        h_a = [h + shift for h in h_b]
    else:  # most queries a little better for A, a few much worse
        few = draw(st.integers(1, max(1, n // 3)))
        h_b = [min(h, 8) for h in h_b[:n - few]] + [min(h, 2) for h in h_b[n - few:]]
        h_a = [h + 1 for h in h_b[:n - few]] + [h + 8 for h in h_b[n - few:]]
        h_a, h_b = h_b[:n - few] + h_a[n - few:], h_a[:n - few] + h_b[n - few:]
    return h_a, h_b


@settings(max_examples=40, deadline=None)
@given(pairs_of_runs(), st.sampled_from(["randomization", "t", "wilcoxon", "sign"]))
def test_every_p_finding_verdict_and_mark_by_its_definition(hits, test):
    h_a, h_b = hits
    qrels, runs = p_at_10(h_a, h_b)
    cmp = rc.compare(qrels, runs, ["P@10", "P@5"], test=test)
    significant = {}
    for row in cmp.pairs.itertuples():
        if row.label == "P@10":
            d = [a - b for a, b in zip(h_a, h_b, strict=True)]
        else:
            d = [min(a, 5) - min(b, 5) for a, b in zip(h_a, h_b, strict=True)]
        assert row.p == pytest_approx(expected_p(d, test)), (row.label, d)
        favours = {1: "A", -1: "B", 0: "tie"}[expected_favours(d, test)]
        winner = {1: "A", -1: "B", 0: "tie"}[expected_favours(d, "t")]  # (the mean's side)
        assert (row.favours, row.winner) == (favours, winner)
        is_significant = row.p < 0.05  # (one pair: its own family)
        want = ("not significant" if not is_significant else "significant" if favours == winner
                else "mean and test disagree")
        assert row.finding == want and row.significant == is_significant
        assert row.significant_winner == (winner if want == "significant" else None)
        if len(set(d)) == 1:
            assert row.constant_diff * (10 if row.label == "P@10" else 5) == pytest_approx(d[0])
            assert math.isnan(row.effect_size)
        significant[row.label] = row.significant_winner
        table = cmp.paper_table()
        for run, other in (("A", "B"), ("B", "A")):
            assert (table.letters[other] in table.marks(run, row.label)) == (row.significant_winner == run)
    sides = {w for w in significant.values() if w is not None}
    quiet = [label for label, w in significant.items() if w is None]
    want = ("reverses" if sides == {"A", "B"} else "no finding" if not sides else
            "flavor-dependent" if quiet else "robust")
    verdict = cmp.verdicts.iloc[0]
    assert verdict.verdict == want and cmp.measures.iloc[0].verdict == want
    assert ("reverses" in verdict.summary) == (want == "reverses")
    assert set(cmp.flips.kind) <= ({"reversal"} if want == "reverses" else {"order of the means"})
    assert cmp.verify() == []


def pytest_approx(value: float):
    import pytest

    return pytest.approx(value, rel=1e-9, abs=1e-12)
