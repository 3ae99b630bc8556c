"""`rankflavor eval QRELS RUN [RUN ...] -m SPEC [-m SPEC ...] [--per-query] [--format table|json|csv]`."""

from __future__ import annotations

import argparse
import io
import sys

from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.cli.help import command_epilog
from rankflavor.cli.memory_option import add_max_memory
from rankflavor.cli.threads import small_job_allocator
from rankflavor.errors import EXIT_OK


def add_parser(sub) -> None:
    p = sub.add_parser("eval", help="evaluate runs against qrels under one or more flavors",
                       epilog=command_epilog("eval", axes=True), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", help="TREC qrels file (qid iter docid grade), plain or .gz; with a diversity measure "
                                 "(alpha_ndcg, err_ia, nrbp, p_ia, s_recall, ap_ia) a subtopic qrels (qid subtopic docid "
                                 "grade)")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files (qid Q0 docid rank score tag)")
    p.add_argument("-m", "--measure", action="append", dest="specs", metavar="SPEC",
                   help="flavor spec, e.g. 'ndcg@10', 'ndcg@10 gain=exp2', 'trec_eval', 'lightgbm@5', "
                        "'project.NAME' (repeatable; default: the project's primary flavor, else ndcg@10)")
    p.add_argument("--per-query", action="store_true", help="also print every query's value")
    p.add_argument("--format", choices=("table", "json", "csv", "trec"), default="table",
                   help="trec: trec_eval's lines (name, query, value to 4 decimals); several runs are printed as a "
                        "trec_eval loop prints them, evaluated on every core (RANKFLAVOR_PROCESSES=1: one process)")
    from rankflavor.cli.render import add_csv_option

    add_csv_option(p)
    p.add_argument("--against", metavar="SAVED.json",
                   help="compare each mean with a saved result (rankflavor eval --format json), matched by run and "
                        "label; refused when the qrels or a label's flavor changed")
    p.add_argument("--allow-flavor-change", action="store_true",
                   help="with --against: compare a label whose flavor changed anyway (with a warning)")
    p.add_argument("--weights", action="append", metavar="NAME=FILE", default=[],
                   help="per-query weights for flavors with weights=NAME: a file of 'qid weight' lines (repeatable)")
    add_name_option(p)
    add_quiet_option(p)
    add_on_duplicate(p)
    from rankflavor.cli.bounds_table import add_option

    add_option(p, "eval")
    add_max_memory(p)
    p.add_argument("--engine", choices=("local", "spark"), default="local",
                   help="spark: evaluate on Apache Spark (pip install 'rankflavor[spark]'); TREC or Parquet files")
    p.add_argument("--master", metavar="URL", help="with --engine spark: the Spark master (local[N], spark://..., "
                                                   "sc://... for Spark Connect; default: a local session)")
    p.add_argument("--output", metavar="DIR", help="with --engine spark: also write the per-query results as Parquet "
                                                   "(a new or empty folder)")
    p.add_argument("--overwrite", action="store_true", help="with --output: replace a non-empty DIR")
    from rankflavor.cli.trec_words import add_trec_eval_flags

    add_trec_eval_flags(p)


def prepare(args: argparse.Namespace) -> None:
    """Before the specs are read: trec_eval's flags answered with their axes, its family names expanded; the runs'
    parse started (`start_prefetch`), so that it overlaps the specs' reading notes (cli/main.py) too. An output
    that shows no SHA-256 (a table, CSV or trec_eval's lines, no --against) reads the TREC files without hashing
    them (their provenance's sha256 is null; `--format json` has it)."""
    from rankflavor.cli.trec_words import expand_families, refuse_trec_eval_flags

    refuse_trec_eval_flags(args)
    if args.specs:
        args.specs = expand_families(args.specs, io.StringIO() if args.quiet else sys.stderr)
    if args.format != "json" and args.against is None:  # (no digest shown: the TREC files are not hashed)
        from rankflavor.inputs.trec_compiled import without_hashes

        without_hashes()
    args.prefetched = start_prefetch(args)


