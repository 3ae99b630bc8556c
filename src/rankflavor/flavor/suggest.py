"""Did-you-mean: the one mechanism behind every "did you mean" rankflavor prints (`close`, `did_you_mean`), for
axis values and keys (flavor/axes.py, spec.py), subcommands and choices (cli/main.py), query ids (cli/cmd_explain.py)
and, below, a name that is no metric, preset or peer measure: the readings it may have meant (`suggestions`).

A name is compared without its case and its punctuation with every metric, preset and `PEER.NAME`, with the
words users carry over from other tools (the aliases each family declares at its `register(...)`: `ap`,
`hit_rate`, `recip_rank`), with a peer's name given without its prefix in another spelling (`P10` ->
trec_eval.P_10), and with every dialect's own words (trec_eval, ranx, ir_measures: `recip_rnk` ->
trec_eval.recip_rank); an ir_measures name in another case gets ir_measures' own (`ndcg` -> ir_measures.nDCG).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rankflavor import registry
from rankflavor.dialects.lookup import TREC_PREFIXES, dialect, peer_measure
from rankflavor.dialects.trec_sets import SETS


def close(word: str, readings: Mapping[str, str] | Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Up to `n` readings whose key is close to `word` (difflib's ratio >= cutoff), the closest first. `readings`
    maps a key to what is shown (`random` -> `random(seed)`), or is the words themselves."""
    table = dict(readings) if isinstance(readings, Mapping) else {word: word for word in readings}
    import difflib  # (an unknown word only: start-up spares it)

    return list(dict.fromkeys(table[key] for key in difflib.get_close_matches(word, list(table), n=n, cutoff=cutoff)))


def did_you_mean(readings: Iterable[str]) -> str:
    """`did you mean a or b?`, or "" when there is no reading."""
    readings = list(readings)
    return f"did you mean {' or '.join(readings)}?" if readings else ""


def _peer_words() -> dict[str, tuple[str, ...]]:
    """A peer's own words after its prefix, for a misspelt one (`trec_eval.oficial` -> trec_eval.official)."""
    trec_eval, ranx, trectools, torchmetrics = (dialect(p) for p in ("trec_eval.", "ranx.", "trectools.",
                                                                      "torchmetrics."))
    trec = (*SETS, *trec_eval.tables().plain)
    return {**{prefix: trec for prefix in TREC_PREFIXES}, ranx.PREFIX: tuple(ranx.ranx_names()),
            trectools.PREFIX: trectools.names(), torchmetrics.PREFIX: torchmetrics.names()}


def _dialect_words() -> dict[str, list[str]]:
    """Every dialect's own words by their lower case, each shown with the prefix that reads it (trec_eval's names
    and sets, ranx's, ir_measures'), for a misspelt name written without a prefix (`recip_rnk`)."""
    trec_eval, ranx, ir_measures = (dialect(p) for p in ("trec_eval.", "ranx.", "ir_measures."))
    words = [trec_eval.PREFIX + word for word in _peer_words()[trec_eval.PREFIX]]
    words += [ranx.PREFIX + word for word in ranx.ranx_names()]
    words += [ir_measures.PREFIX + word for word in (*ir_measures.MEASURES, *ir_measures.ALIASES)]
    out: dict[str, list[str]] = {}
    for shown in words:
        out.setdefault(shown.split(".", 1)[1].lower(), []).append(shown)
    return out


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "_", name.lower())


def _spellings(name: str) -> list[str]:
    """trec_eval's spellings of a name: its case (`rprec` -> Rprec), `_` before a cutoff (P10 -> P_10), two
    decimals in a level (iprec_at_recall_0.1 -> iprec_at_recall_0.10)."""
    spaced = re.sub(r"(?<=[A-Za-z])(?=[0-9])", "_", name)
    names = dialect("trec_eval.").tables()
    out = []
    for text in dict.fromkeys([name, spaced]):
        lower = text.lower()
        for plain in names.plain:
            if lower == plain.lower():
                out.append(plain)
        for base in (*names.cut, *names.level):
            if lower.startswith(base.lower() + "_"):
                tail = text[len(base) + 1:]
                number = re.fullmatch(r"[0-9]*\.?[0-9]+", tail)
                out.append(f"{base}_{float(tail):3.2f}" if number and base in names.level else f"{base}_{tail}")
    return list(dict.fromkeys(out))


def suggestions(name: str, metrics: tuple[str, ...], presets: tuple[str, ...]) -> list[str]:
    """Up to five readings of an unknown `name`, the closest first."""
    ir_measures = dialect("ir_measures.")
    found: list[str] = []
    if name.startswith(ir_measures.PREFIX):
        found += [ir_measures.PREFIX + spelled for spelled in ir_measures.spellings(name[len(ir_measures.PREFIX):])]
    prefix, dot, rest = name.partition(".")
    words = _peer_words().get(prefix + dot, ()) if dot else ()
    found += [prefix + dot + word for word in close(rest.split("@")[0], words, cutoff=0.75)]
    bare = name.split(".", 1)[1] if "." in name and name.split(".", 1)[0] + "." in TREC_PREFIXES else name
    for variant in _spellings(bare):
        found += [prefix + variant for prefix in TREC_PREFIXES if peer_measure(prefix + variant) is not None]
    written_bare = prefix + dot not in _peer_words() and not name.startswith(ir_measures.PREFIX)
    if written_bare:
        found += [ir_measures.PREFIX + spelled for spelled in ir_measures.spellings(name)]
    key = _key(bare)
    readings = {_key(m): m for m in metrics} | {_key(p): p for p in presets}
    readings |= {_key(alias): metric for alias, metric in registry.aliases().items()}
    if key in readings:
        found.append(readings[key])
    found += close(key, readings, cutoff=0.75)
    if written_bare:
        dialects = _dialect_words()
        own = {*metrics, *presets} if name == name.lower() else set()  # (lower case: rankflavor's names first)
        import difflib

        found += [shown for word in difflib.get_close_matches(name.lower(), list(dialects), n=3, cutoff=0.75)
                  for shown in dialects[word] if word not in own]
    return list(dict.fromkeys(f for f in found if f != name))[:5]
