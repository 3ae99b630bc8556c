"""The C/W/L family (Moffat et al.; cwl_eval 1.0.12, Azzopardi, Thomas & Moffat, SIGIR 2019): a user model per
measure, its continuation probability C(i), and what cwl_eval prints of it (reference/cwl.py has the formulas):

    W(i) = prod_{j<i} C(j) / sum_{r<=D} prod_{j<r} C(j)      L(i) = prod_{j<i} C(j) (1 - C(i))
    EU = sum W(i) g(i)   ETU = sum L(i) sum_{j<=i} g(j)   EC = sum W(i)   ETC = sum L(i) i   ED = 1 / W(1)

over D = depth ranks (cwl_eval --max_depth 1000: a shorter list padded with gain 0), g the judged doc's qrels
grade (cwl_eval reads the grade as the gain and refuses one outside [0, max_gain]: negative=error; a negative
grade under negative=zero has gain 0; `grades=MIN:MAX` or `grades=rel(N)` map it into [0, 1] as ir_measures'
cwl_eval provider does, reference.grade_gain), each doc of cost 1 (cwl_eval without a cost file). `of` picks the printed
column (eu, the measure, by default); every column is a part, with the residuals res_eu ... res_ed (cwl_eval -r:
the bound with unjudged docs and the padding of gain max_gain, minus the one with gain 0). cwl_eval's own names
are the `cwl_eval.` dialect (dialects/cwl_eval.py).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.errors import EvaluationError, SpecError
from rankflavor.flavor.values import AxisValue, Param, format_number, number_parser, read_number, word_parser
from rankflavor.metrics.relevance import BinaryMetric
from rankflavor.reference import cwl as reference
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor

CWL_AXES = ("ties", "unjudged", "negative", "missing", "precision", "run_depth", "self_docs", "round", "unjudged_queries",
            "mean_of", "weights")
BLOCK = 256  # queries per dense block of D ranks
OF = reference.COLUMNS + reference.RESIDUALS


def grades_value(raw: str) -> AxisValue:
    """`raw`, `MIN:MAX` (MIN < MAX) or `rel(N)`: how a judged grade becomes the gain (reference.grade_gain)."""
    if raw == "raw":
        return AxisValue(raw, axis="grades", kind="raw")
    if raw.startswith("rel(") and raw.endswith(")"):
        level = read_number(raw[4:-1], "grades=rel(N)")
        return AxisValue(f"rel({format_number(level)})", axis="grades", kind="rel", level=level)
    low_text, sep, high_text = raw.partition(":")
    if not sep:
        raise SpecError(f"grades: {raw!r} is none of raw, MIN:MAX (e.g. 0:3) or rel(N) (e.g. rel(2))")
    low, high = read_number(low_text, "grades=MIN:MAX"), read_number(high_text, "grades=MIN:MAX")
    if not low < high:
        raise SpecError(f"grades={raw}: MIN must be below MAX (ir_measures: min_rel < max_rel)")
    return AxisValue(f"{format_number(low)}:{format_number(high)}", axis="grades", kind="range", low=low, high=high)


def grade_gains(grades: AxisValue, grade: np.ndarray) -> np.ndarray:
    """reference.grade_gain over an array of judged grades."""
    g = np.maximum(grade, 0.0)
    if grades.kind == "range":
        return (np.clip(g, grades.low, grades.high) - grades.low) / (grades.high - grades.low)
    if grades.kind == "rel":
        return (g >= grades.level).astype(np.float64)
    return g


COMMON = (
    Param("of", "eu", word_parser("of", OF), "the number reported: eu (expected utility per doc, the measure), etu, "
          "ec, etc, ed (expected depth), or a residual res_eu ... res_ed (cwl_eval -r)", OF),
    Param("depth", "1000", number_parser("depth", 1.0, 100000.0), "the ranks the user model spans, a shorter list "
          "padded with gain 0 (cwl_eval --max_depth: 1000)", ("1000", "10")),
    Param("max_gain", "1", number_parser("max_gain", 0.0, 1e9, low_open=True), "the highest gain, an unjudged doc's "
          "in the upper bound of the residuals (cwl_eval --max_gain: 1)", ("1", "3")),
    Param("grades", "raw", grades_value, "a judged grade's gain, the grade clipped at 0 first: raw, the grade "
          "(cwl_eval); MIN:MAX, clipped to [MIN, MAX] and scaled to (g - MIN) / (MAX - MIN); rel(N), 1 from grade N "
          "up, else 0 (ir_measures' cwl_eval provider: min_rel, max_rel; rel)", ("raw", "0:3", "rel(2)")),
)


def _t(default: str = "1") -> Param:
    return Param("T", default, number_parser("T", 0.0, 1e6, low_open=True), "the gain the user wants", ("1", "2"))


def dot_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per row, np.dot(a[i], b[i]): numpy's matmul of a stack of row and column vectors calls BLAS's ddot per row,
    as cwl_metrics.py's np.dot(wvec, gain_vec) does, so each sum runs in cwl_eval's order (a plain `.sum(axis=1)`
    is numpy's pairwise sum: another last bit)."""
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(np.broadcast_to(b, a.shape))  # (BLAS takes contiguous rows)
    return np.matmul(a[:, None, :], b[:, :, None])[:, 0, 0]


