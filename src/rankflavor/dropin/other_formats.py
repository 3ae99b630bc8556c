"""`rankflavor trec_eval -R prefs|qrels_prefs|qrels_jg`: trec_eval 10.0's non-standard rel_info formats, their
measures and their output, byte for byte (trec_eval.c's main loop, meas_print_single.c, meas_print_final.c).

Queries are those of the rel_info file, in strcmp order; one without results is an error (exit 4) unless -c,
which evaluates it against trec_eval's one-doc stand-in ranking and averages over every rel_info query. The
preference measures read -M; the judgment-group measures read -M, -l and -J; -N does not change them. Each
error raised carries `trec_eval_exit` (C trec_eval's exit code) and `stdout_before_error` (its output so far).
"""

from __future__ import annotations

from rankflavor.dialects.trec_print import COUNT, TEXT, VALUE, Column, block
from rankflavor.dropin import jg as jg_measures
from rankflavor.dropin.jg_read import read_qrels_jg
from rankflavor.dropin.options import TrecEvalOptions
from rankflavor.dropin.other_measures import COMPUTABLE, Selected, select
from rankflavor.dropin.prefs_counts import PrefsInconsistent, form_prefs_counts
from rankflavor.dropin.prefs_measures import PREFS_COUNT, PREFS_DOUBLE
from rankflavor.dropin.prefs_read import PrefJudgment, read_prefs, read_qrels_prefs
from rankflavor.dropin.results_read import DuplicateDoc, read_trec_results
from rankflavor.dropin.te_text import EXIT_ABORT, EXIT_CANNOT_COMPUTE, fail, usage
from rankflavor.dropin.zscores import read_zscores, zscores_of
from rankflavor.errors import EvaluationError, InputError

READERS = {"prefs": read_prefs, "qrels_prefs": read_qrels_prefs, "qrels_jg": read_qrels_jg}
STAND_IN = [(b"ceci_nest_pas_un_docno", 1.0)]  # trec_eval.c's bogus ranking of a query missing under -c
EXIT_NO_QUERIES = 7  # trec_eval.c: no query with both results and rel_info
Judgments = list[PrefJudgment] | dict[bytes, dict[bytes, int]]  # one query's prefs lines, or its qrels_jg JGs


def evaluate_other_format(options: TrecEvalOptions) -> str:
    """The whole stdout of `trec_eval -R FORMAT ...` for FORMAT prefs, qrels_prefs or qrels_jg."""
    reader = READERS.get(options.rel_info_format)
    if reader is None:
        raise usage(f"illegal rel_format '{options.rel_info_format}': this path reads prefs, qrels_prefs or "
                    "qrels_jg", 2)
    if options.results_format != "trec_results":
        raise usage(f"illegal retrieval results format '{options.results_format}': trec_eval reads trec_results", 2)
    if options.debug_level >= 3 and options.rel_info_format != "qrels_jg":
        raise usage("-D 3 and above print form_prefs_counts.c's debug dumps, which rankflavor does not reproduce: "
                    "use -D 1.QID to evaluate one query", 2)
    selected = select(options.measures)
    rel_info = reader(options.rel_info_file)
    results = read_trec_results(options.results_file)
    zscores = read_zscores(options.zscore_file) if options.zscore_file is not None else None
    z = "Z" if zscores is not None else ""
    family = "qrels_jg" if options.rel_info_format == "qrels_jg" else "prefs"
    out: list[str] = []
    sums = {name: 0.0 for measure in selected for name in measure.value_names}
    evaluated = 0
    for qid, judgments in rel_info.items():
        if options.debug_query is not None and qid != options.debug_query.encode():
            continue
        ranking = results.by_query.get(qid)
        if ranking is None and not options.complete_rel_info:
            raise fail(EvaluationError, f"query {_text(qid)} has rel_info but no results (trec_eval: \"result qid "
                       f"'{_text(qid)}' not found in qrels\"); give -c to score it against trec_eval's stand-in "
                       "ranking (one unjudged doc)",
                       exit_code=EXIT_CANNOT_COMPUTE, partial="".join(out))
        values = _query_values(options, family, selected, judgments, ranking or STAND_IN, qid, "".join(out))
        if zscores is not None:
            values = zscores_of(zscores, qid, values)
        for name, value in values.items():
            sums[name] += value
        if options.query_wanted:
            per_query = [(measure, name) for measure in selected for name in measure.value_names
                         if measure.name != "num_q"]
            out.extend(block([_column(measure, name, z) for measure, name in per_query],
                             [(_text(qid), [values[name] for _measure, name in per_query])], z))
        evaluated += 1
    if evaluated == 0:
        raise fail(EvaluationError, "no queries with both results and relevance info", exit_code=EXIT_NO_QUERIES)
    if options.summary_wanted:
        num_queries = len(rel_info) if options.complete_rel_info else evaluated
        out.extend(_summary(selected, sums, num_queries, results.run_id, z))
    return "".join(out)


