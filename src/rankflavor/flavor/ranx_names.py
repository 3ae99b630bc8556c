"""ranx's metric names (`ranx.map@100`, `ranx.mrr@10`, ...), read into rankflavor's metrics. Not written yet:
every name is unknown (None)."""

from __future__ import annotations

from rankflavor.flavor.peer_measure import PeerMeasure


def measure(name: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None) -> PeerMeasure | None:
    """The measure `ranx.NAME` stands for (NAME without the prefix), or None when ranx has no such metric."""
    return None