def start_prefetch(args: argparse.Namespace) -> list | None:
    """The runs as `prefetch_runs` gives them, their parse started on another thread (local engine, one process,
    valid --name options; after small_job_allocator, which must precede pyarrow's import); else None (`_run`
    then says what is wrong, or reads the runs as given)."""
    from rankflavor.errors import RankflavorError

    if args.engine != "local" or args.output is not None or args.master is not None or args.overwrite:
        return None
    small_job_allocator([args.qrels, *args.runs])
    try:
        run_names(list(args.runs), args.names)  # (a bad --name is reported by _run, as before)
    except RankflavorError:
        return None
    if len(args.runs) > 1:  # (one run is never a track)
        from rankflavor.cli.trec_pool import workers_for
        from rankflavor.cli.trec_stream import streamable

        if streamable(args) and workers_for(args) != 1:  # (a track in worker processes: cli/trec_pool.py)
            return None
    from rankflavor.inputs.prefetch import prefetch_runs

    return prefetch_runs(list(args.runs))


def add_name_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", action="append", metavar="FILE=NAME", default=[], dest="names",
                   help="name a run in the output (repeatable): FILE as typed, or its file name; e.g. "
                        "--name runs/bm25.txt=BM25 (default: the file name)")


def add_quiet_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("-q", "--quiet", action="store_true",
                   help="print only the table (and its flavors) on stdout; on stderr no notes, no input or "
                        "flavor warnings, only one line that counts the warnings left out")


def add_cutoff_and_base_options(p: argparse.ArgumentParser) -> None:
    """-k/--cutoff K (repeatable) and --base SPEC: what compare, power and report cross into their grid."""
    p.add_argument("-k", "--cutoff", action="append", type=cutoff, dest="cutoffs", metavar="K",
                   help="cutoff crossed into the grid (repeatable; default 10)")
    p.add_argument("--base", default="ndcg", metavar="SPEC", help="the flavor the grid's axes vary (default ndcg)")


def _whole_number(text: str, least: int, what: str, example: str, most: int | None = None) -> int:
    """A whole number of `least` or more (and `most` or less), else argparse's usage error naming the value."""
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if value < least or (most is not None and value > most):
        span = f"of {least} or more" if most is None else f"from {least} to {most:,}"
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}: give a whole number {span}, e.g. {example}")
    return value


MAX_CUTOFF = (1 << 31) - 1  # (flavor/values.py MAX_WHOLE: a cutoff beyond any run's length reads every row)


def count_of(what: str, example: str, most: int = 1_000_000):
    """An option's type: a whole number from 0 to `most` (--queries N, --top N), else a usage error naming it."""
    def parse(text: str) -> int:
        return _whole_number(text, 0, what, example, most)

    return parse


def cutoff(text: str) -> int:
    """-k K (compare, power, report): a whole number from 1 (a cutoff beyond every list reads the whole list)."""
    return _whole_number(text, 1, "a cutoff", "-k 10", MAX_CUTOFF)


def resamples(text: str) -> int:
    """--resamples N (compare, report): a whole number from 1 to compare/stats.py MAX_RESAMPLES."""
    from rankflavor.compare.stats import MAX_RESAMPLES

    return _whole_number(text, 1, "a number of resamples", "--resamples 10000", MAX_RESAMPLES)


def seed(text: str) -> int:
    """--seed N (compare, report): a whole number of 0 or more (numpy's SeedSequence takes no negative seed)."""
    from rankflavor.compare.stats import MAX_SEED

    return _whole_number(text, 0, "a seed", "--seed 0", MAX_SEED)


