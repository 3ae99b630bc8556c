"""`rankflavor trec_eval -h [-m MEASURE ...]`: the flags in rankflavor's words, then each measure asked for with
`-m`: its trec_eval name, the flavor it is evaluated as, and that metric's description (the registry's)."""

from __future__ import annotations

from rankflavor.dropin.options import RequestedMeasure

USAGE = "usage: rankflavor trec_eval [flags] REL_INFO_FILE RESULTS_FILE   (RESULTS_FILE '-': standard input)"
FLAGS = """\
trec_eval 10.0's command line on rankflavor's engine: the same flags, the same lines, byte for byte.

  -q, --query_eval_wanted          also print every query's values, before the summary
  -m, --measure NAME[.PARAMS]      measures to print (repeatable; default: official). PARAMS as trec_eval reads
                                   them: P.5,10  iprec_at_recall..25,.5  Rprec_mult.0.5  utility.2,-1,0,0
                                   ndcg.1=3,2=9  relstring.20  11pt_avg..25,.5,.75  success.2,5
                                   sets: official, all_trec, set (prefs, all_prefs, qrels_jg need their -R)
  -a                               every standard measure: the same as -m all_trec (older trec_eval's -a)
  -c, --complete_rel_info_wanted   average over every query of the qrels; a query the run lacks scores 0
                                   (without -c, such a query stops trec_eval 10.0 with exit code 4)
  -l, --level_for_rel N            a doc is relevant from grade N (default 1); the gain measures (ndcg, G,
                                   rbp, ...) read grades as gains and ignore it, as trec_eval does
  -n, --nosummary                  no summary (`all`) lines
  -N, --Number_docs_in_coll N      docs in the collection (utility's fourth parameter reads it)
  -M, --Max_retrieved_per_topic N  read only the first N ranked docs of each query
  -J, --Judged_docs_only           drop the docs the qrels do not grade before ranking (trec_eval: do not)
  -D, --Debug_level N[.QID]        with .QID: evaluate that query only; trec_eval's debug prints are not made
  -R, --Rel_info_format F          qrels (default), prefs, qrels_prefs, qrels_jg
  -T, --Results_format F           trec_results, the one results format
  -Z, --Zscore FILE                print z-scores against FILE's lines `qid measure mean stddev`
  -o                               accepted and ignored (obsolete in trec_eval too)
  -v, --version                    the version (on stderr, as trec_eval prints it)
  -h, --help                       this help; with -m NAME, that measure's description
  --flavors                        (rankflavor) after the output, the flavor of each measure printed

Files: qrels lines `qid iter docno grade`; results lines `qid Q0 docno rank score runid` (ranked by score,
ties by docno descending, as trec_eval ranks them; the rank column is not read).
Exit codes: 1 bad flag or measure, 2 unreadable file or bad parameter, 4 a query of the qrels missing from
the results, 7 no query in both files, 255 unreadable z-score file. docs/trec_eval.md says what differs."""


def help_text(measures: tuple[RequestedMeasure, ...]) -> str:
    """The help page, with a paragraph per `-m` measure (a set: each of its measures)."""
    from rankflavor.dialects.trec_table import NICKNAMES, ORDER

    lines = [USAGE, "", FLAGS]
    names: list[str] = []
    for request in measures:
        for name in NICKNAMES.get(request.name, (request.name,)):
            if name not in names:
                names.append(name)
    if names:
        lines += ["", "Measures asked for:"]
    for name in names:
        lines.append(f"  {name}: {describe(name) if name in ORDER else 'not a trec_eval measure'}")
    return "\n".join(lines) + "\n"


SPECIAL = {
    "runid": "the run's id, the last field of the results file's last line (summary only)",
    "num_q": "the number of queries averaged (with -c, the queries of the qrels)",
    "relstring": "per query (-q), the grades of the first N ranked docs (default 10) as a string: 0-9, '>' above "
                 "9, '-' not in the qrels, '.' a negative grade",
    "dcg": "ndcg's numerator: the DCG of the ranking, linear gain (or the gains given: dcg.1=3,2=9)",
    "ideal_dcg": "ndcg's denominator: the DCG of the ideal ranking",
}


def describe(name: str) -> str:
    """One measure: what it is, and the flavor it is evaluated as."""
    from rankflavor import registry
    from rankflavor.dialects.trec_table import MEASURES, OTHER_FORMAT
    from rankflavor.dropin.measures import trec_flavor
    from rankflavor.dropin.trec_eval import REL_INFO_FORMATS

    if name in SPECIAL:
        return SPECIAL[name]
    if name in OTHER_FORMAT:
        return f"measured with -R {' or '.join(REL_INFO_FORMATS[1:])} (preference and judgment-group files)"
    kind, defaults = MEASURES[name]
    printed = f"{name}_{defaults[0]}" if kind == "cuts" else f"{name}_{defaults[0]:3.2f}" if kind == "levels" else name
    flavor = trec_flavor(printed)
    metric = registry.get(flavor.metric)
    summary = (type(metric).__doc__ or metric.name).strip().splitlines()[0]
    shown = f"{name}_K, K in {', '.join(map(str, defaults))}" if kind == "cuts" else (
        f"one per level, default {', '.join(f'{x:3.2f}' for x in defaults)}" if kind == "levels" else "")
    return f"{summary}{' (' + shown + ')' if shown else ''}; rankflavor flavor: {flavor.short}"
