"""trec_eval's names for its measures, read back into rankflavor's metrics (`trec_eval.NAME`).

`trec_eval.NAME` takes NAME exactly as trec_eval 10.0 prints it (`map`, `P_10`, `map_cut_100`, `recip_rank`,
`Rprec`, `success_5`, `num_rel_ret`, `ndcg_cut_10`, `iprec_at_recall_0.10`, `Rprec_mult_0.20`, `11pt_avg`, ...):
its metric, its cutoff when the name holds one (such a name refuses another `@k`) and its parameters when the
name holds them (`%3.2f`, as trec_eval's meas_init.c prints them). trec_eval's options are axes after the name:
`-c` missing=empty (each measure over an empty ranking: num_rel is the query's judged relevant count), `-M N`
run_depth=N, `-l N` rel_level=N, `-J` unjudged=skip.

Each family declares its trec_eval names at its `register(...)` (`peers={"trec_eval": ("set_P", "P_{k}")}`):
a plain name, a name with `_{k}` (a cutoff) or with `_{PARAM}` (one of the metric's parameters, written with
two decimals). The tables below are derived from those declarations (rankflavor/registry.py).
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from rankflavor import registry
from rankflavor.dialects.measure import PeerMeasure
from rankflavor.errors import SpecError

PEER = "trec_eval"
PREFIX = "trec_eval."
_CUT = r"(?P<base>[A-Za-z_]+?)_(?P<k>[0-9]+)"
_LEVEL = r"(?P<base>[A-Za-z_]+?)_(?P<x>[0-9]+\.[0-9]{2})"
_COMMAND_LINE = r"(?P<base>[A-Za-z0-9_]+)\.(?P<value>[0-9]*\.?[0-9]+)"  # `-m ndcg_cut.10`
_PATTERN = r"(?P<base>[A-Za-z0-9_]+?)_\{(?P<param>[a-z_]+)\}"


class Tables(NamedTuple):
    """trec_eval's names by kind, each -> rankflavor's metric (a level name also -> the parameter it sets)."""

    plain: dict[str, str]  # `map` -> map
    cut: dict[str, str]  # `P` (printed P_K) -> p
    level: dict[str, tuple[str, str]]  # `iprec_at_recall` (printed iprec_at_recall_X.XX) -> (iprec, level)


def tables() -> Tables:
    """The name tables, from every family's declared trec_eval names."""
    return _tables(registry.version())


@functools.lru_cache(maxsize=1)
def _tables(version: int) -> Tables:
    plain: dict[str, str] = {}
    cut: dict[str, str] = {}
    level: dict[str, tuple[str, str]] = {}
    for metric, names in registry.peer_names(PEER).items():
        for name in names:
            match = re.fullmatch(_PATTERN, name)
            if match is None:
                plain[name] = metric
            elif match.group("param") == "k":
                cut[match.group("base")] = metric
            else:
                level[match.group("base")] = (metric, match.group("param"))
    return Tables(plain, cut, level)


def trec_eval_measure(name: str) -> PeerMeasure | None:
    """The measure of a name as trec_eval prints it, or None when it is not one of them."""
    names = tables()
    if name in names.plain:
        return PeerMeasure(names.plain[name], None, {}, {})
    match = re.fullmatch(_CUT, name)
    if match and match.group("base") in names.cut and int(match.group("k")) > 0:
        return PeerMeasure(names.cut[match.group("base")], int(match.group("k")), {}, {})
    match = re.fullmatch(_LEVEL, name)
    if match and match.group("base") in names.level:
        metric, param = names.level[match.group("base")]
        return PeerMeasure(metric, None, {param: match.group("x")}, {})
    return None


def printed_name(name: str) -> str:
    """The name trec_eval prints for its command-line spelling `MEASURE.VALUE` (`-m ndcg_cut.10` -> ndcg_cut_10,
    `-m iprec_at_recall.0.5` -> iprec_at_recall_0.50: one parameter value, as meas_init.c reads and prints it);
    any other name as it is."""
    match = re.fullmatch(_COMMAND_LINE, name)
    if match is None:
        return name
    names, base, value = tables(), match.group("base"), match.group("value")
    if base in names.cut and value.isdigit():
        return f"{base}_{int(value)}"
    if base in names.level:
        return f"{base}_{float(value):3.2f}"
    return name


def trec_eval_name(metric: str, cutoff: int | None, params: dict[str, str] | None = None) -> str | None:
    """The name trec_eval prints for a metric, cutoff and parameters (None when it has no such measure). The
    caller checks that the name parses back to its flavor (trec_eval's names hold two decimals)."""
    names = tables()
    level = next(((base, param) for base, (m, param) in names.level.items() if m == metric), None)
    if level is not None and cutoff is None:
        base, param = level
        return f"{base}_{float((params or {}).get(param, 1)):3.2f}"
    if cutoff is None:
        return next((name for name, m in names.plain.items() if m == metric), None)
    return next((f"{base}_{cutoff}" for base, m in names.cut.items() if m == metric), None)


def measure(name: str, params: tuple[tuple[str | None, str], ...] = (), cutoff: int | None = None,
            prefix: str = PREFIX) -> PeerMeasure | None:
    """The measure `trec_eval.NAME` stands for (NAME without the prefix), or None. `params` and `cutoff` are what
    the spec writes after the name; a name that holds its cutoff or parameters refuses them (SpecError)."""
    found = trec_eval_measure(name)
    if found is None:
        return None
    if found.cutoff is not None and cutoff is not None:
        raise SpecError(f"{prefix}{name} holds its cutoff already (@{found.cutoff}): drop @{cutoff}, or name the "
                        "measure with the cutoff you want")
    if params:
        raise SpecError(f"{prefix}{name} is one of trec_eval's measures: it takes no parameters in (...); write "
                        f"{found.metric}(...) to choose them")
    return found._replace(cutoff=found.cutoff if found.cutoff is not None else cutoff)


def trec_eval_patterns(metric: str) -> list[str]:
    """The trec_eval names of a metric, with K for a cutoff and X.XX for a parameter (`P_K`, `Rprec_mult_X.XX`)."""
    names = tables()
    out = [name for name, m in names.plain.items() if m == metric]
    out += [f"{base}_K" for base, m in names.cut.items() if m == metric]
    return out + [f"{base}_X.XX" for base, (m, _) in names.level.items() if m == metric]
