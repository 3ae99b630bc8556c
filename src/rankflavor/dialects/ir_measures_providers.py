"""ir_measures 0.4.3's providers: which computes which measure, the one its DefaultPipeline picks, and how the
providers that ir_measures.py (the dialect) does not read itself compute theirs, each as a flavor of the same
families (a provider is a set of conventions, never a code path of its own).

Which provider supports what is each provider's SUPPORTED_MEASURES (ir_measures/providers/*.py), restated in
`SUPPORTED`: per measure, the parameters it restricts and the values it takes (`REQUIRED`: any given value;
`NOT_GIVEN` among the values: the parameter left out). `ir_measures.NAME` is read as DefaultPipeline reads it
(ir_measures/__init__.py: the first provider of `PIPELINE` that supports the measure; trectools is commented out
there, "buggy"); `ir_measures.NAME@provider` names another (`P@10@trectools`, `Compat@compat`): ir_measures'
grammar has no name after `@` (a cutoff or a recall level is a number), so a trailing `@word` is the provider.

The conventions read here, each from the file named:
- compat (providers/compat_provider.py): `compat` (metrics/compat.py) over the run sorted by score descending,
  then doc id ascending (ties=docid_asc), its ideal's docs of one grade and one run score in the qrels' order
  (`ideal_ties=qrels`: `compatibility` sorts the qrels dict's relevant docs by score, then by grade, both stable),
  a query of the qrels missing from the run 0 (missing=zero).
- accuracy (providers/accuracy_provider.py): `accuracy` (metrics/accuracy.py) over the run sorted by score with
  Python's stable sort (ties=input); a query without a relevant doc in the top k is not reported (empty=skip;
  without a nonrelevant one there ir_measures raises ZeroDivisionError); nor is one the run misses (its
  Evaluator's iter_calc fills no default: missing=skip).
- cwl_eval (providers/cwl_eval.py): P@k as `cwl_p@k` with `grades=rel(N)` (its EU, the weights 1/k dotted with
  the binary gains in cwl_eval's order: 0.6000000000000001 where 3/5 is 0.6) and RR as `mrr` (1/r exactly: every
  other weighted gain is 0), under the cwl axes of ir_measures.py (grades clipped at 0 and made binary at rel,
  ties=input, 1000 ranks). Its AP (over the relevant docs retrieved, not R),
  BPM, SDCG, NERR8..11, INST and INSQ are the C/W/L family (metrics/cwl.py: cwl_ap, cwl_bpm, ...) under the same
  axes, RankingMaker(min_gain=0, max_gain=1, cost 1 a doc, max_n=1000) its depth=1000 max_gain=1, each the class
  _irm_convert_to_measure builds: BPMCWLMetric(T, cutoff) cwl_bpm(T, K=cutoff), NDCGCWLMetric(cutoff)
  cwl_sdcg@cutoff, NERReq8/9CWLMetric(cutoff) cwl_nerr8/9@cutoff, NERReq10CWLMetric(p) cwl_nerr10(phi=p),
  NERReq11CWLMetric(T), INSTCWLMetric(T), INSQCWLMetric(T), APCWLMetric(). The grades, clipped at 0 first
  (CwlEvaluator: max(relevance, 0)), are the gains as IrmQrelHandler.put_value makes them: AP's binary at rel
  (`grades=rel(N)`), the others' clipped to [min_rel, max_rel] and scaled to (g - min_rel) / (max_rel - min_rel)
  (`grades=MIN:MAX`; min_rel defaults to 0, max_rel is required: measures/*.py).
- trectools (providers/trectools_provider.py, trectools 0.0.50 trectools/trec_eval.py with trec_eval=False): the
  run sorted by query, then score descending with pandas' stable sort (ties=input), a doc relevant when its
  grade > 0, unjudged docs 0, a qrels query the run misses 0 (missing=zero). P@k is get_precision (relevant in
  the top k over k), RR get_reciprocal_rank, AP[@k] get_map (over every relevant judgment: ap[@k]), nDCG[@k]
  get_ndcg (gain the grade for dcg=log2, 2^grade - 1 for exp-log2; the ideal the relevant judgments by grade,
  cut at k). Where trectools has no value it yields NaN (AP of a query without a relevant judgment, nDCG of one
  with no relevant doc in the top k): rankflavor gives 0 (empty=zero; a list without a relevant doc scores 0).
  Its Rprec (KeyError on a run query absent from the qrels), Bpref (a negative grade counts as nonrelevant in the
  denominator only) and RBP (ties averaged over runs of equal scores that cross queries) are refused.
- pyndeval (the diversity measures, issue 26 item 3) and runtime (measures made with ir_measures.define at run
  time: none has a name to write): none is read.
"""

