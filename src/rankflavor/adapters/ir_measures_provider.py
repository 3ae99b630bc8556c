"""rankflavor as an ir_measures provider: ir_measures' measure objects (`nDCG@10`, `P(rel=2)@5`, `RBP(p=0.8,rel=1)`,
...) computed by rankflavor's engine under the flavor ir_measures gives each (dialects/ir_measures.py: the conventions
of the provider ir_measures' DefaultPipeline picks for the measure).

ir_measures 0.4.3's provider contract (ir_measures/providers/base.py): a `Provider` with a NAME, `supports(measure)`
and `_evaluator(measures, qrels)`, returning an `Evaluator` whose `_iter_calc(run)` yields `Metric(query_id, measure,
value)`; the base class fills measure.DEFAULT for every qrels query not yielded and aggregates with
measure.aggregator() (a mean, or a sum for NumRet, NumRel, NumQ). `providers.register` puts it in
`ir_measures.providers.registry`; ir_measures' DefaultPipeline (a FallbackProvider over a list of providers,
ir_measures/__init__.py, providers/fallback_provider.py) asks each of its providers in turn: `prefer` puts this one
first in that list, which is how `ir_measures.calc_aggregate(...)` and PyTerrier's `pt.Experiment` (which calls
`ir_measures.iter_calc`, pyterrier/_evaluation/_execution.py) reach it.

Inputs are what ir_measures accepts: a dict of dicts as is; a DataFrame, or an iterable of namedtuples (such as
`ir_measures.read_trec_qrels(path)` gives), made a DataFrame by ir_measures' own `QrelsConverter` / `RunConverter`
and read by its columns `query_id`, `doc_id`, `relevance` / `score` (other columns, such as PyTerrier's `query` and
`rank`, are left aside). A (query, doc) listed twice is refused (rankflavor's `on_duplicate="error"`), where
pytrec_eval's provider keeps the last one: give `on_duplicate="first"` or `"max"` to choose.

This module imports ir_measures; rankflavor itself never does (`rankflavor.ir_measures` is its public name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import ir_measures
from ir_measures import Metric
from ir_measures.measures import Measure
from ir_measures.providers import Evaluator, Provider

from rankflavor.engine import Engine
from rankflavor.errors import SpecError
from rankflavor.flavor import Flavor, parse_spec
from rankflavor.inputs.pipeline import prepare
from rankflavor.inputs.subtopics import reads_subtopics

NAME = "rankflavor"
QRELS_COLUMNS = ["query_id", "doc_id", "relevance"]
RUN_COLUMNS = ["query_id", "doc_id", "score"]
_SPACE = re.compile(r"\s")


def _token(value: Any) -> str:
    """A parameter's value as ir_measures' grammar writes it (ir_measures/util.py parse_measure), with no space."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{_token(k)}:{_token(v)}" for k, v in value.items()) + "}"
    return repr(value)


def measure_head(measure: Measure) -> str:
    """`NAME(param=value,...)`: the measure with every parameter it was given, as dialects/ir_measures.py reads a
    head after `ir_measures.` (`nDCG(cutoff=10)`, `P(rel=2,cutoff=5)`; an alias is its measure: MAP is AP)."""
    params = ",".join(f"{key}={_token(value)}" for key, value in measure.params.items())
    return f"{measure.NAME}({params})" if params else str(measure.NAME)


# measures the dialect reads that this provider leaves to ir_measures' own: its accuracy provider reports no
# value for a query it cannot score (where an Evaluator's iter_calc fills measure.DEFAULT); its compat provider
# breaks the ideal's last ties by the qrels' order, which `ir_measures.Compat` reproduces (ideal_ties=qrels) but
# which this provider's conversion of the qrels is not yet tested to keep
LEFT_TO_IR_MEASURES = ("Accuracy", "Compat")


def flavor_of(measure: Measure) -> Flavor | None:
    """The flavor of rankflavor that computes `measure` as ir_measures does, or None when there is none (a measure
    rankflavor has no metric for, or one no provider of ir_measures computes as rankflavor can: the dialect's
    refusals, dialects/ir_measures.py; `LEFT_TO_IR_MEASURES`)."""
    head = measure_head(measure)
    if _SPACE.search(head) or measure.NAME in LEFT_TO_IR_MEASURES:
        return None
    try:
        flavors = parse_spec(f"ir_measures.{head}")
    except SpecError:
        return None
    if len(flavors) != 1 or reads_subtopics([flavors[0].metric]):
        return None  # (a diversity measure reads the qrels' subtopics, which this provider's qrels drop: pyndeval's)
    return flavors[0]


def _qrels_input(qrels: Any) -> Any:
    """qrels as rankflavor reads them: a dict as is, anything else through ir_measures' QrelsConverter."""
    if isinstance(qrels, dict):
        return qrels
    return ir_measures.util.QrelsConverter(qrels).as_pd_dataframe()[QRELS_COLUMNS]


