"""The C/W/L family through the Spark engine (rankflavor.spark, local[2]) against the local engine: every number
is per query, so a slice of whole queries gives the same values, parts (EU ... ResED) and statuses."""

from __future__ import annotations

from heavy import need_group

need_group("spark")

from test_spark_engine import _local_spark_ended, assert_same, frames, local_report, spark  # noqa: E402, F401  (the fixtures)

CASE_QRELS = {"q1": {"d1": 1, "d2": 0.5, "d3": 0}, "q2": {"d4": 1}, "q3": {"d1": 0.5}}
CASE_RUN = {"q1": {"d1": 2.0, "d9": 2.0, "d2": 1.0, "d3": 0.5}, "q2": {"d5": 1.0, "d4": 1.0}, "q4": {"d1": 1.0}}
SPECS = ["cwl_eval.RBP@0.8", "cwl_eval.ETU.AP", "cwl_eval.ResEU.INSTCWLMetric(2.0)", "cwl_p@3", "cwl_sdcg@2",
         "cwl_rr missing=zero", "cwl_bpm_dynamic(T=2)", "cwl_nerr10 unjudged=skip", "cwl_insq(of=ed)"]


def test_cwl_measures_through_spark_equal_the_local_engine(spark):  # noqa: F811
    from rankflavor.spark import Columns, evaluate

    qrels, run = frames([(CASE_QRELS, CASE_RUN), ({"q1": {"d2": 1}}, {"q1": {"d2": 1.0, "d3": 3.0}})])
    report = local_report(qrels, run, SPECS)
    out = evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run), SPECS,
                   columns=Columns(run="system", order="line"))
    assert_same(out, report)
    out.unpersist()
