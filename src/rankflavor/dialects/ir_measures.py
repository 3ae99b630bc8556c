"""ir_measures' measure strings (`ir_measures.nDCG@10`, `ir_measures.AP(rel=2)@100`, `ir_measures.IPrec@0.1`,
`ir_measures.RBP(p=0.8,rel=1)`, ...), read into rankflavor's metrics with the conventions of the provider that
ir_measures 0.4.3's DefaultPipeline picks for each (ir_measures/__init__.py: the first available provider that
supports the measure, in the order runtime, pytrec_eval, cwl_eval, compat, pyndeval, judged, msmarco, gdeval,
accuracy, ranx; providers/fallback_provider.py).

Grammar (ir_measures/util.py parse_measure): the head after `ir_measures.` is a Python expression
`Name(k=v,...)@x`, read with `ast`: values are numbers, quoted strings, True/False and dicts; a negative
number (`rel=-1`) is an expression ir_measures refuses. rankflavor also reads a bare word as a string
(`dcg=exp-log2` for `dcg='exp-log2'`). Each measure's parameters, types, defaults and required ones come from
ir_measures/measures/*.py (an int is no float there: `IPrec@1` and `RBP(p=1)` are refused, write 1.0); a bool
is refused where an int is due. Aliases: MAP, MRR, NDCG, Precision, Recall, RPrec, BPref, SetRelP
(SetP(relative=True)), NumRelRet (NumRet(rel=1)). A name ir_measures does not know (`ndcg`) is None here.

Conventions, each from the file named (all: ir_measures/providers/base.py Evaluator.iter_calc yields
measure.DEFAULT = 0 for every qrels query the provider did not score: missing=zero; run queries absent from the
qrels are never scored):

- pytrec_eval (providers/pytrec_eval_provider.py) computes P@k (P_k), RR (recip_rank), AP[@k] (map, map_cut_k),
  R@k (recall_k), Success@k, Rprec, Bpref, IPrec@x, SetP, SetRelP, SetR, SetF, SetAP, NumRet, NumRelRet,
  NumRel (rel=1 only: "relevance_level doesn't flow through to num_rel"), infAP and nDCG[@k] with dcg='log2':
  RelevanceEvaluator(qrels, [name], relevance_level=rel, judged_docs_only_flag=judged_only). So rel= is
  rel_level (at least 1: pytrec_eval refuses relevance_level 0), judged_only=True is trec_eval -J
  (unjudged=skip), and pytrec_eval's float32 scores (precision=f32, as `pytrec_eval.NAME` in dialects/pytrec_eval.py).
  IPrec@x asks for iprec_at_recall_{x:.2f}: the level rounded to two decimals, counted as trec_eval 9 does
  (count=add0.9). SetF(beta=b) asks for set_F with parameter b, which trec_eval reads as beta²
  (metrics/fmeasure.py): f(beta=sqrt(b)), beta² = b exactly. nDCG(gains={...}) maps each qrels grade through
  gains.get(g, g) before
  pytrec_eval: gain={...,*:g} (tests/peers/test_ir_measures.py); its grades and gains are ints >= 0 (a negative
  number is no value in ir_measures' grammar). The provider puts a plain nDCG, NumRet and NumQ into the first
  pytrec_eval invocation it built, which may be one with gains or judged_only=True: what is computed here is the
  measure as ir_measures computes it asked alone.
- msmarco (providers/msmarco_provider.py, bin/msmarco_eval.py) computes RR@k: the run sorted by (-score, doc id)
  (ties=docid_asc, float64), a doc relevant when its raw grade >= rel (negative=keep), 0 without one.
- judged (providers/judged_provider.py) computes Judged[@k]: sorted by (-score, doc id), a doc judged when it is
  in the qrels, whatever its grade (negative=keep), over min(k, list length): the `judged` metric.
- gdeval (providers/gdeval_provider.py running bin/gdeval.pl) computes nDCG(dcg='exp-log2')@k and ERR@k: the
  `ir_measures.gdeval` preset's axes (dialects/presets.py); gdeval.pl needs numeric topic ids and grades <= 4.
- cwl_eval (providers/cwl_eval.py, cwl-eval 1.0.12) computes RBP(p=..,rel=N): qrels grades clipped at 0 and made
  binary at rel (negative=zero; rel=0 is refused: a clipped negative grade would be relevant), unjudged docs
  gain 0, the run sorted by score with Python's stable sort
  (ties=input), read to max_n=1000 ranks (run_depth=1000): rbp(p=..,scale=binary) rel_level=N. cwl's weights
  are normalised over those 1000 ranks (cwl/ruler/measures/cwl_metrics.py w_vector: W1 = 1/sum p^i), which is
  (1 - p) times 1/(1 - p^1000): refused where that factor differs from 1 in float64 (p > 0.96326). The same
  provider computes BPM, SDCG, NERR8..11, INST, INSQ (its only provider) and AP@cwl_eval: the C/W/L family
  (metrics/cwl.py) under the same axes, its grades mapped as the provider maps them (ir_measures_providers.py).

What no flavor expresses (tested in tests/peers/test_ir_measures_names.py): with judged_only=True, IPrec on a list
that -J empties is 0/0 = nan in trec_eval 9's m_iprec_at_recall.c when the level counts no relevant doc;
rankflavor scores that list 0.

Refused, with the reason: what no available provider computes (ir_measures raises "Unsupported measures"):
RBP without rel (cwl_eval requires it), RBP@k, ERR and nDCG(dcg='exp-log2') without @k (gdeval requires k; the
ranx provider that would take the latter fails on string query ids with ranx 0.3.21: "DataFrame Query IDs column
dtype must be `object`"), RR(judged_only=True)@k, NumRel(rel=N) for N != 1, exp-log2 with gains or judged_only;
infAP is rankflavor's `infap` (metrics/infap.py). The diversity measures (alpha_nDCG, alpha_DCG, ERR_IA,
nERR_IA, NRBP, nNRBP, AP_IA (alias MAP_IA), P_IA, StRecall) are pyndeval's: dialects/ndeval.py
`ir_measures_measure` (a cutoff required, at most 20; NRBP, nNRBP and AP_IA take none). NumQ is pytrec_eval's num_q (1 per
query scored; a query the run misses is left out where ir_measures lists it as 0: the sum is the same); Compat
and Accuracy are their providers' (dialects/ir_measures_providers.py, which also reads `NAME@provider`: a provider
other than the one picked).
"""

