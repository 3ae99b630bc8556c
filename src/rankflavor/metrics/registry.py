"""The metric registry: each metric family module registers its metrics here, by name.

A metric is an instance of a `rankflavor.metrics.base.Metric` subclass. The flavor parser looks names up
here (`get`), and so does the engine. The families shipped with rankflavor are the modules of this
package, so that a new family is one new module: a name is looked up in its family's module alone when
`HOMES` lists it (a few milliseconds of `rankflavor eval` start-up per family), else every family is
imported first (a family not in `HOMES` works all the same; tests/test_metric_registry.py keeps `HOMES`
true). `names()` lists every metric in one order however they were loaded. A metric defined elsewhere
(a plug-in, a test) calls `register` itself.

This module sits below the flavor layer (a flavor asks its metric which axes it reads), so it imports
nothing of rankflavor's but errors: `Registered` is what the flavor layer reads of a metric.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import Any, Protocol

from rankflavor.errors import SpecError


class Registered(Protocol):
    """What the flavor layer reads of a registered metric (the rest: rankflavor.metrics.base.Metric)."""

    name: str
    reads: tuple[str, ...]  # the axes it reads, printed in its canonical string
    parameters: tuple[Any, ...]  # its own parameters (flavor.values.Param), printed in its head

    def why_not(self, axis: str) -> tuple[str, str]: ...  # why an axis does not apply, a metric it applies to

    def validate(self, flavor: Any) -> None: ...


_METRICS: dict[str, Any] = {}
_NOT_FAMILIES = {"registry", "base", "relevance", "catalog"}  # (modules that hold no family)
_loaded = False
FIRST = "ndcg"
HOMES = {  # each shipped metric's family module
    "ndcg": "ndcg", "dcg": "ndcg", "map": "ap", "bpref": "bpref", "num_ret": "counts", "num_rel": "counts",
    "num_rel_ret": "counts", "num_nonrel_judged_ret": "counts", "err": "err", "f": "fmeasure", "set_map": "fmeasure",
    "gm_map": "gm", "gm_bpref": "gm", "hits": "hits", "infap": "infap", "iprec": "iprec", "iprec_avg": "iprec",
    "judged": "judged", "unj": "judged", "p": "precision", "success": "precision", "rprec": "precision",
    "rprec_mult": "precision", "rbp": "rbp", "rbp_resid": "rbp", "recall": "recall", "recall_cap": "recall",
    "mrr": "rr", "bin_g": "trec_binary", "utility": "trec_binary", "g": "trec_gains", "rndcg": "trec_gains",
    "ndcg_rel": "trec_gains"}


def register(metric: Any) -> Any:
    """Add a metric under its name (a name registered twice is an error)."""
    if metric.name in _METRICS and _METRICS[metric.name] is not metric:
        raise ValueError(f"a metric named {metric.name!r} is registered already")
    _METRICS[metric.name] = metric
    return metric


def unregister(name: str) -> None:
    """Remove a metric registered by a plug-in or a test (a family of rankflavor's comes back on reload)."""
    _METRICS.pop(name, None)


@functools.cache
def families() -> tuple[str, ...]:
    """The family modules shipped, ndcg's first (its names lead every list), then by name."""
    package = importlib.import_module(__package__ or "rankflavor.metrics")
    found = sorted(info.name for info in pkgutil.iter_modules(package.__path__)
                   if info.name not in _NOT_FAMILIES and not info.name.startswith("_"))
    return tuple(sorted(found, key=lambda n: n != FIRST))


def _load_families() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in families():
        importlib.import_module(f"{__package__ or 'rankflavor.metrics'}.{name}")


def names() -> tuple[str, ...]:
    """Every registered metric name: the families' in their order (each in registration order), then the others."""
    _load_families()
    rank = {name: i for i, name in enumerate(families())}
    home = {name: type(metric).__module__.rpartition(".") for name, metric in _METRICS.items()}
    here = __package__ or "rankflavor.metrics"
    return tuple(sorted(_METRICS, key=lambda n: rank.get(home[n][2], len(rank)) if home[n][0] == here else len(rank)))


def find(name: str) -> Any:
    """The metric registered under `name` (a rankflavor.metrics.base.Metric), or None."""
    if name not in _METRICS:
        if name in HOMES:
            importlib.import_module(f"{__package__ or 'rankflavor.metrics'}.{HOMES[name]}")
        elif "." not in name:  # (no family names a metric with a dot: `trec_eval.map` is a peer's name)
            _load_families()
    return _METRICS.get(name)


def get(name: str) -> Any:
    metric = find(name)
    if metric is None:
        raise SpecError(f"unknown metric {name!r}; valid metrics: {', '.join(names())}")
    return metric
