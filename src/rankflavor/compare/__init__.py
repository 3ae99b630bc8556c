"""Comparing systems across flavors: does "A beats B" survive a change of flavor?

- `compare(qrels, runs, grid=...)`: every flavor of a grid, every pair of runs: means, paired difference,
  CI, p-value (Holm-corrected over pairs), the run the test favours and its finding (compare/pair_tests.py),
  and a verdict from the corrected test alone (robust / flavor-dependent / reverses / no finding among the flavors
  of one measure, with the smallest change of axes that reverses a significant winner; measures disagree across
  metrics), carrying each run's judged@k (compare/verdicts.py, compare/pool.py).
- `diff(qrels, runs, flavor_a, flavor_b)`: the walk from one flavor to another, one axis at a time.
- `top_differences`, `changed_winners`: per-query views with `rankflavor explain` command lines.
- `GRIDS`, `build_grid`: the named grids and the flavors of a grid.
- `TestSettings`: how runs are compared (test, n_resamples, seed, confidence, alpha, correction, ci, intervals,
  tolerance), one value
  with a canonical string (`str`, `TestSettings.parse`); each mean's interval, effect sizes, win/tie/loss,
  the corrections and the randomised Tukey HSD test: compare/effects.py, corrections.py, tukey.py.
- `Comparison.pyterrier_table()`: PyTerrier's Experiment table (`<m> +`, `<m> -`, `<m> p-value`, ...), a DataFrame.
- `paper_table(cmp)` / `Comparison.paper_table()`: the systems x measures table of a paper, with
  significance marks, as text, Markdown or LaTeX.
"""

from rankflavor.compare.attribution import Attribution, diff, shapley, walk
from rankflavor.compare.comparison import Comparison, compare
from rankflavor.compare.grid import GRIDS, Grid, build_grid, short_label
from rankflavor.compare.paper import PaperTable, paper_table
from rankflavor.compare.scores import Scores
from rankflavor.compare.stats import TestSettings, bootstrap_ci, holm, paired_test, randomization_test, t_test
from rankflavor.compare.views import changed_winners, query_differences, top_differences, winner_changes

__all__ = [
    "GRIDS", "Attribution", "Comparison", "Grid", "PaperTable", "Scores", "TestSettings", "bootstrap_ci", "build_grid",
    "changed_winners", "compare", "diff", "holm", "paired_test", "paper_table", "query_differences", "randomization_test",
    "shapley", "short_label", "t_test",
    "top_differences", "walk", "winner_changes",
]
