"""`rankflavor eval --format trec`: lines as trec_eval prints them, `%-22s\\t%s\\t%6.4f` (name, query, value).

A flavor equal to trec_eval 10.0's own measure takes trec_eval's name (`ndcg_cut_10` for `trec_eval@10`,
`ndcg` for `trec_eval.ndcg`, `ndcg_p` for `trec_eval.ndcg_p`, as in trec_eval's meas_print_final.c); any
other flavor is named by its label (the name the user gave it: `sklearn@10`) as one word, its spaces made
`;` (`ndcg@10;gain=exp2`): the lines stay three whitespace-separated fields. The full canonical strings are
in `--format json`. With --per-query,
every scored query's lines come first, then the `all` lines (the mean), as `trec_eval -q` does; a geometric
mean (gm_map, gm_bpref) has no per-query line, as in trec_eval (te_print_single_meas_empty). Several runs
are printed one after the other, each block opened by a `runid` line. For a trec_eval measure set
(`trec_eval.official`, `trec_eval.all_trec`: dialects/trec_sets.py) the `all` lines open with `runid` (the
run file's tag) and `num_q` (the queries scored), as trec_eval prints them.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING

from rankflavor.dialects import trec_eval
from rankflavor.dialects.trec_print import COUNT, NONE, VALUE, Column, block, line
from rankflavor.flavor import Flavor, parse_spec

if TYPE_CHECKING:
    from rankflavor.report.result import ReportView, ResultView


def trec_eval_name(flavor: Flavor) -> str | None:
    """trec_eval's measure name for a flavor that is exactly one of its measures, else None."""
    name = trec_eval.trec_eval_name(flavor.metric, flavor.cutoff, {k: str(v) for k, v in flavor.params})
    if name is not None and flavor == parse_spec(f"trec_eval.{name}")[0]:
        return name
    if flavor == parse_spec("trec_eval.ndcg_p")[0]:
        return "ndcg_p"
    return None


def _name(result: ResultView, set_lines: bool) -> str:
    """The measure's name in trec_eval's lines: trec_eval's own name for a flavor that is exactly one of its
    measures; in a set's output, the member's name (its overrides are the set's, as trec_eval's options)."""
    head = result.label.split()[0]
    if set_lines and head.startswith(("trec_eval.", "pytrec_eval.")):
        return head.split(".", 1)[1]
    return trec_eval_name(result.flavor) or label_word(result.label)


def label_word(label: str) -> str:
    """A label as one whitespace-free word (its words joined by `;`), so that a parser splitting trec_eval's
    lines on whitespace reads it whole: `ndcg@10 gain=exp2` -> `ndcg@10;gain=exp2`."""
    return ";".join(label.split())


def run_ids(report: ReportView) -> dict[str, str]:
    """Per run name: its runid, the tag of its file's first line (inputs.trec.run_tag), else its name."""
    from rankflavor.inputs.trec import run_tag

    out = {}
    for item in report.provenance.get("inputs", []):
        if item.get("role") == "run":
            tag = run_tag(item["path"]) if item.get("kind") == "trec" and item.get("path") else None
            out[item["name"]] = tag or item["name"]
    return out


def write_trec(report: ReportView, stream: IO[str], per_query: bool = False, set_lines: bool = False,
               several: bool | None = None) -> None:
    """set_lines: print trec_eval's runid and num_q summary lines (a measure set was asked for). several: the
    report is one of several runs' (cli/trec_stream.py), whose blocks open with a runid line (default: it holds
    more than one run)."""
    runs: list[str] = []
    for result in report.results:
        if result.run not in runs:
            runs.append(result.run)
    tags = run_ids(report) if set_lines else {}
    for run in runs:
        results = [r for r in report.results if r.run == run]
        if (len(runs) > 1 if several is None else several) and not set_lines:
            stream.write(line("runid", "all", run))
        columns = [Column(_name(r, set_lines), _kind(r)) for r in results]
        if per_query:
            queries = [row["query"] for row in results[0].per_query()]
            rows = [{row["query"]: row["value"] for row in r.per_query()} for r in results]
            stream.writelines(block(columns, ((query, [values.get(query) for values in rows]) for query in queries)))
        if set_lines:
            stream.write(line("runid", "all", tags.get(run, run)))
            stream.write(line("num_q", "all", results[0].counts["scored"], count=True))
        means = [[r.mean for r in results]]
        stream.writelines(block([c._replace(kind=COUNT if c.kind == COUNT else VALUE) for c in columns],
                                (("all", row) for row in means)))


def _kind(result: ResultView) -> str:
    """How a result's values print: a sum's as counts (`%ld`), a mean's as values, a geometric mean's none per
    query (trec_eval's te_print_single_meas_empty)."""
    aggregate = result.metric.aggregate
    return NONE if aggregate in ("gm", "log_gm") else COUNT if aggregate == "sum" else VALUE


def summarise_warnings(report: ReportView, stream: IO[str]) -> None:
    """One stderr line per kind of warning (trec_eval's lines have no room for them): how many measures of
    which runs it concerns, and how to see them in full."""
    write_kinds(warning_kinds(report), stream)


def warning_kinds(report: ReportView, kinds: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """{warning code: ["RUN NAME", ...]}, added to `kinds` when given (the runs of a stream, one at a time)."""
    kinds = {} if kinds is None else kinds
    for result in report.results:
        for warning in result.warnings:
            code = getattr(warning, "code", "warning")
            kinds.setdefault(code, []).append(f"{result.run} {_name(result, False)}")
    return kinds


def write_kinds(kinds: dict[str, list[str]], stream: IO[str]) -> None:
    for code, where in kinds.items():
        shown = ", ".join(where[:3]) + (f", ... ({len(where)} in all)" if len(where) > 3 else "")
        stream.write(f"warning: {code.replace('_', ' ')}: {shown}; --format table or json shows each in full\n")
