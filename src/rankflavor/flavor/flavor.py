"""The immutable Flavor value, its canonical string, and the resolution of specs into flavors (what a spec's
head stands for: resolve.py).

`str(flavor)` is `metric@k` (or `metric`) followed by `key=value` for every axis its metric reads, keys in
the order of `AXES`, e.g. `ndcg@10 gain=linear discount=log2 ideal=global ideal_depth=k ties=docid_desc
unjudged=zero negative=unjudged min_grade=none empty=zero missing=skip precision=f64 run_depth=all
self_docs=keep round=none`. `Flavor.parse(str(flavor)) == flavor` always holds. Each axis holds a typed
value (rankflavor.flavor.values) that is also its canonical token.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple

from rankflavor import registry
from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.trec_sets import set_members
from rankflavor.errors import SpecError
from rankflavor.flavor.axes import AXES, AXIS_BY_NAME, parse_value
from rankflavor.flavor.resolve import other_readings, reads_as_written, resolve_read
from rankflavor.flavor.spec import PROJECT_PREFIX, SpecText, split_spec
from rankflavor.flavor.suggest import close, did_you_mean
from rankflavor.flavor.values import (
    MAX_WHOLE,
    AxisValue,
    Choice,
    Discount,
    Gain,
    Ideal,
    MinGrade,
    RelLevel,
    Round,
    RunDepth,
    Ties,
    Weights,
)


@dataclass(frozen=True)
class Flavor:
    """One fully declared flavor of a metric. Axis values are typed (see `rankflavor.flavor.values`); a token,
    a number or a {grade: gain} dict given for an axis is parsed once, here."""

    metric: str = "ndcg"
    cutoff: int | None = None
    params: tuple[tuple[str, AxisValue], ...] = ()  # the metric's own parameters (name, typed value), all of them
    gain: Gain = "linear"  # type: ignore[assignment]
    discount: Discount = "log2"  # type: ignore[assignment]
    ideal: Ideal = "global"  # type: ignore[assignment]
    ideal_depth: Choice = "k"  # type: ignore[assignment]
    ties: Ties = "docid_desc"  # type: ignore[assignment]
    unjudged: Choice = "zero"  # type: ignore[assignment]
    negative: Choice = "unjudged"  # type: ignore[assignment]
    min_grade: MinGrade = "none"  # type: ignore[assignment]
    empty: Choice = "zero"  # type: ignore[assignment]
    missing: Choice = "skip"  # type: ignore[assignment]
    precision: Choice = "f64"  # type: ignore[assignment]
    run_depth: RunDepth = "all"  # type: ignore[assignment]
    self_docs: Choice = "keep"  # type: ignore[assignment]
    round: Round = "none"  # type: ignore[assignment]
    unjudged_queries: Choice = "skip"  # type: ignore[assignment]
    mean_of: Choice = "raw"  # type: ignore[assignment]
    weights: Weights = "none"  # type: ignore[assignment]
    rel_level: RelLevel = "1"  # type: ignore[assignment]

    def __post_init__(self) -> None:
        metric = registry.get(self.metric)
        object.__setattr__(self, "params", _resolve_params(metric, self.params))
        if self.cutoff is not None:
            if isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int) or not 1 <= self.cutoff <= MAX_WHOLE:
                raise SpecError(f"cutoff must be a whole number from 1 to {MAX_WHOLE:,}, got {self.cutoff!r}")
        for axis in AXES:
            object.__setattr__(self, axis.name, parse_value(axis.name, getattr(self, axis.name)))
        for axis in AXES:
            value = getattr(self, axis.name)
            if axis.name not in metric.reads and value != axis.default:
                why, other = metric.why_not(axis.name)
                instead = f" or use {other}" if other else ""
                raise SpecError(f"{axis.name} does not apply to {self.metric} ({why}); drop {axis.name}={value}{instead}")
        if self.unjudged_queries == "score" and not metric.scores_unjudged_queries:
            raise SpecError(f"unjudged_queries=score scores a run query that has no judgment over its list, which "
                            f"{self.metric} cannot (it has no value over a list without judgments); write "
                            "unjudged_queries=skip or zero")
        if self.mean_of == "rounded" and self.round.decimals is None:
            raise SpecError("mean_of=rounded averages the values rounded to round=N decimals: give round=N (e.g. "
                            "round=5), or mean_of=raw")
        metric.validate(self)

    # ---- canonical string ---------------------------------------------------------------------------
    @property
    def head(self) -> str:
        params = f"({','.join(f'{k}={v}' for k, v in self.params)})" if self.params else ""
        return f"{self.metric}{params}" + ("" if self.cutoff is None else f"@{self.cutoff}")

    @property
    def depth(self) -> float:
        """The cutoff k as a float, or infinity (math.inf) for the whole list: `rank <= flavor.depth` is in the top."""
        return float("inf") if self.cutoff is None else float(self.cutoff)

    def param(self, name: str) -> AxisValue:
        """The typed value of one of the metric's own parameters."""
        return dict(self.params)[name]

    def metric_parameters(self) -> tuple[Any, ...]:
        """The metric's own parameters (`Param`s: name, default, meaning)."""
        return tuple(registry.get(self.metric).parameters)

    def axis_items(self) -> list[tuple[str, str]]:
        """(key, token) for every axis its metric reads, in canonical order."""
        reads = registry.get(self.metric).reads
        return [(axis.name, getattr(self, axis.name)) for axis in AXES if axis.name in reads]

    def __str__(self) -> str:
        return " ".join([self.head, *(f"{k}={v}" for k, v in self.axis_items())])

    def __repr__(self) -> str:
        return f"Flavor({str(self)!r})"

    @functools.cached_property
    def short(self) -> str:
        """The head and the axes that differ from the plain `metric@k` default (it parses back to this flavor;
        made once per flavor: the engine labels its flavors on every call)."""
        defaults = registry.get(self.metric).axis_defaults
        plain = dict(Flavor(metric=self.metric, cutoff=self.cutoff, params=self.params, **defaults).axis_items())
        return " ".join([self.head, *(f"{axis}={token}" for axis, token in self.axis_items() if plain[axis] != token)])

    # ---- construction -------------------------------------------------------------------------------
    @classmethod
    def parse(cls, spec: str) -> Flavor:
        """Parse one flavor (any spec: a metric, a preset, a peer's name). A preset head without
        @k that expands to several cutoffs is an error here."""
        flavors = parse_spec(spec)
        if len(flavors) != 1 and set_members(spec.split()[0] if spec.strip() else spec) is not None:
            raise SpecError(f"{spec!r} is a set of {len(flavors)} trec_eval measures: name one (e.g. trec_eval.map), "
                            "or use parse_spec() for the list")
        if len(flavors) != 1:
            raise SpecError(
                f"{spec!r} expands to {len(flavors)} flavors (one per default cutoff); add @k to pick one, "
                "or use parse_spec() for the list"
            )
        return flavors[0]

    def with_(self, **changes: Any) -> Flavor:
        """A copy with some axes, or parameters of its metric (`p=0.8`), changed (values are re-validated). A new
        metric starts from its own parameters' defaults, unless `params` or parameter names are given too. No
        change: this flavor itself (it is immutable)."""
        if not changes:
            return self
        names = {f.name for f in fields(self)}
        metric = changes.get("metric", self.metric)
        declared = {p.name for p in registry.get(metric).parameters} if registry.find(metric) is not None else set()
        params = {key: str(changes.pop(key)) for key in list(changes) if key in declared and key not in names}
        unknown = set(changes) - names
        if unknown:
            own = f"; {metric}'s parameters: {', '.join(sorted(declared))}" if declared else ""
            name = sorted(unknown)[0]
            hint = did_you_mean(close(name, [*AXIS_BY_NAME, *declared, "metric", "cutoff"]))
            raise SpecError(f"unknown axis {name!r}; {hint + ' ' if hint else ''}valid axes: metric, cutoff, "
                            f"{', '.join(AXIS_BY_NAME)}{own}")
        if params or ("metric" in changes and "params" not in changes):
            kept = {name: str(value) for name, value in self.params} if metric == self.metric else {}
            changes["params"] = {**kept, **params}
        return replace(self, **changes)

    def value_of(self, name: str) -> Any:
        """An axis's value, or a parameter's of its metric (`p`), by name."""
        params = dict(self.params)
        return params[name] if name in params else getattr(self, name)

    def differences(self, other: Flavor) -> list[tuple[str, str, str]]:
        """(axis, self's token, other's token) for every axis on which the two differ, head first."""
        diffs = []
        if self.metric != other.metric:
            diffs.append(("metric", self.metric, other.metric))
        if self.cutoff != other.cutoff:
            diffs.append(("cutoff", str(self.cutoff or "none"), str(other.cutoff or "none")))
        if self.metric == other.metric:
            diffs += [(name, mine, theirs) for (name, mine), (_, theirs) in zip(self.params, other.params, strict=True)
                      if mine != theirs]
        for axis in AXES:
            mine, theirs = getattr(self, axis.name), getattr(other, axis.name)
            if mine != theirs:
                diffs.append((axis.name, mine, theirs))
        return diffs


