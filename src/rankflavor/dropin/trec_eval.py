"""`rankflavor trec_eval`: trec_eval 10.0's evaluation loop (trec_eval.c main) on rankflavor's engine.

The numbers are the engine's: each printed value is a flavor (dropin/measures.py), evaluated once per run by
`rankflavor.evaluate`. What trec_eval does around them is done here as trec_eval.c does it: the queries of the
qrels in strcmp order, each evaluated only when the run has it (a qrels query missing from the run stops
trec_eval 10.0 with exit code 4 after the lines printed so far, unless `-c` scores it as an empty ranking);
per query, `-Z` converts every value to a z-score (convert_zscores.c) before it is printed (`-q`) and
accumulated; the summary is the sum of the per-query values divided by the queries evaluated (meas_avg.c; with
`-c` by the queries of the qrels), the counts are summed, gm_map and gm_bpref are exp(mean(log(max(v, 1e-5)))).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from rankflavor.dropin.c_reading import TrecEvalExit
from rankflavor.dropin.measures import Slot, marked_measures, slots
from rankflavor.dropin.options import TrecEvalOptions
from rankflavor.errors import RankflavorError

REL_INFO_FORMATS = ("qrels", "prefs", "qrels_prefs", "qrels_jg")
MIN_GEO_MEAN = 0.00001  # trec_eval.h


@dataclass
class Output:
    """What trec_eval prints: stdout's text, the exit code and the one stderr line of a failure."""

    stdout: str = ""
    code: int = 0
    error: str = ""
    slots: list[Slot] = field(default_factory=list)


def run_trec_eval(options: TrecEvalOptions) -> Output:
    """The whole of a trec_eval command's work: stdout, exit code, error line."""
    if options.rel_info_format not in REL_INFO_FORMATS:
        return Output(code=2, error=f"trec_eval: illegal rel_info format '{options.rel_info_format}' for -R "
                                    f"(choose from {', '.join(REL_INFO_FORMATS)})")
    if options.rel_info_format != "qrels":
        return _other_format(options)
    lines: list[str] = []
    if options.max_docs_per_topic is not None and options.max_docs_per_topic <= 0:
        return Output(code=1, error=f"trec_eval: -M {options.max_docs_per_topic} would leave every ranking empty "
                                    "(trec_eval then prints -nan); give -M N with N >= 1")
    try:
        marked_measures(options.measures)  # (an illegal measure is refused before any file is read)
        if options.results_format != "trec_results":
            raise TrecEvalExit(2, f"trec_eval: illegal results format '{options.results_format}' for -T "
                                  "(trec_results is the one results format)")
        wanted = slots(options)
        report = _evaluate(options, wanted)
        zscores = None
        if options.zscore_file:
            from rankflavor.dropin.zscores import read_zscores

            zscores = read_zscores(options.zscore_file)
        _print(report, wanted, options, zscores, lines)
    except TrecEvalExit as stop:
        return Output("".join(lines), stop.code, stop.message)
    except RankflavorError as exc:  # (a flavor the options make and the engine refuses)
        return Output("".join(lines), 2, f"trec_eval: {' '.join(str(exc).split())}")
    return Output("".join(lines), 0, "", wanted)


def _other_format(options: TrecEvalOptions) -> Output:
    """`-R prefs`, `qrels_prefs`, `qrels_jg`: dropin/other_formats.py. Its errors carry trec_eval's exit code
    (`trec_eval_exit`) and what trec_eval had printed before failing (`stdout_before_error`)."""
    from rankflavor.dropin.other_formats import evaluate_other_format

    try:
        return Output(evaluate_other_format(options))
    except TrecEvalExit as stop:
        return Output("", stop.code, stop.message)
    except RankflavorError as exc:
        return Output(getattr(exc, "stdout_before_error", ""), getattr(exc, "trec_eval_exit", 2),
                      f"trec_eval: {' '.join(str(exc).split())}")


