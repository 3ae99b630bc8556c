"""Parse flavor specs: `ndcg@10`, `dcg`, `ndcg@10 gain=exp2 ties=average`, `lightgbm@5 empty=zero`, `trec_eval`.

Grammar: HEAD [key=value ...], HEAD = (metric | preset)[@k]. Keys are axis names (any subset, any order,
each at most once); metric and cutoff live in the head only. Whitespace inside {...} and (...) is ignored.
"""

from __future__ import annotations

import re

from rankflavor.errors import SpecError
from rankflavor.flavor.axes import AXIS_BY_NAME, AXIS_NAMES, METRICS
from rankflavor.flavor.flavor import Flavor
from rankflavor.flavor.presets import PRESETS

_HEAD = re.compile(r"^([A-Za-z_][A-Za-z_0-9.]*)(?:@(\S+))?$")


def _tokens(spec: str) -> list[str]:
    tokens: list[str] = []
    depth = 0
    current = ""
    for char in spec.strip():
        if char in "{(":
            depth += 1
        elif char in "})":
            depth -= 1
        if char.isspace() and depth == 0:
            if current:
                tokens.append(current)
            current = ""
        elif not char.isspace():
            current += char
    if depth != 0:
        raise SpecError(f"unbalanced brackets in flavor spec {spec!r}")
    if current:
        tokens.append(current)
    return tokens


def _cutoff(text: str, spec: str) -> int:
    if not re.fullmatch(r"\d+", text) or int(text) < 1:
        raise SpecError(f"cutoff @{text} in {spec!r} is not a positive integer; write e.g. ndcg@10")
    return int(text)


def parse_spec(spec: str) -> list[Flavor]:
    """All flavors a spec stands for: one, or one per default cutoff of a preset written without @k."""
    tokens = _tokens(spec)
    if not tokens:
        raise SpecError("empty flavor spec; write e.g. ndcg@10, or a preset name like trec_eval@10")
    match = _HEAD.match(tokens[0])
    if not match or "=" in tokens[0]:
        raise SpecError(f"flavor spec {spec!r} must start with a metric ({', '.join(METRICS)}) or a preset name, "
                        f"optionally with @k, e.g. ndcg@10")
    name, cut_text = match.group(1), match.group(2)
    cutoff = _cutoff(cut_text, spec) if cut_text is not None else None

    overrides: dict[str, str] = {}
    for token in tokens[1:]:
        if "=" not in token:
            raise SpecError(f"{token!r} in {spec!r} is not key=value; valid keys: {', '.join(AXIS_NAMES)}")
        key, value = token.split("=", 1)
        if key in ("metric", "cutoff"):
            raise SpecError(f"{key} lives in the head of the spec (e.g. dcg@10), not in {token!r}")
        if key not in AXIS_BY_NAME:
            raise SpecError(f"unknown key {key!r} in {spec!r}; valid keys: {', '.join(AXIS_NAMES)}")
        if key in overrides:
            raise SpecError(f"key {key!r} given twice in {spec!r}")
        overrides[key] = value

    if name in METRICS:
        return [Flavor(metric=name, cutoff=cutoff, **overrides)]
    preset = PRESETS.get(name)
    if preset is None:
        raise SpecError(
            f"unknown metric or preset {name!r}; metrics: {', '.join(METRICS)}; presets: {', '.join(PRESETS)}"
        )
    if cutoff is not None:
        cutoffs: tuple[int | None, ...] = (cutoff,)
    elif preset.needs_cutoff:
        raise SpecError(f"preset {name} needs a cutoff: write {name}@k, e.g. {name}@10")
    else:
        cutoffs = preset.cutoffs
    return [Flavor(metric=preset.metric, cutoff=k, **{**preset.axes, **overrides}) for k in cutoffs]


def parse_specs(specs: list[str] | tuple[str, ...] | str | Flavor | list[Flavor]) -> list[Flavor]:
    """Flavors for a spec, a Flavor, or a list of either, in order, without duplicates."""
    items = [specs] if isinstance(specs, (str, Flavor)) else list(specs)
    flavors: list[Flavor] = []
    for item in items:
        for flavor in [item] if isinstance(item, Flavor) else parse_spec(item):
            if flavor not in flavors:
                flavors.append(flavor)
    if not flavors:
        raise SpecError("no flavor given; pass at least one spec such as ndcg@10")
    return flavors