from __future__ import annotations

import difflib
from typing import Any

from rankflavor.dialects.measure import PeerMeasure
from rankflavor.errors import SpecError

NOT_GIVEN: Any = object()  # a parameter left out (ir_measures' NOT_PROVIDED)
REQUIRED: Any = object()  # any value, but one must be given

# ir_measures/__init__.py DefaultPipeline, in order
PIPELINE = ("runtime", "pytrec_eval", "cwl_eval", "compat", "pyndeval", "judged", "msmarco", "gdeval", "accuracy",
            "ranx")
PROVIDERS = (*PIPELINE, "trectools")

_BINARY = {"judged_only": (False,)}
_REL1 = {"rel": (1,), "judged_only": (False,)}
_UNCUT = {"cutoff": (NOT_GIVEN,)}
_CWL = {"min_rel": REQUIRED, "max_rel": REQUIRED}
_DIVERSITY = ("ERR_IA", "nERR_IA", "alpha_DCG", "alpha_nDCG", "NRBP", "nNRBP", "AP_IA", "P_IA", "StRecall")
# provider -> measure -> the parameters it restricts: the values allowed (providers/*.py SUPPORTED_MEASURES)
SUPPORTED: dict[str, dict[str, dict[str, Any]]] = {
    "runtime": {},
    "pytrec_eval": {"P": {}, "RR": _UNCUT, "Rprec": {}, "AP": {}, "nDCG": {"dcg": ("log2",)}, "R": {}, "Bpref": {},
                    "NumRet": {}, "NumQ": {}, "NumRel": {"rel": (1,)}, "SetAP": {}, "SetF": {}, "SetP": {},
                    "SetR": {}, "Success": {}, "IPrec": {}, "infAP": {}},
    "cwl_eval": {"P": _BINARY, "RR": {**_BINARY, **_UNCUT}, "AP": {**_BINARY, **_UNCUT},
                 "RBP": {"rel": REQUIRED, **_UNCUT}, "BPM": {"max_rel": REQUIRED},
                 "SDCG": {"dcg": ("log2",), "max_rel": REQUIRED, "cutoff": REQUIRED},
                 "NERR8": {"max_rel": REQUIRED, "cutoff": REQUIRED}, "NERR9": {"max_rel": REQUIRED, "cutoff": REQUIRED},
                 "NERR10": {"max_rel": REQUIRED}, "NERR11": {"max_rel": REQUIRED}, "INST": {"max_rel": REQUIRED},
                 "INSQ": {"max_rel": REQUIRED}},
    "compat": {"Compat": {}},
    "pyndeval": {name: {} for name in _DIVERSITY},
    "judged": {"Judged": {}},
    "msmarco": {"RR": _BINARY},
    "gdeval": {"nDCG": {"dcg": ("exp-log2",), "gains": (NOT_GIVEN,), **_BINARY, "cutoff": REQUIRED},
               "ERR": {"cutoff": REQUIRED}},
    "accuracy": {"Accuracy": {}},
    "ranx": {"P": _BINARY, "SetP": _BINARY, "RR": {**_BINARY, **_UNCUT}, "Rprec": _BINARY, "AP": _BINARY,
             "nDCG": {"gains": (NOT_GIVEN,), **_BINARY}, "R": _BINARY, "SetR": {}, "NumRet": {"rel": REQUIRED},
             "Success": {**_BINARY, "cutoff": REQUIRED}},
    "trectools": {"P": _REL1, "RR": {**_REL1, **_UNCUT}, "Rprec": _REL1, "AP": _REL1, "nDCG": {"gains": (NOT_GIVEN,),
                  **_BINARY}, "Bpref": {"rel": (1,)}, "RBP": {}},
}
_RANX = ("ir_measures' ranx provider fails on every string query id with ranx 0.3.21 (\"DataFrame Query IDs column "
         "dtype must be `object`\"); ranx's own conventions are ranx.NAME")
