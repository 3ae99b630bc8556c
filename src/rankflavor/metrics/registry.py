"""The metric registry: each metric family module registers its metrics here, by name.

A metric is an instance of a `rankflavor.metrics.base.Metric` subclass. The flavor parser looks names up
here (`get`), and so does the engine. The families shipped with rankflavor are the modules of this
package; they are imported on the first look-up, so that a new family is one new module. A metric
defined elsewhere (a plug-in, a test) calls `register` itself.

This module sits below the flavor layer (a flavor asks its metric which axes it reads), so it imports
nothing of rankflavor's but errors: `Registered` is what the flavor layer reads of a metric.
"""

from __future__ import annotations

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
_NOT_FAMILIES = {"registry", "base", "relevance"}  # (modules that hold no family)
_loaded = False
FIRST = "ndcg"


def register(metric: Any) -> Any:
    """Add a metric under its name (a name registered twice is an error)."""
    if metric.name in _METRICS and _METRICS[metric.name] is not metric:
        raise ValueError(f"a metric named {metric.name!r} is registered already")
    _METRICS[metric.name] = metric
    return metric


def unregister(name: str) -> None:
    """Remove a metric registered by a plug-in or a test (a family of rankflavor's comes back on reload)."""
    _METRICS.pop(name, None)


def _load_families() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    package = importlib.import_module(__package__ or "rankflavor.metrics")
    families = sorted(info.name for info in pkgutil.iter_modules(package.__path__)
                      if info.name not in _NOT_FAMILIES and not info.name.startswith("_"))
    for name in sorted(families, key=lambda n: n != FIRST):  # (ndcg first: its names lead every list)
        importlib.import_module(f"{package.__name__}.{name}")


def names() -> tuple[str, ...]:
    """Every registered metric name, in registration order."""
    _load_families()
    return tuple(_METRICS)


def find(name: str) -> Any:
    """The metric registered under `name` (a rankflavor.metrics.base.Metric), or None."""
    _load_families()
    return _METRICS.get(name)


def get(name: str) -> Any:
    metric = find(name)
    if metric is None:
        raise SpecError(f"unknown metric {name!r}; valid metrics: {', '.join(names())}")
    return metric
