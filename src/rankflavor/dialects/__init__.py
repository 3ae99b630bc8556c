"""The peers' dialects: each peer's names for rankflavor's metrics and the conventions it computes them under,
one module per peer (trec_eval.py, pytrec_eval.py, trec_sets.py, ranx.py, ir_measures.py), the lookup of a
`PREFIX.NAME` (lookup.py) and the arrays array-based peers take (arrays.py). The names themselves are declared
by each metric family at its `register(...)` (rankflavor/registry.py); a dialect derives its tables from them."""
