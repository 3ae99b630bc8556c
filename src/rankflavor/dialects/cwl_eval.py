"""cwl_eval's measure names (`cwl_eval.RBP@0.8`, `cwl_eval.INSTCWLMetric(2.0)`, `cwl_eval.ETU.NDCG-k@10`), read
into rankflavor's C/W/L family (metrics/cwl.py) under the conventions cwl_eval 1.0.12 computes them with
(`cwl-eval QRELS RUN [-m METRICS_FILE] [-r]`).

A name is a line of cwl_eval's metrics file, `ClassName(args)` (cwl/ruler/cwl_ruler.py populate_list: the args
split on commas, each read with float() when it holds a dot, else int()), or the name cwl_eval prints for it
(`P@10`, `NDCG-k@10`, `RBP@0.8`, `RR`, `AP`, `NERR-EQ8@k=10`; INST, INSQ and BPM print `=` in their names,
which a spec's head cannot hold: write their class form). Each family declares its names
(`register(..., peers={"cwl_eval": ("RBPCWLMetric({theta})", "RBP@{theta}")})`); `{k}` is the cutoff.

cwl_eval prints five numbers per measure and query, and five residuals with -r: `COLUMN.NAME` picks one
(`cwl_eval.ETU.RBP@0.8`; COLUMN one of EU, ETU, EC, ETC, ED, ResEU, ResETU, ResEC, ResETC, ResED, cwl_eval's
headings; EU, the measure, when absent): the metric's `of` parameter.

Conventions, each from the file named:

- ranking: cwl_eval ranks a query's docs in the order of the run file's lines and never reads the score
  (cwl_eval.py main): for a run file sorted by score, ties are in file order, ties=input. (A file not sorted by
  score is ranked by cwl_eval as written and by rankflavor by score.)
- gains: the qrels grade itself, refused outside [0, max_gain] (trec_qrel_handler.py validate_gains: below 0,
  negative=error; above, max_gain; INST and NERR
  refuse gains above 1: validate_gain_range); an unjudged doc has gain 0 (unjudged=zero), the upper bound of the
  residuals max_gain (ranking.py get_gain_vector); every doc costs 1 (no cost file: max_cost = min_cost = 1).
- depth: each list is cut or padded (gain 0) to --max_depth = 1000 ranks (ranking.py _pad_trunc_vector): depth.
- queries: cwl_eval measures the run's queries only, so a qrels query absent from the run is not printed
  (missing=skip); a run query absent from the qrels is printed with every gain 0, which rankflavor does not score
  (unjudged_queries=skip). cwl_eval prints no mean.
"""

from __future__ import annotations

import functools
import re

from rankflavor import registry
from rankflavor.dialects.measure import PeerMeasure
from rankflavor.errors import SpecError

PEER = "cwl_eval"
PREFIX = "cwl_eval."
COLUMNS = {"EU": "eu", "ETU": "etu", "EC": "ec", "ETC": "etc", "ED": "ed", "ResEU": "res_eu", "ResETU": "res_etu",
           "ResEC": "res_ec", "ResETC": "res_etc", "ResED": "res_ed"}  # cwl_eval.py's headings (-n, -r)
AXES = {"ties": "input", "unjudged": "zero", "negative": "error", "missing": "skip", "unjudged_queries": "skip"}
CUTOFF = "k"


@functools.lru_cache(maxsize=1)
def _patterns(version: int) -> tuple[tuple[re.Pattern[str], str, str], ...]:
    """(regex, metric, pattern as declared) for every declared cwl_eval name."""
    out = []
    for metric, names in registry.peer_names(PEER).items():
        for name in names:
            pieces = re.split(r"\{(\w+)\}", name)
            regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^,()@=]+)" for i, p in enumerate(pieces))
            out.append((re.compile(regex), metric, name))
            if "({" in name:  # the class with no args: cwl_eval's defaults
                out.append((re.compile(re.escape(name.split("(")[0] + "()")), metric, name))
    return tuple(out)


def _number(text: str, where: str, name: str) -> str:
    """An arg as cwl_eval's populate_list reads it: float() when it holds a dot, else int()."""
    try:
        return repr(float(text)) if "." in text else str(int(text))
    except ValueError:
        raise SpecError(f"{where}: cwl_eval reads {name}={text!r} with {'float' if '.' in text else 'int'}(), "
                        "which refuses it; write a number") from None


def measure(name: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None) -> PeerMeasure | None:
    """The measure `cwl_eval.NAME` stands for (NAME as written after the prefix), or None when cwl_eval has no
    such measure; a name cwl_eval would refuse is a SpecError."""
    column, sep, rest = name.partition(".")
    of = "eu"
    if sep and column in COLUMNS and rest:
        name, of = rest, COLUMNS[column]
    for regex, metric, declared in _patterns(registry.version()):
        match = regex.fullmatch(name)
        if match is None:
            continue
        where = f"{PREFIX}{name}"
        found = {key: _number(value.strip(), where, key) for key, value in match.groupdict().items()
                 if not key.startswith("_")}  # (`{_hc}`: an arg cwl_eval reads and never uses)
        if CUTOFF in declared and CUTOFF not in found:
            raise SpecError(f"{where}: give k, the docs the user reads, e.g. {PREFIX}{declared.replace('{k}', '10')}")
        k = found.pop(CUTOFF, None)
        if k is not None and (not k.isdigit() or int(k) < 1):
            raise SpecError(f"{where}: k must be a positive integer (cwl_eval reads it with int())")
        reads = registry.get(metric).reads
        return PeerMeasure(metric, None if k is None else int(k), {**found, "of": of},
                           {a: v for a, v in AXES.items() if a in reads})
    return None
