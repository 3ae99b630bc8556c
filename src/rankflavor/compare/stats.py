"""Paired statistics over per-query differences d_i = a_i - b_i (vectorised, seeded).

- `randomization_test`: two-sided paired randomization (sign-flip) test of mean(d) = 0 (Fisher 1935;
  Smucker, Allan & Carterette, CIKM 2007). Under H0 each d_i is as likely to be -d_i, so the statistic
  T(s) = mean(s * d) over sign vectors s in {-1, +1}^n is the null distribution and
  p = P(|T(s)| >= |T(1)|). Exact over all 2^n sign vectors when 2^n <= n_resamples; otherwise Monte
  Carlo with p = (1 + #{|T(s)| >= |T(1)|}) / (1 + R) (Phipson & Smyth 2010). Both match
  `scipy.stats.permutation_test(..., permutation_type="samples")`, which the tests check.
- `bootstrap_ci`: paired percentile bootstrap of mean(d) (Efron & Tibshirani 1993, ch. 13): R resamples
  of the n queries with replacement, the interval is the (alpha/2, 1 - alpha/2) percentiles of the
  resampled means (numpy's linear interpolation, as `scipy.stats.bootstrap(method="percentile")`).
- `t_test`: `scipy.stats.ttest_rel` and its confidence interval, mean(d) +- t_{n-1} sd(d) / sqrt(n).
- `holm`: Holm (1979) step-down adjusted p-values, p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).
- Wilcoxon's signed-rank and the sign test, effect sizes, win/tie/loss and each mean's interval:
  compare/effects.py; Bonferroni and Benjamini-Hochberg: compare/corrections.py; the randomised Tukey HSD
  test over all runs: compare/tukey.py.

`TestSettings` is how a comparison tests (`paired_test`, `compare`, the report page): one value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rankflavor.compare.rank_tests import DEFAULT_TOLERANCE, direction, sign_test, snap, wilcoxon_test
from rankflavor.errors import UsageError

CHUNK = 1 << 21  # resampled values held in memory at once


TESTS = ("randomization", "t", "wilcoxon", "sign", "tukey")
CORRECTIONS = ("holm", "bonferroni", "bh", "none")
INTERVALS = ("bootstrap", "t")
FAMILIES = ("per_comparison", "simultaneous")  # what a difference's interval covers: its own pair, or the family
# the canonical string's keys, in order, and the field each names
MAX_RESAMPLES = 100_000_000  # a Monte Carlo p-value's floor of 1e-8: beyond, only time and memory grow
MAX_SEED = (1 << 63) - 1  # numpy's seeds beyond an int64 are accepted, but a seed is a small number to write down
CANONICAL_KEYS = {"test": "test", "resamples": "n_resamples", "seed": "seed", "correction": "correction", "ci": "ci",
                  "confidence": "confidence", "alpha": "alpha", "intervals": "intervals", "tolerance": "tolerance"}


@dataclass(frozen=True)
class TestSettings:
    """How runs are compared: `test` ("randomization": sign-flip p-value from `n_resamples` resamples of streams
    of `np.random.SeedSequence(seed)`; "t": scipy.stats.ttest_rel; "wilcoxon": scipy.stats.wilcoxon, signed
    ranks; "sign": the exact binomial sign test; "tukey": the randomised Tukey HSD over all runs, compare/tukey.py),
    `correction` over each flavor's pairs ("holm", "bonferroni", "bh" = Benjamini-Hochberg, "none"; default holm,
    none under tukey, which controls the family-wise error itself: compare/corrections.py), `ci`, how every
    interval is made ("bootstrap": percentile bootstrap; "t": Student's t; default t under test=t, else
    bootstrap), its `confidence`, `alpha`, the significance level after the correction, `intervals`, what each
    difference's interval covers ("per_comparison": its own pair at `confidence`; "simultaneous": the family of a
    flavor's pairs, as the correction: compare/intervals.py), and `tolerance`, within which two differences are
    equal (compare/rank_tests.py `snap`: a zero, a tie of ranks, a tie of wins).

    `str(settings)` is its canonical string (`test=randomization resamples=10000 seed=0 correction=holm
    ci=bootstrap confidence=0.95 alpha=0.05 intervals=per_comparison tolerance=1e-09`), which `TestSettings.parse`
    reads back."""

    __test__ = False  # (a settings value, not a pytest test class)

    test: str = "randomization"
    n_resamples: int = 10_000
    seed: int = 0
    confidence: float = 0.95
    alpha: float = 0.05
    correction: str = ""  # "": holm, or none under test=tukey
    ci: str = ""  # "": t under test=t, else bootstrap
    intervals: str = "per_comparison"
    tolerance: float = DEFAULT_TOLERANCE

    def __post_init__(self) -> None:
        """Each setting checked, a UsageError naming the value (a ValueError, as before)."""
        if self.test not in TESTS:
            raise UsageError(f"unknown test {self.test!r}; use one of {', '.join(TESTS)}")
        object.__setattr__(self, "correction", self.correction or ("none" if self.test == "tukey" else "holm"))
        object.__setattr__(self, "ci", self.ci or ("t" if self.test == "t" else "bootstrap"))
        if self.correction not in CORRECTIONS:
            raise UsageError(f"unknown correction {self.correction!r}; use one of {', '.join(CORRECTIONS)}")
        if self.test == "tukey" and self.correction != "none":
            raise UsageError("the Tukey HSD test controls the family-wise error over all pairs itself: give "
                             "correction=none with test=tukey")
        if self.ci not in INTERVALS:
            raise UsageError(f"unknown interval {self.ci!r}; use one of {', '.join(INTERVALS)}")
        if self.intervals not in FAMILIES:
            raise UsageError(f"unknown intervals {self.intervals!r}; use one of {', '.join(FAMILIES)}")
        if self.intervals == "simultaneous" and self.correction == "none" and self.test != "tukey":
            raise UsageError("intervals=simultaneous cover a flavor's pairs as its correction does: give a correction "
                             "(holm, bonferroni, bh) or test=tukey, or intervals=per_comparison")
        tolerance = self.tolerance
        if (not isinstance(tolerance, (int, float, np.number)) or isinstance(tolerance, bool)
                or not 0 <= tolerance < 1e-3):
            raise UsageError(f"tolerance={tolerance!r}: give a number from 0 up to (not including) 0.001, e.g. "
                             f"tolerance={DEFAULT_TOLERANCE}")
        for name, least, most in (("n_resamples", 1, MAX_RESAMPLES), ("seed", 0, MAX_SEED)):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or not least <= value <= most:
                raise UsageError(f"{name}={value!r}: give a whole number from {least} to {most:,}" + (
                    " (a Monte Carlo p-value's resolution is 1/(resamples + 1): more changes no printed digit, and "
                    "costs time and memory in proportion)" if name == "n_resamples" else ""))
        for name in ("confidence", "alpha"):
            value = getattr(self, name)
            if not isinstance(value, (int, float, np.number)) or isinstance(value, bool) or not 0 < value < 1:
                raise UsageError(f"{name}={value!r}: give a number between 0 and 1 (exclusive), e.g. "
                                 f"{name}={getattr(TestSettings, name)}")

    def __str__(self) -> str:
        """The canonical string: every setting, `key=value`, in a fixed order."""
        return " ".join(f"{key}={_text(getattr(self, name))}" for key, name in CANONICAL_KEYS.items())

    @classmethod
    def parse(cls, text: str) -> TestSettings:
        """The settings a canonical string (or any of its `key=value` words, the rest defaults) gives."""
        given: dict[str, object] = {}
        for word in text.split():
            key, sep, value = word.partition("=")
            if not sep or key not in CANONICAL_KEYS or key in given:
                raise UsageError(f"test settings {text!r}: {word!r} is not one key=value of "
                                 f"{', '.join(CANONICAL_KEYS)} (each at most once)")
            given[key] = value
        kwargs: dict[str, object] = {}
        for key, value in given.items():
            name = CANONICAL_KEYS[key]
            try:
                kwargs[name] = (int(value) if name in ("n_resamples", "seed")
                                else float(value) if name in ("confidence", "alpha", "tolerance") else value)
            except ValueError:
                raise UsageError(f"test settings {text!r}: {key}={value!r} is not a number") from None
        return cls(**kwargs)  # type: ignore[arg-type]


def _text(value: object) -> str:
    return repr(float(value)) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class PairedTest:
    n: int
    diff: float  # mean of d
    ci_low: float
    ci_high: float
    p: float
    test: str
    exact: bool
    favours: int = 0  # the run the test's statistic favours: +1 a, -1 b, 0 neither (compare/rank_tests.py)
    constant: float | None = None  # every snapped difference, when they are all one value


def _rng(seed: int | np.random.Generator) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _chunks(total: int, width: int) -> list[tuple[int, int]]:
    step = max(1, CHUNK // max(width, 1))
    return [(i, min(total, i + step)) for i in range(0, total, step)]


def _as_columns(d: np.ndarray) -> np.ndarray:
    d = np.asarray(d, dtype=np.float64)
    return d[:, None] if d.ndim == 1 else d


# signs of the 8 bits of every byte value: BYTE_SIGNS[b, j] = +1 if bit j of b is set, else -1
BYTE_SIGNS = np.where((np.arange(256)[:, None] >> np.arange(8)) & 1, 1.0, -1.0)


def randomization_test(d: np.ndarray, n_resamples: int = 10_000, seed: int | np.random.Generator = 0,
                       ) -> tuple[np.ndarray | float, bool]:
    """Two-sided paired sign-flip p-value of mean(d) = 0, and whether it is exact.

    d: one vector of differences (n,) or several columns (n, F) sharing the sign vectors (one p per
    column, the same as column by column). Monte Carlo sign vectors come from random bytes: the sum
    over each block of 8 queries is looked up in a 256-row table of that block's signed sums, so a
    resample costs n/8 look-ups instead of n multiply-adds.
    """
    cols = _as_columns(d)
    n, width = cols.shape
    if n == 0:
        out = np.full(width, np.nan)
        return (out if np.ndim(d) == 2 else float(out[0])), True
    observed = np.abs(cols.sum(axis=0))
    # sums equal to the observed one up to rounding count as ">=" (as SciPy's relative tolerance does)
    threshold = observed - 1e-9 * np.abs(cols).sum(axis=0)
    hits = np.zeros(width, dtype=np.int64)
    exact = n < 63 and (1 << n) <= n_resamples
    if exact:
        total = 1 << n
        for lo, hi in _chunks(total, n):
            codes = np.arange(lo, hi, dtype=np.int64)[:, None]
            signs = 1.0 - 2.0 * ((codes >> np.arange(n, dtype=np.int64)) & 1)
            hits += (np.abs(signs @ cols) >= threshold).sum(axis=0)
        p = hits / total
    else:
        blocks = -(-n // 8)
        padded = np.zeros((blocks * 8, width))
        padded[:n] = cols  # a zero difference adds nothing whatever its sign
        # table[b, v, f]: signed sum of block b under byte value v, for column f
        table = np.einsum("vj,bjf->bvf", BYTE_SIGNS, padded.reshape(blocks, 8, width))
        flat = np.ascontiguousarray(table.reshape(blocks * 256, width).T)  # (width, blocks * 256)
        offsets = (np.arange(blocks) * 256)[None, :]
        rng = _rng(seed)
        for lo, hi in _chunks(n_resamples, blocks):
            picks = rng.integers(0, 256, size=(hi - lo, blocks), dtype=np.uint8).astype(np.int64) + offsets
            for f in range(width):
                hits[f] += int((np.abs(flat[f][picks].sum(axis=1)) >= threshold[f]).sum())
        p = (hits + 1) / (n_resamples + 1)
    return (p if np.ndim(d) == 2 else float(p[0])), exact


def bootstrap_means(d: np.ndarray, n_resamples: int = 10_000, seed: int | np.random.Generator = 0) -> np.ndarray:
    """Means of `n_resamples` resamples of the queries with replacement: (R,) for d (n,), (R, F) for d (n, F),
    every column resampled with the same query indices."""
    cols = _as_columns(d)
    n, width = cols.shape
    rng = _rng(seed)
    out = np.empty((n_resamples, width))
    dtype = np.uint16 if n <= 65_535 else np.int64
    for lo, hi in _chunks(n_resamples, n):
        idx = rng.integers(0, n, size=(hi - lo, n), dtype=dtype)
        for f in range(width):  # one 1-D gather per column is faster than one gather of rows
            out[lo:hi, f] = cols[:, f][idx].mean(axis=1)
    return out if np.ndim(d) == 2 else out[:, 0]


def bootstrap_ci(d: np.ndarray, n_resamples: int = 10_000, seed: int | np.random.Generator = 0,
                 confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray] | tuple[float, float]:
    """Percentile bootstrap interval of mean(d), per column for d (n, F): the columns in blocks that fit the memory
    budget (compare/plan.py), each block drawing the same resamples (a copy of the generator's state: the numbers
    of one piece, up to the last bit of a matrix product)."""
    import copy

    from rankflavor.compare.plan import resample_block

    cols = _as_columns(d)
    n, width = cols.shape
    if n == 0:
        low = high = np.full(width, np.nan)
    else:
        alpha = 1.0 - confidence
        first = _rng(seed)
        step = resample_block(n_resamples, width)
        ends = [np.percentile(bootstrap_means(cols[:, lo:lo + step], n_resamples, copy.deepcopy(first)),
                              [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=0) for lo in range(0, width, step)]
        low, high = np.concatenate([e[0] for e in ends]), np.concatenate([e[1] for e in ends])
        constant = np.all(cols == cols[0], axis=0)  # no spread: the interval is the point, not rounding noise
        low, high = np.where(constant, cols[0], low), np.where(constant, cols[0], high)
    if np.ndim(d) == 2:
        return low, high
    return float(low[0]), float(high[0])


def t_test(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """(p, ci_low, ci_high) of the paired t-test on d (scipy.stats.ttest_rel against zeros). Differences that are
    all one value c (give them snapped: rank_tests.snap) have no spread: p 1 when c = 0; when c != 0 the statistic
    is infinite and p 0 (SciPy's own result, exact rather than float noise's 1e-169); the interval is [c, c]."""
    from scipy import stats

    d = np.asarray(d, dtype=np.float64)
    if len(d) == 0:
        return float("nan"), float("nan"), float("nan")
    if np.all(d == d[0]):
        m = float(d[0])
        return (1.0 if m == 0 else 0.0 if len(d) >= 2 else float("nan")), m, m
    if len(d) < 2:
        return float("nan"), float(d[0]), float(d[0])
    res = stats.ttest_rel(d, np.zeros_like(d))
    ci = res.confidence_interval(confidence)
    return float(res.pvalue), float(ci.low), float(ci.high)


def paired_test(a: np.ndarray, b: np.ndarray, settings: TestSettings = TestSettings()) -> PairedTest:
    """Mean difference a - b with a confidence interval and a two-sided p-value.

    test="randomization": sign-flip p-value and paired percentile bootstrap CI, each from its own
    stream of `np.random.SeedSequence(seed)`. test="t": scipy.stats.ttest_rel p-value and its t interval.
    """
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    return paired_tests(d[:, None], settings)[0]


def snapped_columns(d: np.ndarray, tolerance: float) -> np.ndarray:
    """Each column of d (n, F) snapped at the tolerance (rank_tests.snap)."""
    d = np.asarray(d, dtype=np.float64)
    return np.column_stack([snap(d[:, f], tolerance) for f in range(d.shape[1])]) if d.size else d.copy()


def paired_tests(d: np.ndarray, settings: TestSettings = TestSettings(), confidence: float | None = None,
                 intervals: bool = True) -> list[PairedTest]:
    """`paired_test` for every column of d (n, F) at once (same resamples for every column). The differences are
    snapped at the settings' tolerance first (rank_tests.snap) for the tests and the intervals; `diff` is the mean
    of the differences as given. The p-value is the declared test's (NaN under tukey: it needs every run,
    compare/tukey.py), `favours` the direction of its statistic, the interval the declared ci's at `confidence`
    (default the settings': compare/intervals.py gives a family's level; `intervals=False`: none, NaN)."""
    raw = np.asarray(d, dtype=np.float64)
    n, width = raw.shape
    diffs = raw.mean(axis=0) if n else np.full(width, np.nan)
    d = snapped_columns(raw, settings.tolerance)
    level = settings.confidence if confidence is None else confidence
    flips_seed, boot_seed = np.random.SeedSequence(settings.seed).spawn(2)
    exact = True
    means = d.mean(axis=0) if n else np.full(width, np.nan)
    favours = [direction(float(means[f]), settings.tolerance) for f in range(width)]
    if settings.test == "randomization":
        p, exact = randomization_test(d, settings.n_resamples, np.random.default_rng(flips_seed))
    elif settings.test == "tukey":
        p, exact = np.full(width, np.nan), False
    elif settings.test == "t":
        p = np.array([t_test(d[:, f])[0] for f in range(width)])
    else:
        test = wilcoxon_test if settings.test == "wilcoxon" else sign_test
        outcomes = [test(d[:, f], settings.tolerance) for f in range(width)]
        p, favours = np.array([o[0] for o in outcomes]), [o[1] for o in outcomes]
    if not intervals:
        low = high = np.full(width, np.nan)
    elif settings.ci == "t":
        low, high = np.array([t_test(d[:, f], level)[1:] for f in range(width)]).reshape(width, 2).T
    else:
        low, high = bootstrap_ci(d, settings.n_resamples, np.random.default_rng(boot_seed), level)
    constant = [float(d[0, f]) if n and bool(np.all(d[:, f] == d[0, f])) else None for f in range(width)]
    return [PairedTest(n, float(diffs[f]), float(low[f]), float(high[f]), float(p[f]), settings.test, exact,
                       favours[f], constant[f]) for f in range(width)]


def step_adjusted(p: np.ndarray | list[float], scaled: Callable[[np.ndarray, int], np.ndarray],
                  step_up: bool) -> np.ndarray:
    """Adjusted p-values of one family: its known p-values sorted, `scaled(sorted, m)` capped at 1, made monotone
    (a step-down: the running maximum from the smallest; a step-up: the running minimum from the largest). NaN
    stays NaN and does not count towards m."""
    p = np.asarray(p, dtype=np.float64)
    out = np.full(len(p), np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    capped = np.minimum(1.0, scaled(p[order], m))
    out[order] = np.minimum.accumulate(capped[::-1])[::-1] if step_up else np.maximum.accumulate(capped)
    return out


def holm(p: np.ndarray | list[float]) -> np.ndarray:
    """Holm step-down adjusted p-values, p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)) (Holm 1979)."""
    return step_adjusted(p, lambda ordered, m: (m - np.arange(m)) * ordered, step_up=False)