def significance_level(text: str) -> float:
    """--alpha A (compare, report): a number strictly between 0 and 1 (not NaN), else a usage error naming it."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1:  # (NaN fails both comparisons)
        raise argparse.ArgumentTypeError(f"{text!r} is not a significance level: give a number between 0 and 1 "
                                         "(exclusive), e.g. --alpha 0.05")
    return value


def run_names(typed: list[str], options: list[str]) -> list[str] | None:
    """Each run's name with the --name FILE=NAME options applied (FILE matched against the runs as typed), or None
    without options; a bad option is a UsageError before any file is read."""
    if not options:
        return None
    from rankflavor.inputs.run_names import given_names, parse_name_options

    return given_names(typed, parse_name_options(options))


def named(runs: list, names: list[str] | None) -> list | dict:
    """The runs as {name: run} with their names (run_names), else the list unchanged."""
    return runs if names is None else dict(zip(names, runs, strict=True))


def weight_files(items: list[str]) -> dict[str, str]:
    """{NAME: FILE} from --weights NAME=FILE options."""
    from rankflavor.errors import SpecError

    out: dict[str, str] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise SpecError(f"--weights {item!r}: write NAME=FILE, e.g. --weights traffic=weights.txt")
        if name in out:
            raise SpecError(f"--weights {name}=... given twice")
        out[name] = path
    return out


def run(args: argparse.Namespace) -> int:
    if args.engine != "spark":
        given = [name for name, value in (("--output", args.output), ("--master", args.master),
                                          ("--overwrite", args.overwrite or None)) if value is not None]
        if given:  # (never dropped silently: the local engine writes no folder and starts no session)
            from rankflavor.errors import UsageError

            raise UsageError(f"{', '.join(given)}: options of --engine spark; add --engine spark, or drop them")
        return _run(args)
    from rankflavor.spark.session import end_spark, quiet_py4j_on_interrupt, spark_running

    quiet_py4j_on_interrupt()
    started_here = not spark_running()
    try:
        return _run(args)
    finally:  # (also on Ctrl-C: no JVM this command started is left running; a caller's session stays)
        if started_here:
            end_spark()


def _run(args: argparse.Namespace) -> int:
    if args.engine == "local":
        small_job_allocator([args.qrels, *args.runs])
    from rankflavor.cli.trec_pool import workers_for
    from rankflavor.cli.trec_stream import streamable
    from rankflavor.inputs.prefetch import prefetch_runs

    workers = workers_for(args) if streamable(args) else 1  # (a track in worker processes: cli/trec_pool.py)
    # (local: parsed on other threads while the specs are parsed and the qrels read; started by `prepare`)
    names = run_names(list(args.runs), args.names)  # (checked before the runs are parsed on another thread)
    prefetched = getattr(args, "prefetched", None)
    if prefetched is None and args.engine == "local" and workers == 1:
        prefetched = prefetch_runs(list(args.runs))
    runs = named(args.runs if prefetched is None else prefetched, names)
    from rankflavor import evaluate
    from rankflavor.cli import render
    from rankflavor.flavor import labelled_specs

    specs = args.specs or [default_spec()]
    labelled = labelled_specs(specs)  # (parsed once, here: a bad spec is reported before anything about the inputs;
    asked_set = asks_for_set(specs)  # the flavors and their labels are handed down, never parsed again)
    saved = None
    if args.against:
        from rankflavor.report.against import against, load_saved

        saved = load_saved(args.against)
    if streamable(args):  # (a track of runs: one run at a time, memory bounded by a few runs)
        return _stream(args, runs, names, labelled, asked_set, workers)
    if args.engine == "spark":
        report = _spark_report(args, labelled, names)
    else:
        report = evaluate(args.qrels, runs, labelled, on_duplicate=args.on_duplicate, weights=weight_files(args.weights),
                          warnings=args.format != "trec" or args.against is not None)  # (trec's lines show none)
    compared = against(report, saved, args.allow_flavor_change) if saved is not None else None
    err = io.StringIO() if args.quiet else sys.stderr  # (--quiet: counted, not shown)
    for warning in [*report.provenance["input_warnings"], *(compared.warnings if compared else [])]:
        err.write(f"warning: {warning}\n")  # (on stderr: the output's format stays parseable)
    if args.format == "json":
        render.print_json({**report.to_dict(per_query=args.per_query),
                           **({"against": compared.to_dict()} if compared else {}),
                           **(_bounds_json(report, args.unjudged_bounds) if args.unjudged_bounds else {})})
    elif args.format == "csv":
        render.write_csv(report, sys.stdout, per_query=args.per_query)
        if args.per_query:  # (the per-query rows have no room for them)
            render.print_warnings(report, err)
    elif args.format == "trec":
        from rankflavor.cli.trec_output import summarise_warnings, write_trec

        write_trec(report, sys.stdout, per_query=args.per_query, set_lines=asked_set)
        summarise_warnings(report, err)
    else:
        render.print_report(report, per_query=args.per_query)
        render.print_warnings(report, err)
        if args.unjudged_bounds is not None:
            from rankflavor.cli.bounds_table import print_eval_bounds

            print_eval_bounds(report, args.unjudged_bounds)
    if compared is not None and args.format != "json":
        render.print_against(compared, args.against, sys.stdout if args.format == "table" else err)
    if args.quiet:
        render.count_left_out(err.getvalue(), sys.stderr)
    return EXIT_OK


def asks_for_set(specs: list[str]) -> bool:
    """Whether a spec names a trec_eval measure set (`official`, `trec_eval.all_trec`): its `all` lines then open
    with runid and num_q, as trec_eval prints them."""
    from rankflavor.dialects.trec_sets import set_members

    return any(spec.split() and set_members(spec.split()[0]) is not None for spec in specs)


def _stream(args: argparse.Namespace, runs: list | dict, names: list[str] | None, labelled: dict,
            asked_set: bool, workers: int) -> int:
    from rankflavor.cli.render import count_left_out
    from rankflavor.cli.trec_pool import stream_pooled
    from rankflavor.cli.trec_stream import run_names_of, stream_trec

    err = io.StringIO() if args.quiet else sys.stderr
    items = list(runs.values()) if isinstance(runs, dict) else runs
    run_names = run_names_of(list(args.runs), names)
    if workers > 1:
        stream_pooled(args, [str(item) for item in items], run_names, labelled, weight_files(args.weights),
                      asked_set, err, sys.stdout, workers)
    else:
        stream_trec(args, items, run_names, labelled, weight_files(args.weights), asked_set, err, sys.stdout)
    if args.quiet:
        count_left_out(err.getvalue(), sys.stderr)
    return EXIT_OK


def _bounds_json(report, grade: str) -> dict:
    """eval --unjudged-bounds --format json: each result's lowest and highest mean over the fills, its queries
    enumerated and bounded by their measure's range (compare/unjudged_bounds.py)."""
    from rankflavor.compare.unjudged_bounds import MAX_FILLS, describe, parse_grade, range_notes, report_bounds
    from rankflavor.report.numbers import json_number

    found = report_bounds(report, grade)
    rows = [{"label": r.label, "run": r.run, "mean": r.mean, "low": json_number(r.low), "high": json_number(r.high),
             "exact": r.exact, "by_range": r.by_range} for r in found]
    notes = range_notes([(f"{r.label} {r.run}", r.flavor, r.by_range) for r in found])
    return {"unjudged_bounds": {"grade": parse_grade(grade), "max_fills": MAX_FILLS,
                                "description": describe(parse_grade(grade), pairs=False), "by_range": notes,
                                "means": rows}}


def _spark_report(args: argparse.Namespace, labelled: dict, names: list[str] | None):
    """The Spark engine's report (rankflavor/spark/report.py), printed as a local one."""
    from rankflavor.errors import UsageError

    try:
        import pyspark  # noqa: F401
    except ImportError as exc:
        raise UsageError(f"--engine spark needs pyspark ({exc}): pip install 'rankflavor[spark]'") from None
    from rankflavor.spark.report import spark_report

    return spark_report(args.qrels, list(args.runs), labelled, args.master, args.on_duplicate, args.per_query,
                        args.output, weight_files(args.weights), args.overwrite, names, args.unjudged_bounds)


def default_spec() -> str:
    """The project's primary flavor (flavor/project.py) when one is pinned here, else ndcg@10."""
    from rankflavor.flavor.project import find_project

    project = find_project()
    return "project.primary" if project is not None and project.primary is not None else "ndcg@10"