def examine(c: np.ndarray, g: np.ndarray) -> dict[str, np.ndarray]:
    """Per row of `c` (C(1..D)) and `g` (gains): EU, ETU, EC, ETC, ED and the weights W, each as CWLMetric._do_score
    computes it (cwl_metrics.py: W(1) = 1 / np.sum(cumprod), then np.dot of the vectors: `dot_rows`)."""
    reach = np.cumprod(np.concatenate([np.ones((len(c), 1)), c[:, :-1]], axis=1), axis=1)
    first = 1.0 / reach.sum(axis=1)  # (np.sum of each row: numpy's pairwise sum, as cwl_eval's np.sum)
    w = reach * first[:, None]
    stop = reach * (1.0 - c)
    ranks = np.arange(1, c.shape[1] + 1, dtype=np.float64)
    ones = np.ones(c.shape[1])
    return {"eu": dot_rows(w, g), "etu": dot_rows(stop, np.cumsum(g, axis=1)), "ec": dot_rows(w, ones),
            "etc": dot_rows(stop, ranks), "ed": 1.0 / first, "weight": w}


class CWLMetric(BinaryMetric):
    """A C/W/L measure: `continuation` is its C(i) over a block of queries' gains (rows) at once, `measure` its
    formula per query (reference/cwl.py)."""

    reads = CWL_AXES
    parameters = COMMON
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        "rel_level": ("it reads the grades as gains (cwl_eval), not as relevant or not", "cwl_p")}
    parts = OF
    row_columns = ("gain", "weight")
    undefined_reason = "no value"
    undefined_status = "zero_ideal"
    cutoff_rule = "none"
    unit_gains: ClassVar[bool] = False  # cwl_eval refuses gains above 1 (INST, NERR: validate_gain_range)
    # (a grade above max_gain is refused in the run's queries; cwl_eval refuses it anywhere in the qrels)

    def why_not(self, axis: str) -> tuple[str, str]:
        if axis in self.not_read:
            return self.not_read[axis]
        return f"cwl_eval does not read {axis}: its gain is the qrels grade itself", ""

    def continuation(self, g: np.ndarray, cg: np.ndarray, ranks: np.ndarray, flavor: Flavor) -> np.ndarray:
        raise NotImplementedError

    def validate(self, flavor: Flavor) -> None:
        BinaryMetric.validate(self, flavor)
        if flavor.negative == "keep":
            raise SpecError(f"{self.name}: a C/W/L gain is at least 0 (cwl_eval refuses a negative grade): write "
                            "negative=error (cwl_eval's), zero, unjudged or drop")
        if flavor.param("grades") != "raw" and flavor.param("max_gain").number < 1:
            raise SpecError(f"{self.name}: grades={flavor.param('grades')} gives gains up to 1: max_gain must be at "
                            "least 1")
        if self.unit_gains and flavor.param("max_gain").number > 1:
            raise SpecError(f"{self.name}: cwl_eval's {self.name[4:].upper()} reads gains in [0, 1] "
                            "(validate_gain_range): max_gain must be at most 1")

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict[str, Any]:
        grades = flavor.param("grades")
        return {"gain": (float(grade) if grades == "raw" else reference.grade_gain(grades, grade)) if judged else 0.0}

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        return f"{flavor.param('of')} of the user model's weights W(i) = C(1)...C(i-1) / sum over the ranks"

    def _refuse_gains(self, lists: RankedLists, top: float, missing: str) -> None:
        """A grade above `top` in a query that is scored: the run's, and under missing=empty every judged one."""
        ds = lists.scope.dataset
        scored = lists.scope.run.present[ds.qrels.q] | (missing == "empty")
        bad = (ds.qrels.grade > top) & scored
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise EvaluationError(
                f"{self.name}: query {ds.query_ids[ds.qrels.q[i]]} has a judgment of grade {ds.qrels.grade[i]:g}, "
                f"above max_gain={top:g} (cwl_eval reads the grade as the gain and refuses it: "
                "trec_qrel_handler.py validate_gains); map the grades into [0, 1], or raise max_gain")

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        depth, top = int(flavor.param("depth").number), flavor.param("max_gain").number
        if flavor.param("grades") == "raw":  # (mapped grades are gains in [0, 1])
            self._refuse_gains(lists, min(top, 1.0) if self.unit_gains else top, flavor.missing)
        rows, rank = lists.rows, lists.positions.rank
        keep = lists.positions.in_top & (rank <= depth)
        with np.errstate(invalid="ignore"):
            gain = np.where(rows.judged, grade_gains(flavor.param("grades"), np.nan_to_num(rows.grade)), 0.0)
        index = np.flatnonzero(keep)
        index = index[np.argsort(rows.q[index], kind="stable")]
        qs = rows.q[index]
        length = np.bincount(qs, minlength=lists.n_queries)
        n = lists.n_queries
        parts = {name: np.zeros(n) for name in OF}
        weight = np.zeros(len(rows.q))
        ranks = np.arange(1, depth + 1, dtype=np.float64)
        for start in range(0, n, BLOCK):
            stop = min(start + BLOCK, n)
            lo, hi = np.searchsorted(qs, [start, stop])
            at = (qs[lo:hi] - start, rank[index[lo:hi]] - 1)
            pad = np.arange(depth)[None, :] >= length[start:stop, None]
            bounds = {}
            for upper in (False, True):
                g = np.where(pad, top if upper else 0.0, 0.0)
                g[at] = np.where(rows.judged[index[lo:hi]], gain[index[lo:hi]], top if upper else 0.0)
                c = self.continuation(g, np.cumsum(g, axis=1), ranks, flavor)
                bounds[upper] = examine(c, g)
            for name in reference.COLUMNS:
                parts[name][start:stop] = bounds[False][name]
                parts[f"res_{name}"][start:stop] = bounds[True][name] - bounds[False][name]
            weight[index[lo:hi]] = bounds[False]["weight"][at]
        value = parts[str(flavor.param("of"))]
        return MetricValues(value, np.zeros(n, dtype=bool), parts, {"gain": gain, "weight": weight} if detail else {})


