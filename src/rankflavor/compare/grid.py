"""Named grids of flavors: axes crossed on a base flavor at the user's cutoffs, or a list of specs.

A grid is either `axes` (axis -> values, crossed in the order given, over the base flavor and every
cutoff) or `specs` (flavor specs with `{k}` standing for each cutoff). A user grid is a file whose lines
are `axis: v1 v2 ...` (crossed) or flavor specs (listed); `#` starts a comment. Combinations that make
an invalid flavor (e.g. `ideal=recall(5)` with `ties=average`) are skipped and reported.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rankflavor.errors import SpecError
from rankflavor.flavor import AXIS_NAMES, PRESETS, Flavor, labelled_specs
from rankflavor.flavor.axes import parse_value, sweep_tokens


@dataclass(frozen=True)
class Grid:
    name: str
    description: str
    axes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    specs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for axis, values in self.axes.items():  # every value is one the axis registry knows
            object.__setattr__(self, "axes", {**self.axes, axis: tuple(str(parse_value(axis, v)) for v in values)})


GRIDS: dict[str, Grid] = {
    g.name: g
    for g in [
        Grid("default", "gain x ideal x ties, the axes that most often reverse a comparison",
             {"gain": ("linear", "exp2"), "ideal": ("global", "local"), "ties": ("docid_desc", "average")}),
        Grid("gain", "linear vs exp2 gain", {"gain": sweep_tokens("gain")}),
        Grid("ties", "every deterministic tie order and the tie-averaged expectation", {"ties": sweep_tokens("ties")}),
        Grid("judged", "unjudged docs as grade 0 or skipped, ideal over all judged docs or the returned ones",
             {"unjudged": ("zero", "skip"), "ideal": ("global", "local")}),
        Grid("discount", "the discount curves", {"discount": sweep_tokens("discount")}),
        Grid("wide", "gain x discount x ideal x ties x unjudged x missing (64 flavors per cutoff)",
             {"gain": ("linear", "exp2"), "discount": ("log2", "reciprocal"), "ideal": ("global", "local"),
              "ties": ("docid_desc", "average"), "unjudged": ("zero", "skip"), "missing": ("skip", "zero")}),
        Grid("presets", "every preset (peer tool) at each cutoff",
             specs=tuple(f"{name}@{{k}}" for name in PRESETS)),
    ]
}


def _cross(base: Flavor, axes: Mapping[str, Sequence[str]], cutoffs: Sequence[int | None],
           skipped: list[tuple[str, str]]) -> list[Flavor]:
    out: dict[Flavor, None] = {}  # (a dict: ordered, and a flavor found in O(1): 10,800 combinations took 60 s)
    names = list(axes)
    own = [p.name for p in base.metric_parameters()]
    for name in names:
        if name not in AXIS_NAMES and name not in own:
            raise SpecError(f"grid axis {name!r} is not an axis" + (f" nor a parameter of {base.metric}" if own else "")
                            + f"; valid axes: {', '.join(AXIS_NAMES)}" + (f"; {base.metric}'s parameters: "
                                                                          f"{', '.join(own)}" if own else ""))
    for k in cutoffs:
        for values in itertools.product(*(axes[n] for n in names)):
            changes = dict(zip(names, values, strict=True))
            try:
                flavor = base.with_(cutoff=k, **changes)
            except SpecError as exc:
                skipped.append((" ".join([f"@{k}", *(f"{a}={v}" for a, v in changes.items())]), str(exc)))
                continue
            out.setdefault(flavor)
    return list(out)


def _from_specs(specs: Iterable[str], cutoffs: Sequence[int | None], skipped: list[tuple[str, str]],
                strict: bool = False) -> dict[Flavor, str]:
    """Each flavor of the specs with its label (the spec as written, `{k}` filled: flavor.labelled_specs).
    A spec that does not parse is skipped with its reason, or with `strict` (the user's own list) raised."""
    out: dict[Flavor, str] = {}
    for spec in specs:
        for k in cutoffs if "{k}" in spec else [None]:
            text = spec.replace("{k}", str(k)) if k is not None else spec.replace("@{k}", "")
            try:
                labelled = labelled_specs(text)
            except SpecError as exc:
                if strict:
                    raise
                skipped.append((text, str(exc)))
                continue
            for flavor, labels in labelled.items():
                out.setdefault(flavor, labels[0])
    return out


def read_grid_file(path: str | Path, params: Sequence[str] = ()) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """(axes to cross, specs to list) from a grid file; `params`: the base metric's parameters, crossed like
    axes (`p: 0.5 0.8 0.95` over rbp)."""
    axes: dict[str, tuple[str, ...]] = {}
    specs: list[str] = []
    from rankflavor.inputs.structured import read_text

    text = read_text(path, "a grid file holds 'axis: value value' lines and specs, one per line")  # (within the cap)
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head = line.split(None, 1)[0]
        if head.endswith(":"):
            name = head[:-1]
            if name not in AXIS_NAMES and name not in params:
                own = f"; the base metric's parameters: {', '.join(params)}" if params else ""
                raise SpecError(f"{path}:{number}: {name!r} is not an axis; valid axes: {', '.join(AXIS_NAMES)}{own}")
            values = tuple(line.split(None, 1)[1].split()) if " " in line else ()
            if not values:
                raise SpecError(f"{path}:{number}: axis {name} lists no values; write e.g. 'gain: linear exp2'")
            axes[name] = values
        else:
            specs.append(line)
    if not axes and not specs:
        raise SpecError(f"grid file {path} holds no axis lines ('gain: linear exp2') and no specs")
    return axes, specs


def build_grid(grid: str | Grid | Mapping[str, Sequence[str]] | Sequence[str | Flavor] | None = None,
               cutoffs: Sequence[int | None] | None = None, base: str | Flavor = "ndcg",
               ) -> tuple[list[Flavor], list[tuple[str, str]]]:
    """The flavors of a grid and the (combination, reason) pairs skipped as invalid.

    grid: a name in GRIDS (default "default"), a path to a grid file, a Grid, {axis: values} to cross,
    or a list of specs / Flavors taken as they are. cutoffs: the @k values crossed in (default: the
    base's cutoff, else 10). base: the flavor the axes are varied from.
    """
    labelled, skipped = labelled_grid(grid, cutoffs, base)
    return list(labelled), skipped


def labelled_grid(grid: str | Grid | Mapping[str, Sequence[str]] | Sequence[str | Flavor] | None = None,
                  cutoffs: Sequence[int | None] | None = None, base: str | Flavor = "ndcg",
                  ) -> tuple[dict[Flavor, str], list[tuple[str, str]]]:
    """`build_grid` with each flavor's label: a listed spec's as written (`sklearn@10`), a crossed flavor's
    `short_label` (its head and the axes that differ from the default), a Flavor's `short_label`."""
    base_flavor = base if isinstance(base, Flavor) else Flavor.parse(base)
    cutoffs = _checked_cutoffs(cutoffs)
    if cutoffs is None or len(cutoffs) == 0:
        cutoffs = [base_flavor.cutoff if base_flavor.cutoff is not None else 10]
    skipped: list[tuple[str, str]] = []
    if grid is None:
        grid = "default"
    axes: Mapping[str, Sequence[str]] = {}
    specs: Sequence[str] = ()
    if isinstance(grid, str) and grid not in GRIDS:
        if not Path(grid).is_file():
            raise SpecError(f"unknown grid {grid!r} (and no such file); named grids: {', '.join(GRIDS)}")
        axes, specs = read_grid_file(grid, [p.name for p in base_flavor.metric_parameters()])
    elif isinstance(grid, (str, Grid)):
        g = GRIDS[grid] if isinstance(grid, str) else grid
        axes, specs = g.axes, g.specs
    elif isinstance(grid, Mapping):
        axes = {k: tuple(v) for k, v in grid.items()}
    from rankflavor.compare.plan import check_grid

    check_grid(math.prod(len(v) for v in axes.values()) * len(cutoffs) if axes else 0, len(specs) * len(cutoffs))
    out = {f: short_label(f) for f in _cross(base_flavor, axes, cutoffs, skipped)} if axes else {}
    if isinstance(grid, Mapping) or isinstance(grid, (str, Grid)):
        listed = _from_specs(specs, cutoffs, skipped)
    else:  # a list of specs and Flavors, taken as they are
        listed = {}
        for item in grid:
            named = ({item: short_label(item)} if isinstance(item, Flavor) else
                     _from_specs([item], cutoffs, skipped, strict=True))
            for flavor, label in named.items():
                listed.setdefault(flavor, label)
    out.update(listed)  # (a flavor both crossed and listed keeps its place and takes the label written)
    if not out:
        reasons = "; ".join(f"{c}: {r}" for c, r in skipped[:3])
        raise SpecError(f"the grid holds no valid flavor{': ' + reasons if reasons else ''}")
    return out, skipped


def _checked_cutoffs(cutoffs: Any) -> list[int | None] | None:
    """The cutoffs crossed in: one integer, or a list of positive integers (numpy's too; None: no cutoff); anything
    else a SpecError that says what was given (a str is not read digit by digit, a '4' among ints not skipped)."""
    if cutoffs is None:
        return None
    if _integer(cutoffs) is not None:
        cutoffs = [cutoffs]
    if isinstance(cutoffs, (str, bytes)) or not isinstance(cutoffs, Iterable):
        raise SpecError(f"cutoffs={cutoffs!r} ({type(cutoffs).__name__}): give positive integers, e.g. "
                        "cutoffs=[10, 100]")
    out: list[int | None] = []
    for k in cutoffs:
        value = None if k is None else _integer(k)
        if k is not None and (value is None or value < 1):
            raise SpecError(f"cutoffs: {k!r} ({type(k).__name__}) is not a positive integer; give positive "
                            "integers, e.g. cutoffs=[10, 100]")
        out.append(value)
    return out


def _integer(value: Any) -> int | None:
    """An int (Python's or numpy's, not a bool) as an int, else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def short_label(flavor: Flavor) -> str:
    """The head and the axes that differ from the plain `metric@k` default (the canonical string stays the name)."""
    return flavor.short
