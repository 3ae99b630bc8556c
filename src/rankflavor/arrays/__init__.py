"""rankflavor on arrays, as the machine-learning libraries take them: labels and scores, one row per query
(scikit-learn's 2-D `y_true`, `y_score`) or stacked 1-D arrays with the query of each document (LightGBM's
`group` sizes, XGBoost's `qid`).

The arrays are checked once (`checks.py`), made a qrels and a run whose doc ids are positions (`tables.py`),
and scored by the one front door, `rankflavor.evaluate`: no metric is computed here. `ndcg_score` and
`dcg_score` (`front.py`) take scikit-learn's signature and give its numbers by default (the `sklearn` preset);
any flavor is one spec away (`flavor="ndcg@10 gain=exp2"`, `flavor="lightgbm"`). Each value is a `Score`
(`score.py`): a float that carries its flavor and its per-query values.
"""

from rankflavor.arrays.checks import Grouped, by_rows, grouped
from rankflavor.arrays.flavors import resolve
from rankflavor.arrays.front import dcg_score, ndcg_score, score_arrays, score_grouped
from rankflavor.arrays.score import Score

__all__ = ["Grouped", "Score", "by_rows", "dcg_score", "grouped", "ndcg_score", "resolve", "score_arrays",
           "score_grouped"]
