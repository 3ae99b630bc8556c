"""`rankflavor trec_eval`: trec_eval 10.0's evaluation loop (trec_eval.c main) on rankflavor's engine.

The numbers are the engine's: each printed value is a flavor (dropin/measures.py), evaluated once per run by
`rankflavor.evaluate` on the files as trec_eval reads them (dropin/standard_read.py). What trec_eval does
around them is done here as trec_eval.c does it: the queries of the qrels in strcmp order, each evaluated
only when the run has it (a qrels query missing from the run stops trec_eval 10.0 with exit code 4 after the
lines printed so far, unless `-c` scores it against trec_eval's stand-in ranking: one unjudged doc, after
which num_ret, utility, relstring, unj_* and rbp_resid, as named without parameters, are cleared); a query
with a doc judged twice or ranked twice, or the first query whose judgments are all negative, stops it there
too (form_res_rels.c: exit 4); per query, `-Z` converts every value to a z-score (convert_zscores.c) before it
is printed (`-q`) and accumulated; the summary is the sum of the per-query values divided by the queries
evaluated (meas_avg.c; with `-c` by the queries of the qrels), the counts are summed, gm_map and gm_bpref are
exp(mean(log(max(v, 1e-5)))).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np

from rankflavor.dialects.trec_print import COUNT, NONE, TEXT, VALUE, Column, block
from rankflavor.dropin.c_reading import TrecEvalExit
from rankflavor.dropin.measures import Slot, marked_measures, slots
from rankflavor.dropin.options import TrecEvalOptions
from rankflavor.dropin.te_files import EarlyRead
from rankflavor.errors import RankflavorError

REL_INFO_FORMATS = ("qrels", "prefs", "qrels_prefs", "qrels_jg")
MIN_GEO_MEAN = 0.00001  # trec_eval.h
C_NAN = -math.nan  # x86's 0.0/0.0: its sign bit set (printf: -nan)
CLEARED = ("num_ret", "utility", "relstring", "rbp_resid")  # trec_eval.c: a stand-in ranking's leftovers (+ unj*)


class Output(NamedTuple):
    """What trec_eval prints: stdout's bytes, the exit code and the one stderr line of a failure (and the printed
    measures' slots, for --flavors)."""

    stdout: bytes = b""
    code: int = 0
    error: str = ""
    slots: Sequence[Slot] = ()


def run_trec_eval(options: TrecEvalOptions, early: EarlyRead | None = None) -> Output:
    """The whole of a trec_eval command's work: stdout, exit code, error line. `early`: the files being read on a
    thread (te_files.EarlyRead), taken when the evaluation reads them."""
    if options.rel_info_format not in REL_INFO_FORMATS:
        return Output(code=2, error=f"trec_eval: illegal rel_info format '{options.rel_info_format}' for -R "
                                    f"(choose from {', '.join(REL_INFO_FORMATS)})")
    if options.rel_info_format != "qrels":
        return _other_format(options)
    lines: list[str] = []
    if options.max_docs_per_topic is not None and options.max_docs_per_topic < 0:
        return Output(code=1, error=f"trec_eval: -M {options.max_docs_per_topic}: trec_eval 10.0 crashes on a "
                                    "negative -M (form_res_rels.c sorts a negative count); give -M N with N >= 0")
    if options.relevance_level < 0:
        return Output(code=2, error=f"trec_eval: -l {options.relevance_level}: trec_eval then counts a ranked doc the "
                                    "qrels lack as relevant but leaves it out of R (map above 1); rankflavor refuses "
                                    "a negative -l (docs/trec_eval.md)")
    try:
        marked_measures(options.measures)  # (an illegal measure is refused before any file is read)
        if options.results_format != "trec_results":
            raise TrecEvalExit(2, f"trec_eval: illegal results format '{options.results_format}' for -T "
                                  "(trec_results is the one results format)")
        wanted = slots(options)
        run = _evaluate(options, wanted, early)
        zscores = None
        if options.zscore_file:
            from rankflavor.dropin.zscores import read_zscores

            zscores = read_zscores(options.zscore_file)
        _print(run, wanted, options, zscores, lines)
    except TrecEvalExit as stop:
        return Output(_bytes(lines), stop.code, stop.message)
    except RankflavorError as exc:  # (a flavor the options make and the engine refuses)
        return Output(_bytes(lines), 2, f"trec_eval: {' '.join(str(exc).split())}")
    return Output(_bytes(lines), 0, "", wanted)


def _bytes(lines: list[str]) -> bytes:
    from rankflavor.dropin.standard_read import ENCODING

    return "".join(lines).encode(ENCODING)


