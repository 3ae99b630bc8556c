"""A peer's measure name, found in its dialect: `PREFIX.NAME` -> the dialect module of that prefix -> what the
name stands for (a PeerMeasure: the metric, its cutoff and parameters, the axes the peer sets).

`trec_eval.NAME` and `pytrec_eval.NAME` (dialects/trec_eval.py, pytrec_eval.py) read NAME as trec_eval prints
it; `ranx.NAME` (ranx.py) as ranx reads a metric name; `ir_measures.HEAD` (ir_measures.py) in ir_measures' own
grammar, the head given as written (flavor/spec.py leaves it unread: `reads_own_head`).
"""

from __future__ import annotations

from collections.abc import Callable

from rankflavor.dialects import ir_measures, pytrec_eval, ranx, trec_eval
from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS

# prefix -> (name without the prefix, params as written, cutoff) -> PeerMeasure or None
PEER_TABLES: dict[str, Callable[[str, tuple[tuple[str | None, str], ...], int | None], PeerMeasure | None]] = {
    ranx.PREFIX: ranx.measure,
    ir_measures.PREFIX: ir_measures.measure,
    trec_eval.PREFIX: trec_eval.measure,
    pytrec_eval.PREFIX: pytrec_eval.measure,
}
TREC_PREFIXES = (trec_eval.PREFIX, pytrec_eval.PREFIX)  # the prefixes that read trec_eval's names
# the tables that read the head in their own grammar (`ir_measures.IPrec@0.1`): they get it as written after the
# prefix, params () and cutoff None
RAW_HEADS = (ir_measures.PREFIX,)


def peer_measure(name: str, params: tuple[tuple[str | None, str], ...] = (),
                 cutoff: int | None = None) -> PeerMeasure | None:
    """The measure a peer's name stands for, with the axes and parameters the peer sets, or None when `name`
    is no peer's measure. `params` and `cutoff` are what the spec writes after the name (`(rel=2)`, `@10`); a
    name that holds its cutoff or parameters refuses them (SpecError)."""
    for prefix, table in PEER_TABLES.items():
        if name.startswith(prefix):
            return table(name[len(prefix):], params, cutoff)
    return None


def reads_own_head(name: str) -> bool:
    """Whether a peer table reads the head of `name` as written (a preset of that name is read as a preset)."""
    return name.startswith(RAW_HEADS) and name not in PRESETS
