"""What a spec's head stands for: a metric, a preset, a trec_eval measure set or a peer's name, with the axes
written after it, as (metric, cutoff, parameters, axes) for each flavor (`resolve`; flavor.py makes them Flavors).

The head is tried in this order: a metric (registry.py), a trec_eval measure set (dialects/trec_sets.py), a
preset (dialects/presets.py), a peer's name (`PREFIX.NAME`, dialects/lookup.py); `project.NAME` is flavor.py's.
An unknown head is a SpecError with the readings it may have meant (suggest.py).
"""

from __future__ import annotations

from rankflavor import registry
from rankflavor.dialects.lookup import peer_measure
from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS
from rankflavor.dialects.trec_sets import set_members
from rankflavor.errors import SpecError
from rankflavor.flavor.spec import SpecText
from rankflavor.flavor.suggest import did_you_mean, suggestions


def resolve(text: SpecText) -> list[PeerMeasure]:
    """Each flavor a spec (but a project flavor) stands for: its metric, cutoff, parameters and axes."""
    if registry.find(text.name) is not None:
        return [PeerMeasure(text.name, text.cutoff, text.params, dict(text.overrides))]
    if (members := set_members(text.name)) is not None:
        return _set_members(text, members)
    preset = PRESETS.get(text.name)
    if preset is None and (measure := peer_measure(text.head or text.name, text.params, text.cutoff)) is not None:
        return [measure._replace(axes={**measure.axes, **text.overrides})]
    if preset is None:
        readings = suggestions(text.name, registry.names(), tuple(PRESETS))
        hint = f"{did_you_mean(readings)} " if readings else ""
        raise SpecError(f"unknown metric or preset {text.name!r}; {hint}`rankflavor metrics` and `rankflavor presets` "
                        "list them; a peer's own names: trec_eval.NAME, pytrec_eval.NAME")
    if text.params:
        raise SpecError(f"preset {text.name} takes no parameters in (...); a metric's parameters follow its name, "
                        f"e.g. iprec(level=0.5)")
    if text.cutoff is not None:
        cutoffs: tuple[int | None, ...] = (text.cutoff,)
    elif preset.needs_cutoff:
        raise SpecError(f"preset {text.name} needs a cutoff: write {text.name}@k, e.g. {text.name}@10")
    else:
        cutoffs = preset.cutoffs
    return [PeerMeasure(preset.metric, k, {}, {**preset.axes, **text.overrides}) for k in cutoffs]


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