class CutoffCWL(CWLMetric):
    """A C/W/L measure whose user reads at most k docs (k: the cutoff, required)."""

    cutoff_rule = "required"

    def before_k(self, ranks: np.ndarray, flavor: Flavor) -> np.ndarray:
        return ranks < flavor.cutoff


class CWLPrecision(CutoffCWL):
    """cwl_p@k: C(i) = 1 for i < k, else 0 (EU = P@k over the grades as gains; cwl_precision.py)"""

    name, measure = "cwl_p", partial(reference.measure, "p")

    def continuation(self, g, cg, ranks, flavor):
        return np.broadcast_to(self.before_k(ranks, flavor).astype(np.float64), g.shape)


class CWLScaledDCG(CutoffCWL):
    """cwl_sdcg@k: C(i) = log2(i + 1) / log2(i + 2) for i < k, else 0 (SDCG, cwl_eval NDCG-k@k; cwl_dcg.py)"""

    name, measure = "cwl_sdcg", partial(reference.measure, "sdcg")

    def continuation(self, g, cg, ranks, flavor):
        c = np.where(self.before_k(ranks, flavor), (np.log(ranks + 1) / np.log(2.0)) / (np.log(ranks + 2) / np.log(2.0)),
                     0.0)
        return np.broadcast_to(c, g.shape)


