"""What a peer's measure name resolves to (each module of rankflavor/dialects gives one, dialects/lookup.py finds it)."""

from __future__ import annotations

from typing import NamedTuple


class PeerMeasure(NamedTuple):
    metric: str
    cutoff: int | None
    params: dict[str, str]  # the metric's own parameters (name -> token)
    axes: dict[str, str]  # axis -> token; what the spec writes after the name overrides them