def _resolve_params(metric: Any, given: Any) -> tuple[tuple[str, AxisValue], ...]:
    """Every parameter of `metric`, typed: the given ones ({name: value}, or (name or None, value) pairs as
    written, a None name standing for the next parameter in order) and the defaults."""
    declared = {p.name: p for p in metric.parameters}
    pairs = list(given.items()) if isinstance(given, dict) else list(given)
    if pairs and not declared:
        raise SpecError(f"{metric.name} takes no parameter; drop ({', '.join(str(v) for _, v in pairs)})")
    values: dict[str, Any] = {}
    order = iter(declared)
    for key, value in pairs:
        name = key if key is not None else next(order, None)
        if name not in declared:
            raise SpecError(f"{metric.name} has no parameter {name!r}; its parameters: {', '.join(declared)}"
                            if name is not None else f"{metric.name} takes {len(declared)} parameters, given more")
        if name in values:
            raise SpecError(f"parameter {name} of {metric.name} given twice")
        values[name] = value
    missing = [name for name, p in declared.items() if p.default is None and name not in values]
    if missing:
        raise SpecError(f"{metric.name} needs its {missing[0]}: write {metric.name}({missing[0]}=...), "
                        f"e.g. {metric.name}({declared[missing[0]].meaning.split(', e.g. ')[-1]})")
    return tuple((name, p.parse(str(values.get(name, p.default)).replace(" ", ""))) for name, p in declared.items())