from __future__ import annotations

import ast
import functools
import re
from typing import Any, NamedTuple

from rankflavor import registry
from rankflavor.dialects import ir_measures_providers as providers
from rankflavor.dialects import ndeval
from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS
from rankflavor.errors import SpecError

PEER = "ir_measures"
PREFIX = "ir_measures."

_NOT_GIVEN: Any = providers.NOT_GIVEN


class MeasureParam(NamedTuple):
    """One parameter of an ir_measures measure, as its SUPPORTED_PARAMS declares it."""

    kind: type
    default: Any = _NOT_GIVEN  # _NOT_GIVEN: optional without a default, unless required
    required: bool = False
    choices: tuple[Any, ...] = ()  # the values allowed (none listed: any of its type)


_CUT, _REL, _JUDGED = MeasureParam(int), MeasureParam(int, 1), MeasureParam(bool, False)
_CUT_REQUIRED = MeasureParam(int, required=True)
_T, _RELS = MeasureParam(float, 1.0), {"min_rel": MeasureParam(int, 0), "max_rel": MeasureParam(int, required=True)}
# ir_measures name -> its parameters (ir_measures/measures/*.py SUPPORTED_PARAMS) and its `@` parameter
MEASURES: dict[str, tuple[dict[str, MeasureParam], str]] = {
    "P": ({"cutoff": _CUT_REQUIRED, "rel": _REL, "judged_only": _JUDGED}, "cutoff"),
    "RR": ({"cutoff": _CUT, "rel": _REL, "judged_only": _JUDGED}, "cutoff"),
    "AP": ({"cutoff": _CUT, "rel": _REL, "judged_only": _JUDGED}, "cutoff"),
    "R": ({"cutoff": _CUT_REQUIRED, "rel": _REL, "judged_only": _JUDGED}, "cutoff"),
    "Success": ({"cutoff": _CUT_REQUIRED, "rel": _REL, "judged_only": _JUDGED}, "cutoff"),
    "Rprec": ({"rel": _REL, "judged_only": _JUDGED}, "cutoff"),
    "nDCG": ({"cutoff": _CUT, "dcg": MeasureParam(str, "log2", choices=("log2", "exp-log2")), "gains": MeasureParam(dict),
              "judged_only": _JUDGED}, "cutoff"),
    "Bpref": ({"rel": _REL}, "cutoff"),
    "infAP": ({"rel": _REL}, "cutoff"),
    "IPrec": ({"recall": MeasureParam(float, required=True), "rel": _REL, "judged_only": _JUDGED}, "recall"),
    "Judged": ({"cutoff": _CUT}, "cutoff"),
    "ERR": ({"cutoff": _CUT}, "cutoff"),
    "RBP": ({"cutoff": _CUT, "p": MeasureParam(float, 0.8), "rel": MeasureParam(int)}, "cutoff"),
    "NumRet": ({"rel": MeasureParam(int)}, "cutoff"),
    "NumRel": ({"rel": _REL}, "cutoff"),
    "NumQ": ({}, "cutoff"),
    "Compat": ({"p": MeasureParam(float, 0.95), "normalize": MeasureParam(bool, True)}, "cutoff"),
    "Accuracy": ({"cutoff": _CUT, "rel": _REL}, "cutoff"),
    "SetP": ({"rel": _REL, "relative": MeasureParam(bool, False), "judged_only": _JUDGED}, "cutoff"),
    "SetR": ({"rel": _REL}, "cutoff"),
    "SetF": ({"rel": _REL, "beta": MeasureParam(float, 1.0), "judged_only": _JUDGED}, "cutoff"),
    "SetAP": ({"rel": _REL, "judged_only": _JUDGED}, "cutoff"),
    # the diversity measures (measures/diversity.py), computed by pyndeval: dialects/ndeval.py
    **{name: ({"cutoff": _CUT, "rel": _REL, "judged_only": _JUDGED}, "cutoff") for name in ("ERR_IA", "nERR_IA", "P_IA")},
    **{name: ({"cutoff": _CUT, "rel": _REL, "alpha": MeasureParam(float, 0.5), "judged_only": _JUDGED}, "cutoff")
       for name in ("alpha_DCG", "alpha_nDCG")},
    **{name: ({"rel": _REL, "alpha": MeasureParam(float, 0.5), "beta": MeasureParam(float, 0.5)}, "cutoff")
       for name in ("NRBP", "nNRBP")},
    "StRecall": ({"cutoff": _CUT, "rel": _REL}, "cutoff"),
    "AP_IA": ({"rel": _REL, "judged_only": _JUDGED}, "cutoff"),
    # the C/W/L measures (measures/bpm.py, sdcg.py, nerr.py, inst.py), computed by cwl_eval: ir_measures_providers.py
    "BPM": ({"cutoff": _CUT_REQUIRED, "T": _T, **_RELS}, "cutoff"),
    "SDCG": ({"cutoff": _CUT_REQUIRED, "dcg": MeasureParam(str, "log2", choices=("log2",)), **_RELS}, "cutoff"),
    **{name: ({"cutoff": _CUT_REQUIRED, **_RELS}, "cutoff") for name in ("NERR8", "NERR9")},
    "NERR10": ({"p": MeasureParam(float, 0.9), **_RELS}, "cutoff"),
    **{name: ({"T": _T, **_RELS}, "cutoff") for name in ("NERR11", "INST", "INSQ")},
}
# alias -> (measure, the parameters it fixes) (ir_measures/measures/*.py register(..., aliases))
ALIASES: dict[str, tuple[str, dict[str, Any]]] = {
    "MAP": ("AP", {}), "MRR": ("RR", {}), "NDCG": ("nDCG", {}), "Precision": ("P", {}), "Recall": ("R", {}),
    "RPrec": ("Rprec", {}), "BPref": ("Bpref", {}), "SetRelP": ("SetP", {"relative": True}),
    "NumRelRet": ("NumRet", {"rel": 1}), "α_DCG": ("alpha_DCG", {}), "α_nDCG": ("alpha_nDCG", {}),
    "MAP_IA": ("AP_IA", {}),
}
_HEAD = re.compile(r"[A-Za-z_]+")
_NAME = re.compile(r"[^\W\d]\w*")  # a measure's name (NERR8, α_DCG)


