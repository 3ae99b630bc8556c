"""What a spec's head stands for: a metric, a preset, a trec_eval measure set or a peer's name, with the axes
written after it, as (metric, cutoff, parameters, axes) for each flavor (`resolve`; flavor.py makes them Flavors).

The head is tried in this order: a metric (registry.py), a trec_eval measure set (dialects/trec_sets.py;
`official` and `all_trec` are trec_eval's), a preset (dialects/presets.py), a peer's name (`PREFIX.NAME`,
dialects/lookup.py), then a name written without a prefix in every dialect (`bare_reading`: `P_10`, `nDCG@10`,
`hit_rate@10`), then a family's alias (`ap@10`: registry.aliases()); `project.NAME` is flavor.py's. The readings
of a bare name that remain (lookup.py GIVES_WAY: trec_eval's over pytrec_eval's) must be one flavor, else the
name is ambiguous: a SpecError listing each reading with its prefix. An unknown head is a SpecError with the
readings it may have meant (suggest.py).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from rankflavor import registry
from rankflavor.dialects.lookup import BARE_DIALECTS, PEER_TABLES, Reading, bare_readings, peer_measure, reads_own_head
from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS
from rankflavor.dialects.trec_sets import SETS, set_members
from rankflavor.errors import SpecError
from rankflavor.flavor.spec import PROJECT_PREFIX as PROJECT
from rankflavor.flavor.spec import SpecText, head_parts
from rankflavor.flavor.suggest import did_you_mean, suggestions

FlavorOf = Callable[[PeerMeasure], Hashable]  # a measure's whole flavor (flavor.py: its Flavor), to compare readings
ALIAS = ""  # the prefix of a reading as a family's alias (registry.aliases())


def resolve(text: SpecText, flavor_of: FlavorOf) -> list[PeerMeasure]:
    """Each flavor a spec (but a project flavor) stands for: its metric, cutoff, parameters and axes."""
    return resolve_read(text, flavor_of)[0]


def resolve_read(text: SpecText, flavor_of: FlavorOf) -> tuple[list[PeerMeasure], str | None]:
    """`resolve`, and what the head was read as when written without its prefix (`read_as`: the line told on
    stderr, `P_10: trec_eval's P_10 (trec_eval.P_10)`), or None: both from the one resolution."""
    if (metric := registry.find(text.name)) is not None:  # (from the metric's own axis defaults, if any)
        return [PeerMeasure(text.name, text.cutoff, text.params, {**metric.axis_defaults, **text.overrides})], None
    if (members := set_members(text.name)) is not None:
        told = f"{text.name}: trec_eval's measure set {text.name} (trec_eval.{text.name})" if text.name in SETS else None
        return _set_members(text, members), told
    preset = PRESETS.get(text.name)
    if preset is None and (measure := peer_measure(text.head or text.name, text.params, text.cutoff)) is not None:
        return [measure._replace(axes={**measure.axes, **text.overrides})], None
    if preset is None and (reading := bare_reading(text, flavor_of)) is not None:
        return [reading.measure._replace(axes={**reading.measure.axes, **text.overrides})], read_as(text, reading)
    if preset is None:
        readings = suggestions(text.name, registry.names(), tuple(PRESETS))
        hint = f"{did_you_mean(readings)} " if readings else ""
        raise SpecError(f"unknown metric or preset {text.name!r}; {hint}`rankflavor metrics` and `rankflavor presets` "
                        f"list them; a peer's own names: {', '.join(p + 'NAME' for p in BARE_DIALECTS)}")
    if text.params:
        raise SpecError(f"preset {text.name} takes no parameters in (...); a metric's parameters follow its name, "
                        f"e.g. iprec(level=0.5)")
    if text.cutoff is not None:
        cutoffs: tuple[int | None, ...] = (text.cutoff,)
    elif preset.needs_cutoff:
        raise SpecError(f"preset {text.name} needs a cutoff: write {text.name}@k, e.g. {text.name}@10")
    else:
        cutoffs = preset.cutoffs
    return [PeerMeasure(preset.metric, k, {}, {**preset.axes, **text.overrides}) for k in cutoffs], None


def _set_members(text: SpecText, members: list[str]) -> list[PeerMeasure]:
    """The measures of a trec_eval measure set (dialects/trec_sets.py), each member given the overrides among
    the axes it reads, as trec_eval applies -l, -J, -M and -c to the measures that read them."""
    if text.params or text.cutoff is not None:
        raise SpecError(f"{text.name} is a set of trec_eval's measures, each with its own cutoffs: it takes no "
                        "parameters and no @k")
    out, used = [], set()
    for member in members:
        measure = peer_measure(member)
        if measure is None:
            raise SpecError(f"{text.name}: {member} is not yet a rankflavor metric")
        reads = registry.get(measure.metric).reads
        mine = {axis: value for axis, value in text.overrides.items() if axis in reads}
        used.update(mine)
        out.append(measure._replace(axes={**measure.axes, **mine}))
    unread = [axis for axis in text.overrides if axis not in used]
    if unread:
        raise SpecError(f"{text.name}: no measure of the set reads {', '.join(unread)}; drop "
                        f"{' '.join(f'{a}={text.overrides[a]}' for a in unread)}")
    return out


def reads_as_written(name: str) -> bool:
    """Whether spec.py keeps a head as written (params and cutoff unread): a peer's head in its own grammar
    (`ir_measures.nDCG@10`), or a name that is none of rankflavor's nor a prefixed peer's (`nDCG@10`, `P_10`,
    `IPrec@0.1`), read by `bare_reading` in every dialect."""
    if reads_own_head(name):
        return True
    prefixed = name.startswith((*PEER_TABLES, PROJECT)) or set_members(name) is not None
    return not prefixed and name not in PRESETS and registry.find(name) is None


def bare_reading(text: SpecText, flavor_of: FlavorOf) -> Reading | None:
    """The one reading of a head written without a prefix (`text.head`): a dialect's (lookup.py bare_readings),
    else a family's alias; None when nothing reads it. Readings of different flavors are a SpecError that lists
    each with its prefix; when none is left, a dialect's refusal of the name as written is the error."""
    if text.head is None or reads_own_head(text.name):
        return None
    try:
        parts = head_parts(text.head, text.head)
    except SpecError:
        parts = None
    readings, refusals = bare_readings(text.head, parts)
    aliases = registry.aliases()
    if not readings and parts is not None and parts[0] in aliases:
        alias = aliases[parts[0]]
        measure = PeerMeasure(alias, parts[2], parts[1], {})  # type: ignore[arg-type]  # (params as written)
        readings = [Reading(ALIAS, alias + text.head[len(parts[0]):], measure)]
    flavors: dict[Hashable, list[Reading]] = {}
    for reading in readings:
        try:
            flavors.setdefault(flavor_of(reading.measure), []).append(reading)
        except SpecError as exc:
            refusals.append(exc)
    if len(flavors) > 1:
        names = " or ".join(reading.name for reading in readings)
        raise SpecError(f"{text.head} is a name of several tools, each meaning another flavor: {names}; write the "
                        "one you mean with its prefix")
    if not flavors and refusals:
        raise SpecError("; ".join(dict.fromkeys(str(exc) for exc in refusals)))
    return next(iter(flavors.values()))[0] if flavors else None


