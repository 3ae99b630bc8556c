"""Every registered metric described for people: its head with its parameters, its formula, the axes that set
it apart (beyond the ones every metric reads), and the names each peer uses for it (`rankflavor metrics`, the
metrics table of docs/metrics.md)."""

from __future__ import annotations

from rankflavor import registry
from rankflavor.dialects import ir_measures, ranx
from rankflavor.dialects.trec_eval import trec_eval_patterns
from rankflavor.flavor.axes import AXIS_NAMES


def common_axes() -> list[str]:
    """The axes every registered metric reads (ties, missing, precision, run_depth, ...)."""
    metrics = [registry.get(name) for name in registry.names()]
    return [a for a in AXIS_NAMES if all(a in m.reads for m in metrics)]


def peer_names(metric: str) -> dict[str, list[str]]:
    """Per peer, its names for the metric (trec_eval's with K for a cutoff and X.XX for a level)."""
    return {"trec_eval": trec_eval_patterns(metric), "ir_measures": list(ir_measures.metric_names(metric)),
            "ranx": list(ranx.metric_names(metric))}


def metric_rows() -> list[dict[str, str]]:
    common = set(common_axes())
    rows = []
    for name in registry.names():
        metric = registry.get(name)
        shown = [p.name if p.default is None else f"{p.name}={p.default}" for p in metric.parameters]
        peers = peer_names(name)
        rows.append({
            "metric": f"{name}({', '.join(shown)})" if shown else name,
            "formula": (type(metric).__doc__ or "").strip().splitlines()[0],
            "axes": ", ".join(a for a in AXIS_NAMES if a in metric.reads and a not in common) or "none",
            "not_read": ", ".join(a for a in AXIS_NAMES if a not in metric.reads) or "none",
            **{peer: ", ".join(found) or "none" for peer, found in peers.items()},
            "parameters": "; ".join(f"{p.name}: {p.meaning}" for p in metric.parameters),
        })
    return rows
