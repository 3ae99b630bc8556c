"""The preference and judgment-group measures on 3-doc examples worked by hand, and two measures against a slow
version written straight from their definitions (get_prefs.c's and m_prefs_simp.c's, m_map_avgjg.c's text) on
random inputs."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankflavor.dropin import jg
from rankflavor.dropin.prefs_counts import form_prefs_counts
from rankflavor.dropin.prefs_measures import PREFS_COUNT, PREFS_DOUBLE
from rankflavor.dropin.prefs_read import PrefJudgment

# The run ranks B, A, then D (judged by no one); C is judged but not retrieved.
RUN = [(b"A", 2.0), (b"B", 3.0), (b"D", 1.5)]


def prefs(*lines: str) -> list[PrefJudgment]:
    """`jg jsg docno rel_level` lines."""
    out = []
    for line in lines:
        group, sub, doc, level = line.split()
        out.append(PrefJudgment(group.encode(), sub.encode(), doc.encode(), float(level)))
    return out


# A=2 > B=1 > C=0: A>B not fulfilled (both retrieved, B above A); A>C and B>C fulfilled, implied (C not retrieved).
HAND = {
    "prefs_num_prefs_poss": 3, "prefs_num_prefs_ful": 2, "prefs_num_prefs_ful_ret": 0,
    "prefs_simp": 2 / 3, "prefs_simp_ret": 0.0, "prefs_simp_imp": 2 / 3,
    "prefs_avgjg": 2 / 3, "prefs_avgjg_ret": 0.0, "prefs_avgjg_imp": 2 / 3,
    # pairs (B,A): 0 of 1 JG agrees; (B,C), (A,C): 1 of 1
    "prefs_pair": 2 / 3, "prefs_pair_ret": 0.0, "prefs_pair_imp": 2 / 3,
    # R = 2 relevant >= N = 1 nonrelevant: ful 2 + R_ret (2) * (R - N) = 4, poss 3 + R (2) * (R - N) = 5
    "prefs_avgjg_Rnonrel": 4 / 5,
    # retrieved only: R = 2, N = 0: ful 0 + 2 * 2 = 4, poss 1 + 2 * 2 = 5
    "prefs_avgjg_Rnonrel_ret": 4 / 5,
}


@pytest.mark.parametrize("judgments", [
    prefs("u1 s1 A 2", "u1 s1 B 1", "u1 s1 C 0"),  # one sub-group: equivalence classes
    prefs("u1 s1 A 2", "u1 s1 B 1", "u1 s2 B 2", "u1 s2 C 0"),  # two sub-groups: A > C only by transitivity
], ids=["classes", "transitive"])
def test_three_docs_by_hand(judgments):
    counts = form_prefs_counts(judgments, RUN, None)
    assert (counts.num_judged, counts.num_judged_ret) == (3, 2)
    got = {name: f(counts) for name, f in {**PREFS_DOUBLE, **PREFS_COUNT}.items()}
    assert got == pytest.approx(HAND, abs=1e-15)


def test_two_users_who_disagree():
    """u1: A > B; u2: B > A. The pair (B, A) as ranked: 1 of 2 JGs agree -> prefs_pair 1/2; simp: 1 of 2."""
    counts = form_prefs_counts(prefs("u1 s A 2", "u1 s B 1", "u2 s A 1", "u2 s B 2"), RUN, None)
    assert PREFS_DOUBLE["prefs_pair"](counts) == 0.5
    assert PREFS_DOUBLE["prefs_simp"](counts) == 0.5
    assert PREFS_DOUBLE["prefs_avgjg"](counts) == 0.5  # (0/1 + 1/1) / 2


def test_judgment_groups_by_hand():
    """JG a: A=1, B=0, C=1; JG b: A=0, B=1, C=-1 (pooled, unjudged). Ranked B, A, D (D in neither JG)."""
    judgments = {b"a": {b"A": 1, b"B": 0, b"C": 1}, b"b": {b"A": 0, b"B": 1, b"C": -1}}
    for judged_only in (False, True):
        rankings = jg.form_res_rels_jg(judgments, RUN, None, 1, judged_only)
        # a: AP = (1/2) / 2 relevant; b: AP = (1/1) / 1
        assert jg.map_avgjg(rankings, 1) == pytest.approx((0.25 + 1.0) / 2)
        assert jg.p_avgjg(rankings, [1, 2, 5], 1) == pytest.approx([0.5, 0.5, 0.2])
        # a: R = 2, cutoffs 1.0 -> 2 (P@2 = 1/2), 2.0 -> 4 > ranked -> 1 relevant ranked / 4;
        # b: R = 1, cutoffs 1 (P@1 = 1) and 2 (P@2 = 1/2)
        assert jg.rprec_mult_avgjg(rankings, [1.0, 2.0], 1) == pytest.approx([0.75, 0.375])
    assert [r.rel_list for r in jg.form_res_rels_jg(judgments, RUN, None, 1, False)] == [(0, 1, -1), (1, 0, -1)]
    assert [r.rel_list for r in jg.form_res_rels_jg(judgments, RUN, None, 1, True)] == [(0, 1), (1, 0)]


def test_yaap_by_hand():
    """Ranked rel, non, rel with 2 relevant: S = 1/1 + 2/3; yaap = log((1 + S) / (1 + 2 - S)) (the engine's
    metric, which `rankflavor trec_eval -m yaap` prints); no relevant doc: log(1 / 1) = 0."""
    import math

    import rankflavor

    s = 1 + 2 / 3
    qrels = {"q": {"a": 1, "b": 0, "c": 1}, "z": {"a": 0}}
    report = rankflavor.evaluate(qrels, {"r": {"q": {"a": 3.0, "b": 2.0, "c": 1.0}, "z": {"a": 1.0}}},
                                 "yaap round=none")
    values = {row["query"]: row["value"] for row in report.results[0].per_query()}
    assert values["q"] == pytest.approx(math.log((1 + s) / (3 - s)))
    assert values["z"] == 0


# ---- the slow reference, straight from the definitions ----

def ranked(run: list[tuple[bytes, float]], max_docs: int | None) -> list[bytes]:
    """Sim descending, ties by docno ascending (form_prefs_counts.c), cut to -M."""
    return [doc for doc, _ in sorted(run, key=lambda r: (-r[1], r[0]))][:max_docs]


def reference_simp(judgments: list[PrefJudgment], run, max_docs) -> tuple[float, float]:
    """prefs_simp and prefs_simp_ret from the definitions: a JG's preferences are every (a, b) with a's level
    above b's in one sub-group, closed transitively; a > b is fulfilled when a is retrieved and b is not or is
    ranked below a; _ret counts only the pairs of two retrieved docs."""
    position = {doc: i for i, doc in enumerate(ranked(run, max_docs))}
    ful = poss = ful_ret = poss_ret = 0
    for group in sorted({j.jg for j in judgments}):
        lines = [j for j in judgments if j.jg == group]
        prefer = {(a.docno, b.docno) for a, b in product(lines, lines)
                  if a.jsg == b.jsg and a.rel_level > b.rel_level}
        changed = True
        while changed:
            extra = {(a, d) for (a, b), (c, d) in product(prefer, prefer) if b == c} - prefer
            prefer |= extra
            changed = bool(extra)
        for a, b in prefer:
            if a in position and b in position:
                poss_ret += 1
                ful_ret += position[a] < position[b]
            poss += 1
            ful += a in position and (b not in position or position[a] < position[b])
    return (ful / poss if poss else 0.0), (ful_ret / poss_ret if poss_ret else 0.0)


DOCS = [b"d0", b"d1", b"d2", b"d3", b"d4", b"d5"]


@st.composite
def preference_inputs(draw):
    """Per JG a hidden grade per doc; each sub-group rates distinct docs monotonically in the grade (so a JG
    never contradicts itself); a run over the docs and two unjudged ones, scores with ties."""
    judgments = []
    for group in range(draw(st.integers(1, 3))):
        grades = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(0, 3), min_size=2, max_size=6))
        for sub in range(draw(st.integers(1, 3))):
            rated = draw(st.lists(st.sampled_from(sorted(grades)), min_size=1, max_size=len(grades), unique=True))
            judgments += [PrefJudgment(f"g{group}".encode(), f"s{sub}".encode(), doc, float(grades[doc] * (sub + 1)))
                          for doc in rated]
    run_docs = draw(st.lists(st.sampled_from([*DOCS, b"u0", b"u1"]), max_size=8, unique=True))
    run = [(doc, float(draw(st.integers(0, 3)))) for doc in run_docs]
    return judgments, run, draw(st.none() | st.integers(0, 6))


@settings(max_examples=150, deadline=None)
@given(preference_inputs())
def test_prefs_simp_against_the_definition(data):
    judgments, run, max_docs = data
    counts = form_prefs_counts(judgments, run, max_docs)
    simp, simp_ret = reference_simp(judgments, run, max_docs)
    assert PREFS_DOUBLE["prefs_simp"](counts) == pytest.approx(simp, abs=1e-12)
    assert PREFS_DOUBLE["prefs_simp_ret"](counts) == pytest.approx(simp_ret, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from([b"a", b"b", b"c"]),
                       st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 3), min_size=1), min_size=1),
       st.lists(st.tuples(st.sampled_from([*DOCS, b"u0"]), st.integers(0, 4).map(float)), max_size=8,
                unique_by=lambda r: r[0]),
       st.integers(0, 3))
def test_map_avgjg_against_the_definition(judgments, run, level):
    """map_avgjg = mean over JGs of AP; AP = sum over the relevant ranked docs of (relevant in the top i) / i,
    over the JG's relevant docs (rel >= -l, judged). Ties broken by docno descending (form_res_rels_jg.c)."""
    judgments = {group: judgments[group] for group in sorted(judgments)}
    order = [doc for doc, _ in sorted(sorted(run, reverse=True), key=lambda r: -r[1])]
    aps = []
    for judged in judgments.values():
        relevant = {doc for doc, rel in judged.items() if rel >= 0 and rel >= level}
        hits = [i for i, doc in enumerate(order, start=1) if doc in relevant]
        precisions = [(n + 1) / i for n, i in enumerate(hits)]
        aps.append(sum(precisions) / len(relevant) if hits else 0.0)
    rankings = jg.form_res_rels_jg(judgments, run, None, level, False)
    assert jg.map_avgjg(rankings, level) == pytest.approx(sum(aps) / len(aps), abs=1e-12)
