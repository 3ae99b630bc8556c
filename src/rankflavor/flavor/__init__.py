"""Flavor: the declared NDCG variant, its canonical string, its parser and the named presets."""

from rankflavor.flavor.axes import AXES, AXIS_NAMES
from rankflavor.flavor.flavor import Flavor
from rankflavor.flavor.presets import PRESETS, Preset
from rankflavor.flavor.spec import parse_spec, parse_specs

__all__ = ["AXES", "AXIS_NAMES", "PRESETS", "Flavor", "Preset", "parse_spec", "parse_specs"]