def _other_format(options: TrecEvalOptions) -> Output:
    """`-R prefs`, `qrels_prefs`, `qrels_jg`: dropin/other_formats.py. Its errors carry trec_eval's exit code
    (`trec_eval_exit`) and what trec_eval had printed before failing (`stdout_before_error`)."""
    from rankflavor.dropin.other_formats import evaluate_other_format

    def encoded(text: str) -> bytes:
        return text.encode("utf-8", "surrogateescape")

    try:
        return Output(encoded(evaluate_other_format(options)))
    except TrecEvalExit as stop:
        return Output(b"", stop.code, stop.message)
    except RankflavorError as exc:
        return Output(encoded(getattr(exc, "stdout_before_error", "")), getattr(exc, "trec_eval_exit", 2),
                      f"trec_eval: {' '.join(str(exc).split())}")


class Evaluated(NamedTuple):
    """The engine's values on the files as trec_eval read them, and what trec_eval decides beside it."""

    report: EngineValues
    qrels: object  # standard_read.CQrels
    results: object  # standard_read.CResults


class FlavorValues(NamedTuple):
    flavor: object  # Flavor
    queries: object  # engine.QueryResults


class EngineValues(NamedTuple):
    """The Dataset and, per flavor, the engine's per-query results (what a Report holds, without its warnings)."""

    dataset: object  # inputs.dataset.Dataset
    results: list[FlavorValues]


def _evaluate(options: TrecEvalOptions, wanted: list[Slot], early: EarlyRead | None) -> Evaluated:
    """Every slot's flavor on the run, by the engine's front door on the Dataset of the files as trec_eval reads
    them (dropin/standard_read.py, dropin/te_dataset.py: neither imports pyarrow)."""
    from rankflavor.dropin.standard_read import read_qrels, results_table
    from rankflavor.dropin.te_dataset import dataset_of
    from rankflavor.engine import Engine
    from rankflavor.engine.budget import check_results
    from rankflavor.errors import InputError, UsageError

    flavors = list(dict.fromkeys(slot.flavor for slot in wanted if slot.flavor is not None))
    flavors += [f for f in _counts(options, wanted).values() if f not in flavors]
    if not flavors:  # (runid, num_q or relstring alone: the engine still reads the inputs)
        from rankflavor.dropin.measures import trec_flavor

        flavors = [trec_flavor("num_ret")]
    qrels = read_qrels(options.rel_info_file, early)
    judged = list(qrels.top_grade) if options.complete_rel_info else []
    results = results_table(options.results_file, judged, options.max_docs_per_topic, qrels.doc_ids, early)
    dataset = dataset_of(qrels, results)
    try:
        check_results(1, len(flavors), dataset.n_queries)
        evaluations = Engine(dataset).evaluate(dataset.runs[0], flavors)
    except (InputError, UsageError) as exc:
        raise TrecEvalExit(2, f"trec_eval: {' '.join(str(exc).split())}") from None
    values = [FlavorValues(f, e.results) for f, e in zip(flavors, evaluations, strict=True)]
    return Evaluated(EngineValues(dataset, values), qrels, results)


def _counts(options: TrecEvalOptions, wanted: list[Slot]) -> dict[str, object]:
    """num_ret and num_rel under the options where trec_eval divides 0 by 0 (-nan) and the engine's measure has no
    value: an interpolated precision on a list left empty (-J, -M 0: m_iprec_at_recall.c, m_11pt_avg.c), Rndcg
    with relevant docs and no point to average (m_Rndcg.c)."""
    metrics = {s.flavor.metric for s in wanted if s.flavor is not None}
    emptied = options.max_docs_per_topic is not None and options.max_docs_per_topic <= 0
    interpolated = bool(metrics & {"iprec", "iprec_avg"}) and (options.judged_docs_only or emptied)
    if not interpolated and "rndcg" not in metrics:
        return {}
    from rankflavor.dropin.measures import trec_flavor, with_options

    return {name: with_options(trec_flavor(name), options) for name in ("num_ret", "num_rel")}


def _c_nan(slot: Slot, num_ret: float, num_rel: float, points: float) -> bool:
    """trec_eval's 0/0: Rndcg with relevant docs and no point (its sum over none), or, on an empty list, its
    precision num_rel_ret/num_ret, and so the interpolated precision at each recall level whose count
    lround(level·R) is at most 0 (m_iprec_at_recall.c; m_11pt_avg.c adds it into its sum)."""
    if slot.flavor is not None and slot.flavor.metric == "rndcg":
        return num_rel > 0 and points == 0
    if num_ret != 0 or slot.flavor is None or slot.flavor.metric not in ("iprec", "iprec_avg"):
        return False
    from rankflavor.reference.binary import average_levels

    flavor = slot.flavor
    levels = [flavor.param("level").number] if flavor.metric == "iprec" else average_levels(str(flavor.param("points")))
    return any(math.copysign(math.floor(abs(level * num_rel) + 0.5), level) <= 0 for level in levels)


