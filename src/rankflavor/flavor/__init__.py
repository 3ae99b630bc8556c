"""Flavor: the declared metric variant, its typed axis values, its canonical string, its parser and the presets."""

from rankflavor.flavor.axes import AXES, AXIS_NAMES
from rankflavor.flavor.flavor import Flavor, labelled_specs, parse_spec, parse_specs
from rankflavor.flavor.presets import PRESETS, Preset

__all__ = ["AXES", "AXIS_NAMES", "PRESETS", "Flavor", "Preset", "labelled_specs", "parse_spec", "parse_specs"]