def _evaluate(options: TrecEvalOptions, wanted: list[Slot]):
    """The report of every slot's flavor on the run; a file that cannot be read or parsed exits 2."""
    from rankflavor import evaluate
    from rankflavor.errors import InputError, UsageError

    flavors = list(dict.fromkeys(slot.flavor for slot in wanted if slot.flavor is not None))
    flavors += [f for f in _counts(options, wanted).values() if f not in flavors]
    if not flavors:  # (runid, num_q or relstring alone: the engine still reads the inputs)
        from rankflavor.flavor import parse_spec

        flavors = [parse_spec("trec_eval.num_ret")[0]]
    try:
        return evaluate(options.rel_info_file, {"run": options.results_file}, flavors, warnings=False)
    except InputError as exc:  # (a doc twice in a query: trec_eval's form_res_rels.c fails the measure, exit 4)
        where = f"{exc.source}{':' + str(exc.line) if exc.line else ''}: " if exc.source else ""
        code = 4 if "duplicate" in exc.reason else 2
        raise TrecEvalExit(code, f"trec_eval: {where}{' '.join(exc.reason.split())}") from None
    except UsageError as exc:
        raise TrecEvalExit(2, f"trec_eval: {' '.join(str(exc).split())}") from None
    except FileNotFoundError as exc:
        raise TrecEvalExit(2, f"trec_eval: cannot read '{exc.filename}': no such file") from None


def _counts(options: TrecEvalOptions, wanted: list[Slot]) -> dict[str, object]:
    """num_ret and num_rel under the options, when a query's list can be left empty (-J) and an interpolated
    precision is asked for: trec_eval then divides 0 by 0 (m_iprec_at_recall.c, m_11pt_avg.c: -nan)."""
    interpolated = any(s.flavor is not None and s.flavor.metric in ("iprec", "iprec_avg") for s in wanted)
    if not options.judged_docs_only or not interpolated:
        return {}
    from rankflavor.dropin.measures import trec_flavor, with_options

    return {name: with_options(trec_flavor(name), options) for name in ("num_ret", "num_rel")}


def _c_nan(slot: Slot, num_ret: float, num_rel: float) -> bool:
    """trec_eval's 0/0 on an empty list with relevant docs: NaN at each recall level whose count lround(level·R)
    is 0 (m_iprec_at_recall.c; m_11pt_avg.c adds it into its sum)."""
    if num_ret != 0 or num_rel <= 0 or slot.flavor is None or slot.flavor.metric not in ("iprec", "iprec_avg"):
        return False
    from rankflavor.reference.binary import average_levels

    flavor = slot.flavor
    levels = [flavor.param("level").number] if flavor.metric == "iprec" else average_levels(str(flavor.param("points")))
    return any(math.floor(level * num_rel + 0.5) == 0 for level in levels)


def _per_query(report, wanted: list[Slot]) -> dict[Slot, np.ndarray]:
    """Per slot: its value per query code (nan where the engine gives none)."""
    n = report.dataset.n_queries
    by_flavor = {result.flavor: result for result in report.results}
    out: dict[Slot, np.ndarray] = {}
    for slot in wanted:
        values = np.full(n, np.nan)
        if slot.flavor is not None:
            result = by_flavor[slot.flavor]
            q = result.queries
            column = q.parts[slot.part] if slot.part else q.value
            values[q.query] = column
        out[slot] = values
    return out


def _flavor_values(report, flavor) -> np.ndarray:
    result = next(r for r in report.results if r.flavor == flavor)
    values = np.zeros(report.dataset.n_queries)
    values[result.queries.query] = np.nan_to_num(result.queries.value)
    return values


def _queries(report, options: TrecEvalOptions) -> tuple[list[int], np.ndarray]:
    """The qrels' query codes in strcmp order (those -D N.QID leaves), and which ones the run has."""
    dataset = report.dataset
    codes = [int(c) for c in np.flatnonzero(dataset.judged)]
    if options.debug_query is not None:
        codes = [c for c in codes if str(dataset.query_ids[c]) == options.debug_query]
    return codes, dataset.runs[0].present


def _print(report, wanted: list[Slot], options: TrecEvalOptions, zscores, lines: list[str]) -> None:
    """trec_eval.c's loop over the queries, then the summary."""
    dataset = report.dataset
    values = _per_query(report, wanted)
    counts = {name: _flavor_values(report, flavor) for name, flavor in _counts(options, wanted).items()}
    codes, present = _queries(report, options)
    strings = _relstrings(report, wanted, options)
    z = "Z" if zscores is not None else ""
    sums = {slot: 0.0 for slot in wanted}
    evaluated = 0
    for code in codes:
        qid = str(dataset.query_ids[code])
        if not present[code] and not options.complete_rel_info:
            raise TrecEvalExit(4, f"trec_eval: query '{qid}' of the qrels has no results in "
                                  f"'{options.results_file}' (trec_eval 10.0 stops here; -c scores it as 0)")
        row = _query_values(report, wanted, values, code, bool(present[code]), options)
        if counts:
            row.update({slot: math.nan for slot in wanted if _c_nan(slot, counts["num_ret"][code],
                                                                     counts["num_rel"][code])})
        if zscores is not None:
            row = {slot: _z(zscores, qid, slot, v) for slot, v in row.items()}
        for slot in wanted:
            sums[slot] += row[slot]
            if options.query_wanted:
                lines.append(_query_line(slot, qid, row[slot], strings.get(code, "") if strings else "", z))
        evaluated += 1
    if evaluated == 0:
        hint = (f"-D names query '{options.debug_query}', which the qrels lack" if options.debug_query is not None
                else "are the files the qrels and the run of the same topics?")
        raise TrecEvalExit(7, f"trec_eval: no queries with both results and relevance info: {hint}")
    if options.summary_wanted:
        n = int(dataset.judged.sum()) if options.complete_rel_info else evaluated  # (-c: all_rel_info's queries)
        for slot in wanted:
            lines.extend(_summary_line(report, slot, sums[slot], n, evaluated, options, z))