def _per_query(report, wanted: list[Slot], part: str | None = None) -> dict[Slot, np.ndarray]:
    """Per slot: its value (or `part`) per query code, 0 where the engine gives none (a NaN it computes, as
    set_F.-1's 0/0, stays)."""
    n = report.dataset.n_queries
    by_flavor = {result.flavor: result for result in report.results}
    out: dict[Slot, np.ndarray] = {}
    for slot in wanted:
        values = np.zeros(n)
        if slot.flavor is not None:
            q = by_flavor[slot.flavor].queries
            name = part or slot.part
            if name is None or name in q.parts:
                values[q.query] = q.parts[name] if name else q.value
        out[slot] = values
    return out


def _flavor_values(report, flavor) -> np.ndarray:
    result = next(r for r in report.results if r.flavor == flavor)
    values = np.zeros(report.dataset.n_queries)
    values[result.queries.query] = np.nan_to_num(result.queries.value)
    return values


def _queries(run: Evaluated, options: TrecEvalOptions) -> list[int]:
    """The qrels' query codes in strcmp order (those -D N.QID leaves)."""
    dataset = run.report.dataset
    codes = [int(c) for c in np.flatnonzero(dataset.judged)]
    if options.debug_query is not None:
        codes = [c for c in codes if str(dataset.query_ids[c]) == _c_text(options.debug_query)]
    return codes


def _c_text(word: str) -> str:
    """A command-line word as the ids are held: its bytes, one character each."""
    import os

    from rankflavor.dropin.standard_read import ENCODING

    return os.fsencode(word).decode(ENCODING)


def _stops(run: Evaluated, qid: str, first: bool, wanted: list[Slot], options: TrecEvalOptions) -> None:
    """trec_eval's failures at a query it evaluates (exit 4, after the lines printed so far): form_res_rels.c's
    duplicate docs and its first query whose judgments are all negative; m_utility.c's coefficients."""
    if not any(slot.kind not in ("runid", "num_q") for slot in wanted):
        return  # (no measure forms the ranked list)
    if qid in run.results.twice or qid in run.qrels.twice:
        where = "ranked twice in the results" if qid in run.results.twice else "judged twice in the qrels"
        raise TrecEvalExit(4, f"trec_eval: query '{qid}': a doc is {where} (trec_eval: duplicate docs)")
    if first and run.qrels.top_grade[qid] < 0:
        raise TrecEvalExit(4, f"trec_eval: query '{qid}': every judgment is negative (trec_eval cannot form its "
                              "relevance levels when the first query it evaluates has none)")
    bad = next((s for s in wanted if s.name.startswith("utility_") and s.flavor is None), None)
    if bad is not None:
        raise TrecEvalExit(4, f"trec_eval: {bad.name}: utility takes exactly 4 coefficients (trec_eval: improper "
                              "number of coefficients)")


def _print(run: Evaluated, wanted: list[Slot], options: TrecEvalOptions, zscores, lines: list[str]) -> None:
    """trec_eval.c's loop over the queries (its `-q` lines by dialects/trec_print.py's `block`), then the summary.
    A failure at a query (exit 4) keeps the lines printed before it."""
    z = "Z" if zscores is not None else ""
    sums = {slot: 0.0 for slot in wanted}
    evaluated = [0]
    rows = _rows(run, wanted, options, zscores, sums, evaluated)
    if options.query_wanted:
        for text in block([Column(slot.name, _kind(slot, z)) for slot in wanted], rows, z):
            lines.append(text)
    else:
        for _row in rows:
            pass
    if evaluated[0] == 0:
        hint = (f"-D names query '{options.debug_query}', which the qrels lack" if options.debug_query is not None
                else "are the files the qrels and the run of the same topics?")
        raise TrecEvalExit(7, f"trec_eval: no queries with both results and relevance info: {hint}")
    if options.summary_wanted:
        n = int(run.report.dataset.judged.sum()) if options.complete_rel_info else evaluated[0]  # (-c: every judged query)
        lines.extend(_summary(run, wanted, sums, n, evaluated[0], options, z))


def _kind(slot: Slot, z: str) -> str:
    """How a slot's per-query value prints (meas_print_single.c): a string as it is, a count as `%ld` (but as a
    `Z` value under -Z), a value as `%6.4f`; gm, runid and num_q print none."""
    if slot.kind == "relstring":
        return TEXT
    if slot.kind == "double" or (slot.kind == "long" and z):
        return VALUE
    return COUNT if slot.kind == "long" else NONE


