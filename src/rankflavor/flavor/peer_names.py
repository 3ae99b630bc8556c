"""The names peers print for their measures, read back into rankflavor's metrics.

`trec_eval.NAME` takes NAME exactly as trec_eval 10.0 prints it (`map`, `P_10`, `map_cut_100`, `recip_rank`,
`Rprec`, `success_5`, `num_rel_ret`, `ndcg_cut_10`, `iprec_at_recall_0.10`, `Rprec_mult_0.20`, `11pt_avg`, ...):
its metric, its cutoff when the name holds one (such a name refuses another `@k`) and its parameters when the
name holds them (`%3.2f`, as trec_eval's meas_init.c prints them). `pytrec_eval.NAME` is the same measure as
pytrec_eval computes it: trec_eval 9.0.x's code, which compares scores in float32 (precision=f32) and turns a
recall level into a count of relevant docs with (long)(level·R + 0.9) (count=add0.9). trec_eval's options are
axes after the name: `-c` missing=zero, `-M N` run_depth=N, `-l N` rel_level=N, `-J` unjudged=skip.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rankflavor.errors import SpecError
from rankflavor.flavor import ir_measures_names, ranx_names
from rankflavor.flavor.peer_measure import PeerMeasure
from rankflavor.flavor.presets import PRESETS

# trec_eval name -> rankflavor metric (and the parameters the name fixes)
TREC_EVAL_PLAIN = {"map": ("map", {}), "recip_rank": ("mrr", {}), "Rprec": ("rprec", {}), "num_ret": ("num_ret", {}),
                   "num_rel": ("num_rel", {}), "num_rel_ret": ("num_rel_ret", {}), "set_P": ("p", {}),
                   "set_recall": ("recall", {}), "ndcg": ("ndcg", {}), "11pt_avg": ("iprec_avg", {}),
                   "bpref": ("bpref", {}), "num_nonrel_judged_ret": ("num_nonrel_judged_ret", {}),
                   "set_F": ("f", {}), "set_map": ("set_map", {}), "set_relative_P": ("recall_cap", {}),
                   "rbp": ("rbp", {}), "rbp_resid": ("rbp_resid", {}),
                   "gm_map": ("gm_map", {}), "gm_bpref": ("gm_bpref", {}), "infAP": ("infap", {}), "G": ("g", {}),
                   "Rndcg": ("rndcg", {}), "ndcg_rel": ("ndcg_rel", {}), "binG": ("bin_g", {}),
                   "utility": ("utility", {})}
# trec_eval name without its `_K` cutoff -> metric
TREC_EVAL_CUT = {"P": "p", "recall": "recall", "map_cut": "map", "success": "success", "ndcg_cut": "ndcg",
                 "relative_P": "recall_cap", "unj": "unj"}
# trec_eval name without its `_X.XX` parameter -> (metric, the parameter it sets)
TREC_EVAL_LEVEL = {"iprec_at_recall": ("iprec", "level"), "Rprec_mult": ("rprec_mult", "factor")}
_CUT = re.compile(r"(?P<base>[A-Za-z_]+?)_(?P<k>[0-9]+)")
_LEVEL = re.compile(r"(?P<base>[A-Za-z_]+?)_(?P<x>[0-9]+\.[0-9]{2})")
# peer prefix -> (axes it sets, parameters it sets for some metrics)
PEER_PREFIXES: dict[str, tuple[dict[str, str], dict[str, dict[str, str]]]] = {
    "trec_eval.": ({}, {}),
    "pytrec_eval.": ({"precision": "f32"}, {"iprec": {"count": "add0.9"}, "iprec_avg": {"count": "add0.9"}}),
}
ONLY_IN_10 = {"unj", "rbp", "rbp_resid"}  # trec_eval 10.0's measures that pytrec_eval (9.0.x) does not have


def trec_eval_measure(name: str) -> PeerMeasure | None:
    """The measure of a name as trec_eval prints it, or None when it is not one of them."""
    if name in TREC_EVAL_PLAIN:
        metric, params = TREC_EVAL_PLAIN[name]
        return PeerMeasure(metric, None, dict(params), {})
    match = _CUT.fullmatch(name)
    if match and match.group("base") in TREC_EVAL_CUT and int(match.group("k")) > 0:
        return PeerMeasure(TREC_EVAL_CUT[match.group("base")], int(match.group("k")), {}, {})
    match = _LEVEL.fullmatch(name)
    if match and match.group("base") in TREC_EVAL_LEVEL:
        metric, param = TREC_EVAL_LEVEL[match.group("base")]
        return PeerMeasure(metric, None, {param: match.group("x")}, {})
    return None


_PLAIN_NAME = {metric: name for name, (metric, params) in TREC_EVAL_PLAIN.items() if not params}
_CUT_BASE = {metric: base for base, metric in TREC_EVAL_CUT.items()}
_LEVEL_BASE = {metric: (base, param) for base, (metric, param) in TREC_EVAL_LEVEL.items()}


def trec_eval_name(metric: str, cutoff: int | None, params: dict[str, str] | None = None) -> str | None:
    """The name trec_eval prints for a metric, cutoff and parameters (None when it has no such measure). The
    caller checks that the name parses back to its flavor (trec_eval's names hold two decimals)."""
    if metric in _LEVEL_BASE and cutoff is None:
        base, param = _LEVEL_BASE[metric]
        return f"{base}_{float((params or {}).get(param, 1)):3.2f}"
    if cutoff is None:
        return _PLAIN_NAME.get(metric)
    return f"{_CUT_BASE[metric]}_{cutoff}" if metric in _CUT_BASE else None


def peer_measure(name: str, params: tuple[tuple[str | None, str], ...] = (),
                 cutoff: int | None = None) -> PeerMeasure | None:
    """The measure a peer's name stands for, with the axes and parameters the peer sets, or None when `name`
    is no peer's measure: `trec_eval.NAME` and `pytrec_eval.NAME` here, `PREFIX.NAME` in PEER_TABLES. `params`
    and `cutoff` are what the spec writes after the name (`(rel=2)`, `@10`); a name that holds its cutoff or
    parameters refuses them (SpecError)."""
    for prefix, table in PEER_TABLES.items():
        if name.startswith(prefix):
            return table(name[len(prefix):], params, cutoff)
    for prefix, (axes, fixed) in PEER_PREFIXES.items():
        if name.startswith(prefix):
            found = trec_eval_measure(name[len(prefix):])
            if found is None or (prefix == "pytrec_eval." and found.metric in ONLY_IN_10):
                return None
            if found.cutoff is not None and cutoff is not None:
                raise SpecError(f"{name} holds its cutoff already (@{found.cutoff}): drop @{cutoff}, or name the "
                                "measure with the cutoff you want")
            if params:
                raise SpecError(f"{name} is one of trec_eval's measures: it takes no parameters in (...); write "
                                f"{found.metric}(...) to choose them")
            return found._replace(cutoff=found.cutoff if found.cutoff is not None else cutoff,
                                  params={**fixed.get(found.metric, {}), **found.params}, axes=dict(axes))
    return None


# other peers' name tables: prefix -> (name without the prefix, params as written, cutoff) -> PeerMeasure or None
PEER_TABLES: dict[str, Callable[[str, tuple[tuple[str | None, str], ...], int | None], PeerMeasure | None]] = {
    "ranx.": ranx_names.measure,
    "ir_measures.": ir_measures_names.measure,
}
# the tables that read the head in their own grammar (`ir_measures.IPrec@0.1`): they get it as written after the
# prefix, params () and cutoff None (flavor/spec.py leaves them unread)
RAW_HEADS = ("ir_measures.",)


def reads_own_head(name: str) -> bool:
    """Whether a peer table reads the head of `name` as written (a preset of that name is read as a preset)."""
    return name.startswith(RAW_HEADS) and name not in PRESETS


def trec_eval_patterns(metric: str) -> list[str]:
    """The trec_eval names of a metric, with K for a cutoff and X.XX for a parameter (`P_K`, `Rprec_mult_X.XX`)."""
    names = [name for name, (m, _) in TREC_EVAL_PLAIN.items() if m == metric]
    names += [f"{base}_K" for base, m in TREC_EVAL_CUT.items() if m == metric]
    return names + [f"{base}_X.XX" for base, (m, _) in TREC_EVAL_LEVEL.items() if m == metric]