def read_as(text: SpecText, reading: Reading) -> str:
    """The line telling what a head written without a prefix was read as (`P_10: trec_eval's P_10
    (trec_eval.P_10)`; an alias: `ap@10: rankflavor's map@10 (ap is an alias of map)`)."""
    if reading.prefix == ALIAS:
        alias = head_parts(text.head or "", text.head or "")[0]
        return f"{text.head}: rankflavor's {reading.name} ({alias} is an alias of {reading.measure.metric})"
    peer = reading.prefix.rstrip(".")
    owner = f"{peer}'" if peer.endswith("s") else f"{peer}'s"
    return f"{text.head}: {owner} {reading.name[len(reading.prefix):]} ({reading.name})"


def other_readings(text: SpecText, flavor_of: FlavorOf) -> str | None:
    """For rankflavor's own name (`ndcg@10`, `map`, `mrr`), the tools that read the same name as another flavor,
    to tell once (`ndcg@10: rankflavor's ndcg@10, as trec_eval reads it; ranx reads ndcg@10 otherwise:
    ranx.ndcg@10 (ties=quicksort(1) ...)`), the axes the spec writes applied to every reading; None when none."""
    if text.head is not None or registry.find(text.name) is None:
        return None
    params = ",".join(f"{key}={value}" if key else value for key, value in text.params)
    head = text.name + (f"({params})" if text.params else "") + (f"@{text.cutoff}" if text.cutoff else "")
    try:
        mine = flavor_of(PeerMeasure(text.name, text.cutoff, text.params, dict(text.overrides)))
    except SpecError:
        return None
    same, other = [], []
    for reading in bare_readings(head, (text.name, text.params, text.cutoff))[0]:
        try:
            theirs = flavor_of(reading.measure._replace(axes={**reading.measure.axes, **text.overrides}))
        except SpecError:
            continue
        if theirs == mine:
            same.append(reading.prefix.rstrip("."))
            continue
        changed = " ".join(f"{axis}={value}" for axis, _mine, value in mine.differences(theirs))
        other.append((reading.prefix.rstrip("."), f"{reading.name} ({changed})"))
    if not other:
        return None
    tools = " and ".join(tool for tool, _ in other)
    return (f"{head}: rankflavor's {head}{', as ' + ' and '.join(same) + ' reads it' if same else ''}; {tools} "
            f"read{'s' if len(other) == 1 else ''} {head} otherwise: {', '.join(name for _, name in other)}")
