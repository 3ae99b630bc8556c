"""How a result's mean is taken, as its flavor declares it (the axes round, unjudged_queries, mean_of, weights):

    mean = sum_q w_q v_q / sum_q w_q

over the queries averaged: the judged queries whose value is not null (a null value is left out: missing=skip,
empty=skip), plus, with unjudged_queries=zero, the run's queries that have no judgment, each with v = 0
(trectools). v is the unrounded value (mean_of=raw: the mean is then rounded to `round` decimals) or the value
as reported, rounded to `round` decimals (mean_of=rounded: the mean is not rounded again; ir_measures over
gdeval). w_q = 1 (weights=none: numpy's mean of the values) or the weight bound to the flavor's weights name.
A metric whose aggregate is "sum" (trec_eval's counts) reports sum_q v_q; "gm" (gm_map, gm_bpref) the geometric
mean exp(sum_q w_q log(max(v_q, 1e-5)) / sum_q w_q) (trec_eval meas_avg.c te_calc_avg_meas_s_gm, MIN_GEO_MEAN).
`denominator` (describe_denominator, for both engines) says what the mean averaged and what it left out;
`refuse_unweighted` and `refuse_unbound_weights` are the weights' refusals, for both engines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rankflavor import registry
from rankflavor.engine import MIN_GEO_MEAN
from rankflavor.errors import EvaluationError, SpecError
from rankflavor.flavor import Flavor
from rankflavor.flavor.values import Choice, Round
from rankflavor.inputs.dataset import Dataset, InternedRun
from rankflavor.plural import counted
from rankflavor.rounding import round_values


@dataclass
class Averaging:
    """Everything a result's mean depends on besides its per-query values."""

    round_to: Round
    mean_of: Choice
    zero_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # unjudged run queries as 0
    weights: np.ndarray | None = None  # per query code (nan: no weight), when the flavor names weights
    weights_name: str | None = None
    query_ids: np.ndarray | None = None  # (for messages)
    total: bool = False  # the summary is the sum of the values (trec_eval's counts: num_ret, num_rel, ...)
    geometric: bool = False  # the summary is the geometric mean of max(value, MIN_GEO_MEAN) (gm_map, gm_bpref)
    logged: bool = False  # the values are those logs already (pytrec_eval's gm_map): exp of their mean
    zero_value: float = 0.0  # the value of a query counted as 0 (Metric.zero_value)

    def _values(self, codes: np.ndarray, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(codes, values) of the queries averaged: the non-null values, then the zeros."""
        values = raw if self.mean_of == "raw" else round_values(raw, self.round_to.decimals)
        ok = ~np.isnan(values)
        if not len(self.zero_codes):
            return codes[ok], values[ok]
        zeros = np.full(len(self.zero_codes), self.zero_value)  # (as reported too: pytrec_eval's gm_map_log 0 is log 1e-5)
        zeros = zeros if self.mean_of == "raw" else round_values(zeros, self.round_to.decimals)
        return np.concatenate([codes[ok], self.zero_codes]), np.concatenate([values[ok], zeros])

    def mean(self, codes: np.ndarray, raw: np.ndarray) -> float | None:
        """The mean of per-query values `raw` (unrounded; nan = null) of the judged query codes `codes`."""
        averaged, values = self._values(codes, raw)
        if not len(values):
            return None
        if self.total:
            return float(values.sum())
        if self.geometric:
            values = np.log(np.maximum(values, MIN_GEO_MEAN))
        if self.weights is None:
            mean = float(values.mean())
        else:
            weights = self._weights_of(averaged)
            largest = weights.max(initial=0.0)
            if largest > 0:  # (scaled to at most 1: 50 weights of 1.7e308 overflowed the total, subnormal ones lost
                weights = weights / largest  # digits; the weighted mean is the same)
            total = weights.sum()
            refuse_unweighted(self.weights_name, 0, [], len(values), total)
            mean = float((weights * values).sum() / total)
        if self.geometric or self.logged:
            mean = float(np.exp(mean))
        return mean if self.mean_of == "rounded" or self.round_to.decimals is None else round(mean, self.round_to.decimals)

    def _weights_of(self, codes: np.ndarray) -> np.ndarray:
        assert self.weights is not None
        weights = self.weights[codes]
        if np.isnan(weights).any():
            missing = codes[np.isnan(weights)]
            shown = [str(self.query_ids[c]) for c in missing[:5]] if self.query_ids is not None else []
            refuse_unweighted(self.weights_name, len(missing), shown)
        return weights

    def denominator(self, codes: np.ndarray, raw: np.ndarray) -> dict[str, Any]:
        """What the mean averaged (queries, and their total weight) and what it left out."""
        averaged, _ = self._values(codes, raw)
        values = raw if self.mean_of == "raw" else round_values(raw, self.round_to.decimals)
        total_weight = None
        if self.weights is not None:
            total_weight = float(self._weights_of(averaged).sum()) if len(averaged) else 0.0
        kind = "sum" if self.total else "gm" if self.geometric or self.logged else "mean"
        return describe_denominator(len(averaged), str(self.mean_of), kind, len(self.zero_codes),
                                    int(np.isnan(values).sum()), self.weights_name, total_weight)


def describe_denominator(queries: int, mean_of: str, aggregate: str, unjudged_as_zero: int, left_out_null: int,
                         weights: str | None = None, total_weight: float | None = None) -> dict[str, Any]:
    """What a mean averaged, whichever engine took it: the queries (and, weighted, their total weight), the
    values it is of (mean_of; the sum or geometric mean for an `aggregate` of "sum" or "gm"), the unjudged
    queries counted as 0 and the null values left out."""
    of = "rounded values" if mean_of == "rounded" else "unrounded values"
    geometric = aggregate in ("gm", "log_gm")
    of = f"the sum of the {of}" if aggregate == "sum" else f"the geometric mean of the {of}" if geometric else of
    out: dict[str, Any] = {"queries": queries, "of": of, "unjudged_queries_as_zero": unjudged_as_zero,
                           "left_out_null": left_out_null}
    if weights is not None:
        out["weights"] = weights
        out["total_weight"] = total_weight
    return out


def refuse_unweighted(name: str | None, unweighted: int, shown: list[str], averaged: int = 0,
                      total: float | None = None) -> None:
    """The one refusal of a weighted mean, for both engines: `unweighted` queries averaged have no weight
    (`shown`: the first few ids, in id order), or the weights of the `averaged` queries sum to `total` <= 0."""
    if unweighted:
        raise no_weight_error(name, unweighted, shown)
    if total is not None and total <= 0:
        raise zero_weight_error(name, averaged, total)


def refuse_unbound_weights(flavors: Iterable[Flavor], bound: Iterable[str], accepted: str = "file or mapping") -> None:
    """A flavor whose weights=NAME names no weights bound (`bound`: the names given) is a SpecError, before any
    input is read; `accepted`: what the Python API takes as weights."""
    unbound = sorted({f.weights.name for f in flavors if f.weights.name is not None} - set(bound))
    if unbound:
        raise SpecError(f"weights={unbound[0]} names no weights: bind them with --weights {unbound[0]}=FILE "
                        f"(Python: weights={{{unbound[0]!r}: {accepted}}})")


def unused_weights(flavors: Iterable[Flavor], bound: Mapping[str, str | None]) -> list[str]:
    """The input warning of each weights bound (`bound`: name -> path or None) that no flavor asks for: every mean
    is then unweighted, which a `--weights` given without `weights=NAME` in a flavor would leave unsaid."""
    asked = {f.weights.name for f in flavors}
    return [f"weights {name!r}{f' ({path})' if path else ''} are given but no flavor asks for them: every mean is "
            f"unweighted; add weights={name} to a flavor to weigh its mean, e.g. 'ndcg@10 weights={name}'"
            for name, path in bound.items() if name not in asked]


def no_weight_error(name: str | None, count: int, shown: list[str]) -> EvaluationError:
    """`count` queries averaged have no weight (`shown`: the first few ids, in id order)."""
    listed = ", ".join(repr(q) for q in shown)
    one = count == 1
    return EvaluationError(f"{counted(count, 'query', 'queries')} averaged {'has' if one else 'have'} no weight in "
                           f"{name!r} ({listed}); every query in the mean needs one: add {'it' if one else 'them'} to "
                           f"the weights, or drop {'it' if one else 'them'} from the mean (missing=skip, empty=skip, "
                           "unjudged_queries=skip)")


def zero_weight_error(name: str | None, count: int, total: float) -> EvaluationError:
    """The weights of the `count` queries averaged sum to `total` <= 0."""
    return EvaluationError(f"the weights {name!r} of the {count} queries averaged sum to {total:g}: the weighted mean "
                           "is undefined; give them positive weights")


def averaging_for(dataset: Dataset, run: InternedRun, flavor: Flavor) -> Averaging:
    """How `flavor` averages `run`'s values: its zeros (unjudged_queries=zero: the run's queries with no
    judgment) and its weights (weights=NAME: bound to the dataset)."""
    zeros = np.flatnonzero(run.present & ~dataset.judged) if flavor.unjudged_queries == "zero" else None
    weights = None
    if flavor.weights.name is not None:
        refuse_unbound_weights([flavor], dataset.weights)
        weights = dataset.weights[flavor.weights.name]
    metric = registry.get(flavor.metric)
    return Averaging(flavor.round, flavor.mean_of, np.zeros(0, dtype=np.int64) if zeros is None else zeros, weights,
                     flavor.weights.name, dataset.query_ids, metric.aggregate == "sum", metric.aggregate == "gm",
                     metric.aggregate == "log_gm", metric.zero_value)
