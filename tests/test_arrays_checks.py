"""rankflavor.ndcg_score's inputs are checked once, and each refusal names the argument and the fix; the array
calls and the adapters' modules import no heavy peer (lightgbm, xgboost, catboost, torch, sklearn) of their own."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import rankflavor as rf

Y = [[1.0, 0.0, 2.0], [0.0, 1.0, 0.0]]
S = [[0.3, 0.2, 0.1], [0.5, 0.4, 0.3]]


@pytest.mark.parametrize(("call", "source", "words"), [
    (lambda: rf.ndcg_score(Y, [[0.3, np.nan, 0.1], [0.5, 0.4, 0.3]]), "y_score", "non-finite"),
    (lambda: rf.ndcg_score([[1.0, np.inf, 0.0]], [[1.0, 2.0, 3.0]]), "y_true", "non-finite"),
    (lambda: rf.ndcg_score(Y, [[0.3, 0.2], [0.5, 0.4]]), "y_score", "shape"),
    (lambda: rf.ndcg_score([1.0, 0.0, 2.0], [0.3, 0.2, 0.1]), "y_true", "1-D"),
    (lambda: rf.ndcg_score([1.0, 0.0, 2.0], [0.3, 0.2, 0.1], group=[2, 2]), "group", "sum to 4"),
    (lambda: rf.ndcg_score([1.0, 0.0, 2.0], [0.3, 0.2, 0.1], group=[3, 0]), "group", ">= 1"),
    (lambda: rf.ndcg_score([1.0, 0.0, 2.0], [0.3, 0.2, 0.1], qid=[1, 1]), "qid", "one query id per document"),
    (lambda: rf.ndcg_score([1.0, 0.0], [0.3, 0.2], group=[2], qid=[1, 1]), "group", "not both"),
    (lambda: rf.ndcg_score([1.0, 0.0], [0.3, 0.2, 0.1], group=[2]), "y_score", "must match"),
    (lambda: rf.ndcg_score(Y, S, sample_weight=[1.0]), "sample_weight", "2 queries"),
    (lambda: rf.ndcg_score(Y, S, sample_weight=[1.0, -1.0]), "sample_weight", ">= 0"),
    (lambda: rf.ndcg_score([[1.0, -1.0]], [[0.2, 0.1]]), "y_true", "negative=error"),
    (lambda: rf.ndcg_score([["a", "b"]], [[0.2, 0.1]]), "y_true", "not numbers"),
])
def test_a_refusal_names_the_argument_and_the_fix(call, source, words):
    with pytest.raises(rf.InputError, match=words) as raised:
        call()
    assert raised.value.source == source and raised.value.fix
    assert isinstance(raised.value, ValueError)  # (what scikit-learn users catch)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"flavor": "lightgbm"}, "names 5 flavors"),
    ({"flavor": "ndcg@5", "k": 3}, "own cutoff"),
    ({"flavor": "map@3"}, "is map"),
    ({"k": 0}, "positive integer"),
])
def test_a_flavor_that_is_not_one_ndcg_is_refused(kwargs, words):
    with pytest.raises(rf.SpecError, match=words):
        rf.ndcg_score(Y, S, **kwargs)


def test_k_sets_a_presets_cutoff_and_negative_labels_under_a_flavor_that_keeps_them():
    assert rf.ndcg_score(Y, S, flavor="lightgbm", k=2).flavor == rf.Flavor.parse("lightgbm@2")
    kept = rf.dcg_score([[1.0, -1.0]], [[0.2, 0.1]])  # scikit-learn's dcg_score keeps negative labels
    assert kept == pytest.approx(1.0 - 1.0 / np.log2(3))


def test_a_score_is_a_float_and_pickles_as_one():
    import pickle

    score = rf.ndcg_score(Y, S, k=2)
    assert isinstance(score, float) and f"{score:.3f}" == f"{float(score):.3f}"
    assert type(pickle.loads(pickle.dumps(score))) is float
    assert "flavor='ndcg@2 " in repr(score) and len(score.per_query) == 2


PROBE = """
import sys, numpy as np, rankflavor
rankflavor.ndcg_score([[1.0, 0.0]], [[0.2, 0.1]])
import rankflavor.beir, rankflavor.mteb, rankflavor.lightgbm, rankflavor.xgboost, rankflavor.catboost
print(sorted(m for m in ("lightgbm", "xgboost", "catboost", "torch", "sklearn", "beir", "mteb") if m in sys.modules))
"""


def test_no_heavy_import():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