def measure_metrics() -> dict[str, str]:
    """ir_measures measure -> rankflavor metric, from each family's declared ir_measures names (`P@k` -> P: p);
    what the provider computes under a measure's parameters is _resolve's."""
    return _measure_metrics(registry.version())


@functools.lru_cache(maxsize=1)
def _measure_metrics(version: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for metric, names in registry.peer_names(PEER).items():
        for name in names:
            out.setdefault(_HEAD.match(name).group(0), metric)  # type: ignore[union-attr]
    return out


def metric_names(metric: str) -> tuple[str, ...]:
    """The ir_measures names that resolve to a metric (for `rankflavor metrics` and the docs)."""
    return registry.peer_names(PEER).get(metric, ())


PYTREC_AXES = {"precision": "f32", "missing": "zero"}
MSMARCO_AXES = {"ties": "docid_asc", "negative": "keep", "missing": "zero"}
JUDGED_AXES = {"ties": "docid_asc", "negative": "keep", "missing": "zero"}
CWL_AXES = {"ties": "input", "negative": "zero", "missing": "zero", "run_depth": "1000"}
CWL_DEPTH = 1000  # cwl/ruler/ranking.py RankingMaker max_n, as ir_measures' cwl_eval.py passes it
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")


def _value(node: ast.AST, text: str, where: str) -> Any:
    """A parameter's value as ir_measures/util.py _ast_to_value reads it (and a bare word as a string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
        return node.value
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise SpecError(f"{where}: ir_measures reads a dict of constants, e.g. gains={{0:0,1:1,2:3}}")
        return {_value(k, text, where): _value(v, text, where) for k, v in zip(node.keys, node.values, strict=True)}
    segment = ast.get_source_segment(text, node) or ""
    if _BARE.fullmatch(segment) and segment not in ("None", "True", "False"):
        return segment
    raise SpecError(f"{where}: ir_measures reads values that are numbers, quoted strings, True/False or dicts, not "
                    f"{segment!r} (a negative number is an expression it refuses)")


def parse_head(text: str) -> tuple[str, dict[str, Any], str | None] | None:
    """(measure name, parameters as written, the `@` value under its parameter's name; the provider of a trailing
    `@name`, else None) of a head in ir_measures' grammar, or None when it is no such expression."""
    where = f"ir_measures.{text}"
    try:
        body = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    at: Any = _NOT_GIVEN
    provider = None
    if isinstance(body, ast.BinOp) and isinstance(body.op, ast.MatMult) and isinstance(body.right, ast.Name):
        provider, body = body.right.id, body.left  # `P@10@trectools`: a name after `@` is the provider
    if isinstance(body, ast.BinOp) and isinstance(body.op, ast.MatMult):
        at, body = body.right, body.left
    args: dict[str, Any] = {}
    if isinstance(body, ast.Call):
        if body.args or any(k.arg is None for k in body.keywords):
            raise SpecError(f"{where}: ir_measures' parameters are named, e.g. AP(rel=2)")
        args = {k.arg: _value(k.value, text, where) for k in body.keywords if k.arg is not None}
        body = body.func
    if not isinstance(body, ast.Name):
        return None
    name = body.id
    if at is not _NOT_GIVEN:
        base = ALIASES.get(name, (name, {}))[0]
        args[MEASURES[base][1] if base in MEASURES else "cutoff"] = _value(at, text, where)
    return name, args, provider


def _checked(name: str, given: dict[str, Any], where: str) -> tuple[str, dict[str, Any]]:
    """The measure and every parameter (defaults filled), checked as ir_measures' validate_params does."""
    base, fixed = ALIASES.get(name, (name, {}))
    declared = MEASURES[base][0]
    values = {**fixed, **given}
    for key, value in values.items():
        if key not in declared:
            raise SpecError(f"{where}: ir_measures' {base} has no parameter {key!r}; its parameters: "
                            f"{', '.join(declared) or 'none'}")
        kind = declared[key].kind
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            hint = f" (write {float(value)!r})" if kind is float and isinstance(value, int) else ""
            raise SpecError(f"{where}: ir_measures' {base} takes {key} as {kind.__name__}, not {value!r}{hint}")
        if declared[key].choices and value not in declared[key].choices:
            raise SpecError(f"{where}: ir_measures' {base} takes {key} among {', '.join(map(repr, declared[key].choices))}"
                            f", not {value!r}")
    for key, param in declared.items():
        if key not in values:
            if param.required:
                at = f", written after @ (e.g. {_example_at(base)})" if key == MEASURES[base][1] else ""
                raise SpecError(f"{where}: ir_measures' {base} requires {key}{at}")
            values[key] = param.default
    return base, values


def _example_at(name: str) -> str:
    """The measure written with an example of its `@` parameter: P@10, IPrec@0.5."""
    declared, at_name = MEASURES[ALIASES.get(name, (name, {}))[0]]
    return f"{name}@{0.5 if at_name in declared and declared[at_name].kind is float else 10}"


def measure(name: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None) -> PeerMeasure | None:
    """The measure `ir_measures.HEAD` stands for (`name` is the head after the prefix, as written: spec.py
    keeps it unread), or None when ir_measures has no such measure. One it refuses, or one no available
    provider computes as rankflavor can, is a SpecError."""
    parsed = parse_head(name)
    if parsed is None:
        return None
    head, given, provider = parsed
    where = f"ir_measures.{name}"
    if head not in MEASURES and head not in ALIASES:
        return None
    if params or cutoff is not None:  # (spec.py leaves them unread for this table)
        raise SpecError(f"{where}: write ir_measures' measure as ir_measures parses it, e.g. ir_measures.AP(rel=2)@100")
    at_name = MEASURES[ALIASES.get(head, (head, {}))[0]][1]
    if provider is not None and provider not in providers.PROVIDERS and at_name not in given:  # (`P@x`)
        providers.refuse_at_word(provider, f"{head}'s {at_name} (e.g. {_example_at(head)})", where)
    base, values = _checked(head, given, where)
    cut = values.get("cutoff")
    cut = None if cut is _NOT_GIVEN else cut
    if cut is not None and cut < 1:
        raise SpecError(f"{where}: a cutoff must be at least 1")
    found = _resolve(base, values, cut, where, provider)
    if registry.find(found.metric) is None:
        raise SpecError(f"{where}: ir_measures computes {base} with pytrec_eval's {base}; rankflavor has no "
                        f"{found.metric} metric yet")
    reads = registry.get(found.metric).reads
    return found._replace(axes={a: v for a, v in found.axes.items() if a in reads})


def _resolve(base: str, v: dict[str, Any], cut: int | None, where: str, provider: str | None) -> PeerMeasure:
    """What the provider named, or else the one DefaultPipeline picks for the measure, computes."""
    if provider is not None:
        providers.checked_provider(provider, base, v, where)
    chosen = provider or providers.default_provider(base, v)
    if chosen in (None, "ranx"):  # (ir_measures refuses it, or its ranx provider fails: _by_measure says why)
        return _by_measure(base, v, cut, where)
    if base in providers.NOT_YET.get(chosen, {}):
        raise SpecError(f"{where}: {base} by ir_measures' {chosen} provider: {providers.NOT_YET[chosen][base]}")
    own = providers.own_measure(chosen, base, v, cut, CWL_AXES, where)
    if own is not None:
        return own
    if chosen == "msmarco":
        return PeerMeasure("mrr", cut, {}, {**MSMARCO_AXES, "rel_level": str(v["rel"])})
    if chosen == "pytrec_eval":
        if base == "NumQ":  # (pytrec_eval's num_q: 1 per query scored; ir_measures lists a missing one as 0)
            return PeerMeasure("num_q", None, {}, {"missing": "skip"})
        return _pytrec(base, v, cut, where)
    return _by_measure(base, v, cut, where)


def _by_measure(base: str, v: dict[str, Any], cut: int | None, where: str) -> PeerMeasure:
    """What the provider DefaultPipeline picks computes, by measure; the refusals of what no provider computes."""
    if base == "Judged":
        return PeerMeasure("judged", cut, {}, dict(JUDGED_AXES))
    if base in ndeval.IR_MEASURES:
        return ndeval.ir_measures_measure(base, v, cut, where)
    if base in ("ERR", "nDCG") and (base == "ERR" or v["dcg"] == "exp-log2"):
        return _gdeval(base, v, cut, where)
    if base == "RBP":
        return _rbp(v, cut, where)
    if base == "RR" and cut is not None:
        if v["judged_only"]:
            raise SpecError(f"{where}: no ir_measures provider computes RR@k with judged_only=True (pytrec_eval "
                            "takes no cutoff for RR, msmarco no judged_only): ir_measures refuses it")
        return PeerMeasure("mrr", cut, {}, {**MSMARCO_AXES, "rel_level": str(v["rel"])})
    return _pytrec(base, v, cut, where)


def _pytrec(base: str, v: dict[str, Any], cut: int | None, where: str) -> PeerMeasure:
    if v.get("rel") == 0:
        raise SpecError(f"{where}: ir_measures passes rel=0 to pytrec_eval as relevance_level, which pytrec_eval "
                        "refuses ('Argument relevance_level should be positive', pytrec_eval/__init__.py)")
    axes = {**PYTREC_AXES, "rel_level": str(v.get("rel", 1))}
    if v.get("judged_only"):
        axes["unjudged"] = "skip"
    metric, params = measure_metrics().get(base, ""), {}
    if base == "NumRet":
        metric = "num_ret" if v["rel"] is _NOT_GIVEN else "num_rel_ret"
        axes["rel_level"] = "1" if v["rel"] is _NOT_GIVEN else str(v["rel"])
    elif base == "NumRel":
        if v["rel"] != 1:
            raise SpecError(f"{where}: ir_measures computes NumRel only with rel=1 (pytrec_eval_provider.py: "
                            "pytrec_eval's relevance_level does not reach num_rel) and refuses rel={v['rel']}")
        metric = "num_rel"
    elif base == "SetP":
        metric = "recall_cap" if v["relative"] else "p"
    elif base == "SetF":
        if v["beta"] <= 0:
            raise SpecError(f"{where}: pytrec_eval's set_F reads beta as beta² > 0; rankflavor's f needs beta > 0")
        metric, params = "f", {"beta": f"sqrt({v['beta']!r})"}
    elif base == "IPrec":
        metric, params = "iprec", {"level": f"{v['recall']:.2f}", "count": "add0.9"}
    elif base == "nDCG" and v["gains"] is not _NOT_GIVEN:
        axes["gain"] = _gain_table(v["gains"], where)
    return PeerMeasure(metric, cut if base in ("P", "AP", "R", "Success", "nDCG") else None, params, axes)


def _gain_table(gains: dict[Any, Any], where: str) -> str:
    """nDCG(gains={...}): each grade g becomes gains.get(g, g) before pytrec_eval (pytrec_eval_provider.py)."""
    pairs = list(gains.items())
    if not all(isinstance(x, int) and not isinstance(x, bool) for pair in pairs for x in pair):
        raise SpecError(f"{where}: ir_measures' gains map int grades to int gains (pytrec_eval reads int grades)")
    if not pairs:
        return "linear"
    return "{" + ",".join(f"{g}:{gain}" for g, gain in sorted(pairs)) + ",*:g}"


def _gdeval(base: str, v: dict[str, Any], cut: int | None, where: str) -> PeerMeasure:
    if base == "nDCG" and (v["gains"] is not _NOT_GIVEN or v["judged_only"]):
        raise SpecError(f"{where}: no ir_measures provider computes nDCG(dcg='exp-log2') with gains or "
                        "judged_only (gdeval_provider.py and ranx_provider.py take neither): ir_measures refuses it")
    if cut is None:
        if base == "ERR":
            raise SpecError(f"{where}: gdeval needs @k and no other provider computes ERR; write ir_measures.ERR@k")
        raise SpecError(f"{where}: gdeval needs @k, and the ranx provider that takes nDCG(dcg='exp-log2') without it "
                        "fails on string query ids with ranx 0.3.21 (ranx_provider.py); write "
                        "ir_measures.nDCG(dcg='exp-log2')@k")
    return PeerMeasure("ndcg" if base == "nDCG" else "err", cut, {}, dict(PRESETS["ir_measures.gdeval"].axes))


def _rbp(v: dict[str, Any], cut: int | None, where: str) -> PeerMeasure:
    if v["rel"] is _NOT_GIVEN:
        raise SpecError(f"{where}: ir_measures computes RBP only with cwl_eval, which requires rel= (cwl_eval.py: "
                        "rel=Any(required=True)); without it ir_measures refuses RBP: write e.g. RBP(p=0.8,rel=1)")
    if cut is not None:
        raise SpecError(f"{where}: ir_measures' cwl_eval computes RBP without a cutoff only; drop @{cut}")
    if v["rel"] < 1:
        raise SpecError(f"{where}: cwl_eval clips negative grades to 0 before comparing them with rel (cwl_eval.py "
                        "CwlEvaluator: max(relevance, 0)), so at rel=0 a negative grade is relevant; rankflavor reads "
                        "a negative grade as itself for relevance: refused for rel < 1")
    p = v["p"]
    if not 0 < p < 1:
        raise SpecError(f"{where}: rankflavor's rbp needs 0 < p < 1")
    if 1 - p ** CWL_DEPTH != 1:
        raise SpecError(f"{where}: cwl_eval scales RBP by 1/(1 - p^{CWL_DEPTH}) (its weights normalised over "
                        f"{CWL_DEPTH} ranks: cwl/ruler/measures/cwl_metrics.py w_vector), {1 / (1 - p ** CWL_DEPTH)!r} "
                        "for this p; rankflavor's rbp does not: refused for p > 0.96326")
    return PeerMeasure("rbp", None, {"p": repr(p), "scale": "binary"}, {**CWL_AXES, "rel_level": str(v["rel"])})


def knows(head: str) -> bool:
    """Whether the measure a head (as written, after the prefix) names is one ir_measures knows."""
    match = _NAME.match(head)
    return match is not None and match.group(0) in (*MEASURES, *ALIASES)


def spellings(name: str) -> list[str]:
    """ir_measures' measure names that `name` (after the prefix) may have meant: its case (`ndcg` -> nDCG)."""
    known = [*MEASURES, *ALIASES]
    return [m for m in known if m.lower() == name.lower() and m != name]
