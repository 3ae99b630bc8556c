"""Named presets: each resolves to full flavors that reproduce one peer tool's NDCG.

A preset gives the axis values that differ from the plain `ndcg@k` default, the peer's default cutoffs
(one flavor per cutoff when the user writes the preset without `@k`), and the source file it was read
from. Array-based tools (scikit-learn, LightGBM, XGBoost, CatBoost, TF-Ranking, torchmetrics) are fed the
way their users feed them: one row per query present in both qrels and run, holding the run's documents
in run-file order, grade = the qrels grade (0 when unjudged); hence `ideal=local`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TREC_EVAL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@dataclass(frozen=True)
class Preset:
    name: str
    peer: str
    source: str
    axes: dict[str, str] = field(default_factory=dict)
    cutoffs: tuple[int | None, ...] = (None,)
    metric: str = "ndcg"
    note: str = ""

    @property
    def needs_cutoff(self) -> bool:
        return not self.cutoffs


_ARRAY = {"ideal": "local", "unjudged": "zero"}

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        Preset(
            "trec_eval",
            "trec_eval 10.0 ndcg_cut.k",
            "trec_eval src/m_ndcg_cut.c, src/form_res_rels.c (comp_sim_docno: score desc, docno desc)",
            cutoffs=TREC_EVAL_CUTOFFS,
        ),
        Preset("trec_eval.ndcg", "trec_eval 10.0 ndcg", "trec_eval src/m_ndcg.c (IDCG over all judged docs, uncut)"),
        Preset(
            "trec_eval.ndcg_p",
            "trec_eval 10.0 ndcg_p",
            "trec_eval src/m_ndcg_p.c (rank 1 undiscounted, then 1/log2(i))",
            axes={"discount": "jarvelin(2)"},
        ),
        Preset(
            "pytrec_eval",
            "pytrec_eval (trec_eval 9.0.x C code) ndcg_cut.k",
            "pytrec_eval src/pytrec_eval.cpp (TEXT_RESULTS.sim is float), trec_eval src/m_ndcg_cut.c",
            axes={"precision": "f32"},
            cutoffs=TREC_EVAL_CUTOFFS,
        ),
        Preset(
            "ir_measures",
            "ir_measures nDCG (pytrec_eval provider)",
            "ir_measures measures/ndcg.py, providers/pytrec_eval_provider.py; Evaluator fills missing queries with 0",
            axes={"precision": "f32", "missing": "zero"},
        ),
        Preset(
            "gdeval",
            "gdeval.pl (TREC Web track)",
            "gdeval.pl: (2**$gain - 1)/log($i + 2), ideal from judgments > 0, topics with no relevant doc not output, %.5f",
            axes={"gain": "exp2", "discount": "log(e)", "empty": "skip", "round": "5"},
            cutoffs=(20,),
        ),
        Preset(
            "sklearn",
            "scikit-learn ndcg_score",
            "sklearn/metrics/_ranking.py (_dcg_sample_scores, _tie_averaged_dcg; ValueError on negative y_true)",
            axes={**_ARRAY, "ties": "average", "negative": "error"},
        ),
        Preset(
            "ranx",
            "ranx ndcg",
            "ranx/metrics/ndcg.py (rel_lvl=1; idcg 0 -> 1), ranx/metrics/common.py",
            axes={"min_grade": "1", "negative": "zero", "missing": "zero"},
        ),
        Preset(
            "ranx.burges",
            "ranx ndcg_burges",
            "ranx/metrics/ndcg.py (2**rel - 1)",
            axes={"gain": "exp2", "min_grade": "1", "negative": "zero", "missing": "zero"},
        ),
        Preset(
            "lightgbm",
            "LightGBM ndcg@k metric",
            "LightGBM src/metric/dcg_calculator.cpp, src/metric/rank_metric.hpp (all-negative query -> NDCG 1)",
            axes={**_ARRAY, "gain": "exp2", "ties": "input", "negative": "error", "empty": "one"},
            cutoffs=(1, 2, 3, 4, 5),
        ),
        Preset(
            "xgboost",
            "XGBoost >= 2 ndcg@n",
            "xgboost src/metric/rank_metric.cc (EvalNDCG), src/common/ranking_utils.h (default depth 32)",
            axes={**_ARRAY, "gain": "exp2", "ties": "input", "negative": "error", "empty": "one", "precision": "f32"},
            cutoffs=(32,),
        ),
        Preset(
            "xgboost.minus",
            "XGBoost >= 2 ndcg@n-",
            "xgboost src/metric/rank_metric.cc (the '-' suffix scores a zero-ideal group 0)",
            axes={**_ARRAY, "gain": "exp2", "ties": "input", "negative": "error", "empty": "zero", "precision": "f32"},
            cutoffs=(32,),
        ),
        Preset(
            "catboost",
            "CatBoost NDCG (type=Base)",
            "catboost/libs/metrics/dcg.cpp, doc_comparator.h (ties: target ascending)",
            axes={**_ARRAY, "ties": "pessimistic", "negative": "keep", "empty": "one"},
        ),
        Preset(
            "catboost.exp",
            "CatBoost NDCG (type=Exp)",
            "catboost/libs/metrics/dcg.cpp",
            axes={**_ARRAY, "gain": "exp2", "ties": "pessimistic", "negative": "keep", "empty": "one"},
        ),
        Preset(
            "tf_ranking",
            "TF-Ranking NDCGMetric",
            "tensorflow_ranking python/metrics_impl.py, utils.py (sort_by_scores shuffle_ties=True, float32)",
            axes={**_ARRAY, "gain": "exp2", "ties": "random(0)", "negative": "zero", "precision": "f32"},
            note="TF-Ranking shuffles ties without a seed; random(0) stands for one such draw",
        ),
        Preset(
            "torchmetrics",
            "torchmetrics RetrievalNormalizedDCG",
            "torchmetrics functional/retrieval/ndcg.py (tie-averaged, float32)",
            axes={**_ARRAY, "ties": "average", "negative": "keep", "precision": "f32"},
        ),
        Preset(
            "ranklib",
            "RankLib NDCG@k",
            "RankLib ciir/umass/edu/metric/DCGScorer.java ((1<<r)-1, 1/log2(i+2)), NDCGScorer.java",
            axes={**_ARRAY, "gain": "exp2", "ties": "input", "negative": "error"},
            cutoffs=(10,),
        ),
        Preset(
            "elastic",
            "Elasticsearch/OpenSearch rank_eval dcg (normalize=false)",
            "elasticsearch modules/rank-eval/.../DiscountedCumulativeGain.java",
            axes={"gain": "exp2", "ties": "input", "negative": "keep"},
            cutoffs=(10,),
            metric="dcg",
        ),
        Preset(
            "elastic.ndcg",
            "Elasticsearch/OpenSearch rank_eval dcg (normalize=true)",
            "elasticsearch modules/rank-eval/.../DiscountedCumulativeGain.java (IDCG cut at the hit count)",
            axes={"gain": "exp2", "ties": "input", "negative": "keep", "ideal_depth": "returned"},
            cutoffs=(10,),
        ),
        Preset(
            "quepid",
            "Quepid nDCG@10 (2025+)",
            "quepid db/scorers/ndcg@10.js (IDCG over all rated docs, not cut)",
            axes={"gain": "exp2", "ties": "input", "negative": "keep", "ideal_depth": "all"},
            cutoffs=(10,),
        ),
        Preset(
            "quepid.cut",
            "Quepid NDCG_CUT@10",
            "quepid db/scorers/ndcg_cut@10.js",
            axes={"gain": "exp2", "ties": "input", "negative": "keep"},
            cutoffs=(10,),
        ),
        Preset(
            "spark",
            "Spark mllib RankingMetrics.ndcgAt(k)",
            "spark mllib/src/main/scala/org/apache/spark/mllib/evaluation/RankingMetrics.scala (ndcgAt)",
            axes={"gain": "exp2", "discount": "log(e)", "ties": "input", "negative": "keep"},
            cutoffs=(),
            note="ndcgAt needs k; judged ids are passed sorted by grade, so the ideal is global",
        ),
        Preset(
            "trectools",
            "trectools TrecEval.get_ndcg(trec_eval=True)",
            "trectools trectools/trec_eval.py (get_ndcg: IDCG not cut, NaN for a zero ideal)",
            axes={"ideal_depth": "all", "negative": "keep", "empty": "skip"},
            cutoffs=(1000,),
        ),
        Preset(
            "beir",
            "BEIR EvaluateRetrieval.evaluate",
            "beir/retrieval/evaluation.py (pytrec_eval ndcg_cut, ignore_identical_ids, round(mean, 5))",
            axes={"precision": "f32", "self_docs": "drop", "round": "5"},
            cutoffs=(1, 3, 5, 10, 100, 1000),
        ),
    ]
}