NOT_YET: dict[str, dict[str, str]] = {  # provider -> measure -> why rankflavor does not read it from the provider yet
    "ranx": {name: _RANX for name in SUPPORTED["ranx"]},
    "trectools": {"Rprec": "trectools' get_rprec raises KeyError on a run query absent from the qrels: not read",
                  "Bpref": "trectools' get_bpref counts a negative grade as nonrelevant in its denominator only and "
                           "not among the nonrelevant docs ranked: not yet supported",
                  "RBP": "trectools' get_rbp averages the weights of ties over runs of equal scores that cross "
                         "queries: not yet supported"},
}
TRECTOOLS_AXES = {"ties": "input", "negative": "unjudged", "missing": "zero"}
COMPAT_AXES = {"ties": "docid_asc", "missing": "zero"}
ACCURACY_AXES = {"ties": "input", "empty": "skip", "missing": "skip"}


def supports(provider: str, base: str, values: dict[str, Any]) -> bool:
    """Whether a provider computes the measure with these parameters (defaults filled), as its supports() says."""
    if base not in SUPPORTED.get(provider, {}):
        return False
    for key, allowed in SUPPORTED[provider][base].items():
        value = values.get(key, NOT_GIVEN)
        if allowed is REQUIRED:
            if value is NOT_GIVEN:
                return False
        elif not any(value is a or (value == a and type(value) is type(a)) for a in allowed):
            return False
    return True


def default_provider(base: str, values: dict[str, Any]) -> str | None:
    """The provider ir_measures' DefaultPipeline picks for the measure (None: none, ir_measures refuses it)."""
    return next((p for p in PIPELINE if supports(p, base, values)), None)


def _close(provider: str) -> list[str]:
    return difflib.get_close_matches(provider, PROVIDERS, n=2, cutoff=0.5)


def refuse_at_word(word: str, parameter: str, where: str) -> None:
    """The SpecError of a word after @ that is neither the measure's `@` parameter (`P@x`) nor a provider."""
    hint = f"; did you mean {' or '.join(_close(word))}?" if _close(word) else ""
    raise SpecError(f"{where}: {word!r} after @ is neither {parameter} nor one of ir_measures' providers "
                    f"({', '.join(PROVIDERS)}){hint}")


def checked_provider(provider: str, base: str, values: dict[str, Any], where: str) -> None:
    """A SpecError unless `provider` is ir_measures' and computes the measure as written, and rankflavor reads it."""
    if provider not in PROVIDERS:
        hint = f"did you mean {' or '.join(_close(provider))}? " if _close(provider) else ""
        raise SpecError(f"{where}: ir_measures has no provider {provider!r}; {hint}its providers: {', '.join(PROVIDERS)}")
    if not supports(provider, base, values):
        others = [p for p in PROVIDERS if supports(p, base, values)]
        raise SpecError(f"{where}: ir_measures' {provider} provider does not compute {base} with these parameters "
                        f"(its SUPPORTED_MEASURES); providers that do: {', '.join(others) or 'none'}")
    if base in NOT_YET.get(provider, {}):
        raise SpecError(f"{where}: {base} by ir_measures' {provider} provider: {NOT_YET[provider][base]}")


