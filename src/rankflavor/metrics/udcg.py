"""UDCG, Utility and Distraction-aware Cumulative Gain (Trappolini, Cuconasu, Filice, Maarek, Silvestri, "Redefining
Retrieval Evaluation in the Era of LLMs", arXiv 2510.21440, EACL 2026; docs/udcg.md).

    u(d) = g(grade): the qrels grade read through the gain axis (a utility file is a qrels with real grades;
           labels +1/0/-1, or any labels mapped by a gain table); negative = a distractor; 0 when unjudged
    S@k  = sum over ranks i <= k of w(u_i) u_i d(i)     w: `relevant` when u >= 0, `distracting` when u < 0
    d(i) = the discount axis at i times `positions` (flat, or the weights of ranks 1..m: w1:w2:...:wm)
    norm = none (S) | mean (S / n) | sigmoid_mean (1 / (1 + e^(-S/n))) | ideal (S / the ideal's S)

n is the number of docs ranked within the cutoff (0 for both means when n = 0). The authors' code
(GiovanniTRA/UDCG src/compute_udcg_scores.py, compute_udcg_score) is `udcg_authors`: no positional discount,
relevant 1, distracting 1/3 and sigmoid_mean, the utility of a passage 1 - the model's abstention probability,
signed by its relevance label. `udcg@k` with its defaults is the write-ups' +1/0/-1 labels with a log2 discount.
Negative grades are always utilities (the `negative` axis does not apply) and an unjudged doc is a passage of
utility 0 (`unjudged` does not apply: the authors count a passage without a score in n). The slow reference is
rankflavor.reference.udcg.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

import rankflavor.reference.udcg as reference
from rankflavor import registry
from rankflavor.engine.discounts import at_ranks
from rankflavor.engine.gains import gain_values
from rankflavor.engine.lists import positions_in_query
from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.engine.scope import DatasetScope
from rankflavor.errors import SpecError
from rankflavor.flavor.axes import AXIS_NAMES
from rankflavor.flavor.values import AxisValue, Gain, Param, format_number, number_parser, read_number, word_parser
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor

NORMS = ("none", "mean", "sigmoid_mean", "ideal")
AUTHORS_DISTRACTING = format_number(1 / 3)  # compute_udcg_scores.py: irrelevant_weight = -1/3
_SOURCE = "GiovanniTRA/UDCG src/compute_udcg_scores.py compute_udcg_score"


def positions_value(raw: str) -> AxisValue:
    """`flat`, or the weights of ranks 1..m written w1:w2:...:wm (each a finite number >= 0)."""
    if raw == "flat":
        return AxisValue(raw, axis="positions", kind="flat", weights=())
    weights = tuple(read_number(part, "positions weight") for part in raw.split(":"))
    if any(w < 0 for w in weights):
        raise SpecError(f"positions={raw}: a rank's weight must be >= 0")
    return AxisValue(":".join(format_number(w) for w in weights), axis="positions", kind="table", weights=weights)


def weight_parser(name: str):
    """A weight in [0, 1e6], written as a number or a fraction a/b (`1/3`, read as the float 1/3)."""
    plain = number_parser(name, 0.0, 1e6)

    def parse(raw: str) -> AxisValue:
        if raw.count("/") == 1:
            top, bottom = (read_number(part, name) for part in raw.split("/"))
            if bottom == 0:
                raise SpecError(f"{name}: {raw!r} divides by 0")
            raw = format_number(top / bottom)
        return plain(raw)

    return parse


PARAMETERS = (
    Param("relevant", "1", weight_parser("relevant"),
          "the weight of a passage of utility >= 0 (the authors: 1)", ("1", "2")),
    Param("distracting", "1", weight_parser("distracting"),
          "the weight of a passage of negative utility, a distractor (the authors: 1/3 of its utility)",
          ("1", AUTHORS_DISTRACTING, "0")),
    Param("norm", "none", word_parser("norm", NORMS),
          "none (the sum), mean (over the n docs ranked within the cutoff), sigmoid_mean (the authors: "
          "1/(1+e^(-sum/n))) or ideal (over the sum of the query's best list)", NORMS),
    Param("positions", "flat", positions_value,
          "a weight per rank multiplying the discount: flat, or w1:w2:...:wm for ranks 1..m (a reader's "
          "positional profile; needs @k with k <= m)", ("flat", "1:0.5:0.8")),
    Param("repeats", "refuse", word_parser("repeats", ("refuse", "count")),
          "a doc a run lists twice for a query: refuse (the inputs' on_duplicate policy), or count each listing as "
          "a passage, with the doc's utility, when every flavor evaluated counts them (the authors: every entry of "
          "the passage list)", ("refuse", "count")),
)
_NOT_READ = {
    "negative": ("a negative grade is a distractor's utility, always kept", "dcg"),
    "unjudged": ("an unjudged doc is a passage of utility 0 that counts in n", "ndcg"),
    "min_grade": ("every utility counts, however small", "ndcg"),
    "ideal": ("its ideal is norm=ideal's: the query's positive utilities", "ndcg"),
    "ideal_depth": ("norm=ideal's list is cut at k", "ndcg"),
}


def qrels_utilities(data: DatasetScope, gain: Gain) -> np.ndarray:
    """u per qrels row: every grade (negative ones too) through the gain axis."""
    return gain_values(data.dataset.qrels.grade, gain)


def rank_weights(ranks: np.ndarray, flavor: Flavor) -> np.ndarray:
    """d(i) per 1-based rank: the discount axis (none for udcg_authors) times `positions`."""
    discounted = "discount" in type(registry.get(flavor.metric)).reads
    weights = at_ranks(ranks, flavor.discount) if discounted else np.ones(len(ranks))
    positions = flavor.param("positions")
    if positions.kind == "table" and len(ranks):
        table = np.asarray(positions.weights)
        weights = np.where(ranks <= len(table), weights * table[np.minimum(ranks, len(table)) - 1], 0.0)
    return weights


def ideal_sums(lists: RankedLists, flavor: Flavor) -> np.ndarray:
    """Per query code: the query's positive utilities (times relevant), largest first, against the largest rank
    weights of ranks 1..k (the rearrangement inequality: the best list's sum)."""
    ds = lists.scope.dataset
    if not (lists.scope.run.present[: ds.n_queries] & ds.judged).any():  # (no query to score: read no utility)
        return np.full(ds.n_queries, np.nan)
    utility = lists.scope.shared(qrels_utilities, flavor.gain)
    keep = utility > 0
    q, u = ds.qrels.q[keep], utility[keep]
    order = np.lexsort((-u, q))
    q, u = q[order], u[order]
    place = positions_in_query(q)  # 0-based place among the query's positive utilities
    span = max(int(place.max()) + 1 if len(place) else 1, 1)
    if not math.isinf(flavor.depth):
        span = int(flavor.depth)
    best = -np.sort(-rank_weights(np.arange(1, span + 1), flavor))
    kept = place < span
    values = u[kept] * best[place[kept]] * flavor.param("relevant").number
    return np.bincount(q[kept], weights=values, minlength=ds.n_queries).astype(np.float64)


class UDCG(Metric):
    """UDCG@k = norm(sum over ranks i <= k of w(u_i) u_i d(i)), u a signed utility, w relevant/distracting"""

    name = "udcg"
    reads = tuple(a for a in AXIS_NAMES if a not in (*_NOT_READ, "rel_level"))
    parameters = PARAMETERS
    not_read: ClassVar[dict[str, tuple[str, str]]] = _NOT_READ
    parts = ("sum", "passages", "ideal")
    row_columns = ("utility", "weight", "discount", "contribution")
    undefined_reason = "an ideal sum of 0"
    undefined_note = "(no positive utility in the query's judgments)"
    reference = staticmethod(reference.query_value)
    scores_unjudged_queries = True  # (a query with no utility at all: every passage 0, as the authors score it)

    def counts_repeats(self, flavor: Flavor) -> bool:
        return flavor.param("repeats") == "count"

    def validate(self, flavor: Flavor) -> None:
        if flavor.ties == "average":
            raise SpecError(f"{self.name} does not take ties=average (the sigmoid of an expected mean is not the "
                            "expected value); pick another tie policy")
        if flavor.param("norm") != "ideal" and flavor.empty != "zero":
            raise SpecError(f"empty={flavor.empty} applies to {self.name}(norm=ideal) only (a sum or a mean always "
                            "has a value); drop empty")
        weights = flavor.param("positions").weights
        if weights and (flavor.cutoff is None or flavor.cutoff > len(weights)):
            raise SpecError(f"positions={flavor.param('positions')} weighs ranks 1..{len(weights)}: give a cutoff "
                            f"@k with k <= {len(weights)}")

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        rows, positions, nq = lists.rows, lists.positions, lists.n_queries
        in_top = positions.in_top
        utility = np.zeros(len(rows))
        judged = in_top & ~np.isnan(rows.grade)
        utility[judged] = gain_values(rows.grade[judged], flavor.gain)
        weight = np.where(utility >= 0, flavor.param("relevant").number, flavor.param("distracting").number)
        disc = np.where(in_top, rank_weights(positions.rank, flavor), 0.0)
        contribution = utility * weight * disc
        total = np.bincount(rows.q, weights=contribution, minlength=nq).astype(np.float64)
        passages = positions.top_rows.astype(np.float64)
        norm = flavor.param("norm")
        ideal = ideal_sums(lists, flavor) if norm == "ideal" else np.full(nq, np.nan)
        undefined = np.zeros(nq, dtype=bool)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            mean = np.where(passages > 0, total / np.maximum(passages, 1.0), 0.0)
            if norm == "none":
                value = total
            elif norm == "mean":
                value = mean
            elif norm == "sigmoid_mean":
                value = np.where(passages > 0, 1.0 / (1.0 + np.exp(-mean)), 0.0)
            else:
                undefined = ~(ideal > 0)
                value = np.where(undefined, np.nan, total / np.where(undefined, 1.0, ideal))
        rows_out = {"utility": utility, "weight": weight, "discount": disc, "contribution": contribution}
        return MetricValues(value, undefined, {"sum": total, "passages": passages, "ideal": ideal},
                            rows_out if detail else {})

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        norm = flavor.param("norm")
        if status == "zero_ideal":
            return f"no positive utility in the query's judgments; empty={flavor.empty}"
        return {"none": "UDCG = sum of contributions", "mean": "UDCG = sum of contributions / passages",
                "sigmoid_mean": "UDCG = 1 / (1 + exp(-sum / passages))", "ideal": "UDCG = sum / ideal sum"}[norm]

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        return reference.check_record(record, flavor)


class UDCGAuthors(UDCG):
    """The authors' UDCG: sigmoid(mean of u_i w_i) over the passages, w 1 (relevant) or 1/3 (distractor)"""

    name = "udcg_authors"
    reads = tuple(a for a in UDCG.reads if a != "discount")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        **_NOT_READ, "discount": (f"the authors' code has no positional discount ({_SOURCE})", "udcg")}
    parameters = (PARAMETERS[0], PARAMETERS[1]._replace(default=AUTHORS_DISTRACTING),
                  PARAMETERS[2]._replace(default="sigmoid_mean"), PARAMETERS[3], PARAMETERS[4]._replace(default="count"))
    # compute_udcg_score scores every item it is given: an empty passage list 0.0 (missing=empty: a query of the
    # utilities absent from the run), a list none of whose passages has a utility sigmoid(0) = 0.5
    # (unjudged_queries=score: a run query absent from the utilities)
    axis_defaults: ClassVar[dict[str, str]] = {"missing": "empty", "unjudged_queries": "score"}


register(UDCG())
register(UDCGAuthors())
