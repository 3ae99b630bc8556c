"""Every registered metric described for people: its head with its parameters, its formula, the axes it does
not read, and the names trec_eval prints for it (`rankflavor metrics`, the README's metrics table)."""

from __future__ import annotations

from rankflavor.flavor.axes import AXIS_NAMES
from rankflavor.flavor.peer_names import trec_eval_patterns
from rankflavor.metrics import registry


def metric_rows() -> list[dict[str, str]]:
    rows = []
    for name in registry.names():
        metric = registry.get(name)
        shown = [p.name if p.default is None else f"{p.name}={p.default}" for p in metric.parameters]
        rows.append({
            "metric": f"{name}({', '.join(shown)})" if shown else name,
            "formula": (type(metric).__doc__ or "").strip().splitlines()[0],
            "not_read": ", ".join(a for a in AXIS_NAMES if a not in metric.reads) or "none",
            "trec_eval": ", ".join(trec_eval_patterns(name)) or "none",
            "parameters": "; ".join(f"{p.name}: {p.meaning}" for p in metric.parameters),
        })
    return rows