def _run_input(run: Any) -> Any:
    """A run as rankflavor reads it (as `_qrels_input`), or None when it has no row."""
    if isinstance(run, dict):
        return run if any(run.values()) else None
    frame = ir_measures.util.RunConverter(run).as_pd_dataframe()
    return frame[RUN_COLUMNS] if len(frame) else None


class RankflavorEvaluator(Evaluator):
    """The measures' flavors over one qrels, for any number of runs (each read with the qrels, then evaluated by
    one `Engine.evaluate` call for every flavor)."""

    def __init__(self, measures: list[Measure], flavors: list[Flavor], qrels: Any, on_duplicate: str) -> None:
        self.qrels = _qrels_input(qrels)
        self.flavors = flavors
        self.on_duplicate = on_duplicate
        if isinstance(self.qrels, dict):  # (a query with no judgment too: ir_measures gives it measure.DEFAULT)
            qids = {str(q) for q in self.qrels}
            self.judged = any(self.qrels.values())
        else:
            qids = set(self.qrels["query_id"].astype(str))
            self.judged = len(self.qrels) > 0
        super().__init__(measures, qids)

    def _iter_calc(self, run: Any) -> Iterator[Metric]:
        rows = _run_input(run)
        if rows is None or not self.judged:  # (every qrels query then gets measure.DEFAULT from iter_calc)
            return
        dataset, _ = prepare(self.qrels, {"run": rows}, self.on_duplicate)
        evaluations = Engine(dataset).evaluate(dataset.runs[0], self.flavors)
        for measure, evaluation in zip(self.measures, evaluations, strict=True):
            results = evaluation.results
            for code, value in zip(results.query.tolist(), results.value.tolist(), strict=True):
                if value == value:  # (a null value: the query is left to measure.DEFAULT)
                    yield Metric(query_id=str(dataset.query_ids[code]), measure=measure, value=value)


class RankflavorProvider(Provider):
    """rankflavor, as ir_measures' providers are (`ir_measures.providers.registry["rankflavor"]`)."""

    NAME = NAME

    def __init__(self, on_duplicate: str = "error") -> None:
        super().__init__()
        self.on_duplicate = on_duplicate

    def supports(self, measure: Measure) -> bool:
        """Whether rankflavor computes `measure` as ir_measures does; when not, ir_measures' DefaultPipeline asks
        its next provider."""
        measure.validate_params()
        return flavor_of(measure) is not None

    def _evaluator(self, measures: Iterable[Measure], qrels: Any) -> RankflavorEvaluator:
        measures = list(dict.fromkeys(_measures(measures)))
        flavors = [flavor_of(m) for m in measures]
        refused = [str(m) for m, f in zip(measures, flavors, strict=True) if f is None]
        if refused:
            raise ValueError(f"Unsupported measures {refused} (provider {NAME}: see rankflavor's ir_measures dialect, "
                             "`rankflavor metrics`)")
        return RankflavorEvaluator(measures, flavors, qrels, self.on_duplicate)  # type: ignore[arg-type]

    def install_instructions(self) -> str:
        return "pip install rankflavor"


def _measures(measures: Any) -> list[Measure]:
    """ir_measures' Measure objects, else a TypeError that says how to make one (where ir_measures' own providers
    fail on an attribute: a spec string is not parsed by them either)."""
    items = [measures] if isinstance(measures, (str, Measure)) else list(measures)
    for item in items:
        if not isinstance(item, Measure):
            example = item if isinstance(item, str) else "nDCG@10"
            raise TypeError(f"{item!r} ({type(item).__name__}) is not an ir_measures measure: write it as one "
                            f"(from ir_measures import nDCG; nDCG@10) or parse it, ir_measures.parse_measure({example!r})")
    return items


def prefer(provider: Provider | None = None) -> Preferred:
    """Put `provider` (default: rankflavor's registered one) first among ir_measures' DefaultPipeline providers, so
    that `ir_measures.calc_aggregate`, `iter_calc`, `evaluator` and PyTerrier's `pt.Experiment` compute with it every
    measure it supports (the others fall back to ir_measures' own providers). Use as a statement (until
    `.undo()`), or as `with prefer(): ...` (undone on leaving the block)."""
    return Preferred(provider or ir_measures.providers.registry[NAME])


class Preferred:
    """rankflavor first in ir_measures' DefaultPipeline: made at `prefer()`, undone by `undo()` or a with block."""

    def __init__(self, provider: Provider) -> None:
        self.provider = provider
        self.providers: list[Provider] = ir_measures.DefaultPipeline.providers
        self.before = list(self.providers)
        self.providers[:] = [provider, *(p for p in self.providers if p is not provider)]

    def undo(self) -> None:
        """ir_measures' DefaultPipeline as it was before `prefer()`."""
        self.providers[:] = self.before

    def __enter__(self) -> Provider:
        return self.provider

    def __exit__(self, *exc: object) -> None:
        self.undo()
