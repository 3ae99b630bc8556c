"""The reference of the flavor axes: every value, its meaning, its source, the presets that use it, the default.

One rendering, plain text that is also Markdown: `rankflavor axes [AXIS]` prints it and `tools/docs.py` writes it
to docs/axes.md. Generated from the axes' own descriptions (flavor/axes.py), the presets (dialects/presets.py)
and the axes each metric reads (registry.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from rankflavor.flavor.axes import AXES, AXIS_BY_NAME, Axis, ValueDoc


def value_doc(axis: Axis, token: str) -> ValueDoc | None:
    """The value of `axis` a canonical token is an instance of (`random(7)` -> random(seed), `3` -> N)."""
    for value in axis.values:
        if token == value.pattern:
            return value
    for value in axis.values:
        name = value.pattern.split("(")[0]
        if "(" in value.pattern and token.startswith(name + "("):
            return value
        if value.pattern.startswith("{") and token.startswith("{"):
            return value
    return next((value for value in axis.values if value.pattern.isupper()), None)  # N, NAME


def preset_users() -> dict[tuple[str, str], list[str]]:
    """{(axis, value pattern): the presets whose flavor has that value}, presets in their listed order."""
    from rankflavor.dialects.presets import PRESETS
    from rankflavor.flavor.flavor import parse_spec

    users: dict[tuple[str, str], list[str]] = {}
    for preset in PRESETS.values():
        flavor = parse_spec(f"{preset.name}@10" if preset.needs_cutoff else preset.name)[0]
        for name, token in flavor.axis_items():
            value = value_doc(AXIS_BY_NAME[name], str(token))
            if value is not None:
                users.setdefault((name, value.pattern), []).append(preset.name)
    return users


def _readers(axis: str) -> str:
    from rankflavor import registry

    names = registry.names()
    readers = [name for name in names if axis in registry.get(name).reads]
    return "every metric" if len(readers) == len(names) else ", ".join(readers) or "no metric"


def axis_reference(axis: Axis, users: dict[tuple[str, str], list[str]]) -> str:
    """One axis: what it decides, its default, the metrics that read it, then each value with its meaning,
    source, examples (for a value with a parameter) and the presets that use it."""
    default = value_doc(axis, axis.default)
    lines = [f"## {axis.name}: {axis.meaning} (default {axis.default})", "", f"read by: {_readers(axis.name)}", ""]
    for value in axis.values:
        mark = "" if value is not default else (" (default)" if value.pattern == axis.default
                                                else f" (default {axis.default})")
        lines.append(f"- {value.pattern}{mark}: {value.meaning}")
        lines.append(f"  - source: {value.source}")
        if value.pattern not in value.examples:
            lines.append(f"  - e.g. {', '.join(value.examples)}")
        presets = users.get((axis.name, value.pattern), [])
        lines.append(f"  - presets: {', '.join(presets) if presets else 'none'}")
    return "\n".join(lines)


def axes_reference(names: Sequence[str] | None = None) -> str:
    """The reference of the named axes (every axis when None), in canonical order, with a final newline."""
    users = preset_users()
    chosen = [axis for axis in AXES if names is None or axis.name in names]
    return "\n\n".join(axis_reference(axis, users) for axis in chosen) + "\n"