def own_measure(provider: str, base: str, v: dict[str, Any], cut: int | None, cwl_axes: dict[str, str],
                where: str) -> PeerMeasure | None:
    """What the providers this module reads compute (None: the dialect's own readings)."""
    if provider == "compat":
        return PeerMeasure("compat", None, {"p": repr(v["p"]), "normalize": str(v["normalize"]).lower(),
                                            "ideal_ties": "qrels"}, dict(COMPAT_AXES))
    if provider == "accuracy":
        if v["rel"] < 1:
            raise SpecError(f"{where}: ir_measures' accuracy counts an unjudged doc relevant at rel <= 0 "
                            "(qrel.get(doc, 0) >= rel); rankflavor reads an unjudged doc as not relevant: refused")
        return PeerMeasure("accuracy", cut, {}, {**ACCURACY_AXES, "rel_level": str(v["rel"])})
    if provider == "cwl_eval" and base in CWL_METRICS:
        return _cwl(base, v, cut, cwl_axes, where)
    if provider == "cwl_eval" and base in ("P", "RR"):
        if v["rel"] < 1:
            raise SpecError(f"{where}: cwl_eval clips negative grades to 0 before comparing them with rel, so at "
                            "rel=0 a negative grade is relevant: refused for rel < 1")
        if base == "P":  # (PrecisionCWLMetric(k): EU = np.dot of W(i) = 1/k and the binary gains, summed as it sums)
            return PeerMeasure("cwl_p", cut, {"grades": f"rel({v['rel']})"}, dict(cwl_axes))
        return PeerMeasure("mrr", None, {}, {**cwl_axes, "rel_level": str(v["rel"])})
    if provider == "trectools":
        return _trectools(base, v, cut)
    return None


# ir_measures' C/W/L measure -> the metric of its cwl class (providers/cwl_eval.py _irm_convert_to_measure)
CWL_METRICS = {"AP": "cwl_ap", "BPM": "cwl_bpm", "SDCG": "cwl_sdcg", "NERR8": "cwl_nerr8", "NERR9": "cwl_nerr9",
               "NERR10": "cwl_nerr10", "NERR11": "cwl_nerr11", "INST": "cwl_inst", "INSQ": "cwl_insq"}


def _cwl(base: str, v: dict[str, Any], cut: int | None, cwl_axes: dict[str, str], where: str) -> PeerMeasure:
    """A C/W/L measure of cwl_eval, its grades mapped as IrmQrelHandler.put_value maps them (`grades`)."""
    if base == "AP":  # (bin_rel_cutoff: 1 if max(grade, 0) >= rel else 0)
        return PeerMeasure("cwl_ap", None, {"grades": f"rel({v['rel']})"}, dict(cwl_axes))
    if v["min_rel"] >= v["max_rel"]:
        raise SpecError(f"{where}: ir_measures' cwl_eval requires min_rel < max_rel (IrmQrelHandler)")
    params = {"grades": f"{v['min_rel']}:{v['max_rel']}"}
    if base in ("BPM", "NERR11", "INST", "INSQ"):
        if v["T"] <= 0:
            raise SpecError(f"{where}: rankflavor's {CWL_METRICS[base]} needs T > 0")
        params["T"] = repr(v["T"])
    if base == "BPM":  # BPMCWLMetric(T, cutoff): the cutoff is its K, the cost the user spends
        params["K"] = str(cut)
    if base == "NERR10":
        params["phi"] = repr(v["p"])
    return PeerMeasure(CWL_METRICS[base], cut if base in ("SDCG", "NERR8", "NERR9") else None, params, dict(cwl_axes))


def _trectools(base: str, v: dict[str, Any], cut: int | None) -> PeerMeasure:
    axes = {**TRECTOOLS_AXES, "rel_level": "1"}
    if base == "nDCG":
        gain = "linear" if v["dcg"] == "log2" else "exp2"
        return PeerMeasure("ndcg", cut, {}, {**TRECTOOLS_AXES, "gain": gain})
    return PeerMeasure({"P": "p", "RR": "mrr", "AP": "map"}[base], cut, {}, axes)
