"""Did-you-mean for a name that is no metric, preset or peer measure: the readings it may have meant.

A name is compared without its case and its punctuation with every metric, preset and `PEER.NAME`, with the
names users carry over from other tools (`nDCG`, `MAP`, `P`, `RR`, `R-prec`, `hit_rate`), and with a
peer's name given without its prefix (`P_10` -> trec_eval.P_10); an `ir_measures.` name in another case gets
ir_measures' own (`ir_measures.ndcg` -> ir_measures.nDCG).
"""

from __future__ import annotations

import difflib
import re

from rankflavor.flavor import ir_measures_names
from rankflavor.flavor.measure_sets import SETS
from rankflavor.flavor.peer_names import PEER_PREFIXES, TREC_EVAL_CUT, TREC_EVAL_LEVEL, TREC_EVAL_PLAIN, peer_measure
from rankflavor.flavor.ranx_names import RANX_NAMES

# what users of other tools type -> rankflavor's metric
COMMON_NAMES = {"ap": "map", "rr": "mrr", "reciprocal_rank": "mrr", "recip_rank": "mrr", "precision": "p",
                "r": "recall", "hit_rate": "success", "hits": "success", "hit": "success", "r_precision": "rprec",
                "r_prec": "rprec", "ndcg_cut": "ndcg", "p_cut": "p", "11pt_avg": "iprec_avg", "iprec_at_recall": "iprec"}

IR_MEASURES = "ir_measures."
# a peer's own words after its prefix, for a misspelt one (`trec_eval.oficial` -> trec_eval.official)
PEER_WORDS = {"trec_eval.": (*SETS, *TREC_EVAL_PLAIN), "pytrec_eval.": (*SETS, *TREC_EVAL_PLAIN), "ranx.": tuple(RANX_NAMES)}


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "_", name.lower())


def _spellings(name: str) -> list[str]:
    """trec_eval's spellings of a name: its case (`rprec` -> Rprec), `_` before a cutoff (P10 -> P_10), two
    decimals in a level (iprec_at_recall_0.1 -> iprec_at_recall_0.10)."""
    spaced = re.sub(r"(?<=[A-Za-z])(?=[0-9])", "_", name)
    out = []
    for text in dict.fromkeys([name, spaced]):
        lower = text.lower()
        for plain in TREC_EVAL_PLAIN:
            if lower == plain.lower():
                out.append(plain)
        for base in (*TREC_EVAL_CUT, *TREC_EVAL_LEVEL):
            if lower.startswith(base.lower() + "_"):
                tail = text[len(base) + 1:]
                number = re.fullmatch(r"[0-9]*\.?[0-9]+", tail)
                out.append(f"{base}_{float(tail):3.2f}" if number and base in TREC_EVAL_LEVEL else f"{base}_{tail}")
    return list(dict.fromkeys(out))


def suggestions(name: str, metrics: tuple[str, ...], presets: tuple[str, ...]) -> list[str]:
    """Up to five readings of an unknown `name`, the closest first."""
    found: list[str] = []
    if name.startswith(IR_MEASURES):
        found += [IR_MEASURES + spelled for spelled in ir_measures_names.spellings(name[len(IR_MEASURES):])]
    prefix, dot, rest = name.partition(".")
    words = PEER_WORDS.get(prefix + dot, ()) if dot else ()
    found += [prefix + dot + close for close in difflib.get_close_matches(rest.split("@")[0], words, n=3, cutoff=0.75)]
    bare = name.split(".", 1)[1] if "." in name and name.split(".", 1)[0] + "." in PEER_PREFIXES else name
    for variant in _spellings(bare):
        found += [prefix + variant for prefix in PEER_PREFIXES if peer_measure(prefix + variant) is not None]
    key = _key(bare)
    readings = {_key(m): m for m in metrics} | {_key(p): p for p in presets}
    readings |= {_key(n): COMMON_NAMES[n] for n in COMMON_NAMES}
    if key in readings:
        found.append(readings[key])
    for close in difflib.get_close_matches(key, list(readings), n=3, cutoff=0.75):
        found.append(readings[close])
    return list(dict.fromkeys(f for f in found if f != name))[:5]
