"""Flavor: the declared metric variant, its typed axis values, its canonical string, and the resolution of a spec
(a metric, a preset, a project flavor, a peer's name) into flavors.

Names are imported lazily (PEP 562): `rankflavor --help` reads the axis registry (axes.py) alone.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "AXES": "rankflavor.flavor.axes",
    "AXIS_NAMES": "rankflavor.flavor.axes",
    "Flavor": "rankflavor.flavor.flavor",
    "labelled_specs": "rankflavor.flavor.flavor",
    "parse_spec": "rankflavor.flavor.flavor",
    "parse_specs": "rankflavor.flavor.flavor",
    "PRESETS": "rankflavor.dialects.presets",
    "Preset": "rankflavor.dialects.presets",
}

__all__ = ["AXES", "AXIS_NAMES", "PRESETS", "Flavor", "Preset", "labelled_specs", "parse_spec", "parse_specs"]

if TYPE_CHECKING:
    from rankflavor.dialects.presets import PRESETS, Preset
    from rankflavor.flavor.axes import AXES, AXIS_NAMES
    from rankflavor.flavor.flavor import Flavor, labelled_specs, parse_spec, parse_specs


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rankflavor.flavor' has no attribute {name!r}")