def _rows(run: Evaluated, wanted: list[Slot], options: TrecEvalOptions, zscores, sums: dict[Slot, float],
          evaluated: list[int]) -> Iterator[tuple[str, list[float | str]]]:
    """Per query in strcmp order, as trec_eval.c evaluates it: (qid, each slot's value); the sums and the count of
    queries evaluated kept up as the rows are taken; exit 4 where trec_eval stops."""
    report = run.report
    dataset = report.dataset
    values = _per_query(report, wanted)
    counts = {name: _flavor_values(report, flavor) for name, flavor in _counts(options, wanted).items()}
    points = _per_query(report, wanted, "points") if counts else {}
    strings = _relstrings(report, wanted, options)
    levels_of = -1
    for code in _queries(run, options):
        qid = str(dataset.query_ids[code])
        present = qid in run.results.present
        if not present and not options.complete_rel_info:
            raise TrecEvalExit(4, f"trec_eval: query '{qid}' of the qrels has no results in "
                                  f"'{options.results_file}' (trec_eval 10.0 stops here; -c scores it as 0)")
        _stops(run, qid, evaluated[0] == 0, wanted, options)
        levels_of = code if run.qrels.top_grade[qid] >= 0 else levels_of
        row = _query_values(wanted, values, code, present, levels_of)
        if counts:
            row.update({slot: C_NAN for slot in wanted if _c_nan(slot, counts["num_ret"][code],
                                                                  counts["num_rel"][code], points[slot][code])})
        if zscores is not None:
            row = {slot: _z(zscores, qid, slot, v) for slot, v in row.items()}
        text = "" if not strings else "" if not present and _cleared(strings[0]) else strings[1].get(code, "")
        for slot in wanted:
            sums[slot] += row[slot]
        evaluated[0] += 1
        yield qid, [f"'{text}'" if slot.kind == "relstring" else row[slot] for slot in wanted]


def _cleared(slot: Slot) -> bool:
    """Whether trec_eval.c clears this value after a query's stand-in ranking (by its printed name)."""
    return slot.name in CLEARED or slot.name.startswith("unj")


def _query_values(wanted: list[Slot], values, code: int, present: bool, levels_of: int) -> dict[Slot, float]:
    """One query's values as trec_eval holds them (gm: the log of the value; a query only -c's stand-in ranking
    scores has its leftovers cleared; `levels_of`: the query whose relevance levels form_res_rels.c last counted,
    whose ideal DCG a query judged only below 0 keeps, as its levels are not counted again)."""
    row: dict[Slot, float] = {}
    for slot in wanted:
        at = levels_of if slot.part == "idcg" and levels_of >= 0 else code
        value = 0.0 if not present and _cleared(slot) else float(values[slot][at])
        if slot.kind == "gm":
            value = math.log(max(value, MIN_GEO_MEAN))
        elif slot.kind == "num_q":
            value = 1.0
        row[slot] = value
    return row


def _z(zscores, qid: str, slot: Slot, value: float) -> float:
    from rankflavor.dropin.zscores import zscore

    if slot.kind in ("runid", "relstring"):
        return value
    return zscore(value, zscores.get((qid, slot.name)))


def _summary(run: Evaluated, wanted: list[Slot], sums: dict[Slot, float], n: int, evaluated: int, options,
             z: str) -> list[str]:
    """The `all` lines (meas_print_final.c, meas_avg.c, m_num_q.c, m_num_rel.c, m_runid.c), by the one block."""
    columns, values = [], []
    for slot in wanted:
        if slot.kind == "relstring":
            continue
        total: float | str = sums[slot]
        if slot.kind == "runid":
            total = run.results.run_id
        elif slot.kind == "num_q":
            total = float(n)
        elif slot.kind == "long" and slot.name == "num_rel" and options.complete_rel_info:
            total = float(run.qrels.positive)  # (m_num_rel.c: every judgment line graded above 0, whatever -l says)
        elif slot.kind == "gm":
            total = math.exp((sums[slot] + (n - evaluated) * math.log(MIN_GEO_MEAN)) / n)
        elif slot.kind == "double":
            total = sums[slot] / n
        kind = TEXT if slot.kind == "runid" else COUNT if slot.kind in ("long", "num_q") and not z else VALUE
        columns.append(Column(slot.name, kind))
        values.append(total)
    return list(block(columns, [("all", values)], z))


def _relstrings(report, wanted: list[Slot], options: TrecEvalOptions) -> tuple[Slot, dict[int, str]] | None:
    slot = next((s for s in wanted if s.kind == "relstring"), None)
    if slot is None or not options.query_wanted:
        return None
    from rankflavor.dropin.relstring import relstrings

    return slot, relstrings(report.dataset, report.dataset.runs[0], slot.length, options.max_docs_per_topic,
                            options.judged_docs_only)
