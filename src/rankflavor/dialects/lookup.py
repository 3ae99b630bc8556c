"""A peer's measure name, found in its dialect: `PREFIX.NAME` -> the dialect module of that prefix -> what the
name stands for (a PeerMeasure: the metric, its cutoff and parameters, the axes the peer sets).

`trec_eval.NAME` and `pytrec_eval.NAME` (dialects/trec_eval.py, pytrec_eval.py) read NAME as trec_eval prints
it; `ranx.NAME` (ranx.py) as ranx reads a metric name; `ir_measures.HEAD` (ir_measures.py) in ir_measures' own
grammar, the head given as written (flavor/spec.py leaves it unread: `reads_own_head`).
`trectools.NAME[@depth]` (trectools.py) and `torchmetrics.NAME[@top_k]` (torchmetrics.py) read their tools' own
names, with the prefix only (they are not tried for a bare name).

A name written without a prefix (`P_10`, `nDCG@10`, `hit_rate@10`) is tried in every dialect (`bare_readings`):
trec_eval's (its command-line spelling `ndcg_cut.10` read as the printed ndcg_cut_10), pytrec_eval's,
ir_measures' (the head as written) and ranx's. pytrec_eval's reading, and ir_measures' where trec_eval reads the
same name (`Rprec`, `infAP`: ir_measures computes them with its pytrec_eval provider), give way to trec_eval's,
the reference implementation of the code they run (`GIVES_WAY`).

`cwl_eval.NAME` (cwl_eval.py) reads its head as written too (`cwl_eval.RBPCWLMetric(0.8)`), and only with its
prefix: cwl_eval's `P@10` and `AP` are not tried bare.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import NamedTuple

from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS
from rankflavor.errors import SpecError

# prefix -> the dialect module that reads it (each module's PREFIX: tests/test_peer_names.py), imported on first use:
# `trec_eval.official` needs trec_eval's table only, not ir_measures' grammar or ranx's (3 ms of a small run's start-up)
DIALECTS = {"ranx.": "ranx", "ir_measures.": "ir_measures", "trec_eval.": "trec_eval", "pytrec_eval.": "pytrec_eval",
            "ndeval.": "ndeval", "cwl_eval.": "cwl_eval", "trectools.": "trectools", "torchmetrics.": "torchmetrics"}
PEER_TABLES = tuple(DIALECTS)  # the prefixes of the peers' tables
TREC_PREFIXES = ("trec_eval.", "pytrec_eval.")  # the prefixes that read trec_eval's names
# the tables that read the head in their own grammar (`ir_measures.IPrec@0.1`): they get it as written after the
# prefix, params () and cutoff None
RAW_HEADS = ("ir_measures.", "ndeval.", "cwl_eval.")


BARE_DIALECTS = ("trec_eval.", "pytrec_eval.", "ir_measures.", "ranx.")  # tried in this order
GIVES_WAY = {"pytrec_eval.": "trec_eval.", "ir_measures.": "trec_eval."}  # reading -> preferred


def dialect(prefix: str) -> ModuleType:
    """The dialect module of a prefix (`trec_eval.` -> dialects/trec_eval.py), imported on first use."""
    return importlib.import_module(f"rankflavor.dialects.{DIALECTS[prefix]}")


def peer_table(prefix: str) -> Callable[[str, tuple[tuple[str | None, str], ...], int | None], PeerMeasure | None]:
    """(name without the prefix, params as written, cutoff) -> PeerMeasure or None: the prefix's dialect's."""
    return dialect(prefix).measure


class Reading(NamedTuple):
    """One dialect's reading of a name written without a prefix."""

    prefix: str  # the dialect's prefix (`trec_eval.`)
    name: str  # the name as that dialect reads it, with its prefix (`trec_eval.ndcg_cut_10` for `ndcg_cut.10`)
    measure: PeerMeasure


def bare_readings(written: str, parts: tuple[str, tuple[tuple[str | None, str], ...], int | None] | None,
                  ) -> tuple[list[Reading], list[SpecError]]:
    """Every dialect's reading of a head written without a prefix (`written`, as typed; `parts`: its name,
    params and cutoff in rankflavor's grammar, None when it is not in it), with the refusals of the dialects
    that know the name but refuse it as written; the readings that give way to another (`GIVES_WAY`) dropped."""
    readings: list[Reading] = []
    refusals: list[SpecError] = []
    for prefix in BARE_DIALECTS:
        if prefix in RAW_HEADS:
            if not dialect("ir_measures.").knows(written):
                continue
            shown, call = written, (written, (), None)
        elif parts is not None:
            own = dialect("trec_eval.").printed_name(parts[0]) if prefix in TREC_PREFIXES else parts[0]
            shown, call = own + written[len(parts[0]):], (own, parts[1], parts[2])
        else:
            continue
        try:
            found = peer_table(prefix)(*call)
        except SpecError as exc:
            refusals.append(exc)
            continue
        if found is not None:
            readings.append(Reading(prefix, prefix + shown, found))
    prefixes = {reading.prefix for reading in readings}
    return [r for r in readings if GIVES_WAY.get(r.prefix) not in prefixes], refusals


def peer_measure(name: str, params: tuple[tuple[str | None, str], ...] = (),
                 cutoff: int | None = None) -> PeerMeasure | None:
    """The measure a peer's name stands for, with the axes and parameters the peer sets, or None when `name`
    is no peer's measure. `params` and `cutoff` are what the spec writes after the name (`(rel=2)`, `@10`); a
    name that holds its cutoff or parameters refuses them (SpecError)."""
    for prefix in PEER_TABLES:
        if name.startswith(prefix):
            own = name[len(prefix):]  # (trec_eval's command-line spelling read as it prints it: P.10 -> P_10)
            return peer_table(prefix)(dialect("trec_eval.").printed_name(own) if prefix in TREC_PREFIXES else own,
                                      params, cutoff)
    return None


def reads_own_head(name: str) -> bool:
    """Whether a peer table reads the head of `name` as written (a preset of that name is read as a preset)."""
    return name.startswith(RAW_HEADS) and name not in PRESETS
