"""The immutable Flavor value and its canonical string.

`str(flavor)` is `metric@k` (or `metric`) followed by `key=value` for every axis that can change that
metric's value, keys in the order of `AXES`, e.g.
`ndcg@10 gain=linear discount=log2 ideal=global ideal_depth=k ties=docid_desc unjudged=zero
negative=unjudged min_grade=none empty=zero missing=skip precision=f64 run_depth=all self_docs=keep round=none`.
`Flavor.parse(str(flavor)) == flavor` always holds.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from rankflavor.errors import SpecError
from rankflavor.flavor.axes import AXES, AXIS_BY_NAME, METRICS, format_number, parse_call


@dataclass(frozen=True)
class Flavor:
    """One fully declared NDCG/DCG flavor. Axis values are canonical tokens (see `rankflavor.flavor.axes`)."""

    metric: str = "ndcg"
    cutoff: int | None = None
    gain: str = "linear"
    discount: str = "log2"
    ideal: str = "global"
    ideal_depth: str = "k"
    ties: str = "docid_desc"
    unjudged: str = "zero"
    negative: str = "unjudged"
    min_grade: str = "none"
    empty: str = "zero"
    missing: str = "skip"
    precision: str = "f64"
    run_depth: str = "all"
    self_docs: str = "keep"
    round: str = "none"

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise SpecError(f"unknown metric {self.metric!r}; valid metrics: {', '.join(METRICS)}")
        if self.cutoff is not None:
            if isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int) or self.cutoff < 1:
                raise SpecError(f"cutoff must be a positive integer, got {self.cutoff!r}")
        for axis in AXES:
            raw = getattr(self, axis.name)
            if isinstance(raw, dict):
                raw = "{" + ",".join(f"{format_number(k)}:{format_number(v)}" for k, v in raw.items()) + "}"
            elif isinstance(raw, (int, float)) and not isinstance(raw, bool):
                raw = format_number(raw)
            elif not isinstance(raw, str):
                raise SpecError(f"{axis.name}: expected a string token, got {raw!r}")
            object.__setattr__(self, axis.name, axis.canon(raw.replace(" ", "")))
        self._check_consistency()

    def _check_consistency(self) -> None:
        kind, arg = parse_call(self.ideal)
        if self.metric != "ndcg":
            for axis in AXES:
                if axis.ndcg_only and getattr(self, axis.name) != axis.default:
                    raise SpecError(f"{axis.name} does not apply to {self.metric} (it has no ideal); drop "
                                    f"{axis.name}={getattr(self, axis.name)} or use ndcg")
            return
        if kind == "recall":
            if self.cutoff is None:
                raise SpecError(f"ideal={self.ideal} needs a cutoff @k with k <= {arg}")
            if self.cutoff > int(arg or 0):
                raise SpecError(f"ideal={self.ideal} needs K >= k, but k = {self.cutoff}; use recall({self.cutoff}) or more")
            if self.ties == "average":
                raise SpecError(
                    "ties=average with ideal=recall(K) is rejected: the docs in the top K, and so the ideal, "
                    "would depend on the tie order; pick another tie policy or another ideal"
                )
        if kind == "max":
            if self.cutoff is None:
                raise SpecError("ideal=max needs a cutoff @k (the ideal puts the top grade at every position)")
            if self.ideal_depth == "all":
                raise SpecError("ideal=max with ideal_depth=all is unbounded; use ideal_depth=k or returned")

    # ---- canonical string ---------------------------------------------------------------------------
    @property
    def head(self) -> str:
        return self.metric if self.cutoff is None else f"{self.metric}@{self.cutoff}"

    def axis_items(self) -> list[tuple[str, str]]:
        """(key, token) for every axis that can change this metric's value, in canonical order."""
        return [
            (axis.name, getattr(self, axis.name))
            for axis in AXES
            if not (axis.ndcg_only and self.metric != "ndcg")
        ]

    def __str__(self) -> str:
        return " ".join([self.head, *(f"{k}={v}" for k, v in self.axis_items())])

    def __repr__(self) -> str:
        return f"Flavor({str(self)!r})"

    # ---- construction -------------------------------------------------------------------------------
    @classmethod
    def parse(cls, spec: str) -> Flavor:
        """Parse one flavor. A preset head without @k that expands to several cutoffs is an error here."""
        from rankflavor.flavor.spec import parse_spec

        flavors = parse_spec(spec)
        if len(flavors) != 1:
            raise SpecError(
                f"{spec!r} expands to {len(flavors)} flavors (one per default cutoff); add @k to pick one, "
                "or use parse_spec() for the list"
            )
        return flavors[0]

    def with_(self, **changes: Any) -> Flavor:
        """A copy with some axes changed (values are re-validated)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise SpecError(f"unknown axis {sorted(unknown)[0]!r}; valid axes: metric, cutoff, {', '.join(AXIS_BY_NAME)}")
        return replace(self, **changes)

    def differences(self, other: Flavor) -> list[tuple[str, str, str]]:
        """(axis, self's token, other's token) for every axis on which the two differ, head first."""
        diffs = []
        if self.metric != other.metric:
            diffs.append(("metric", self.metric, other.metric))
        if self.cutoff != other.cutoff:
            diffs.append(("cutoff", str(self.cutoff or "none"), str(other.cutoff or "none")))
        for axis in AXES:
            mine, theirs = getattr(self, axis.name), getattr(other, axis.name)
            if mine != theirs:
                diffs.append((axis.name, mine, theirs))
        return diffs
