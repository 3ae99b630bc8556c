"""The paired tests on the signs and ranks of per-query differences d_i = a_i - b_i, and the counts they read.

- `win_tie_loss`: how many queries each run of the pair scores higher on; a tie within 1e-9 (TOLERANCE).
- `wilcoxon_p`: Wilcoxon's signed-rank test (scipy.stats.wilcoxon; zero differences dropped as Wilcoxon did,
  exact or normal as SciPy chooses).
- `sign_p`: the exact sign test (scipy.stats.binomtest of the wins among wins + losses at 1/2, ties dropped).
"""

from __future__ import annotations

import numpy as np

from rankflavor.report.numbers import TOLERANCE


def win_tie_loss(d: np.ndarray) -> tuple[int, int, int]:
    """(queries where a - b > 1e-9, |a - b| <= 1e-9, a - b < -1e-9)."""
    d = np.asarray(d, dtype=np.float64)
    wins, losses = int((d > TOLERANCE).sum()), int((d < -TOLERANCE).sum())
    return wins, len(d) - wins - losses, losses


def wilcoxon_p(d: np.ndarray) -> float:
    """Two-sided Wilcoxon signed-rank p (scipy.stats.wilcoxon); 1 when every difference is zero."""
    from scipy import stats

    d = np.asarray(d, dtype=np.float64)
    if len(d) == 0:
        return float("nan")
    if np.all(np.abs(d) <= TOLERANCE):
        return 1.0
    return float(stats.wilcoxon(d[np.abs(d) > TOLERANCE]).pvalue)  # (zeros dropped first: SciPy's exact when it can)


def sign_p(d: np.ndarray) -> float:
    """Two-sided exact sign test: binomial(wins; wins + losses, 1/2), ties dropped; 1 with no win or loss."""
    from scipy import stats

    wins, _, losses = win_tie_loss(d)
    if len(d) == 0:
        return float("nan")
    return 1.0 if wins + losses == 0 else float(stats.binomtest(wins, wins + losses, 0.5).pvalue)
