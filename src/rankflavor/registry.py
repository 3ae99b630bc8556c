"""The metric registry: each metric family module registers its metrics here, by name, with the names users
and peers give them.

A metric is an instance of a `rankflavor.engine.metric.Metric` subclass. The spec resolver looks names up
here (`get`), and so does the engine. The families shipped with rankflavor are the modules of the package
`FAMILIES` (rankflavor.metrics), found by name, so that a new family is one new module: a name is looked up
first in the family module of the same name (`ndcg`, `bpref`, `rbp`: a few milliseconds of start-up), else
every family is imported. `names()` lists every metric in one order however they were loaded. A metric
defined elsewhere (a plug-in, a test) calls `register` itself.

What the shipped families declare is also kept as data, the module `registry_index.py` beside this one (each metric's
family, aliases and peer names, in `names()` order; `python tools/docs.py` writes it from the families, and
tests/test_startup.py fails when it drifts): while no other metric is registered or removed, `names()`,
`aliases()` and `peer_names()` read it, and `find` imports the one family a name lives in, so resolving
`trec_eval.map` imports ap.py alone (the drop-in's start-up). A plug-in's `register`, an `unregister`, or a
family declaring other than the index says, and the tables are derived from every family, loaded.

Each `register(metric, aliases=..., peers=...)` declares the words users carry over from other tools
(`aliases`: `ap` for map) and each peer's names for the metric (`peers`: `{"trec_eval": ("P_{k}",)}`); the
did-you-mean readings (flavor/suggest.py) and the dialects' name tables (rankflavor/dialects) are derived
from these declarations (`aliases()`, `peer_names()`), never written twice.

This module sits at the bottom (a flavor asks its metric which axes it reads), so it imports nothing of
rankflavor's but errors: `Registered` is what the layers below the metrics read of a metric.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any, NamedTuple, Protocol

from rankflavor.errors import SpecError


class Registered(Protocol):
    """What the flavor layer reads of a registered metric (the rest: rankflavor.engine.metric.Metric)."""

    name: str
    reads: tuple[str, ...]  # the axes it reads, printed in its canonical string
    parameters: tuple[Any, ...]  # its own parameters (flavor.values.Param), printed in its head

    def why_not(self, axis: str) -> tuple[str, str]: ...  # why an axis does not apply, a metric it applies to

    def validate(self, flavor: Any) -> None: ...


class Declared(NamedTuple):
    """What a family declares beside a metric: the words users carry over (`ap`, `hit_rate`: lower case, read
    as readings for did-you-mean) and, per peer (a dialect's name: trec_eval, ir_measures, ranx), the peer's
    names for it in the dialect's pattern language (`P_{k}`: k a cutoff; `iprec_at_recall_{level}`: a
    parameter; rankflavor/dialects/ reads them)."""

    aliases: tuple[str, ...]
    peers: dict[str, tuple[str, ...]]  # (register gives each metric its own dict)


_METRICS: dict[str, Any] = {}
_DECLARED: dict[str, Declared] = {}
FAMILIES = "rankflavor.metrics"  # the package of the shipped families, imported by name (never an import arrow)
_NOT_FAMILIES = {"relevance", "catalog"}  # (modules that hold no family)
_loaded = False
_changes = 0  # register/unregister calls: what a table derived from the declarations is keyed by
_departures = 0  # registrations the index does not hold, and removals: while 0, the index answers
FIRST = "ndcg"
INDEX = "rankflavor.registry_index"  # (a module of data: importing its bytecode is cheaper than parsing JSON)
INDEX_HEAD = ('"""What the shipped metric families declare, in `registry.names()` order: written by tools/docs.py from '
              'the\nfamilies (rankflavor.registry.render_index); tests/test_startup.py fails when it drifts."""\n\n')


@functools.cache
def _index() -> dict[str, dict[str, Any]]:
    """The shipped families' declarations as data: {metric: {family, aliases, peers}} in `names()` order ({}
    when the module is absent: the families are loaded instead)."""
    try:
        return importlib.import_module(INDEX).METRICS
    except (ImportError, AttributeError):
        return {}


def _indexed() -> bool:
    """Whether the index says what the registry holds (no plug-in, no removal, no family departing from it)."""
    return _departures == 0 and bool(_index())


