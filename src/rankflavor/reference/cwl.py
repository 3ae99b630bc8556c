"""The reference C/W/L measures of one query in plain Python, straight from the framework's definitions (Moffat,
Bailey, Scholer & Thomas, 'INST: An Adaptive Metric for Information Retrieval Evaluation', ADCS 2015; Moffat,
Bailey, Scholer & Thomas, 'Incorporating User Expectations and Behavior into the Measurement of Search
Effectiveness', TOIS 35(3), 2017; Azzopardi, Thomas & Moffat, 'cwl_eval: An Evaluation Tool for Information
Retrieval', SIGIR 2019) and cwl_eval 1.0.12's measures (cwl/ruler/measures/cwl_*.py).

A user reads rank 1, then goes on from rank i to rank i + 1 with probability C(i). Over the first D ranks
(cwl_eval's --max_depth, 1000; a list shorter than D is padded with docs of gain 0, one longer is cut):

    E(i)  = prod over j < i of C(j)          the chance of reaching rank i
    W(i)  = E(i) / sum over j <= D of E(j)   the share of the user's attention at rank i (W(1) = 1 / ED)
    L(i)  = E(i) (1 - C(i))                  the chance of stopping at rank i
    EU    = sum W(i) g(i)                    expected utility per document: the measure (cwl_eval's EU)
    ETU   = sum L(i) sum over j <= i of g(j) expected total utility (ETU)
    EC    = sum W(i) c(i),  ETC = sum L(i) sum over j <= i of c(j)   expected cost per document and in total
    ED    = 1 / W(1)                         expected depth, the documents examined

g(i): the doc's qrels grade read as its gain (cwl_eval reads the grade itself and refuses one outside
[0, max_gain]; a judged negative grade, negative=zero, has gain 0), or mapped into [0, 1] by the `grades`
parameter as ir_measures' cwl_eval provider maps it (`grade_gain`); c(i) = 1 (cwl_eval without a cost file:
every doc costs max_cost = min_cost = 1). The lower bound reads an unjudged doc (and the padding) as gain 0; the
upper bound as gain max_gain; each residual (cwl_eval -r: ResEU, ...) is the upper bound minus the lower. Each
C of `continuation` is one measure's, named by its file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rankflavor.flavor import Flavor
from rankflavor.flavor.values import AxisValue
from rankflavor.reference.binary import Outcome, Ranked
from rankflavor.reference.lists import RefError

COLUMNS = ("eu", "etu", "ec", "etc", "ed")  # cwl_eval's printed columns, in its order (EU ETU EC ETC ED)
RESIDUALS = tuple(f"res_{c}" for c in COLUMNS)  # ResEU ... ResED (cwl_eval -r)
UNIT_GAINS = ("inst", "nerr8", "nerr9", "nerr10", "nerr11")  # cwl_eval refuses gains above 1 (validate_gain_range)


def _number(flavor: Flavor, name: str) -> float:
    return flavor.param(name).number


def grade_gain(grades: AxisValue, grade: float) -> float:
    """A judged doc's gain under the `grades` parameter, its grade first clipped at 0 (ir_measures
    providers/cwl_eval.py CwlEvaluator: max(relevance, 0)): `raw` the grade itself (cwl_eval); `MIN:MAX` clipped
    to [MIN, MAX] and scaled to (g - MIN) / (MAX - MIN) (IrmQrelHandler.put_value, min_rel and max_rel);
    `rel(N)` 1 when at least N, else 0 (IrmQrelHandler.put_value, bin_rel_cutoff: ir_measures' rel=N)."""
    g = max(float(grade), 0.0)
    if grades.kind == "range":
        return (min(max(g, grades.low), grades.high) - grades.low) / (grades.high - grades.low)
    if grades.kind == "rel":
        return 1.0 if g >= grades.level else 0.0
    return g


def continuation(model: str, gains: Sequence[float], flavor: Flavor) -> list[float]:
    """C(i) for i = 1..D, for the measure `model`, over the (padded) gains g(1..D)."""
    depth, k = len(gains), flavor.cutoff or 0
    cumulative, running = [], 0.0
    for g in gains:
        running += g
        cumulative.append(running)
    suffix = [0.0] * (depth + 2)  # suffix[i] = sum over j >= i of g(j) / j (AP)
    for j in range(depth, 0, -1):
        suffix[j] = suffix[j + 1] + gains[j - 1] / j
    first_gain = next((i for i, g in enumerate(gains, start=1) if g > 0), depth + 1)  # RR
    out = []
    for i in range(1, depth + 1):
        g, cg = gains[i - 1], cumulative[i - 1]
        if model == "p":  # cwl_precision.py: C(i) = 1 for i < k, else 0
            c = 1.0 if i < k else 0.0
        elif model == "sdcg":  # cwl_dcg.py: C(i) = log(i + 1) / log(i + 2) for i < k, else 0
            c = math.log(i + 1, 2.0) / math.log(i + 2, 2.0) if i < k else 0.0
        elif model == "rbp":  # cwl_rbp.py: C(i) = theta
            c = _number(flavor, "theta")
        elif model == "rr":  # cwl_rr.py: go on until the first doc of gain > 0
            c = 1.0 if i < first_gain else 0.0
        elif model == "ap":  # cwl_ap.py: C(i) = sum_{j > i} g(j)/j / sum_{j >= i} g(j)/j (0 when the top is 0)
            top = suffix[i + 1]
            c = top / suffix[i] if top > 0 and i < depth else 0.0
        elif model == "inst":  # cwl_inst.py: C(i) = ((i + T + T_i - 1) / (i + T + T_i))^2, T_i = T - sum_{j<=i} g
            t = _number(flavor, "T")
            ti = t - cg
            c = ((i + t + ti - 1.0) / (i + t + ti)) ** 2
        elif model == "insq":  # cwl_insq.py: C(i) = ((i + 2T - 1) / (i + 2T))^2
            t = _number(flavor, "T")
            c = ((i + 2 * t - 1.0) / (i + 2 * t)) ** 2
        elif model == "bpm":  # cwl_bpm.py (static): on while the gain so far < T and the cost so far (i) < K
            c = 1.0 if out[-1:] != [0.0] and cg < _number(flavor, "T") and i < _number(flavor, "K") else 0.0
        elif model == "bpm_dynamic":  # cwl_bpm.py BPMDCWLMetric: T moves by hb (g(j) - gain_med) after each rank j
            target = _number(flavor, "T") + _number(flavor, "hb") * (
                (cumulative[i - 2] if i > 1 else 0.0) - (i - 1) * _number(flavor, "gain_med"))
            c = 1.0 if out[-1:] != [0.0] and cg < target and i < _number(flavor, "K") else 0.0
        elif model == "nerr8":  # cwl_nerr.py eq. 8: C(i) = 1 - g(i) for i < k, else 0
            c = 1.0 - g if i < k else 0.0
        elif model == "nerr9":  # eq. 9: C(i) = i / (i + 1) (1 - g(i)) for i < k, else 0
            c = i / (i + 1.0) * (1.0 - g) if i < k else 0.0
        elif model == "nerr10":  # eq. 10: C(i) = phi (1 - g(i))
            c = _number(flavor, "phi") * (1.0 - g)
        elif model == "nerr11":  # eq. 11: C(i) = ((i + 2T - 1) / (i + 2T))^2 (1 - g(i))
            t = _number(flavor, "T")
            c = ((i + 2 * t - 1.0) / (i + 2 * t)) ** 2 * (1.0 - g)
        elif model == "npv":  # cwl_npv.py: C(i) = 1 / (1 + rate)
            c = 1.0 / (1.0 + _number(flavor, "rate"))
        elif model == "set":  # cwl_set.py: C(i) = w(i + 1) / w(i) for i < k, w(i) = (i + 1)^beta - i^beta
            b = _number(flavor, "beta")
            c = ((i + 2) ** b - (i + 1) ** b) / ((i + 1) ** b - i ** b) if i < k else 0.0
        elif model == "tbg":  # cwl_tbg.py, cost 1 a doc: W(i) ~ 2^(-(i-1)/h), so C(i) = 2^(-1/h), C(D) = 0
            c = 2.0 ** (-1.0 / _number(flavor, "halflife")) if i < depth else 0.0
        elif model == "umeasure":  # cwl_umeasure.py: u(i) = max(0, 1 - (i-1)/L) for i < D, u(D) = 0; C = u(i+1)/u(i)
            u = [max(0.0, 1.0 - (r - 1) / _number(flavor, "L")) if r < depth else 0.0 for r in (i, i + 1)]
            c = u[1] / u[0] if u[0] > 0 else 0.0
        else:
            raise ValueError(f"unknown C/W/L model {model!r}")
        out.append(c)
    return out


def user_numbers(c: Sequence[float], gains: Sequence[float]) -> dict[str, float]:
    """EU, ETU, EC, ETC and ED of a user who goes on from rank i with probability c[i - 1] (unit costs)."""
    reach = [1.0]
    for x in c[:-1]:
        reach.append(reach[-1] * x)
    total = sum(reach)
    w = [e / total for e in reach]
    stop = [e * (1.0 - x) for e, x in zip(reach, c, strict=True)]
    eu = etu = ec = etc = cumulative = 0.0
    for i, (wi, li, g) in enumerate(zip(w, stop, gains, strict=True), start=1):
        cumulative += g
        eu, etu, ec, etc = eu + wi * g, etu + li * cumulative, ec + wi, etc + li * i
    return {"eu": eu, "etu": etu, "ec": ec, "etc": etc, "ed": 1.0 / w[0]}


def bound_gains(ranked: Ranked, flavor: Flavor, upper: bool) -> list[float]:
    """The gains of ranks 1..D: a judged doc's grade (grade_gain); an unjudged doc and the padding 0 (lower) or max_gain
    (upper); the list cut at D, and at the cutoff k where the measure has one."""
    depth, fill = int(_number(flavor, "depth")), _number(flavor, "max_gain") if upper else 0.0
    k = flavor.cutoff if flavor.cutoff is not None else depth
    grades = flavor.param("grades")
    gains = [grade_gain(grades, grade) if judged and grade is not None else fill
             for grade, judged in zip(ranked.grades, ranked.judged, strict=True)][:min(depth, k)]
    return gains + [fill] * (depth - len(gains))


def measure(model: str, ranked: Ranked, flavor: Flavor) -> Outcome:
    """The C/W/L numbers of one query: the value is the column `of` (eu by default), every column a part."""
    top = min(_number(flavor, "max_gain"), 1.0) if model in UNIT_GAINS else _number(flavor, "max_gain")
    if flavor.param("grades") == "raw" and ranked.top_grade is not None and ranked.top_grade > top:
        raise RefError(f"grade {ranked.top_grade} above {top} (cwl_eval refuses it)")
    numbers = {}
    for upper in (False, True):
        gains = bound_gains(ranked, flavor, upper)
        numbers[upper] = user_numbers(continuation(model, gains, flavor), gains)
    parts = {**numbers[False], **{f"res_{c}": numbers[True][c] - numbers[False][c] for c in COLUMNS}}
    return parts[str(flavor.param("of"))], parts, False