_WHAT_SPEC = "write a spec such as 'ndcg@10' or 'trec_eval@10', or a Flavor"


def parse_spec(spec: str) -> list[Flavor]:
    """All flavors a spec stands for: one, or one per default cutoff of a preset written without @k."""
    if not isinstance(spec, str):
        raise SpecError(f"{spec!r} ({type(spec).__name__}) is not a flavor spec: {_WHAT_SPEC}")
    if spec.lstrip().startswith(PROJECT_PREFIX):  # (read from the project file of the working directory)
        return list(_parse_spec(spec).flavors)
    return list(_parsed(spec).flavors)


class Parsed(NamedTuple):
    """One spec parsed: its flavors, its text as split (spec.py), and what its head was read as when written
    without its prefix (the line told on stderr), or None."""

    flavors: tuple[Flavor, ...]
    text: SpecText
    read_as: str | None


@functools.lru_cache(maxsize=1024)
def _parsed(spec: str) -> Parsed:
    """parse_spec of a spec that names no project flavor (its flavors depend on the spec alone): parsed once per
    process, the flavors and the reading note (`reading_note`) both taken from that one parse."""
    return _parse_spec(spec)


def _parse_spec(spec: str) -> Parsed:
    text = split_spec(spec, raw_head=reads_as_written)
    if text.name.startswith(PROJECT_PREFIX):
        if text.params:
            raise SpecError(f"{text.name} is a project flavor: it takes no parameters in (...); set them in its "
                            "spec in the project file")
        return Parsed(tuple(_project_flavors(text.name, text.cutoff, text.overrides)), text, None)
    heads, read_as = resolve_read(text, _flavor_of)
    return Parsed(tuple(_flavor_of(head) for head in heads), text, read_as)


def _flavor_of(head: PeerMeasure) -> Flavor:
    return Flavor(metric=head.metric, cutoff=head.cutoff, params=head.params, **head.axes)  # type: ignore[arg-type]


def reading_note(spec: str, others: bool = False) -> str | None:
    """Which tool's name a spec's head was read as, when written without its prefix (`P_10: trec_eval's P_10
    (trec_eval.P_10)`), or None (a rankflavor name, a prefixed one, a project flavor, or a spec that does not
    parse); `others`: for a rankflavor name, the tools that read it as another flavor (`ndcg@10: ...
    ranx.ndcg@10 (...)`). From the spec's one parse (`_parsed`), which parse_spec takes its flavors from."""
    if not isinstance(spec, str) or spec.lstrip().startswith(PROJECT_PREFIX):
        return None
    try:
        parsed = _parsed(spec)
    except SpecError:
        return None
    if parsed.read_as is not None or not others:
        return parsed.read_as
    return other_readings(parsed.text, _flavor_of)


