"""Named presets: each resolves to full flavors that reproduce one peer tool's NDCG.

A preset gives the axis values that differ from the plain `ndcg@k` default, the peer's default cutoffs
(one flavor per cutoff when the user writes the preset without `@k`; none = the peer requires k), the
source files it was read from, how it is proven (`checked`: the peer package and version the conformance
tests in tests/peers/ run against, or `golden` for hand-worked cases from the cited source) and a note on
every behaviour of the peer that no axis expresses.

Array-based tools (scikit-learn, LightGBM, XGBoost, CatBoost, TF-Ranking, torchmetrics, RankLib) are fed
the way their users feed them (`rankflavor.dialects.arrays`): one row per query present in both qrels and
run, holding the run's documents in run-file order, grade = the qrels grade (0 when unjudged), score = the
run score; hence `ideal=local`, and a stable sort's ties fall back to run-file order (`ties=input`).
"""

from __future__ import annotations

from typing import NamedTuple

TREC_EVAL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
BEIR_CUTOFFS = (1, 3, 5, 10, 100, 1000)


class Preset(NamedTuple):
    """A peer's NDCG as a named flavor: the axes it sets (the rest are the metric's defaults), its cutoffs (none:
    `NAME@k` needs one), where it was read and how it is checked. (A NamedTuple: made at start-up for a fraction of
    a frozen dataclass's cost.)"""

    name: str
    peer: str
    source: str
    axes: dict[str, str] = {}  # noqa: RUF012 (one empty dict shared by the presets that set none: never changed)
    cutoffs: tuple[int | None, ...] = (None,)
    metric: str = "ndcg"
    note: str = ""
    checked: str = "golden"

    @property
    def needs_cutoff(self) -> bool:
        return not self.cutoffs