def _query_values(options: TrecEvalOptions, family: str, selected: list[Selected], judgments: Judgments,
                  ranking: list[tuple[bytes, float]], qid: bytes, partial: str) -> dict[str, float]:
    """One query's values (value name -> float), as the measures' calc functions leave them in q_eval."""
    for measure in selected:
        if measure.name not in COMPUTABLE[family]:
            default = "" if options.measures else " (no -m given: trec_eval's default set, official, reads qrels)"
            raise fail(EvaluationError, f"cannot calculate measure '{measure.name}' with -R "
                       f"{options.rel_info_format}: it reads -R {_format_of(measure.name)}{default}",
                       exit_code=EXIT_CANNOT_COMPUTE, partial=partial)
    values: dict[str, float] = {}
    try:
        if family == "prefs":
            counts = None
            for measure in selected:
                if measure.name in PREFS_DOUBLE or measure.name in PREFS_COUNT:
                    if counts is None:
                        counts = form_prefs_counts(judgments, ranking, options.max_docs_per_topic)
                    compute = PREFS_DOUBLE.get(measure.name) or PREFS_COUNT[measure.name]
                    values[measure.name] = float(compute(counts))
        elif any(measure.name in ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg") for measure in selected):
            values.update(_jg_values(options, selected, judgments, ranking))
    except DuplicateDoc as exc:
        raise fail(InputError, f"duplicate docs: {_text(exc.docno)} is retrieved twice for query {_text(qid)}",
                   source=options.results_file, fix="keep one line per (qid, docno) in the run",
                   exit_code=EXIT_CANNOT_COMPUTE, partial=partial) from None
    except PrefsInconsistent as exc:
        raise fail(InputError, f"inconsistent preferences in query {_text(qid)}: {exc}", source=options.rel_info_file,
                   fix="within one judgment group, never prefer a doc both ways nor give it 0 and non-0 rel_levels; "
                   "put contradicting users in different judgment groups",
                   exit_code=EXIT_ABORT if exc.aborts else EXIT_CANNOT_COMPUTE,
                   partial="" if exc.aborts else partial) from None
    if any(measure.name == "num_q" for measure in selected):
        values["num_q"] = 1.0
    return values


def _format_of(name: str) -> str:
    """The rel_info format(s) a measure reads (`official`, trec_eval's default set, reads qrels)."""
    if name in COMPUTABLE["qrels_jg"]:
        return "qrels_jg"
    return "prefs or qrels_prefs" if name in COMPUTABLE["prefs"] else "qrels (the standard format)"


def _jg_values(options: TrecEvalOptions, selected: list[Selected], judgments: dict[bytes, dict[bytes, int]],
               ranking: list[tuple[bytes, float]]) -> dict[str, float]:
    """The judgment-group measures of one query (jg.py)."""
    level = options.relevance_level
    rankings = jg_measures.form_res_rels_jg(judgments, ranking, options.max_docs_per_topic, level,
                                            options.judged_docs_only)
    values: dict[str, float] = {}
    for measure in selected:
        if measure.name == "map_avgjg":
            values["map_avgjg"] = jg_measures.map_avgjg(rankings, level)
        elif measure.name == "P_avgjg":
            cuts = jg_measures.p_avgjg(rankings, [int(c) for c in measure.cutoffs], level)
            values.update(zip(measure.value_names, cuts, strict=True))
        elif measure.name == "Rprec_mult_avgjg":
            cuts = jg_measures.rprec_mult_avgjg(rankings, list(measure.cutoffs), level)
            values.update(zip(measure.value_names, cuts, strict=True))
    return values


def _summary(selected: list[Selected], sums: dict[str, float], num_queries: int, run_id: bytes, z: str) -> list[str]:
    """meas_print_final.c: runid, num_q (the number averaged over), the counts summed, the rest averaged; under
    -Z (`z` = "Z") every line but runid's is prefixed with Z."""
    columns: list[Column] = []
    values: list[float | str] = []
    for measure in selected:
        if measure.name == "runid":
            columns.append(Column("runid", TEXT))
            values.append(_text(run_id))
        elif measure.name == "num_q":
            columns.append(_column(measure, "num_q", z))
            values.append(float(num_queries))
        for name in measure.value_names if measure.name != "num_q" else ():
            columns.append(_column(measure, name, z))
            values.append(sums[name] if measure.name in PREFS_COUNT else sums[name] / num_queries)
    return list(block(columns, [("all", values)], z))


def _column(measure: Selected, name: str, z: str) -> Column:
    """A printed value's column (dialects/trec_print.py): `%ld` for the counts (num_q, prefs_num_prefs_*) but
    under -Z, where every value is a `Z` line of `%6.4f` (meas_print_single.c, meas_print_final.c)."""
    return Column(name, COUNT if not z and (measure.name == "num_q" or measure.name in PREFS_COUNT) else VALUE)


def _text(raw: bytes) -> str:
    """An id as printed: its bytes, undecodable ones kept (surrogateescape)."""
    return raw.decode("utf-8", "surrogateescape")