def _entry(metric: Any, declared: Declared) -> dict[str, Any]:
    module, _dot, family = type(metric).__module__.rpartition(".")
    return {"family": family if module == FAMILIES else None, "aliases": list(declared.aliases),
            "peers": {peer: list(names) for peer, names in declared.peers.items()}}


def render_index() -> str:
    """The index module's text from the families themselves (every family loaded): what tools/docs.py writes."""
    import pprint

    _load_families()
    entries = {name: _entry(_METRICS[name], _DECLARED[name]) for name in _live_names()}
    return f"{INDEX_HEAD}METRICS = {pprint.pformat(entries, width=116, sort_dicts=False)}\n"


def register(metric: Any, aliases: tuple[str, ...] = (), peers: dict[str, tuple[str, ...]] | None = None) -> Any:
    """Add a metric under its name, with the words users carry over for it and its peers' names (`Declared`).
    A name registered twice is an error."""
    if metric.name in _METRICS and _METRICS[metric.name] is not metric:
        raise ValueError(f"a metric named {metric.name!r} is registered already")
    global _changes, _departures
    _METRICS[metric.name] = metric
    _DECLARED[metric.name] = Declared(tuple(aliases), dict(peers or {}))
    _changes += 1
    if _index().get(metric.name) != _entry(metric, _DECLARED[metric.name]):
        _departures += 1
    return metric


def unregister(name: str) -> None:
    """Remove a metric registered by a plug-in or a test (a family of rankflavor's comes back on reload)."""
    global _changes, _departures
    _METRICS.pop(name, None)
    _DECLARED.pop(name, None)
    _changes += 1
    _departures += 1


@functools.cache
def families() -> tuple[str, ...]:
    """The family modules shipped, ndcg's first (its names lead every list), then by name."""
    import pkgutil

    package = importlib.import_module(FAMILIES)
    found = sorted(info.name for info in pkgutil.iter_modules(package.__path__)
                   if info.name not in _NOT_FAMILIES and not info.name.startswith("_"))
    return tuple(sorted(found, key=lambda n: n != FIRST))


def _load_families() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in families():
        importlib.import_module(f"{FAMILIES}.{name}")


def names() -> tuple[str, ...]:
    """Every registered metric name: the families' in their order (each in registration order), then the others."""
    if _indexed():
        return tuple(_index())
    return _live_names()


def _live_names() -> tuple[str, ...]:
    _load_families()
    rank = {name: i for i, name in enumerate(families())}
    home = {name: type(metric).__module__.rpartition(".") for name, metric in _METRICS.items()}
    return tuple(sorted(_METRICS, key=lambda n: rank.get(home[n][2], len(rank)) if home[n][0] == FAMILIES else len(rank)))


def find(name: str) -> Any:
    """The metric registered under `name` (a rankflavor.engine.metric.Metric), or None."""
    if name not in _METRICS and "." not in name:  # (no metric's name has a dot: `trec_eval.map` is a peer's)
        home = _index().get(name, {}).get("family") if _indexed() else None
        if home:
            importlib.import_module(f"{FAMILIES}.{home}")
        elif name in families():
            importlib.import_module(f"{FAMILIES}.{name}")
        if name not in _METRICS:
            _load_families()
    return _METRICS.get(name)


def version() -> int:
    """A number that changes whenever a metric is registered or removed: a table derived from the declarations
    (the dialects' name tables) is cached under it, so a plug-in's names are found as soon as it registers.
    While the index answers, -1 (the shipped families' declarations: loading one changes nothing derived)."""
    if _indexed():
        return -1
    _load_families()
    return _changes


def aliases() -> dict[str, str]:
    """Every declared alias -> its metric, in `names()` order."""
    if _indexed():
        return {alias: name for name, entry in _index().items() for alias in entry["aliases"]}
    return {alias: name for name in names() for alias in _DECLARED[name].aliases}


def peer_names(peer: str) -> dict[str, tuple[str, ...]]:
    """Each metric's names in one peer's pattern language (`{"p": ("set_P", "P_{k}"), ...}`), in `names()` order,
    for the metrics that declare any."""
    if _indexed():
        return {name: tuple(entry["peers"][peer]) for name, entry in _index().items() if entry["peers"].get(peer)}
    return {name: _DECLARED[name].peers[peer] for name in names() if _DECLARED[name].peers.get(peer)}


def get(name: str) -> Any:
    metric = find(name)
    if metric is None:
        raise SpecError(f"unknown metric {name!r}; valid metrics: {', '.join(names())}")
    return metric
