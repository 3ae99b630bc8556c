"""The axes of a flavor: names, order, defaults, parsers, and every value's one-line meaning and source.

This is the one place an axis value is described. The axis table of docs/flavors.md (`docs_table`), the CLI's help
on axes (`help_lines`), `rankflavor axes` and docs/axes.md (flavor/axis_docs.py), the compare grids
(`sweep_tokens`) and the tests' strategies (`AxisDoc.examples`) are generated from it. `AXES` is in canonical
order: a flavor prints its axes in this order. (Named tuples, not dataclasses: `rankflavor --help` prints this
registry, and importing dataclasses would slow its start-up.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rankflavor.errors import SpecError
from rankflavor.flavor.values import (
    AxisValue,
    choice_parser,
    discount_value,
    gain_value,
    ideal_value,
    min_grade_value,
    rel_level_value,
    round_value,
    run_depth_value,
    ties_value,
    token_of,
    weights_value,
)


class ValueDoc(NamedTuple):
    """One value (or family of values, `pattern` with its parameter) of an axis."""

    pattern: str  # as written: `log(b)`, `recall(K)`, `exp2`
    short: str  # the formula or a few words, for tables
    meaning: str  # one line
    source: str  # where the definition comes from (paper, tool and file)
    examples: tuple[str, ...]  # concrete tokens (the tests draw from them); the first is swept by grids
    sweep: bool = True  # a grid that sweeps this axis includes examples[0]


class Axis(NamedTuple):
    name: str
    default: str
    parse: Callable[[str], AxisValue]
    meaning: str
    values: tuple[ValueDoc, ...]

    def tokens(self) -> list[str]:
        """Every example token of every value, in order."""
        return [token for value in self.values for token in value.examples]


def _words(axis: str, docs: tuple[ValueDoc, ...]) -> Callable[[str], AxisValue]:
    return choice_parser(axis, tuple(doc.pattern for doc in docs))


V = ValueDoc
_TREC = "trec_eval (usnistgov/trec_eval)"
_GAIN = (
    V("linear", "g", "the grade is the gain", "Järvelin & Kekäläinen 2002; trec_eval m_ndcg_cut.c", ("linear",)),
    V("exp2", "2^g - 1", "exponential gain, top grades weigh more", "Burges et al. 2005; LightGBM, XGBoost", ("exp2",)),
    V("{g:gain,...}", "a table (`*:g`: unlisted grades keep theirs)",
      "each grade's gain listed; a grade the table misses is an error, or its own gain with `*:g`",
      "the user's own mapping, e.g. {0:0,1:1,2:3,3:7} (2^g - 1 written out); `*:g`: ir_measures' custom gains "
      "(providers/pytrec_eval_provider.py: gains.get(g, g))",
      ("{-1:-2,0:0,0.5:0.25,1:1,2:4,3:5}", "{0:0,1:1,2:3,3:7}", "{2:5,*:g}"),
      sweep=False),
)
_DISCOUNT = (
    V("log2", "1/log2(i+1)", "the usual NDCG discount", "Järvelin & Kekäläinen 2002 as used by trec_eval ndcg_cut",
      ("log2",)),
    V("jarvelin(b)", "1 for i<b, else 1/log_b(i)", "the original 2002 discount: the first b-1 ranks undiscounted",
      "Järvelin & Kekäläinen 2002; trec_eval m_ndcg_p.c with b=2", ("jarvelin(2)", "jarvelin(3)")),
    V("log(b)", "1/log_b(i+1)", "log2 in another base (log(e): natural); the base cancels in NDCG, not in DCG",
      "gdeval.pl and Spark RankingMetrics (natural log)", ("log(e)", "log(10)"), sweep=False),
    V("reciprocal", "1/i", "reciprocal rank discount", "Chapelle et al. 2009 (ERR's discount)", ("reciprocal",)),
    V("none", "1", "no discount: cumulative gain", "Järvelin & Kekäläinen 2002 (CG)", ("none",)),
)
_IDEAL = (
    V("global", "every judged doc", "IDCG from every judged doc of the query", f"{_TREC} m_ndcg_cut.c", ("global",)),
    V("positive", "every judged doc of positive gain", "IDCG from the judged docs whose gain is above 0 (a gain "
      "table's negative gains add to DCG, not to the ideal)", f"{_TREC} m_ndcg.c (its ideal stops at the first gain "
      "<= 0)", ("positive",), sweep=False),
    V("local", "the docs the run returned (before any cutoff)", "IDCG from the run's own list (before any cutoff)",
      "scikit-learn ndcg_score, LightGBM, XGBoost", ("local",)),
    V("recall(K)", "judged docs in the run's top K", "IDCG from the judged docs among the run's top K (K >= k)",
      "rankflavor: normalized by what the run's top K could show", ("recall(3)", "recall(6)"), sweep=False),
    V("max", "top grade everywhere", "the highest grade in the whole qrels at every position (needs @k)",
      "rankflavor: one absolute scale for every query", ("max",), sweep=False),
)
_IDEAL_DEPTH = (
    V("k", "cut at k", "IDCG cut at the cutoff", f"{_TREC} m_ndcg_cut.c", ("k",)),
    V("all", "uncut", "IDCG over the whole ideal list", "Quepid nDCG@10 (db/scorers/ndcg@10.js)", ("all",)),
    V("returned", "min(k, docs returned) (Elasticsearch)", "IDCG cut at min(k, number of docs returned)",
      "Elasticsearch rank_eval DiscountedCumulativeGain.java", ("returned",)),
)
_TIES = (
    V("docid_desc", "doc id descending (trec_eval)", "tied docs in descending doc id (strcmp)", f"{_TREC} form_res_rels.c",
      ("docid_desc",)),
    V("docid_asc", "doc id ascending", "tied docs in ascending doc id", "trectools trec_run.py", ("docid_asc",)),
    V("input", "input order (stable sorts)", "tied docs in the order the input lists them (a stable sort)",
      "LightGBM, XGBoost, RankLib (stable sorts)", ("input",), sweep=False),
    V("average", "the exact expectation over tie orders", "DCG averaged over every order of each tie group (exact)",
      "McSherry & Najork 2008; scikit-learn _tie_averaged_dcg", ("average",)),
    V("pessimistic", "lower gain first", "tied docs with the lower gain first", "CatBoost doc_comparator.h",
      ("pessimistic",)),
    V("optimistic", "higher gain first", "tied docs with the higher gain first", "the bound opposite pessimistic",
      ("optimistic",)),
    V("quicksort(passes)", "numba's quicksort argsort of -score, `passes` times (ranx: 1, with make_comparable 2)",
      "the order numba's np.argsort(-scores) gives (input order for lists of at most 15 docs, else its "
      "quicksort's), applied `passes` times, each to the order the previous pass left",
      "ranx data_structures/common.py (a Run is sorted when built and again by make_comparable); "
      "numba misc/quicksort.py", ("quicksort(2)", "quicksort(1)"), sweep=False),
    V("random(seed)", "BLAKE2b of (seed, query, doc)",
      "tied docs by BLAKE2b of (seed, query, doc): a reproducible random order",
      "TF-Ranking shuffle_ties (one draw)", ("random(7)", "random(0)"), sweep=False),
)
_UNJUDGED = (
    V("zero", "grade 0", "a run doc absent from the qrels counts as grade 0", f"{_TREC} (default)", ("zero",)),
    V("skip", "removed, ranks renumbered (trec_eval -J)", "unjudged docs removed and the list condensed, ranks renumbered",
      "trec_eval -J; Sakai 2007 (condensed lists)", ("skip",)),
    V("error", "an error", "an unjudged doc in a ranked list is an error", "rankflavor", ("error",)),
)
_NEGATIVE = (
    V("unjudged", "as unjudged (trec_eval)", "a negative grade means judged-as-unusable: gain 0, out of the ideal",
      f"{_TREC} form_res_rels.c (rel < 0: in pool, unjudged)", ("unjudged",)),
    V("zero", "gain 0", "judged, gain 0", "ranx (clean_qrels)", ("zero",)),
    V("keep", "negative gain", "judged, the grade's (negative) gain counts", "CatBoost, Elasticsearch, Quepid",
      ("keep",)),
    V("error", "an error", "any negative grade in the qrels is an error", "scikit-learn ndcg_score (ValueError)",
      ("error",)),
    V("drop", "removed from the list and the ideal (TF-Ranking)",
      "removed from the run's list before ranking and from the ideal",
      "TF-Ranking metrics_impl.py (labels < 0 are masked padding)", ("drop",)),
)
_MIN_GRADE = (
    V("none", "no threshold", "every judged grade keeps its gain", "trec_eval", ("none",)),
    V("N", "judged grades below N: gain 0", "judged grades below N get gain 0", "ranx rel_lvl", ("1", "0.5")),
)
_EMPTY = (
    V("skip", "null, out of the mean", "left out of the mean",
      "gdeval.pl (topics without a relevant doc are not printed)", ("skip",)),
    V("zero", "0", "scored 0", f"{_TREC} m_ndcg_cut.c", ("zero",)),
    V("one", "1", "scored 1", "LightGBM rank_metric.hpp, XGBoost, CatBoost", ("one",)),
    V("error", "an error", "a query whose ideal is 0 is an error", "rankflavor", ("error",)),
)
_MISSING = (
    V("skip", "left out of the mean", "a judged query absent from the run is left out of the mean", f"{_TREC} (default)",
      ("skip",)),
    V("zero", "0", "a judged query absent from the run scores 0", "ir_measures (measure.DEFAULT); ranx", ("zero",)),
    V("empty", "an empty ranking", "a judged query absent from the run is scored as an empty ranking: each measure's "
      "own value over no docs (num_rel its judged relevant count, num_q 1, num_ret and AP 0; where the measure has "
      "no value over no docs, e.g. R = 0, its 0)",
      f"{_TREC} -c (trec_eval.c: a bogus one-doc ranking, its num_ret, utility, unj* and rbp_resid then zeroed)",
      ("empty",)),
)
_PRECISION = (
    V("f64", "float64", "scores compared as float64", "trec_eval 10 (trec_format.h: sim is double)", ("f64",)),
    V("f32", "rounded to float32 before ranking", "scores rounded to float32 before ranking (equal in float32: tied)",
      "pytrec_eval (trec_eval 9 C code), XGBoost", ("f32",)),
)
_RUN_DEPTH = (
    V("all", "whole list", "every ranked doc is read", "trec_eval (default)", ("all",)),
    V("N", "only the first N ranked docs (trec_eval -M)", "only the first N ranked docs of each query are read",
      "trec_eval -M", ("2", "4")),
)
_SELF_DOCS = (
    V("keep", "kept", "a doc whose id equals the query id is kept", "trec_eval", ("keep",)),
    V("drop", "removed (BEIR)", "run docs whose id equals the query id are removed",
      "BEIR evaluation.py (ignore_identical_ids=True)", ("drop",)),
)
_ROUND = (
    V("none", "unrounded", "values reported unrounded", "trec_eval", ("none",)),
    V("N", "N decimals, the mean from unrounded values",
      "values rounded to N decimals; the mean is taken over unrounded values, then rounded",
      "BEIR round(mean, 5); gdeval.pl %.5f", ("3", "5")),
)

_UNJUDGED_QUERIES = (
    V("skip", "left out of the mean", "a run query with no judgment is never scored and left out of the mean",
      f"{_TREC}; every peer but trectools", ("skip",)),
    V("zero", "0 in the mean", "a run query with no judgment counts as 0 in the mean (it has no per-query value)",
      "trectools trec_eval.py (the mean divides by the number of run topics)", ("zero",)),
    V("score", "scored over its list", "a run query with no judgment is scored over its list, every doc unjudged "
      "(a metric with a value there only: udcg, udcg_authors)",
      "GiovanniTRA/UDCG compute_udcg_scores.py compute_udcg_score (every passage list is scored; a passage without a "
      "utility counts in n)", ("score",), sweep=False),
)
_MEAN_OF = (
    V("raw", "unrounded values", "the mean of the unrounded values (then rounded to `round` decimals)",
      "BEIR round(mean, 5)", ("raw",)),
    V("rounded", "the reported (rounded) values", "the mean of the values as reported, rounded to `round` "
      "decimals; the mean itself is not rounded again (needs round=N)",
      "ir_measures over gdeval.pl (it averages gdeval's printed %.5f values)", ("rounded",), sweep=False),
)
_WEIGHTS = (
    V("none", "every query weighs 1", "the plain mean over the queries averaged", f"{_TREC}", ("none",)),
    V("NAME", "per-query weights NAME", "the weighted mean sum(w v) / sum(w), the weights bound as NAME "
      "(--weights NAME=FILE, or weights={NAME: ...} in Python); a query averaged without a weight is an error",
      "scikit-learn ndcg_score sample_weight; CatBoost and XGBoost group weights; query-traffic weights",
      ("traffic",), sweep=False),
)
_REL_LEVEL = (
    V("N", "relevant: grade >= N", "a doc is relevant to a binary measure (AP, P, R, RR, ...) when its grade is at "
      "least N; gain-based measures read gain and min_grade instead", "trec_eval -l N (default 1); ir_measures "
      "rel=N", ("1", "2", "0")),
)

AXES: tuple[Axis, ...] = (
    Axis("gain", "linear", gain_value, "grade -> gain", _GAIN),
    Axis("discount", "log2", discount_value, "rank i -> discount", _DISCOUNT),
    Axis("ideal", "global", ideal_value, "what the ideal list is built from", _IDEAL),
    Axis("ideal_depth", "k", _words("ideal_depth", _IDEAL_DEPTH), "where the ideal list is cut", _IDEAL_DEPTH),
    Axis("ties", "docid_desc", ties_value, "the order of documents with equal scores", _TIES),
    Axis("unjudged", "zero", _words("unjudged", _UNJUDGED), "run docs absent from the qrels", _UNJUDGED),
    Axis("negative", "unjudged", _words("negative", _NEGATIVE), "negative grades", _NEGATIVE),
    Axis("min_grade", "none", min_grade_value, "a grade threshold for gain", _MIN_GRADE),
    Axis("empty", "zero", _words("empty", _EMPTY), "the value of a query whose ideal is 0 (status zero_ideal)", _EMPTY),
    Axis("missing", "skip", _words("missing", _MISSING), "a judged query absent from the run", _MISSING),
    Axis("precision", "f64", _words("precision", _PRECISION), "the precision scores are ranked in", _PRECISION),
    Axis("run_depth", "all", run_depth_value, "how deep each ranked list is read", _RUN_DEPTH),
    Axis("self_docs", "keep", _words("self_docs", _SELF_DOCS), "docs whose id equals the query id", _SELF_DOCS),
    Axis("round", "none", round_value, "the reported precision of values", _ROUND),
    Axis("unjudged_queries", "skip", _words("unjudged_queries", _UNJUDGED_QUERIES),
         "run queries with no judgment, in the mean", _UNJUDGED_QUERIES),
    Axis("mean_of", "raw", _words("mean_of", _MEAN_OF), "which values the mean averages", _MEAN_OF),
    Axis("weights", "none", weights_value, "the weight of each query in the mean", _WEIGHTS),
    Axis("rel_level", "1", rel_level_value, "the grade from which a doc is relevant (binary measures)", _REL_LEVEL),
)
AXIS_BY_NAME = {axis.name: axis for axis in AXES}
AXIS_NAMES = tuple(axis.name for axis in AXES)


_TYPED: dict[tuple[str, str], AxisValue] = {}  # (axis, token) -> its typed value, parsed once (parse_value)
_TYPED_MOST = 4096


def parse_value(axis: str, raw: object) -> AxisValue:
    """The typed value of `raw` on `axis`: a token (spaces ignored), a number, a {grade: gain} dict, or a
    value already typed for this axis (kept). A token's value is parsed once and shared (values are immutable,
    and an axis's parser reads its token alone): a Flavor types its 21 axes from tokens, its defaults included."""
    if isinstance(raw, AxisValue) and raw.axis == axis:
        return raw
    token = token_of(axis, raw)
    typed = _TYPED.get((axis, token))
    if typed is None:
        typed = _parse_token(axis, token)
        if len(_TYPED) < _TYPED_MOST:
            _TYPED[axis, token] = typed
    return typed


