"""ir_measures' own tests (terrierteam/ir_measures tests/) for the names issue 26 item 4 adds, restated in
rankflavor's terms: the inputs retyped, each expected value the one ir_measures' test states (its provider's
result, or for Compat claclark/Compatibility's), checked against `ir_measures.NAME[@provider]` as rankflavor
computes it. Sources: tests/test_accuracy.py, tests/test_providers.py (test_empty), tests/test_pytrec_eval.py
(test_NumQ). tests/test_compat.py reads data files of its own (compat.qrels, compat.run, in ir_measures' GitHub
repository but not in its package); Compat is checked live against ir_measures in
test_ir_measures_providers_names.py instead.
"""

from __future__ import annotations

import math

import pytest
from peerdata import close

import rankflavor as rf
from rankflavor import InputError


def values(qrels, run, spec) -> tuple[dict[str, float | None], float | None]:
    result = rf.evaluate(qrels, run, spec).results[0]
    return {row["query"]: row["value"] for row in result.per_query()}, result.mean


# test_accuracy.py: three topics, the run's scores all distinct
ACCURACY_QRELS = {"0": {"C0_1": 0, "B0_1": 1, "A0_1": 2}, "1": {"A1_1": 2, "A1_2": 2, "B1_1": 1, "C1_2": 0},
                  "2": {"B1_1": 1}}
ACCURACY_RUN = {"0": {"C0_1": 0.4, "A0_1": 0.3, "C0_2": 0.2, "C0_3": 0.1},
                "1": {"C1_1": 0.8, "A1_1": 0.7, "C1_2": 0.6, "B1_1": 0.5, "C1_3": 0.4},
                "2": {"B1_1": 0.2, "C1_1": 0.1}}


@pytest.mark.parametrize(("name", "expected"), [
    ("Accuracy(rel=1)", {"0": 2 / 3, "1": 0.5 * (2 / 3 + 1 / 3), "2": 1.0}),
    ("Accuracy(rel=2)", {"0": 2 / 3, "1": 0.75, "2": None}),  # topic 2: nothing of grade 2 retrieved, no value
])
def test_accuracy(name, expected):
    per_query, mean = values(ACCURACY_QRELS, ACCURACY_RUN, f"ir_measures.{name}")
    assert per_query.keys() == expected.keys()
    for q, value in expected.items():
        assert (per_query[q] is None) if value is None else close(per_query[q], value), (name, q, per_query[q])
    scored = [v for v in expected.values() if v is not None]
    assert close(mean, sum(scored) / len(scored))


# test_providers.py test_empty: two topics, a run of both or of topic 0 only, a qrels of both or of topic 0 only
QRELS = {"0": {"D0": 0, "D1": 1, "D2": 1, "D3": 2, "D4": 0}, "1": {"D0": 1, "D3": 2, "D5": 2}}
RUN = {"0": {"D0": 0.8, "D2": 0.7, "D1": 0.3, "D3": 0.4, "D4": 0.1},
       "1": {"D1": 0.8, "D3": 0.7, "D4": 0.3, "D2": 0.4}}
PARTIAL_QRELS, PARTIAL_RUN = {"0": QRELS["0"]}, {"0": RUN["0"]}
# the name each provider's line of the test calls, and its topic-0 value on the partial inputs
PROVIDER_CASES = [
    ("P@5", 0.6), ("ERR@5", 0.10175), ("Judged@5", 1.0), ("RR@5", 0.5), ("P@5@pytrec_eval", 0.6),
    ("P@5@trectools", 0.6), ("P@5@cwl_eval", 0.6), ("Compat(p=0.8)", 0.4744431703672816), ("Accuracy", 0.5),
]


# test_providers.py test_empty states these two with assertEqual and numpy.testing.assert_equal, to the last bit:
# cwl_eval's P@5 of topic 0 (three relevant docs in the top 5) is np.dot of the weights 1/5 with the gains
# (cwl_metrics.py CWLMetric._do_score), 0.2 added three times, not 3/5; Compat(p=0.8) is compat_provider.py's rbo
# loop; each mean, over topic 0 and topic 1's 0 (qrels but a partial run), is MeanAgg's sum / count
# (measures/base.py)
EXACT = [("P@5@cwl_eval", 0.6000000000000001, 0.30000000000000004),
         ("Compat(p=0.8)", 0.4744431703672816, 0.2372215851836408)]


@pytest.mark.parametrize(("name", "topic0", "mean_of_two"), EXACT)
def test_their_floats_to_the_last_bit(name, topic0, mean_of_two):
    per_query, mean = values(QRELS, PARTIAL_RUN, f"ir_measures.{name}")
    assert per_query == {"0": topic0, "1": 0.0} and mean == mean_of_two
    per_query, mean = values(PARTIAL_QRELS, RUN, f"ir_measures.{name}")
    assert per_query == {"0": topic0} and mean == topic0


@pytest.mark.parametrize(("name", "topic0"), PROVIDER_CASES)
def test_qrels_and_a_partial_run(name, topic0):
    per_query, mean = values(QRELS, PARTIAL_RUN, f"ir_measures.{name}")
    assert close(per_query["0"], topic0, 1e-5 if name.startswith("ERR") else 1e-9)  # (gdeval prints %.5f)
    if name == "Accuracy":  # the accuracy provider reports nothing for a topic the run lacks
        assert per_query["1"] is None and close(mean, topic0)
    else:  # every other provider's Evaluator lists it as 0, and the mean is over both topics
        assert per_query["1"] == 0.0 and close(mean, topic0 / 2, 1e-5)


@pytest.mark.parametrize(("name", "topic0"), PROVIDER_CASES)
def test_a_run_and_partial_qrels(name, topic0):
    per_query, mean = values(PARTIAL_QRELS, RUN, f"ir_measures.{name}")
    assert [q for q, v in per_query.items() if v is not None] == ["0"]  # a run topic without judgments: no value
    assert close(per_query["0"], topic0, 1e-5) and close(mean, topic0, 1e-5)


@pytest.mark.parametrize(("name", "_"), PROVIDER_CASES)
def test_qrels_and_no_run(name, _):
    per_query, mean = values(QRELS, {}, f"ir_measures.{name}")
    if name == "Accuracy":  # nothing reported: its mean is NaN in ir_measures, none here
        assert set(per_query.values()) == {None} and mean is None
    else:
        assert per_query == {"0": 0.0, "1": 0.0} and mean == 0.0


@pytest.mark.parametrize("qrels", [{}, {"0": {}}])
def test_no_qrels_is_refused(qrels):
    """ir_measures gives no value (a NaN mean) without judgments; rankflavor refuses such a qrels, saying why."""
    with pytest.raises(InputError, match="no judgment"):
        rf.evaluate(qrels, RUN, "ir_measures.Compat(p=0.8)")


def test_num_q():
    """test_pytrec_eval.py test_NumQ: 1 per topic, summed to 2."""
    per_query, total = values(QRELS, RUN, "ir_measures.NumQ")
    assert per_query == {"0": 1, "1": 1} and total == 2
    assert not math.isnan(total)
