"""ranx's metric names (`ranx.map@100`, `ranx.mrr@10`, `ranx.ndcg-l2@10`, ...), read into rankflavor's metrics with
the conventions ranx 0.3.21 computes them under: `ranx.NAME` is ranx's plain call, `evaluate(qrels, run, NAME)` on
a fresh Run (the `ranx` preset's axes: ties=quicksort(1)); `ranx.make_comparable.NAME` is
`evaluate(qrels, run, NAME, make_comparable=True)` (the `ranx.make_comparable` preset's: ties=quicksort(2)), the
call ranx needs when the run's query set differs from the qrels' (the plain call refuses it: meta/evaluate.py
check_keys). Either way, a Run object evaluated again is sorted again, so its tie order drifts.

How ranx reads a name (ranx/meta/evaluate.py, extract_metric_and_params): a `-lN` suffix is split off first and
read with int() as the relevance level (default 1); `rbp` takes its persistence after a dot (`rbp.95`: p = 0.95,
or `rbp@95`); any other name is `NAME@k`, k an int, 0 or absent meaning the whole list. ranx writes `ndcg@10-l2`;
rankflavor's grammar puts the cutoff last (flavor/spec.py), so the same measure is written `ranx.ndcg-l2@10`.
ranx/metrics/__init__.py (metric_switch) knows hits, hit_rate, precision, recall, f1, r-precision, mrr, map, dcg,
dcg_burges, ndcg, ndcg_burges, bpref and rbp; any other name is refused there (here: None, unknown).

Conventions, each from the file named:

- ranking: a Run is sorted by numba's argsort of -score when built (ranx/data_structures/common.py
  sort_dict_by_value): ties=quicksort(1), the `ranx` preset (dialects/presets.py); make_comparable sorts it again
  (run.py make_comparable): ties=quicksort(2), the `ranx.make_comparable` preset, read by
  `ranx.make_comparable.NAME`; scores are float64 (precision=f64).
- queries: make_comparable gives a qrels query absent from the run an empty list, which every metric scores 0
  (missing=zero), and removes run queries absent from the qrels (unjudged_queries=skip).
- relevance: ranx/metrics/common.py clean_qrels keeps the judgments with grade >= rel_lvl; every other run doc,
  unjudged ones included, is not relevant and keeps its rank (unjudged=zero). So `-lN` is rel_level=N for the
  binary measures and min_grade=N for the graded ones (ndcg, dcg: a grade below N has gain 0), and a negative
  grade is below every level >= 0: negative=zero. Below a negative level a negative grade is kept, as itself
  (negative=keep): ranx/metrics/ndcg.py _dcg weighs a doc by its grade.
- no relevant doc: every metric returns 0.0 when clean_qrels leaves nothing (average_precision.py, recall.py,
  f1.py, r_precision.py, reciprocal_rank.py, hits.py, hit_rate.py, ndcg.py: idcg 0 -> 1, so 0): empty=zero.
- cutoffs: fix_k (common.py) reads min(k, list length); precision.py and f1.py divide by k itself (P@k of a list
  shorter than k is filled with nonrelevant docs), and by the list's length without k (0 for an empty list).
  r_precision.py and bpref.py take k and ignore it: `ranx.r-precision@10` and `ranx.bpref@10` are refused here.
- gains: ndcg.py _dcg: grade / log2(i + 1) (ndcg, dcg) or (2^grade - 1) / log2(i + 1) (ndcg_burges, dcg_burges:
  gain=exp2); the ideal is _dcg of the query's judgments sorted by grade (ideal=global, cut at k): the `ranx`
  and `ranx.burges` presets (`.make_comparable`: `ranx.make_comparable.NAME`), whose axes these names take.
- bpref.py: R counts grades >= rel_lvl, N grades < rel_lvl (negative ones too: judged nonrelevant); unjudged run
  docs are removed first; each relevant doc scores 1 - min(n above, R) / min(R, N).
- f1.py: 2 P R / (P + R), 0 when P + R = 0: f(beta=1).
- hits.py: the relevant docs in the top k, averaged as a mean: the `hits` metric (metrics/hits.py).
- hit_rate.py: 1 when a relevant doc is in the top k: success.
- rank_biased_precision.py: (1 - p) sum over the whole list of grade_i p^(i-1), grade_i the raw grade when
  >= rel_lvl, else 0: rbp(p=0.NN, scale=grade); rbp.NN and rbp@NN both mean p = 0.NN, and ranx reads rbp.9.5 as
  rbp.9 (split on '.'), which is refused here.

- bpref.py on a query with R = 0 divides 0.0 by 0 inside numba's prange loop: the ZeroDivisionError stops the
  loop, and that query and every later query of the loop keep the 0.0 they were initialised with: `ranx.bpref`
  is the `ranx_bpref` metric (metrics/ranx_bpref.py), which gives those 0.0s and warns (`peer_degenerate`) that
  ranx's own number is degenerate; rankflavor's `bpref` scores each query on its own.

What no flavor expresses (ranx's own behaviour, documented and tested in tests/peers/test_ranx_names.py):

- bpref.py on a query with N = 0 that ranks a relevant judged doc gives nan (1 - 0/0), where rankflavor (trec_eval's
  m_bpref.c) counts 1 for each such doc. `bpref_departures(qrels, run)` names the queries where ranx's bpref
  departs from rankflavor's `bpref` (these, and the zeroed batch above) and ranx's numbers for them.
- rank_biased_precision.py accepts p = 0 (rbp.0: the first doc's grade alone); rankflavor's rbp needs p > 0.
- ndcg.py with a negative level keeps negative grades in its ideal list in grade order (a doc of grade -2 below
  the level sits after one of grade -1) and divides by an IDCG <= 0 when it is not exactly 0: refused.
- Qrels grades are cast to int (qrels.py: np.array(scores, dtype=int)); doc ids are hashed to float64
  (common.py to_typed_list), so two ids whose hashes round to one float64 would be one doc.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import NamedTuple

from rankflavor import registry
from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS
from rankflavor.errors import SpecError

PEER = "ranx"
PREFIX = "ranx."


class RanxName(NamedTuple):
    metric: str  # rankflavor's metric
    preset: str  # the preset whose axes it takes (ranx, or ranx.burges for the exponential gain)
    cutoff: str  # "optional": ranx reads @k (none: the whole list); "ignored": ranx takes k and ignores it
    source: str  # the ranx 0.3.21 file it was read from
    params: tuple[tuple[str, str], ...] = ()  # the metric's own parameters it sets


RBP = "rbp"  # ranx/metrics/rank_biased_precision.py: rbp.NN is rbp(p=0.NN, scale=grade), declared `rbp.{p}`
BURGES = "_burges"  # ranx/metrics/ndcg.py: a name ending so weighs (2^grade - 1): the `ranx.burges` preset
FIXED_PARAMS = {"f1": (("beta", "1"),)}  # ranx/metrics/f1.py: 2 P R / (P + R)
FILES = {"r-precision": "r_precision.py", "mrr": "reciprocal_rank.py",
         "map": "average_precision.py", "dcg": "ndcg.py", "dcg_burges": "ndcg.py", "ndcg_burges": "ndcg.py"}


def ranx_names() -> dict[str, RanxName]:
    """ranx name -> what it resolves to (metric_switch in ranx/metrics/__init__.py lists them), from each family's
    declared ranx names (`peers={"ranx": ("ndcg", "ndcg_burges")}`); a metric that reads no cutoff is one whose
    ranx function takes k and ignores it (r_precision.py, bpref.py)."""
    return _ranx_names(registry.version())


@functools.lru_cache(maxsize=1)
def _ranx_names(version: int) -> dict[str, RanxName]:
    out = {}
    for metric, names in registry.peer_names(PEER).items():
        ignored = getattr(registry.get(metric), "cutoff_rule", "optional") == "none"
        for name in names:
            if "{" not in name:
                out[name] = RanxName(metric, "ranx.burges" if name.endswith(BURGES) else "ranx",
                                     "ignored" if ignored else "optional",
                                     f"ranx/metrics/{FILES.get(name, name + '.py')}", FIXED_PARAMS.get(name, ()))
    return out


def metric_names(metric: str) -> tuple[str, ...]:
    """Every ranx name of a metric, as `rankflavor metrics` shows them (`rbp.NN`)."""
    return tuple(name.replace("{p}", "NN") for name in registry.peer_names(PEER).get(metric, ()))


LEVEL = "-l"  # ranx/meta/evaluate.py: metric.split("-l"), int(rel_lvl)
COMPARABLE = "make_comparable."  # ranx.make_comparable.NAME: evaluate(..., make_comparable=True)


def measure(name: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None) -> PeerMeasure | None:
    """The measure `ranx.NAME` stands for (NAME without the prefix), or None when ranx has no such metric.
    A name ranx refuses, or a cutoff ranx would ignore, is a SpecError. `make_comparable.NAME`: the same name
    under make_comparable=True (the `.make_comparable` presets' axes)."""
    comparable = name.startswith(COMPARABLE)
    if comparable:
        name = name[len(COMPARABLE):]
    base, level = name, 1
    if LEVEL in name:
        pieces = name.split(LEVEL)
        base = pieces[0]
        if not _known(base):
            return None
        if len(pieces) != 2:
            raise SpecError(f"ranx.{name}: ranx reads one -lN suffix (the relevance level), not {len(pieces) - 1}")
        try:
            level = int(pieces[1])
        except ValueError:
            raise SpecError(f"ranx.{name}: the relevance level after -l must be an integer, as ranx reads it with "
                            f"int(), e.g. ranx.{base}-l2") from None
    if base.split(".")[0] == RBP:
        return _rbp(name, base, params, cutoff, level, comparable)
    entry = ranx_names().get(base)
    if entry is None:
        return None
    where = f"ranx.{name}" + ("" if cutoff is None else f"@{cutoff}")
    if params:
        raise SpecError(f"{where} is one of ranx's metric names: it takes no parameters in (...); write "
                        f"{entry.metric}(...) to choose them")
    metric = registry.get(entry.metric)
    if cutoff is not None and entry.cutoff == "ignored":
        raise SpecError(f"{where}: ranx's {base} reads the whole list and ignores @k ({entry.source}); drop "
                        f"@{cutoff}")
    if cutoff is None and getattr(metric, "cutoff_rule", "optional") == "required":
        raise SpecError(f"ranx.{name} without @k is ranx's {base} over the whole list, but rankflavor's "
                        f"{entry.metric} needs a cutoff: write ranx.{name}@k with k at least the length of the "
                        "longest ranked list")
    reads = metric.reads
    preset = f"{entry.preset}.make_comparable" if comparable else entry.preset
    axes = {axis: value for axis, value in PRESETS[preset].axes.items() if axis != "min_grade"}
    axes["min_grade" if "min_grade" in reads else "rel_level"] = str(level)
    if level < 0:
        if entry.metric == "ndcg":
            raise SpecError(f"ranx.{name}: with a negative relevance level ranx keeps negative grades in its "
                            "ideal list in grade order and divides by an IDCG <= 0; no flavor of ndcg gives "
                            "that (dcg does: ranx.dcg-lN)")
        axes["negative"] = "keep"  # (a negative grade at or above the level is weighed as itself)
    return PeerMeasure(entry.metric, cutoff, dict(entry.params), {a: v for a, v in axes.items() if a in reads})


def _known(base: str) -> bool:
    return base in ranx_names() or base.split(".")[0] == RBP


def _rbp(name: str, base: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None, level: int,
         comparable: bool = False) -> PeerMeasure:
    """ranx's `rbp.NN` (p = 0.NN, over the whole list): rbp(p=0.NN, scale=grade), each relevant doc weighed by its
    raw grade (ranx/metrics/rank_biased_precision.py)."""
    pieces = base.split(".")
    if len(pieces) == 1:
        if cutoff is not None:
            raise SpecError(f"ranx.{name}@{cutoff}: ranx reads rbp@{cutoff} as the persistence p = 0.{cutoff}, "
                            f"not as a cutoff; write it ranx.rbp.{cutoff}")
        raise SpecError(f"ranx.{name}: ranx's rbp needs its persistence after a dot, e.g. ranx.rbp.95 (p = 0.95)")
    digits = pieces[1]
    if len(pieces) != 2 or not (digits.isascii() and digits.isdigit()):
        raise SpecError(f"ranx.{name}: ranx's rbp takes the digits of its persistence after one dot, "
                        "e.g. ranx.rbp.95 for p = 0.95")
    if cutoff is not None or params:
        raise SpecError(f"ranx.{name}: ranx's rbp takes no cutoff and no parameters (ranx refuses rbp.{digits}@k: "
                        f"float('0.{digits}@k'))")
    if int(digits) == 0:
        raise SpecError(f"ranx.{name}: p = 0 scores the first doc alone (0^0 = 1); rankflavor's rbp needs p > 0")
    preset = "ranx.make_comparable" if comparable else "ranx"
    axes = {axis: value for axis, value in PRESETS[preset].axes.items() if axis != "min_grade"}
    axes["rel_level"] = str(level)
    if level < 0:
        axes["negative"] = "keep"
    reads = registry.get("rbp").reads
    return PeerMeasure("rbp", None, {"p": f"0.{digits}", "scale": "grade"},
                       {a: v for a, v in axes.items() if a in reads})


def bpref_departures(qrels: Mapping[str, Mapping[str, float]], run: Mapping[str, Mapping[str, float]],
                     rel_level: int = 1) -> dict[str, float]:
    """Where ranx 0.3.21's bpref (evaluate(..., make_comparable=True)) departs from rankflavor's `bpref`, query -> ranx's
    number; empty when ranx's numbers are all bpref's. ranx/metrics/bpref.py divides the sum by R (a scalar
    division: numba raises ZeroDivisionError when R = 0) inside _bpref_parallel's prange loop over the qrels'
    queries in sorted id order; the error is swallowed and the first query with R = 0 and every query after it
    keep their initial 0.0 (checked with 2 threads: the whole batch after it, whichever thread had it). Before
    it, a query with R > 0, N = 0 and a relevant doc ranked gets 1 - 0/0 = nan (m_bpref.c: 1 per such doc)."""
    out: dict[str, float] = {}
    for position, query in enumerate(sorted(qrels)):
        grades = [int(g) for g in qrels[query].values()]  # (ranx's Qrels cast grades to int)
        relevant = {d for d, g in zip(qrels[query], grades, strict=True) if g >= rel_level}
        if not relevant:
            return {**out, **{q: 0.0 for q in sorted(qrels)[position:]}}
        if len(relevant) == len(grades) and relevant & set(run.get(query, {})):
            out[query] = math.nan
    return out
