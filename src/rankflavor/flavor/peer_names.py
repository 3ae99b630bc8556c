"""The names peers print for their measures, read back into rankflavor's metrics.

`trec_eval.NAME` takes NAME exactly as trec_eval 10.0 prints it (`map`, `P_10`, `map_cut_100`, `recip_rank`,
`Rprec`, `success_5`, `num_rel_ret`, `ndcg_cut_10`, ...): its metric, and its cutoff when the name holds one
(such a name refuses another `@k`). `pytrec_eval.NAME` is the same measure as pytrec_eval computes it: trec_eval
9.0.x's code, which compares scores in float32 (precision=f32). trec_eval's options are axes after the name:
`-c` missing=zero, `-M N` run_depth=N, `-l N` rel_level=N, `-J` unjudged=skip.
"""

from __future__ import annotations

import re

# trec_eval name (without its cutoff) -> rankflavor metric; `cut` names carry _K
TREC_EVAL_PLAIN = {"map": "map", "recip_rank": "mrr", "Rprec": "rprec", "num_ret": "num_ret", "num_rel": "num_rel",
                   "num_rel_ret": "num_rel_ret", "set_P": "p", "set_recall": "recall", "ndcg": "ndcg"}
TREC_EVAL_CUT = {"P": "p", "recall": "recall", "map_cut": "map", "success": "success", "ndcg_cut": "ndcg"}
_CUT = re.compile(r"(?P<base>[A-Za-z_]+?)_(?P<k>[0-9]+)")
PEER_PREFIXES = {"trec_eval.": {}, "pytrec_eval.": {"precision": "f32"}}


def trec_eval_measure(name: str) -> tuple[str, int | None] | None:
    """(metric, cutoff) of a measure name as trec_eval prints it, or None when it is not one of them."""
    if name in TREC_EVAL_PLAIN:
        return TREC_EVAL_PLAIN[name], None
    match = _CUT.fullmatch(name)
    if match and match.group("base") in TREC_EVAL_CUT and int(match.group("k")) > 0:
        return TREC_EVAL_CUT[match.group("base")], int(match.group("k"))
    return None


_PLAIN_NAME = {metric: name for name, metric in TREC_EVAL_PLAIN.items()}
_CUT_BASE = {metric: base for base, metric in TREC_EVAL_CUT.items()}


def trec_eval_name(metric: str, cutoff: int | None) -> str | None:
    """The name trec_eval prints for a metric and cutoff (None when trec_eval has no such measure)."""
    if cutoff is None:
        return _PLAIN_NAME.get(metric)
    return f"{_CUT_BASE[metric]}_{cutoff}" if metric in _CUT_BASE else None


def peer_measure(name: str) -> tuple[str, int | None, dict[str, str]] | None:
    """(metric, cutoff, axes) of `trec_eval.NAME` or `pytrec_eval.NAME`, or None."""
    for prefix, axes in PEER_PREFIXES.items():
        if name.startswith(prefix):
            found = trec_eval_measure(name[len(prefix):])
            if found is not None:
                return found[0], found[1], dict(axes)
    return None