_ARRAY = {"ideal": "local", "unjudged": "zero"}
_TREC_EVAL_SRC = "usnistgov/trec_eval form_res_rels.c (comp_sim_docno: sim desc, then docno desc; -M cut before -J)"
_PYTREC = "pytrec-eval-terrier 0.5.11"

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        Preset(
            "trec_eval",
            "trec_eval 10.0 ndcg_cut.k",
            f"{_TREC_EVAL_SRC}, m_ndcg_cut.c (DCG and IDCG cut at k, IDCG over every qrels doc), "
            "trec_format.h (sim is double since 10.0)",
            cutoffs=TREC_EVAL_CUTOFFS,
            note="qrels grades < 0 are 'in pool, unjudged': gain 0, not in the IDCG, removed by -J (unjudged=skip); "
                 "-M (run_depth) cuts the ranked list before -J removes unjudged docs",
            checked=f"{_PYTREC} (live, on scores distinct in float32); golden for float64-only ties",
        ),
        Preset(
            "trec_eval.ndcg",
            "trec_eval 10.0 ndcg",
            "usnistgov/trec_eval m_ndcg.c (IDCG over all docs with gain > 0, uncut), gain_init.c (setup_gains)",
            note="a topic whose every judgment is negative leaves form_res_rels.c's static num_rel_levels from the "
                 "previous topic: pytrec_eval's ndcg hung on one here; rankflavor scores it as a zero ideal",
            checked=f"{_PYTREC} ndcg (live, on scores distinct in float32)",
        ),
        Preset(
            "trec_eval.ndcg_p",
            "trec_eval 10.0 ndcg_p",
            "usnistgov/trec_eval m_ndcg_p.c (rank 1 undiscounted, then 1/log2(i); value set only when a relevant "
            "doc is retrieved, which is also when DCG > 0)",
            axes={"discount": "jarvelin(2)"},
            checked="golden (pytrec_eval does not offer ndcg_p)",
        ),
        Preset(
            "pytrec_eval",
            "pytrec_eval (trec_eval 9.0.x C code) ndcg_cut.k",
            "terrierteam/pytrec_eval src/pytrec_eval.cpp; its trec_eval submodule (9.0.x) form_res_rels.c and "
            "trec_format.h keep sim as float (float32)",
            axes={"precision": "f32"},
            cutoffs=TREC_EVAL_CUTOFFS,
            note="queries absent from the qrels are skipped; qrels grades must be int",
            checked=f"{_PYTREC} (live)",
        ),
        Preset(
            "ir_measures",
            "ir_measures nDCG (pytrec_eval provider)",
            "terrierteam/ir_measures ir_measures/providers/pytrec_eval_provider.py (nDCG -> ndcg, nDCG@k -> "
            "ndcg_cut_k), ir_measures/providers/base.py (Evaluator.iter_calc yields measure.DEFAULT = 0 for every "
            "qrels query the provider did not score)",
            axes={"precision": "f32", "missing": "zero"},
            checked="ir-measures 0.4.3 with pytrec-eval-terrier 0.5.11 (live)",
        ),
        Preset(
            "gdeval",
            "gdeval.pl 1.2a (TREC Web track; shipped in ir_measures/bin)",
            "terrierteam/ir_measures ir_measures/bin/gdeval.pl: (2**$gain - 1)/log($i + 2), ideal from judgments > 0 "
            "cut at k, run sorted by score desc then docno desc, topics without a relevant doc not printed, %.5f",
            axes={"gain": "exp2", "discount": "log(e)", "empty": "skip", "round": "5"},
            cutoffs=(),
            note="k is a required argument; topic ids must be numeric (the part after the last '-'), judgments above "
                 "4 are a fatal error; through ir_measures (nDCG(dcg='exp-log2')@k) the unprinted topics become 0 "
                 "(empty=zero missing=zero)",
            checked="gdeval.pl from ir-measures 0.4.3 run with perl (live)",
        ),
        Preset(
            "ir_measures.gdeval",
            "ir_measures nDCG(dcg='exp-log2')@k (gdeval provider)",
            "terrierteam/ir_measures ir_measures/providers/gdeval_provider.py (runs bin/gdeval.pl, reads its %.5f "
            "per-topic values; base.py: unprinted qrels topics get 0; the mean is of the printed values)",
            axes={"gain": "exp2", "discount": "log(e)", "empty": "zero", "missing": "zero", "round": "5",
                  "mean_of": "rounded"},
            cutoffs=(),
            note="k is required; gdeval.pl's own limits hold (numeric topic ids, judgments at most 4); the mean "
                 "averages the 5-decimal values gdeval prints (mean_of=rounded), not rounded again",
            checked="ir-measures 0.4.3 with gdeval.pl run by perl (live)",
        ),
        Preset(
            "sklearn",
            "scikit-learn ndcg_score",
            "sklearn/metrics/_ranking.py (_dcg_sample_scores, _tie_averaged_dcg; all_irrelevant -> 0; "
            "ValueError on negative y_true)",
            axes={**_ARRAY, "ties": "average", "negative": "error"},
            note="ndcg_score raises ValueError for a row of one document and for a negative y_true in the row; "
                 "negative=error refuses any negative grade of the qrels; ignore_ties=True orders ties with numpy's "
                 "unstable argsort (np.argsort(y_score)[:, ::-1]), whose order on ties depends on the CPU and the "
                 "numpy build: no preset can promise it (the warnings' tie range, ties=pessimistic..optimistic, "
                 "bounds it)",
            checked="scikit-learn 1.9.1 (live)",
        ),
        Preset(
            "ranx",
            "ranx ndcg (evaluate(qrels, run, metric) on a fresh Run)",
            "AmenRa/ranx ranx/metrics/ndcg.py (clean_qrels keeps rel >= rel_lvl=1; idcg 0 -> 1, so 0), "
            "ranx/data_structures/common.py (sort_dict_by_value: numba argsort of -score), "
            "ranx/data_structures/run.py (a Run is sorted when built; to_typed_list sorts only an unsorted one), "
            "ranx/meta/evaluate.py (check_keys: the query sets must match)",
            axes={"min_grade": "1", "negative": "zero", "missing": "zero", "ties": "quicksort(1)"},
            note="ties follow numba's quicksort argsort of -score over each query's docs in input order, done "
                 "once (ties=quicksort(1); input order up to 15 docs, the quicksort's own order beyond); ranx "
                 "refuses runs whose query set differs from the qrels (ranx.make_comparable is the call that "
                 "accepts them); a Run object evaluated again with make_comparable=True is sorted again each time, "
                 "so its tie order drifts (quicksort(3), (4), ...); doc ids are hashed to float64",
            checked="ranx 0.3.21 (live)",
        ),
        Preset(
            "ranx.make_comparable",
            "ranx ndcg (evaluate(qrels, run, metric, make_comparable=True) on a fresh Run)",
            "AmenRa/ranx ranx/data_structures/run.py (make_comparable: missing queries get empty results, then "
            "self.sort(): a second sort)",
            axes={"min_grade": "1", "negative": "zero", "missing": "zero", "ties": "quicksort(2)"},
            note="as ranx, but the Run is sorted when built and again by make_comparable (ties=quicksort(2)); a "
                 "qrels query absent from the run scores 0; every further evaluate(..., make_comparable=True) of "
                 "the same Run object sorts it once more, so a reused Run drifts (quicksort(3), ...)",
            checked="ranx 0.3.21 (live)",
        ),
        Preset(
            "ranx.burges",
            "ranx ndcg_burges (evaluate(qrels, run, metric) on a fresh Run)",
            "AmenRa/ranx ranx/metrics/ndcg.py (_dcg with jarvelin=False: 2**rel - 1)",
            axes={"gain": "exp2", "min_grade": "1", "negative": "zero", "missing": "zero", "ties": "quicksort(1)"},
            note="same tie order and caveats as ranx",
            checked="ranx 0.3.21 (live)",
        ),
        Preset(
            "ranx.burges.make_comparable",
            "ranx ndcg_burges (evaluate(..., make_comparable=True) on a fresh Run)",
            "AmenRa/ranx ranx/metrics/ndcg.py (_dcg with jarvelin=False: 2**rel - 1), run.py make_comparable",
            axes={"gain": "exp2", "min_grade": "1", "negative": "zero", "missing": "zero", "ties": "quicksort(2)"},
            note="same tie order and caveats as ranx.make_comparable",
            checked="ranx 0.3.21 (live)",
        ),
        Preset(
            "lightgbm",
            "LightGBM ndcg@k metric",
            "microsoft/LightGBM src/metric/dcg_calculator.cpp (label_gain 2^i - 1 for i < 31, std::stable_sort on "
            "score desc, max DCG at min(k, n)), src/metric/rank_metric.hpp (inverse max DCG <= 0 -> NDCG 1)",
            axes={**_ARRAY, "gain": "exp2", "ties": "input", "negative": "error", "empty": "one"},
            cutoffs=(1, 2, 3, 4, 5),
            note="reports only the mean over groups; labels must be integers in [0, 31), at most 10000 rows a query",
            checked="lightgbm 4.7.0 (live)",
        ),
        Preset(
            "xgboost",
            "XGBoost >= 2 ndcg / ndcg@n",
            "dmlc/xgboost src/metric/rank_metric.cc (EvalNDCG: stable ArgSort of float predictions, inv_idcg <= 0 "
            "-> 1), src/common/ranking_utils.h (LambdaRankParam DefaultK() = 32 when no @n, CalcDCGGain 2^l - 1)",
            axes={**_ARRAY, "gain": "exp2", "ties": "input", "negative": "error", "empty": "one", "precision": "f32"},
            cutoffs=(32,),
            note="reports only the mean over groups (clamped to at most 1); predictions are float32, so scores "
                 "equal in float32 tie; labels must be non-negative integers with the default exp gain",
            checked="xgboost-cpu 3.2.0 (live)",
        ),
        Preset(
            "xgboost.minus",
            "XGBoost >= 2 ndcg- / ndcg@n-",
            "dmlc/xgboost src/metric/rank_metric.cc (EvalNDCG: the '-' suffix scores a zero-ideal group 0)",
            axes={**_ARRAY, "gain": "exp2", "ties": "input", "negative": "error", "empty": "zero", "precision": "f32"},
            cutoffs=(32,),
            checked="xgboost-cpu 3.2.0 (live)",
        ),
        Preset(
            "catboost",
            "CatBoost NDCG (type=Base, denominator=LogPosition)",
            "catboost/catboost catboost/libs/metrics/dcg.cpp (CalcNdcg: IDCG from the group's targets sorted desc), "
            "doc_comparator.h (CompareDocs: approx desc, then target asc), metric.cpp (TDcgMetric: mean over groups)",
            axes={**_ARRAY, "ties": "pessimistic", "negative": "keep", "empty": "one"},
            note="catboost 1.2.10 scores a group whose IDCG is not > 0 as 1 (older releases 0); predictions are "
                 "double",
            checked="catboost 1.2.10 (live)",
        ),
        Preset(
            "catboost.exp",
            "CatBoost NDCG (type=Exp)",
            "catboost/catboost catboost/libs/metrics/dcg.cpp (CalcDcgSorted: pow(2, target) - 1)",
            axes={**_ARRAY, "gain": "exp2", "ties": "pessimistic", "negative": "keep", "empty": "one"},
            checked="catboost 1.2.10 (live)",
        ),
        Preset(
            "tf_ranking",
            "TF-Ranking NDCGMetric",
            "tensorflow/ranking tensorflow_ranking/python/metrics_impl.py (NDCGMetric, _prepare_and_validate_params: "
            "labels < 0 masked out and sorted last; divide_no_nan), utils.py (sort_by_scores: float32 scores, "
            "shuffle_ties=True without a seed)",
            axes={**_ARRAY, "gain": "exp2", "ties": "random(0)", "negative": "drop", "precision": "f32"},
            note="TF-Ranking shuffles ties without a seed, so its value on tied scores varies from call to call; "
                 "random(0) stands for one such draw. A negative grade is TF-Ranking's padding label: negative=drop",
            checked="golden (tensorflow-ranking 0.5.5 is on PyPI but pulls TensorFlow; left out of the peers extra, "
                    "not tried)",
        ),
        Preset(
            "torchmetrics",
            "torchmetrics retrieval_normalized_dcg / RetrievalNormalizedDCG",
            "Lightning-AI/torchmetrics src/torchmetrics/functional/retrieval/ndcg.py (_tie_average_dcg translated "
            "from scikit-learn; all_irrelevant -> 0), utilities/checks.py (preds cast to float32)",
            axes={**_ARRAY, "ties": "average", "negative": "keep", "precision": "f32"},
            note="computes in float32 (agreement about 1e-6); a row whose IDCG is negative (only negative grades) "
                 "is divided anyway, where rankflavor applies the empty policy",
            checked="torchmetrics 1.9.0 on torch 2.13.0+cpu (live)",
        ),
        Preset(
            "ranklib",
            "RankLib NDCG@k",
            "RankLib src/main/java/ciir/umass/edu/metric/NDCGScorer.java (ideal over the ranked list's labels cut "
            "at min(k, n); ideal <= 0 -> 0), DCGScorer.java ((1<<r)-1, 1/log2(i+2); k defaults to 10)",
            axes={**_ARRAY, "gain": "exp2", "ties": "input", "negative": "error"},
            cutoffs=(10,),
            note="with -qrel FILE the ideal comes from the qrels instead: ideal=global",
            checked="golden (RankLib is a Java jar, not on PyPI)",
        ),
        Preset(
            "elastic",
            "Elasticsearch/OpenSearch rank_eval dcg (normalize=false)",
            "elastic/elasticsearch modules/rank-eval/src/main/java/org/elasticsearch/index/rankeval/"
            "DiscountedCumulativeGain.java (computeDCG: (2^r - 1)/(ln(rank+1)/ln 2); unrated hits keep their rank)",
            axes={"gain": "exp2", "ties": "input", "negative": "keep"},
            cutoffs=(10,),
            metric="dcg",
            note="ties are the engine's hit order (input); unknown_doc_rating=N would give unjudged docs grade N",
            checked="golden (a search engine, not a library)",
        ),
        Preset(
            "elastic.ndcg",
            "Elasticsearch/OpenSearch rank_eval dcg (normalize=true)",
            "elastic/elasticsearch modules/rank-eval/src/main/java/org/elasticsearch/index/rankeval/"
            "DiscountedCumulativeGain.java (IDCG over all rated docs, cut at the number of hits; idcg 0 -> 0)",
            axes={"gain": "exp2", "ties": "input", "negative": "keep", "ideal_depth": "returned"},
            cutoffs=(10,),
            checked="golden (a search engine, not a library)",
        ),
        Preset(
            "quepid",
            "Quepid nDCG@10 (2025+)",
            "o19s/quepid db/scorers/ndcg@10.js (DCG over the top 10; IDCG over all rated docs, not cut)",
            axes={"gain": "exp2", "ties": "input", "negative": "keep", "ideal_depth": "all"},
            cutoffs=(10,),
            checked="golden (a web application)",
        ),
        Preset(
            "quepid.cut",
            "Quepid NDCG_CUT@10",
            "o19s/quepid db/scorers/ndcg_cut@10.js (DCG and IDCG over the top 10)",
            axes={"gain": "exp2", "ties": "input", "negative": "keep"},
            cutoffs=(10,),
            checked="golden (a web application)",
        ),
        Preset(
            "spark",
            "Spark mllib RankingMetrics.ndcgAt(k) (graded, Spark >= 3.4)",
            "apache/spark mllib/src/main/scala/org/apache/spark/mllib/evaluation/RankingMetrics.scala (ndcgAt: "
            "(2^rel - 1)/ln(i + 2) over min(k, |pred|) predictions and min(k, |lab|) labels in the caller's order)",
            axes={"gain": "exp2", "discount": "log(e)", "ties": "input", "negative": "keep"},
            cutoffs=(),
            note="ndcgAt needs k; the preset passes the run's ids in rank order and the query's judged ids sorted "
                 "by grade (ideal=global); labels passed unsorted give a smaller ideal and values above 1; without "
                 "a relevance array every listed id has gain 1. From Python it is always binary: pyspark 4.0.5 "
                 "(tried here) gave the binary value for (pred, lab, rel) rows, its PythonMLLibAPI.newRankingMetrics "
                 "passing only the first two columns to the JVM",
            checked="golden (pyspark is on PyPI but is ~500 MB and starts a JVM; left out of the peers extra)",
        ),
        Preset(
            "trectools",
            "trectools TrecEval.get_ndcg(depth=1000, trec_eval=True)",
            "joaopalotti/trectools trectools/trec_eval.py (get_ndcg: only rel > 0 qrels, IDCG cut at depth), "
            "trec_run.py (read_run sorts by query, score desc, docid asc), trec_qrel.py (read_qrel drops rel < 0)",
            axes={"ties": "docid_asc", "unjudged_queries": "zero"},
            cutoffs=(1000,),
            note="per query, trectools returns NaN when no relevant doc is in the top depth and leaves zero-ideal "
                 "queries out of its table; its mean divides the sum by the number of run topics, run topics absent "
                 "from the qrels included (unjudged_queries=zero); all-digit doc ids are read as numbers (leading "
                 "zeros lost)",
            checked="trectools 0.0.50 (live)",
        ),
        Preset(
            "beir",
            "BEIR EvaluateRetrieval.evaluate",
            "beir-cellar/beir beir/retrieval/evaluation.py (ignore_identical_ids=True pops run docs whose id equals "
            "the query id; pytrec_eval ndcg_cut; round(mean, 5); k_values 1,3,5,10,100,1000)",
            axes={"precision": "f32", "self_docs": "drop", "round": "5"},
            cutoffs=BEIR_CUTOFFS,
            note="BEIR rounds only the mean; its per-query values are pytrec_eval's, unrounded",
            checked=f"beir 2.2.0 EvaluateRetrieval.evaluate over {_PYTREC} (live; beir installed with --no-deps)",
        ),
    ]
}