class CWLRankBiased(CWLMetric):
    """cwl_rbp: C(i) = theta (RBP over D ranks, W(1) = 1 / sum_{i<D} theta^i; cwl_rbp.py)"""

    name, measure = "cwl_rbp", partial(reference.measure, "rbp")
    parameters = (Param("theta", "0.9", number_parser("theta", 0.0, 1.0), "the chance of going on to the next rank "
                        "(cwl_eval RBPCWLMetric: 0.9)", ("0.2", "0.8", "0.9")), *COMMON)

    def continuation(self, g, cg, ranks, flavor):
        return np.full(g.shape, flavor.param("theta").number)


class CWLReciprocalRank(CWLMetric):
    """cwl_rr: C(i) = 1 until the first doc of gain > 0, then 0 (EU = RR scaled by that doc's gain; cwl_rr.py)"""

    name, measure = "cwl_rr", partial(reference.measure, "rr")

    def continuation(self, g, cg, ranks, flavor):
        return (np.cumsum(g > 0, axis=1) == 0).astype(np.float64)


class CWLAveragePrecision(CWLMetric):
    """cwl_ap: C(i) = sum_{j>i} g(j)/j / sum_{j>=i} g(j)/j, 0 when the top is 0 (cwl_ap.py, after Moffat 2017)"""

    name, measure = "cwl_ap", partial(reference.measure, "ap")

    def continuation(self, g, cg, ranks, flavor):
        below = np.cumsum((g / ranks)[:, ::-1], axis=1)[:, ::-1]
        after = np.concatenate([below[:, 1:], np.zeros((len(g), 1))], axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            c = np.where(after > 0, after / below, 0.0)
        c[:, -1] = 0.0
        return c


class CWLInst(CWLMetric):
    """cwl_inst: C(i) = ((i + T + T_i - 1) / (i + T + T_i))^2, T_i = T - sum_{j<=i} g(j) (INST; cwl_inst.py)

    Moffat, Bailey, Scholer & Thomas, ADCS 2015."""

    name, measure = "cwl_inst", partial(reference.measure, "inst")
    parameters = (_t(), *COMMON)
    unit_gains = True

    def continuation(self, g, cg, ranks, flavor):
        t = flavor.param("T").number
        left = t - cg
        return ((ranks + t + left - 1.0) / (ranks + t + left)) ** 2


class CWLInsq(CWLMetric):
    """cwl_insq: C(i) = ((i + 2T - 1) / (i + 2T))^2 (INSQ, Moffat et al. ADCS 2012; cwl_insq.py)"""

    name, measure = "cwl_insq", partial(reference.measure, "insq")
    parameters = (_t(), *COMMON)

    def continuation(self, g, cg, ranks, flavor):
        t = flavor.param("T").number
        return np.broadcast_to(((ranks + 2 * t - 1.0) / (ranks + 2 * t)) ** 2, g.shape)


class CWLBejewelled(CWLMetric):
    """cwl_bpm: C(i) = 1 while sum_{j<=i} g(j) < T and i < K, then 0 (static BPM; cwl_bpm.py, cost 1 a doc)

    Zhang, Liu, Li, Zhang, Xu & Ma, 'Evaluating Web Search with a Bejeweled Player Model', SIGIR 2017."""

    name, measure = "cwl_bpm", partial(reference.measure, "bpm")
    parameters = (_t(), Param("K", "10", number_parser("K", 0.0, 1e6), "the cost (docs) the user will spend",
                              ("10", "5")), *COMMON)

    def continuation(self, g, cg, ranks, flavor):
        on = (cg < flavor.param("T").number) & (ranks < flavor.param("K").number)
        return np.cumprod(on, axis=1).astype(np.float64)


class CWLBejewelledDynamic(CWLMetric):
    """cwl_bpm_dynamic: C(i) = 1 while sum_{j<=i} g(j) < T_i and i < K, T_i = T + hb sum_{j<i} (g(j) - gain_med)

    The dynamic BPM of cwl_bpm.py (BPMDCWLMetric; Zhang et al. SIGIR 2017); cwl_eval 1.0.12's cost loop updates T
    (after the gain loop has ended), not K, so its hc has no effect and K stays fixed, as here."""

    name, measure = "cwl_bpm_dynamic", partial(reference.measure, "bpm_dynamic")
    parameters = (_t(), Param("K", "10", number_parser("K", 0.0, 1e6), "the cost (docs) the user will spend",
                              ("10", "5")),
                  Param("hb", "1", number_parser("hb", -1e6, 1e6), "how much T moves with each doc's gain",
                        ("1", "0.5")),
                  Param("gain_med", "0.5", number_parser("gain_med", 0.0, 1e6), "the gain at which T stays put",
                        ("0.5", "0")), *COMMON)

    def continuation(self, g, cg, ranks, flavor):
        hb, med = flavor.param("hb").number, flavor.param("gain_med").number
        before = np.concatenate([np.zeros((len(g), 1)), cg[:, :-1]], axis=1)
        target = flavor.param("T").number + hb * (before - (ranks - 1) * med)
        on = (cg < target) & (ranks < flavor.param("K").number)
        return np.cumprod(on, axis=1).astype(np.float64)


class CWLNerr8(CutoffCWL):
    """cwl_nerr8@k: C(i) = 1 - g(i) for i < k, else 0 (NERR eq. 8, Azzopardi et al. ICTIR 2021; cwl_nerr.py)"""

    name, measure = "cwl_nerr8", partial(reference.measure, "nerr8")
    unit_gains = True

    def continuation(self, g, cg, ranks, flavor):
        return np.where(self.before_k(ranks, flavor), 1.0 - g, 0.0)


class CWLNerr9(CutoffCWL):
    """cwl_nerr9@k: C(i) = i / (i + 1) (1 - g(i)) for i < k, else 0 (NERR eq. 9; cwl_nerr.py)"""

    name, measure = "cwl_nerr9", partial(reference.measure, "nerr9")
    unit_gains = True

    def continuation(self, g, cg, ranks, flavor):
        return np.where(self.before_k(ranks, flavor), (1.0 * ranks / (ranks + 1.0)) * (1.0 - g), 0.0)


class CWLNerr10(CWLMetric):
    """cwl_nerr10: C(i) = phi (1 - g(i)) (NERR eq. 10; cwl_nerr.py)"""

    name, measure = "cwl_nerr10", partial(reference.measure, "nerr10")
    parameters = (Param("phi", "0.9", number_parser("phi", 0.0, 1.0), "the chance of going on past a doc of gain 0",
                        ("0.9", "0.5")), *COMMON)
    unit_gains = True

    def continuation(self, g, cg, ranks, flavor):
        return flavor.param("phi").number * (1.0 - g)


class CWLNerr11(CWLMetric):
    """cwl_nerr11: C(i) = ((i + 2T - 1) / (i + 2T))^2 (1 - g(i)) (NERR eq. 11; cwl_nerr.py)"""

    name, measure = "cwl_nerr11", partial(reference.measure, "nerr11")
    parameters = (_t(), *COMMON)
    unit_gains = True

    def continuation(self, g, cg, ranks, flavor):
        t = flavor.param("T").number
        return ((ranks + 2 * t - 1.0) / (ranks + 2 * t)) ** 2 * (1.0 - g)


for _metric, _names in (
        (CWLPrecision(), ("PrecisionCWLMetric({k})", "P@{k}")),
        (CWLScaledDCG(), ("NDCGCWLMetric({k})", "NDCG-k@{k}")),
        (CWLRankBiased(), ("RBPCWLMetric({theta})", "RBP@{theta}")),
        (CWLReciprocalRank(), ("RRCWLMetric()", "RR")),
        (CWLAveragePrecision(), ("APCWLMetric()", "AP")),
        (CWLInst(), ("INSTCWLMetric({T})",)),
        (CWLInsq(), ("INSQCWLMetric({T})",)),
        (CWLBejewelled(), ("BPMCWLMetric({T},{K})",)),
        (CWLBejewelledDynamic(), ("BPMDCWLMetric({T},{K},{hb},{_hc},{gain_med})",)),
        (CWLNerr8(), ("NERReq8CWLMetric({k})", "NERR-EQ8@k={k}")),
        (CWLNerr9(), ("NERReq9CWLMetric({k})", "NERR-EQ9@k={k}")),
        (CWLNerr10(), ("NERReq10CWLMetric({phi})", "NERR-EQ10@phi={phi}")),
        (CWLNerr11(), ("NERReq11CWLMetric({T})", "NERR-EQ11@T={T}"))):
    register(_metric, peers={"cwl_eval": _names})