def _parse_token(axis: str, token: str) -> AxisValue:
    try:
        return AXIS_BY_NAME[axis].parse(token)
    except SpecError as exc:
        hint = value_hint(axis, token)
        if not hint:
            raise
        head, sep, tail = str(exc).partition("; ")
        raise SpecError(f"{head}; {hint} {tail}" if sep else f"{head}; {hint}") from None


def value_hint(axis: str, token: str) -> str:
    """`did you mean exp2?` for a token whose name is no value of `axis` (`gain=exp`, `ties=random`), else ""
    (a known name with a bad argument, `log(1)`, is left to its parser's message)."""
    from rankflavor.flavor.suggest import close, did_you_mean

    readings: dict[str, str] = {}
    for value in AXIS_BY_NAME[axis].values:
        name = value.pattern.split("(")[0]
        if value.pattern.isupper() or name.startswith("{"):
            continue  # a number (N) or a name (NAME), a table: nothing to spell
        readings[name] = readings[value.pattern] = value.pattern
    name = token.split("(")[0]
    if "(" in token and name in readings:
        return ""
    return did_you_mean(close(name, readings))


def sweep_tokens(axis: str) -> tuple[str, ...]:
    """The values a compare grid sweeps on `axis`: the first example of every value marked `sweep`."""
    return tuple(value.examples[0] for value in AXIS_BY_NAME[axis].values if value.sweep)


def docs_table() -> str:
    """The axis table of docs/flavors.md (Markdown), one row per axis: what it decides, its values, its default."""
    rows = ["| axis | decides | values | default |", "|---|---|---|---|"]
    for axis in AXES:
        values = ", ".join(f"`{v.pattern}` {v.short}" for v in axis.values)
        rows.append(f"| {axis.name} | {axis.meaning} | {values} | `{axis.default}` |")
    return "\n".join(rows)


def help_lines() -> list[str]:
    """The CLI's help on axes: one line per axis, its values and default."""
    width = max(len(axis.name) for axis in AXES)
    return [f"  {axis.name:<{width}}  {' | '.join(v.pattern for v in axis.values)}  (default {axis.default})"
            for axis in AXES]
