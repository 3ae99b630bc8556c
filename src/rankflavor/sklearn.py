"""rankflavor in scikit-learn's model selection: `ndcg_scorer(k=10, flavor=None)`, a scorer over
`rankflavor.ndcg_score` (scikit-learn's numbers by default, any flavor by spec), for 2-D targets or, with metadata
routing on, 1-D targets whose queries arrive as `groups`:

    import sklearn, rankflavor.sklearn
    sklearn.set_config(enable_metadata_routing=True)
    GridSearchCV(model, grid, cv=GroupKFold(5), scoring=rankflavor.sklearn.ndcg_scorer(k=10)).fit(X, y, groups=qid)

The body is rankflavor/adapters/sklearn_scorer.py (docs/sklearn.md). `rankflavor.ndcg_score` and
`rankflavor.dcg_score` need no scikit-learn.
"""

from rankflavor.adapters.sklearn_scorer import ndcg_scorer

__all__ = ["ndcg_scorer"]