def _query_values(report, wanted: list[Slot], values, code: int, present: bool, options) -> dict[Slot, float]:
    """One query's values as trec_eval holds them (gm: the log of the value; a query -c adds is the engine's
    missing=empty: each measure over an empty ranking, as trec_eval's emptied bogus ranking)."""
    row: dict[Slot, float] = {}
    for slot in wanted:
        value = values[slot][code]
        value = 0.0 if math.isnan(value) else float(value)
        if slot.kind == "gm":
            value = math.log(max(value, MIN_GEO_MEAN))
        elif slot.kind == "num_q":
            value = 1.0
        row[slot] = value
    return row


def _judged_positive(dataset, code: int) -> float:
    """The query's judgments graded above 0 (m_num_rel.c te_calc_avg_num_rel: the -c summary, whatever -l says)."""
    return float((dataset.qrels.grade[dataset.qrels.q == code] > 0).sum())


def _z(zscores, qid: str, slot: Slot, value: float) -> float:
    from rankflavor.dropin.zscores import zscore

    if slot.kind in ("runid", "relstring"):
        return value
    return zscore(value, zscores.get((qid, slot.name)))


def _query_line(slot: Slot, qid: str, value: float, relstring: str, z: str) -> str:
    """A `-q` line (meas_print_single.c); gm, runid and num_q print none."""
    if slot.kind == "relstring":
        return f"{slot.name:<22s}\t{qid}\t'{relstring}'\n"
    if slot.kind == "double" or (slot.kind == "long" and z):
        return f"{z}{slot.name:<22s}\t{qid}\t{c_float(value)}\n"
    if slot.kind == "long":
        return f"{slot.name:<22s}\t{qid}\t{int(value)}\n"
    return ""


def _summary_line(report, slot: Slot, total: float, n: int, evaluated: int, options, z: str) -> list[str]:
    """The `all` line of a slot (meas_print_final.c, meas_avg.c, m_num_q.c, m_num_rel.c, m_runid.c)."""
    if slot.kind == "relstring":
        return []
    if slot.kind == "runid":
        return [f"{'runid':<22s}\tall\t{_run_id(report, options)}\n"]
    if slot.kind == "num_q":
        total = float(n)
    elif slot.kind == "long" and slot.name == "num_rel" and options.complete_rel_info:
        dataset = report.dataset
        total = sum(_judged_positive(dataset, int(c)) for c in np.flatnonzero(dataset.judged))
    elif slot.kind == "gm":
        total += (n - evaluated) * math.log(MIN_GEO_MEAN)
        total = math.exp(total / n)
    elif slot.kind == "double":
        total = total / n
    if slot.kind in ("long", "num_q") and not z:
        return [f"{slot.name:<22s}\tall\t{int(total)}\n"]
    return [f"{z}{slot.name:<22s}\tall\t{c_float(total)}\n"]


def c_float(value: float) -> str:
    """printf's %6.4f, NaN included (glibc prints 0.0/0.0 as -nan)."""
    if math.isnan(value):
        return "  -nan"
    return f"{value:6.4f}"


def _run_id(report, options: TrecEvalOptions) -> str:
    """The run's id: the sixth field of the results file's last line (get_trec_results.c keeps the last)."""
    from rankflavor.dropin.files import last_run_tag

    return last_run_tag(options.results_file) or "run"


def _relstrings(report, wanted: list[Slot], options: TrecEvalOptions) -> dict[int, str] | None:
    slot = next((s for s in wanted if s.kind == "relstring"), None)
    if slot is None or not options.query_wanted:
        return None
    from rankflavor.dropin.relstring import relstrings

    return relstrings(report.dataset, report.dataset.runs[0], slot.length, options.max_docs_per_topic,
                      options.judged_docs_only)