def _project_flavors(name: str, cutoff: int | None, overrides: dict[str, str]) -> list[Flavor]:
    """The flavors of `project.NAME` (flavor/project.py), with a cutoff and axes given after it."""
    from rankflavor.flavor import project

    text, where = project.project_spec(name)
    if text.strip().startswith(PROJECT_PREFIX):
        raise SpecError(f"{where.path}: flavor {name[len(PROJECT_PREFIX):]} is {text!r}: a project flavor is a "
                        "metric or a preset spec, not another project flavor")
    try:
        flavors = parse_spec(text)
    except SpecError as exc:
        raise SpecError(f"{where.path}: {name} = {text!r}: {exc}") from None
    out: list[Flavor] = []
    for flavor in flavors:
        changed = flavor.with_(**({"cutoff": cutoff} if cutoff is not None else {}), **overrides)
        if changed not in out:
            out.append(changed)
    return out


def parse_specs(specs: Sequence[str | Flavor] | str | Flavor) -> list[Flavor]:
    """Flavors for a spec, a Flavor, or a list of either, in order, without duplicates."""
    return list(labelled_specs(specs))


Labelled = dict["Flavor", list[str]]  # each flavor with its labels, in order: what labelled_specs returns


def labelled_specs(specs: Sequence[str | Flavor] | str | Flavor | Labelled) -> Labelled:
    """Each flavor the specs stand for (in order, once) with the names the user gave it: the spec as written
    (spaces collapsed), `NAME@k ...` for each cutoff of a spec that stands for several, `Flavor.short` for
    a Flavor given as such. Two specs that resolve to one flavor give it two labels. What this returns, given
    again, is returned as it is (a copy): the CLI parses its specs once and hands the flavors with their labels
    down to the engine. Anything else (None, a number, a list holding one) is a SpecError naming it."""
    if isinstance(specs, Mapping) and specs and all(isinstance(f, Flavor) and isinstance(labels, list) and labels
                                                    for f, labels in specs.items()):
        return {flavor: list(labels) for flavor, labels in specs.items()}
    items = [specs] if isinstance(specs, (str, Flavor)) else _spec_items(specs)
    out: dict[Flavor, list[str]] = {}
    failed: list[tuple[str, SpecError]] = []
    for item in items:
        try:
            named = _named(item)
        except SpecError as exc:
            failed.append((str(item), exc))
            continue
        for flavor, label in named:
            labels = out.setdefault(flavor, [])
            if label not in labels:
                labels.append(label)
    if len(failed) == 1:
        raise failed[0][1]
    if failed:
        raise SpecError(f"{len(failed)} specs are refused:\n" + "\n".join(f"  {spec}: {exc}" for spec, exc in failed))
    if not out:
        raise SpecError("no flavor given; pass at least one spec such as ndcg@10")
    return out


def _spec_items(specs: object) -> list[str | Flavor]:
    """The items of a list (or other iterable) of specs, each a str or a Flavor; else a SpecError naming the value."""
    what = _WHAT_SPEC + ", or a list of them"
    if specs is None or isinstance(specs, bytes) or not hasattr(specs, "__iter__"):
        raise SpecError(f"flavors={specs!r} ({type(specs).__name__}) is not a flavor spec: {what}")
    items = list(specs)  # type: ignore[call-overload]
    for item in items:
        if not isinstance(item, (str, Flavor)):
            raise SpecError(f"{item!r} ({type(item).__name__}) among the flavors is not a flavor spec: {what}")
    return items


def _named(item: str | Flavor) -> list[tuple[Flavor, str]]:
    """The flavors of one spec or Flavor, each with its label (labelled_specs)."""
    if isinstance(item, Flavor):
        return [(item, item.short)]
    flavors = parse_spec(item)
    words = item.split()
    members = set_members(words[0]) if words else None
    if members is not None:
        return [(f, " ".join([m, *words[1:]])) for f, m in zip(flavors, members, strict=True)]
    if len(flavors) == 1:
        return [(f, " ".join(words)) for f in flavors]
    return [(f, " ".join([f"{words[0]}@{f.cutoff}", *words[1:]])) for f in flavors]
