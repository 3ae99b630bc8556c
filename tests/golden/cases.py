"""The cases of the golden corpus and the one way to run a case (shared by record.py and test_golden.py).

A case is a CLI command (`rankflavor.cli.main.main(argv)` run in-process, working directory = its data
folder, relative file names; stdout, stderr and the exit code captured) or a Python API function that
returns text (json.dumps(..., indent=1) or DataFrame.to_csv()). `run_case(case, data_dirs)` returns the
text written to `corpus/<case.id>.txt`:

    exit: N            (CLI)          api: ok | api: exception   (Python API)
    --- stdout                        <the text, or Type: message>
    <stdout>
    --- stderr
    <stderr>

followed by `--- python warnings` lines when a Python warning was emitted. Data folders: `inputs` (the
committed files, tests/golden/inputs) and `synthetic` (benchmarks/make_synthetic.py 300 1000 40, written at
test time into a temporary folder: `make_synthetic(dir)`). Absolute paths of the data folder, of the package's
examples folder and of the checkout are replaced by `<DATA>`, `<EXAMPLES>` and `<REPO>`.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
INPUTS = HERE / "inputs"
CORPUS = HERE / "corpus"
SYNTHETIC_ARGS = ("300", "1000", "40")
SYNTHETIC_QRELS, SYNTHETIC_RUN = "qrels_300_1000.txt", "run_300_1000.txt"


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...] | None = None
    func: Callable[[], str] | None = None
    data: str = "inputs"


CASES: list[Case] = []


def cli(case_id: str, *argv: str, data: str = "inputs") -> None:
    CASES.append(Case(case_id, tuple(argv), None, data))


def api(case_id: str, data: str = "inputs") -> Callable[[Callable[[], str]], Callable[[], str]]:
    def register(func: Callable[[], str]) -> Callable[[], str]:
        CASES.append(Case(case_id, None, func, data))
        return func

    return register


# ---- running a case ----------------------------------------------------------------------------------------

_ENV = {"COLUMNS": "120", "LINES": "40"}  # rich's presets table and argparse's usage wrap at the terminal width
_ENV_DROPPED = ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR_FORCE", "JUPYTER_COLUMNS",
                "JUPYTER_LINES", "TERM")


@contextlib.contextmanager
def _environment(cwd: Path):
    saved = {k: os.environ.get(k) for k in (*_ENV, *_ENV_DROPPED)}
    old_cwd = os.getcwd()
    try:
        os.environ.update(_ENV)
        for k in _ENV_DROPPED:
            os.environ.pop(k, None)
        os.chdir(cwd)
        yield
    finally:
        os.chdir(old_cwd)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _examples_dir() -> str | None:
    """The folder of the package's seed 000 files (`compare --example` prints their absolute paths)."""
    try:
        from rankflavor.examples import SEED000_QRELS
    except ImportError:
        return None
    return str(Path(SEED000_QRELS).resolve().parent)


def _scrub(text: str, cwd: Path) -> str:
    """Replace the machine's absolute paths (data folder, examples folder, checkout) by placeholders."""
    prefixes = {str(cwd): "<DATA>", str(cwd.resolve()): "<DATA>", str(REPO): "<REPO>"}
    examples = _examples_dir()
    if examples is not None:
        prefixes[examples] = "<EXAMPLES>"
    for prefix in sorted(prefixes, key=len, reverse=True):
        text = text.replace(prefix, prefixes[prefix])
    return text


def _run_cli(argv: tuple[str, ...]) -> str:
    from rankflavor.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code: Any = main(list(argv))
        except SystemExit as exc:
            code = exc.code if exc.code is not None else 0
        except Exception as exc:  # main lets nothing through without --debug; record it if it does
            code = f"exception {type(exc).__name__}: {exc}"
    return f"exit: {code}\n--- stdout\n{out.getvalue()}\n--- stderr\n{err.getvalue()}"


def _run_api(func: Callable[[], str]) -> str:
    try:
        return f"api: ok\n{func()}"
    except Exception as exc:
        return f"api: exception\n{type(exc).__name__}: {exc}\n"


def run_case(case: Case, data_dirs: dict[str, Path] | None = None) -> str:
    """The case's output text, as stored in corpus/<id>.txt."""
    cwd = INPUTS if case.data == "inputs" else Path((data_dirs or {})[case.data])
    with _environment(cwd), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = _run_cli(case.argv) if case.argv is not None else _run_api(case.func)
    if caught:
        text += "--- python warnings\n" + "".join(f"{w.category.__name__}: {w.message}\n" for w in caught)
    return _scrub(text, cwd)


def make_synthetic(directory: Path) -> Path:
    """benchmarks/make_synthetic.py 300 1000 40 DIRECTORY (seeded: the same files every time)."""
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "make_synthetic.py"), *SYNTHETIC_ARGS, str(directory)],
                   check=True, capture_output=True)
    return directory


# ---- helpers for API cases -----------------------------------------------------------------------------------

def _plain(obj: Any) -> Any:
    import numpy as np

    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=str)
    if hasattr(obj, "to_dict") and not isinstance(obj, type):
        return obj.to_dict()
    return str(obj)


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False, default=_plain) + "\n"


def attempt(func: Callable[[], Any]) -> Any:
    """func()'s value, or the exception it raises as {'exception': type, 'message': text}."""
    try:
        return func()
    except Exception as exc:
        return {"exception": type(exc).__name__, "message": str(exc)}


# ---- the datasets --------------------------------------------------------------------------------------------

SMALL = ("small.qrels", "small_a.run", "small_b.run", "small_c.run")
MIXED = ("mixed.qrels", "mixed_a.run", "mixed_b.run", "mixed_c.run")
DEEP = ("deep.qrels", "deep_a.run", "deep_b.run", "deep_c.run")
BINARY = ("binary.qrels", "binary_a.run", "binary_b.run")
SEED = ("seed000.qrels", "X.run", "Y.run")
MIXED_BC = ("mixed.qrels", "mixed_b.run", "mixed_c.run")  # the two untidy mixed runs (for the many axis cases)
DATASETS = {"small": SMALL, "mixed": MIXED, "deep": DEEP, "binary": BINARY, "seed000": SEED}

GAIN_TABLE = "{-2:-1,-1:-0.5,0:0,0.5:0.3,1:1,2:3,3:7,4:15}"
AXIS_VALUES: dict[str, tuple[str, ...]] = {
    "gain": ("linear", "exp2", GAIN_TABLE),
    "discount": ("log2", "jarvelin(2)", "jarvelin(3)", "log(e)", "log(10)", "reciprocal", "none"),
    "ideal": ("global", "local", "recall(10)", "recall(20)", "max"),
    "ideal_depth": ("k", "all", "returned"),
    "ties": ("docid_desc", "docid_asc", "input", "average", "pessimistic", "optimistic", "random(0)", "random(42)"),
    "unjudged": ("zero", "skip", "error"),
    "negative": ("unjudged", "zero", "keep", "error", "drop"),
    "min_grade": ("none", "1", "0.5"),
    "empty": ("skip", "zero", "one", "error"),
    "missing": ("skip", "zero"),
    "precision": ("f64", "f32"),
    "run_depth": ("all", "5", "50"),
    "self_docs": ("keep", "drop"),
    "round": ("none", "3"),
}
NDCG_ONLY = ("ideal", "ideal_depth", "empty")
CUTOFFS = (None, 1, 3, 10, 100)


def _valid(spec: str) -> bool:
    from rankflavor.errors import SpecError
    from rankflavor.flavor import parse_spec

    try:
        parse_spec(spec)
    except SpecError:
        return False
    return True


def _head(metric: str, cutoff: int | None) -> str:
    return metric if cutoff is None else f"{metric}@{cutoff}"


def _slug(value: str) -> str:
    if value == GAIN_TABLE:
        return "table"
    return value.replace("(", "").replace(")", "").replace(".", "_")


def _cut(cutoff: int | None) -> str:
    return "uncut" if cutoff is None else f"at{cutoff}"


def _spec_with(axis: str, value: str, metric: str, cutoffs: list[int | None]) -> tuple[str, int | None]:
    """The first cutoff of `cutoffs` (then of CUTOFFS) for which `metric@k axis=value` is a valid flavor."""
    for cutoff in [*cutoffs, *CUTOFFS]:
        spec = f"{_head(metric, cutoff)} {axis}={value}"
        if _valid(spec):
            return spec, cutoff
    raise AssertionError(f"no valid cutoff for {axis}={value}")


# ---- 1. every value of every axis ----------------------------------------------------------------------------

def _axis_cases() -> None:
    n = 0
    for axis, values in AXIS_VALUES.items():
        for value in values:
            n += 1
            plans = [("small", "ndcg", [10]),
                     ("mixed", "ndcg", [CUTOFFS[n % 5]]),
                     ("deep" if n % 2 else "binary", "ndcg" if axis in NDCG_ONLY else "dcg", [CUTOFFS[(n + 2) % 5]])]
            for dataset, metric, cutoffs in plans:
                spec, cutoff = _spec_with(axis, value, metric, cutoffs)
                files = {"deep": DEEP[:2], "mixed": MIXED_BC}.get(dataset, DATASETS[dataset])
                cli(f"axis-{axis}-{_slug(value)}-{dataset}-{metric}-{_cut(cutoff)}", "eval", *files,
                    "-m", spec, "--format", "json", "--per-query")
    # a gain table that misses a grade: an error on graded data, fine on binary labels
    for dataset in ("small", "binary"):
        cli(f"axis-gain-table-missing-grade-{dataset}", "eval", *DATASETS[dataset], "-m", "ndcg@10 gain={0:0,1:1,2:3}",
            "--format", "json", "--per-query")
    # the error policies on data that does not trigger them
    cli("axis-unjudged-error-binary-ndcg-at10", "eval", *BINARY, "-m", "ndcg@10 unjudged=error", "--format", "json",
        "--per-query")
    cli("axis-unjudged-error-binary-dcg-uncut", "eval", *BINARY, "-m", "dcg unjudged=error", "--format", "json",
        "--per-query")
    cli("axis-negative-error-binary-ndcg-at3", "eval", *BINARY, "-m", "ndcg@3 negative=error", "--format", "json",
        "--per-query")
    # the cutoffs and metrics with the default flavor
    for dataset in ("small", "mixed"):
        for metric in ("ndcg", "dcg"):
            for cutoff in CUTOFFS:
                files = MIXED_BC if dataset == "mixed" else DATASETS[dataset]
                cli(f"cutoff-{dataset}-{metric}-{_cut(cutoff)}", "eval", *files, "-m", _head(metric, cutoff),
                    "--format", "json", "--per-query")


# ---- 2. random combinations of axes, and rejected specs ------------------------------------------------------

ERROR_VALUES = {("unjudged", "error"), ("negative", "error"), ("empty", "error")}


def random_spec(rng: random.Random) -> str:
    metric = rng.choice(("ndcg", "ndcg", "ndcg", "dcg"))
    cutoff = rng.choice((None, 1, 3, 5, 10, 20, 100))
    parts = [_head(metric, cutoff)]
    for axis, values in AXIS_VALUES.items():
        if metric == "dcg" and axis in NDCG_ONLY:
            continue
        if rng.random() < 0.45:
            value = rng.choice([v for v in values if (axis, v) not in ERROR_VALUES])
            parts.append(f"{axis}={value}")
    head, rest = parts[0], parts[1:]
    rng.shuffle(rest)
    return " ".join([head, *rest])


REJECTED_SPECS = {
    "recall5-at10": "ndcg@10 ideal=recall(5)",
    "average-recall10": "ndcg@10 ties=average ideal=recall(10)",
    "dcg-ideal-local": "dcg@10 ideal=local",
    "gain-exp": "ndcg@10 gain=exp",
    "cutoff-0": "ndcg@0",
    "unknown-preset": "nosuchtool@10",
    "max-uncut": "ndcg ideal=max",
    "max-depth-all": "ndcg@10 ideal=max ideal_depth=all",
    "recall-uncut": "ndcg ideal=recall(10)",
    "gain-empty-table": "ndcg@10 gain={}",
    "gain-table-twice": "ndcg@10 gain={0:0,0:1}",
    "discount-log1": "ndcg@10 discount=log(1)",
    "round-16": "ndcg@10 round=16",
    "random-negative": "ndcg@10 ties=random(-1)",
    "key-twice": "ndcg@10 gain=linear gain=exp2",
    "cutoff-as-key": "ndcg@10 cutoff=5",
    "unknown-key": "ndcg@10 foo=bar",
    "unbalanced": "ndcg@10 gain={0:0,1:1",
    "gdeval-no-k": "gdeval",
    "spark-no-k": "spark gain=linear",
    "dcg-empty": "dcg@5 empty=one",
    "run-depth-0": "ndcg@10 run_depth=0",
    "min-grade-text": "ndcg@10 min_grade=high",
    "empty-spec": "",
    "no-head": "gain=exp2",
}


def _random_cases() -> None:
    rng = random.Random(20240601)
    datasets = ("small", "mixed", "deep", "binary")
    n = 0
    while n < 40:
        spec = random_spec(rng)
        if not _valid(spec):
            continue
        dataset = datasets[n % 4]
        cli(f"random-{n:02d}-{dataset}", "eval", *DATASETS[dataset], "-m", spec, "--format", "json", "--per-query")
        n += 1
    for name, spec in REJECTED_SPECS.items():
        cli(f"rejected-{name}", "eval", *SMALL[:2], "-m", spec, "--format", "json")
    cli("rejected-explain-several", "explain", "small.qrels", "small_a.run", "-q", "q1", "-m", "trec_eval")
    cli("rejected-diff-spec", "diff", "small.qrels", "small_a.run", "-m", "ndcg@10", "-m", "ndcg@10 ties=sideways")


# ---- 3. presets ---------------------------------------------------------------------------------------------

# The presets as of the recording, written out so that the list of cases depends on no internal attribute
# (`rankflavor presets --format json` and the api-presets case record what each one is).
PRESET_NAMES = ("trec_eval", "trec_eval.ndcg", "trec_eval.ndcg_p", "pytrec_eval", "ir_measures", "gdeval", "sklearn",
                "ranx", "ranx.burges", "lightgbm", "xgboost", "xgboost.minus", "catboost", "catboost.exp", "tf_ranking",
                "torchmetrics", "ranklib", "elastic", "elastic.ndcg", "quepid", "quepid.cut", "spark", "trectools", "beir")
NEGATIVE_ERROR_PRESETS = ("sklearn", "lightgbm", "xgboost", "xgboost.minus", "ranklib")  # negative=error
CUTOFF_10_PRESETS = ("ranklib", "elastic", "elastic.ndcg", "quepid", "quepid.cut")  # default cutoffs: 10 only


def _preset_cases() -> None:
    """Every preset @10 on small and mixed, and without @k on mixed and deep (left out where the preset's only
    default cutoff is 10: the same flavor as @10); the presets that refuse negative grades also @10 on deep."""
    for name in PRESET_NAMES:
        slug = name.replace(".", "_")
        at10 = [("small", SMALL), ("mixed", MIXED[:3])]
        if name in NEGATIVE_ERROR_PRESETS:
            at10.append(("deep", DEEP[:2]))
        for dataset, runs in at10:
            cli(f"preset-{slug}-at10-{dataset}", "eval", *runs, "-m", f"{name}@10", "--format", "json", "--per-query")
        if name in CUTOFF_10_PRESETS:
            continue
        for dataset, runs in (("mixed", MIXED[:3]), ("deep", DEEP[:2])):
            cli(f"preset-{slug}-default-{dataset}", "eval", *runs, "-m", name, "--format", "json", "--per-query")


# ---- 4. several flavors in one command ---------------------------------------------------------------------

FLAVORS_24 = [f"ndcg@{k} gain={g} ideal={i} ties={t}" for k in (10, 100) for g in ("linear", "exp2")
              for i in ("global", "local") for t in ("docid_desc", "average", "input")]


def _multi_cases() -> None:
    cli("multi-trec_eval-mixed", "eval", *MIXED, "-m", "trec_eval")
    cli("multi-trec_eval-deep-json", "eval", *DEEP[:2], "-m", "trec_eval", "--format", "json", "--per-query")
    cli("multi-trec_eval-small-trec", "eval", *SMALL, "-m", "trec_eval", "--format", "trec", "--per-query")
    cli("multi-pytrec_eval-mixed", "eval", *MIXED, "-m", "pytrec_eval")
    cli("multi-pytrec_eval-small-json", "eval", *SMALL, "-m", "pytrec_eval", "--format", "json", "--per-query")
    cli("multi-lightgbm-deep", "eval", *DEEP, "-m", "lightgbm", "--per-query")
    cli("multi-lightgbm-binary-json", "eval", *BINARY, "-m", "lightgbm", "--format", "json", "--per-query")
    cli("multi-lightgbm-mixed-error", "eval", *MIXED, "-m", "lightgbm")
    cli("multi-24-mixed", "eval", *MIXED, *[x for f in FLAVORS_24 for x in ("-m", f)])
    cli("multi-24-deep-json", "eval", *DEEP[:2], *[x for f in FLAVORS_24 for x in ("-m", f)], "--format", "json",
        "--per-query")
    cli("multi-24-small-csv", "eval", *SMALL, *[x for f in FLAVORS_24 for x in ("-m", f)], "--format", "csv")
    cli("multi-24-binary-trec", "eval", *BINARY, *[x for f in FLAVORS_24 for x in ("-m", f)], "--format", "trec")
    presets10 = [x for name in PRESET_NAMES for x in ("-m", f"{name}@10")]
    cli("multi-presets-at10-deep", "eval", *DEEP, *presets10)
    cli("multi-presets-at10-binary-json", "eval", *BINARY, *presets10, "--format", "json", "--per-query")
    cli("multi-presets-at10-small-error", "eval", *SMALL, *presets10)
    tolerant = [x for name in PRESET_NAMES if name not in NEGATIVE_ERROR_PRESETS for x in ("-m", f"{name}@10")]
    cli("multi-presets-at10-small-tolerant", "eval", *SMALL, *tolerant, "--per-query")
    cli("multi-presets-at10-mixed-tolerant", "eval", *MIXED, *tolerant)
    mixed_specs = ["-m", "ndcg@5", "-m", "dcg", "-m", "ndcg@20 ties=average unjudged=skip", "-m", "trec_eval@10",
                   "-m", "ndcg@5", "-m", "ndcg@5 gain=linear"]  # repeats collapse to one flavor
    cli("multi-runs-mixed", "eval", *MIXED, *mixed_specs, "--per-query")
    cli("multi-runs-all-small", "eval", "small.qrels", "small_a.run", "small_b.run", "small_c.run", "small_a.run.gz",
        "untidy.run", *mixed_specs, "--format", "json")
    cli("multi-default-flavor", "eval", *SMALL)


# ---- 5. formats ----------------------------------------------------------------------------------------------

def _format_cases() -> None:
    specs = ["-m", "trec_eval@10", "-m", "ndcg@5 gain=exp2 ties=average", "-m", "dcg@3", "-m", "trec_eval.ndcg"]
    for fmt in ("table", "json", "csv", "trec"):
        cli(f"format-{fmt}-small", "eval", *SMALL, *specs, "--format", fmt)
        cli(f"format-{fmt}-small-per-query", "eval", *SMALL, *specs, "--format", fmt, "--per-query")
        cli(f"format-{fmt}-mixed-per-query", "eval", *MIXED[:2], "-m", "ndcg@10 round=3 missing=zero", "-m", "ranx",
            "--format", fmt, "--per-query")
    cli("format-trec-trec_eval-mixed", "eval", *MIXED[:2], "-m", "trec_eval", "--format", "trec")
    cli("format-trec-names-binary", "eval", *BINARY, "-m", "trec_eval.ndcg", "-m", "trec_eval.ndcg_p", "-m", "ndcg",
        "-m", "ndcg@15", "-m", "dcg@15", "-m", "beir", "--format", "trec", "--per-query")
    cli("format-seed000-table", "eval", *SEED, "-m", "ndcg@3", "-m", "ndcg@3 gain=exp2", "-m", "ndcg@4", "--per-query")


# ---- 6. explain --------------------------------------------------------------------------------------------

EXPLAIN = [
    # (run, query, spec)
    ("small_a.run", "q1", "ndcg@10"),
    ("small_a.run", "q1", "ndcg@3 ties=average"),
    ("small_a.run", "q1", "ndcg@5 ideal=max"),
    ("small_b.run", "q1", "ndcg@10 ties=input"),
    ("small_b.run", "q1", "ndcg@3 ties=random(42)"),
    ("small_a.run", "q2", "ndcg@3 precision=f32"),
    ("small_a.run", "q2", "ndcg@3"),
    ("small_b.run", "q2", "ndcg@2 precision=f32 ties=pessimistic"),
    ("small_a.run", "q3", "ndcg@5 unjudged=skip"),
    ("small_a.run", "q3", "ndcg@5 ideal=local"),
    ("small_a.run", "q3", "ndcg@5 ideal=recall(5)"),
    ("small_a.run", "q4", "ndcg@10 negative=drop"),
    ("small_a.run", "q4", "ndcg@10 negative=keep gain=exp2"),
    ("small_a.run", "q4", f"ndcg@10 gain={GAIN_TABLE} min_grade=0.5"),
    ("small_c.run", "q4", "ndcg run_depth=5"),
    ("small_a.run", "q5", "ndcg@10"),
    ("small_a.run", "q5", "ndcg@10 empty=one negative=keep"),
    ("small_a.run", "q5", "ndcg@10 empty=error"),
    ("small_a.run", "q6", "ndcg@10"),
    ("small_a.run", "q6", "ndcg@10 missing=zero"),
    ("small_a.run", "q7", "ndcg@1 discount=jarvelin(2)"),
    ("small_b.run", "q7", "dcg@1"),
    ("small_a.run", "q8", "ndcg@10 self_docs=drop"),
    ("small_a.run", "q8", "beir@3"),
    ("small_b.run", "q8", "ndcg@3 ideal_depth=returned discount=log(e)"),
    ("small_a.run", "qü-文", "ndcg@4 ties=docid_asc"),
    ("small_b.run", "qü-文", "ndcg ideal_depth=all discount=reciprocal round=3"),
    ("small_a.run", "q4", "sklearn"),
    ("small_a.run", "q1", "tf_ranking"),
    ("small_a.run", "q1", "elastic"),
    ("mixed_b.run", "m01", "ndcg@20 ties=optimistic"),
    ("mixed_c.run", "mq-ä7", "ndcg@10 unjudged=skip ideal=local"),
    ("mixed_a.run", "m04", "ndcg@10 self_docs=drop negative=drop"),
    ("deep_a.run", "t3", "ndcg@100 ties=average"),
    ("X.run", "q1", "ndcg@3"),
]


def _explain_cases() -> None:
    for n, (run, query, spec) in enumerate(EXPLAIN):
        qrels = {"s": "small.qrels", "m": "mixed.qrels", "d": "deep.qrels", "X": "seed000.qrels"}[run[0]]
        for fmt in ("table", "json") if n % 2 == 0 else ("table",):
            cli(f"explain-{n:02d}-{Path(run).stem}-{fmt}", "explain", qrels, run, "-q", query, "-m", spec,
                "--format", fmt)
    cli("explain-unknown-query", "explain", "small.qrels", "small_a.run", "-q", "nope", "-m", "ndcg@10")
    cli("explain-run-only-query", "explain", "small.qrels", "small_a.run", "-q", "q99", "-m", "ndcg@10")
    cli("explain-unjudged-error", "explain", "small.qrels", "small_a.run", "-q", "q3", "-m", "ndcg@10 unjudged=error")
    cli("explain-default-flavor", "explain", "small.qrels", "small_b.run", "-q", "q4")
    cli("explain-missing-q-option", "explain", "small.qrels", "small_b.run")
    cli("explain-deep-all", "explain", "deep.qrels", "deep_a.run", "-q", "t3", "-m", "ndcg@100 ties=average", "--all")
    cli("explain-close-query", "explain", "small.qrels", "small_a.run", "-q", "Q1")
    _udcg_cases()


def _udcg_cases() -> None:
    """UDCG (metrics/udcg.py) on mixed.qrels, whose negative grades are distractors' utilities."""
    specs = ("udcg@5", "udcg_authors", "udcg(norm=ideal)@5", "udcg(norm=mean,positions=1:0.5:0.5:0.8:1)@5 discount=none",
             "udcg@5 gain={-2:-1,-1:-1,0:0,0.5:0,1:1,2:1,3:1,4:1}")
    cli("udcg-eval", "eval", *MIXED, *(a for spec in specs for a in ("-m", spec)), "--per-query")
    cli("udcg-explain", "explain", "mixed.qrels", "mixed_a.run", "-q", "m01", "-m", "udcg_authors", "--all")
    cli("udcg-explain-json", "explain", "mixed.qrels", "mixed_a.run", "-q", "m01", "-m", "udcg(norm=ideal)@3",
        "--format", "json")


# ---- 7. the other subcommands ------------------------------------------------------------------------------

def _subcommand_cases() -> None:
    for fmt in ("table", "json"):
        cli(f"check-small-{fmt}", "check", *SMALL, "--format", fmt)
        cli(f"check-mixed-{fmt}", "check", *MIXED, "--format", fmt)
        cli(f"check-untidy-gz-{fmt}", "check", "small.qrels.gz", "untidy.run", "small_a.run.gz", "--format", fmt)
        cli(f"presets-{fmt}", "presets", "--format", fmt)
    cli("check-deep-binary", "check", *DEEP)
    cli("check-binary", "check", *BINARY)
    cli("check-seed000", "check", *SEED)
    diffs = [("sklearn@10", "trec_eval@10"), ("trec_eval", "lightgbm"), ("ndcg@10", "ndcg@10 gain=linear"),
             ("dcg@5", "ndcg@10 gain=exp2 ideal=local"), ("tf_ranking", "beir@10"), ("elastic", "elastic.ndcg"),
             ("catboost", "torchmetrics@5")]
    for n, (a, b) in enumerate(diffs):
        for fmt in ("table", "json"):
            cli(f"presets-diff-{n}-{fmt}", "presets", "--diff", a, b, "--format", fmt)
    cli("presets-diff-bad-spec", "presets", "--diff", "ndcg@10", "ndcg@10 gain=cubic")
    cli("presets-diff-one-arg", "presets", "--diff", "ndcg@10")
    cli("demo", "demo")
    cli("no-command")
    cli("unknown-command", "frobnicate")
    cli("unknown-command-close", "evl", *SMALL)
    cli("axes", "axes")
    cli("axes-ties", "axes", "ties")
    cli("axes-unknown", "axes", "tie")
    cli("eval-bad-format", "eval", *SMALL, "--format", "xml")

    r = ["--resamples", "200"]
    cli("compare-default-small", "compare", *SMALL[:3], *r)
    cli("compare-default-mixed", "compare", *MIXED, *r)
    cli("compare-grid-ties-mixed", "compare", *MIXED[:3], "--grid", "ties", *r)
    cli("compare-grid-presets-deep", "compare", *DEEP, "--grid", "presets", "-k", "10", *r)
    cli("compare-grid-presets-small", "compare", *SMALL[:3], "--grid", "presets", "-k", "10", *r)
    cli("compare-baseline-mixed", "compare", *MIXED, "--baseline", "mixed_b.run", "-k", "5", "-k", "20", *r)
    cli("compare-json-mixed", "compare", *MIXED, "--format", "json", *r)
    cli("compare-json-deep-gain", "compare", *DEEP[:3], "--grid", "gain", "-k", "1", "-k", "10", "--format", "json", *r)
    cli("compare-csv-deep", "compare", *DEEP, "--grid", "judged", "--format", "csv", *r)
    cli("compare-csv-small-wide", "compare", *SMALL, "--grid", "wide", "--format", "csv", *r)
    # the bounds over every fill of the holes (compare/unjudged_bounds.py): exact, range-bounded, robust or not
    cli("compare-unjudged-bounds-mixed", "compare", *MIXED, "-m", "ndcg@10", "-m", "ap", "-m", "p@5", "-m", "bpref",
        "--unjudged-bounds", *r)
    cli("eval-unjudged-bounds-small-json", "eval", *SMALL, "-m", "ndcg@5", "-m", "ap@5", "--unjudged-bounds", "2",
        "--format", "json")
    cli("compare-example", "compare", "--example")
    cli("compare-example-json", "compare", "--example", "--format", "json", "--resamples", "200")
    cli("compare-example-grid-default", "compare", "--example", "--grid", "default", "-k", "2")
    cli("compare-grids", "compare", "--grids")
    cli("compare-test-t-mixed", "compare", *MIXED, "--test", "t", *r)
    cli("compare-test-t-binary-json", "compare", *BINARY, "--test", "t", "--format", "json", *r)
    cli("compare-specs-binary", "compare", *BINARY, "-m", "ndcg@5", "-m", "ndcg@5 ties=pessimistic", "-m", "lightgbm@5",
        "-m", "sklearn", *r)
    cli("compare-grid-file-mixed", "compare", *MIXED[:3], "--grid", "grid.txt", "-k", "5", "-k", "10", *r)
    cli("compare-grid-discount-base", "compare", *DEEP[:3], "--grid", "discount", "--base", "ndcg gain=exp2 ideal=local",
        "--seed", "7", "--alpha", "0.1", "--queries", "2", *r)
    cli("compare-queries-0", "compare", *SMALL[:3], "--queries", "0", *r)
    cli("compare-one-run", "compare", "small.qrels", "small_a.run")
    cli("compare-specs-and-grid", "compare", *SMALL[:3], "-m", "ndcg@5", "--grid", "ties")
    cli("compare-unknown-grid", "compare", *SMALL[:3], "--grid", "nosuchgrid", *r)
    cli("compare-bad-baseline", "compare", *SMALL[:3], "--baseline", "nosuch.run", *r)

    cli("diff-small-table", "diff", "small.qrels", "small_a.run", "-m", "ndcg@10", "-m", "ndcg@10 gain=exp2 ideal=local")
    cli("diff-small-json", "diff", "small.qrels", "small_a.run", "-m", "ndcg@10", "-m", "ndcg@10 gain=exp2 ideal=local",
        "--format", "json")
    cli("diff-shapley-mixed", "diff", *MIXED[:2], "-m", "trec_eval@10", "-m", "sklearn@5 negative=zero", "--shapley")
    cli("diff-shapley-json-deep", "diff", *DEEP[:3], "-m", "ndcg@10", "-m", "lightgbm@5", "--shapley", "--format", "json")
    cli("diff-order-small", "diff", *SMALL[:3], "-m", "ndcg@10", "-m", "ndcg@5 gain=exp2 ties=average unjudged=skip",
        "--order", "unjudged,ties,gain,cutoff")
    cli("diff-order-json-binary", "diff", *BINARY, "-m", "trec_eval@10", "-m", "catboost", "--order", "ties,ideal",
        "--format", "json", "--top", "2")
    cli("diff-postponed-recall", "diff", "small.qrels", "small_a.run", "-m", "ndcg@10 ties=average",
        "-m", "ndcg@5 ideal=recall(5) ties=docid_desc", "--shapley")
    cli("diff-data-refuses", "diff", "small.qrels", "small_b.run", "-m", "ndcg@10", "-m", "ndcg@10 negative=error gain=exp2")
    cli("diff-same", "diff", "small.qrels", "small_a.run", "-m", "ndcg@10", "-m", "trec_eval@10")
    cli("diff-one-flavor", "diff", "small.qrels", "small_a.run", "-m", "ndcg@10")
    cli("diff-three-runs", "diff", *SMALL, "-m", "ndcg@10", "-m", "ndcg@5")
    cli("diff-bad-order", "diff", "small.qrels", "small_a.run", "-m", "ndcg@10", "-m", "ndcg@5", "--order", "colour")


# ---- 8. bad input files -------------------------------------------------------------------------------------

def _bad_input_cases() -> None:
    cli("bad-missing-qrels", "eval", "nosuch.qrels", "small_a.run")
    cli("bad-missing-run", "eval", "small.qrels", "nosuch.run")
    cli("bad-missing-run-check", "check", "small.qrels", "small_a.run", "nosuch.run")
    cli("bad-5col", "eval", "small.qrels", "bad_5col.run")
    cli("bad-5col-check", "check", "small.qrels", "bad_5col.run")
    cli("bad-score", "eval", "small.qrels", "bad_score.run", "-m", "ndcg@5")
    cli("bad-score-explain", "explain", "small.qrels", "bad_score.run", "-q", "q1")
    cli("bad-header", "eval", "small.qrels", "header.run")
    cli("bad-swapped", "eval", "small_a.run", "small.qrels")
    cli("bad-empty-qrels", "eval", "empty.qrels", "small_a.run")
    cli("bad-empty-qrels-check", "check", "empty.qrels", "small_a.run")
    for policy in ("error", "first", "max"):
        cli(f"dup-run-{policy}", "eval", "small.qrels", "dup.run", "-m", "ndcg@5", "--per-query", "--on-duplicate", policy)
        cli(f"dup-run-{policy}-check", "check", "small.qrels", "dup.run", "--on-duplicate", policy, "--format", "json")
        cli(f"dup-qrels-{policy}", "eval", "dup.qrels", "small_a.run", "-m", "ndcg@5", "--format", "json", "--per-query",
            "--on-duplicate", policy)
    cli("dup-run-max-explain", "explain", "small.qrels", "dup.run", "-q", "q1", "-m", "ndcg@5", "--on-duplicate", "max")
    cli("dup-run-first-diff", "diff", "small.qrels", "dup.run", "-m", "ndcg@5", "-m", "ndcg@5 gain=exp2",
        "--on-duplicate", "first")
    cli("dup-run-compare", "compare", "small.qrels", "dup.run", "small_b.run", "--on-duplicate", "max", "--resamples", "200")
    cli("gz-eval", "eval", "small.qrels.gz", "small_a.run.gz", "-m", "ndcg@10", "--format", "json", "--per-query")
    cli("gz-explain", "explain", "small.qrels.gz", "small_a.run.gz", "-q", "q1", "-m", "ndcg@5", "--format", "json")
    cli("untidy-eval", "eval", "small.qrels", "untidy.run", "-m", "ndcg@10", "--format", "json", "--per-query")


def _file_format_cases() -> None:
    """The same judgments and scores in each format of inputs/formats.py (make_inputs.py formats())."""
    cli("formats-same-run-three-ways", "eval", "small.qrels", "small_a.run", "small_a.csv", "small_a.jsonl",
        "-m", "ndcg@10", "-m", "quepid")
    cli("formats-csv-qrels-trec-run", "eval", "small.csv", "small_a.run", "-m", "ndcg@10", "-m", "quepid")
    cli("formats-quepid-csv", "eval", "small.csv", "small_a.csv", "-m", "quepid", "-m", "quepid.cut", "--per-query")
    cli("formats-csv-json", "eval", "small.csv", "small_a.csv", "-m", "ndcg@5", "--format", "json", "--per-query")
    cli("formats-ranklib", "eval", "small_a.ranklib", "small_a.scores", "-m", "ndcg@10 gain=exp2 ties=input",
        "--per-query")
    cli("formats-elastic-jsonl", "eval", "small.rank_eval.json", "small_a.jsonl", "-m", "elastic", "-m",
        "elastic.ndcg", "--format", "json", "--per-query")
    cli("formats-elastic-msearch", "eval", "small.rank_eval.json", "small_a.msearch.json", "-m", "elastic.ndcg",
        "--per-query")
    cli("formats-check", "check", "small.csv", "small_a.csv", "small_a.jsonl", "small_a.run")
    cli("formats-bad-role", "eval", "small.qrels", "small_a.ranklib")
    cli("formats-bad-scores-alone", "check", "small.qrels", "small_a.scores", "small.rank_eval.json")


# ---- 9. the large generated workload ------------------------------------------------------------------------

def _synthetic_cases() -> None:
    q, r = SYNTHETIC_QRELS, SYNTHETIC_RUN
    cli("synthetic-eval-table", "eval", q, r, "-m", "trec_eval@10", "-m", "trec_eval.ndcg", "-m", "trec_eval@1000",
        "-m", "ndcg@10 ties=average", "-m", "ndcg ideal=local gain=exp2", data="synthetic")
    cli("synthetic-trec-ndcg", "eval", q, r, "-m", "trec_eval.ndcg", "--format", "trec", "--per-query", data="synthetic")
    cli("synthetic-json-at20-skip", "eval", q, r, "-m", "ndcg@20 unjudged=skip", "--format", "json", "--per-query",
        data="synthetic")
    cli("synthetic-json-uncut", "eval", q, r, "-m", "ndcg", "--format", "json", "--per-query", data="synthetic")
    cli("synthetic-explain-q0", "explain", q, r, "-q", "q0", "-m", "ndcg@20 ties=average", data="synthetic")
    cli("synthetic-explain-q123-json", "explain", q, r, "-q", "q123", "-m", "trec_eval.ndcg", "--format", "json",
        data="synthetic")
    cli("synthetic-check", "check", q, r, data="synthetic")


_axis_cases()
_random_cases()
_preset_cases()
_multi_cases()
_format_cases()
_explain_cases()
_subcommand_cases()
_bad_input_cases()
_file_format_cases()
_synthetic_cases()


# ---- 10. the Python API -------------------------------------------------------------------------------------

QRELS_DICT = {
    "q1": {"a": 3, "b": 2, "c": 2, "d": 0, "e": 1},
    "q2": {"x": 1, "y": 0, "z": -1, "w": 0.5},
    "q3": {"k": 0, "l": -2},  # zero ideal
    "q4": {"solo": 2},  # absent from the runs
    "qé": {"dé": 4, "q1": 1, "qé": 3},
}
RUN_DICTS = {
    "bm25": {"q1": {"a": 1.0, "b": 2.0, "c": 2.0, "u": 3.0, "d": 0.5}, "q2": {"x": 1.0, "y": 1.000000001, "z": 0.5},
             "q3": {"k": 1.0, "l": 2.0}, "qé": {"qé": 2.0, "dé": 1.0, "q1": 1.0}, "q9": {"a": 1.0}},
    "dense": {"q1": {"e": 0.9, "a": 0.8, "d": 0.8, "b": 0.1}, "q2": {"w": 0.3, "x": 0.3, "z": 0.9},
              "q3": {"l": 0.1}, "qé": {"dé": 0.5, "zz": 0.6}},
}


def _frames():
    import pandas as pd

    qrels = pd.DataFrame([(q, d, g) for q, docs in QRELS_DICT.items() for d, g in docs.items()],
                         columns=["query", "doc", "grade"])
    runs = {name: pd.DataFrame([(q, d, s) for q, docs in run.items() for d, s in docs.items()],
                               columns=["qid", "docid", "score"]) for name, run in RUN_DICTS.items()}
    return qrels, runs


@api("api-evaluate-dicts")
def _api_evaluate_dicts() -> str:
    import rankflavor as rf

    report = rf.evaluate(QRELS_DICT, RUN_DICTS, ["ndcg@3", "ndcg@5 gain=exp2 ties=average", "dcg", "torchmetrics@5"])
    return dump(report.to_dict(per_query=True))


@api("api-evaluate-dict-single-run")
def _api_evaluate_dict_single() -> str:
    import rankflavor as rf

    report = rf.evaluate(QRELS_DICT, RUN_DICTS["bm25"], "ndcg@10 negative=keep empty=one missing=zero")
    return dump(report.to_dict(per_query=True))


@api("api-evaluate-frames-csv")
def _api_evaluate_frames() -> str:
    import rankflavor as rf

    qrels, runs = _frames()
    report = rf.evaluate(qrels, runs, ["ndcg@3", "trec_eval@5", "ndcg ideal=local ties=input"])
    return report.to_frame().to_csv(index=False)


@api("api-evaluate-frames-other-columns")
def _api_evaluate_frames_columns() -> str:
    import rankflavor as rf

    qrels, runs = _frames()
    qrels = qrels.rename(columns={"query": "topic", "doc": "docno", "grade": "relevance"})
    run = runs["bm25"].rename(columns={"qid": "query_id", "docid": "doc_id", "score": "sim"})
    report = rf.evaluate(qrels, [run], ["ndcg@2 ties=pessimistic", "ndcg@2 ties=optimistic"])
    return dump(report.to_dict(per_query=True))


@api("api-evaluate-frame-bad-column")
def _api_evaluate_frame_bad_column() -> str:
    import rankflavor as rf

    qrels, runs = _frames()
    rf.evaluate(qrels.rename(columns={"grade": "stars"}), runs, "ndcg@3")
    return "no error\n"


@api("api-report-lookups")
def _api_report_lookups() -> str:
    import rankflavor as rf

    report = rf.evaluate("small.qrels", ["small_a.run", "small_b.run"], ["ndcg@5", "dcg@3 ties=average"])
    out: dict[str, Any] = {"runs": report.runs, "flavors": [str(f) for f in report.flavors]}
    for run in report.runs:
        for spec in ("ndcg@5", "dcg@3 ties=average"):
            result = report.result(run, spec)
            out[f"{run} | {spec}"] = {
                "mean": report.mean(run, spec), "counts": result.counts, "warnings": [str(w) for w in result.warnings],
                "warning_codes": [getattr(w, "code", None) for w in result.warnings],
                "warning_numbers": [getattr(w, "numbers", None) for w in result.warnings],
                "values": {q: attempt(lambda q=q, run=run, spec=spec: report.value(q, run, spec))
                           for q in ("q1", "q2", "q5", "q6", "q99", "qü-文", "nope")}}
    out["unnamed-run"] = attempt(lambda: report.mean(None, "ndcg@5"))
    out["unnamed-flavor"] = attempt(lambda: report.mean("small_a.run"))
    out["unknown-flavor"] = attempt(lambda: report.mean("small_a.run", "ndcg@6"))
    return dump(out)


@api("api-report-verify")
def _api_report_verify() -> str:
    import rankflavor as rf

    out = {}
    for name, files in (("small", SMALL), ("mixed", MIXED), ("binary", BINARY)):
        report = rf.evaluate(files[0], list(files[1:]), ["ndcg@10", "ndcg@3 ties=average gain=exp2", "dcg@5",
                                                         "ndcg ideal=local negative=keep", "tf_ranking@5",
                                                         "ndcg@5 ideal=max self_docs=drop run_depth=5"])
        out[name] = [str(d) for d in report.verify()]
    return dump(out)


@api("api-report-explain")
def _api_report_explain() -> str:
    import rankflavor as rf

    report = rf.evaluate("small.qrels", SMALL[1:], ["ndcg@5 ties=average", "ndcg@10 self_docs=drop negative=drop"])
    out = []
    for run, query, spec in (("small_a.run", "q1", "ndcg@5 ties=average"), ("small_b.run", "q8", None),
                             ("small_c.run", "q6", "ndcg@5 ties=average"), ("small_a.run", "q99", "ndcg@5 ties=average"),
                             ("small_a.run", "q4", "ndcg@10 self_docs=drop negative=drop")):
        flavor = spec or "ndcg@10 self_docs=drop negative=drop"
        out.append(attempt(lambda run=run, query=query, flavor=flavor: report.explain(run, query, flavor).to_dict()))
    return dump(out)


@api("api-report-records")
def _api_report_records() -> str:
    import rankflavor as rf

    report = rf.evaluate("small.qrels", "small_b.run", "ndcg@4 ties=average unjudged=skip")
    return dump([r.to_dict() for r in report.records("small_b.run", "ndcg@4 ties=average unjudged=skip")])


@api("api-report-records-mixed")
def _api_report_records_mixed() -> str:
    import rankflavor as rf

    report = rf.evaluate("mixed.qrels", "mixed_b.run", "ndcg@5 negative=drop precision=f32")
    records = report.records("mixed_b.run", "ndcg@5 negative=drop precision=f32")
    return dump({"n": len(records), "first_12": [r.to_dict() for r in records[:12]]})


@api("api-rf-explain")
def _api_rf_explain() -> str:
    import rankflavor as rf

    out = [rf.explain("small.qrels", "small_b.run", "q1", "ndcg@5 ties=average").to_dict(),
           rf.explain("small.qrels", "small_a.run", "q6", "ndcg@5 missing=zero").to_dict(),
           rf.explain(QRELS_DICT, RUN_DICTS["dense"], "qé", "ndcg@3 gain=exp2").to_dict(),
           attempt(lambda: rf.explain("small.qrels", "small_a.run", "nope").to_dict()),
           attempt(lambda: rf.explain("small.qrels", "small_a.run", "q5", "ndcg@3 empty=error").to_dict())]
    return dump(out)


@api("api-input-errors")
def _api_input_errors() -> str:
    import rankflavor as rf

    out = []
    for qrels, run in (("small.qrels", "bad_score.run"), ("small.qrels", "bad_5col.run"), ("empty.qrels", "small_a.run"),
                       ("small.qrels", "dup.run"), ("dup.qrels", "small_a.run"), ("small.qrels", "header.run"),
                       ("nosuch.qrels", "small_a.run")):
        try:
            rf.evaluate(qrels, run, "ndcg@5")
            out.append({"qrels": qrels, "run": run, "error": None})
        except rf.InputError as exc:
            out.append({"qrels": qrels, "run": run, "type": type(exc).__name__, "source": exc.source, "line": exc.line,
                        "text": exc.text, "fix": exc.fix, "reason": exc.reason, "str": str(exc)})
    return dump(out)


@api("api-evaluate-on-duplicate")
def _api_on_duplicate() -> str:
    import rankflavor as rf

    out = {}
    for policy in ("first", "max"):
        report = rf.evaluate("dup.qrels", ["dup.run", "small_a.run.gz"], ["ndcg@5"], on_duplicate=policy)
        out[policy] = report.to_dict(per_query=True)
    return dump(out)


@api("api-compare-files")
def _api_compare_files() -> str:
    from rankflavor.compare import compare

    cmp = compare("mixed.qrels", ["mixed_a.run", "mixed_b.run", "mixed_c.run"], grid="default", cutoffs=[5, 10],
                  n_resamples=200)
    return dump(cmp.to_dict())


@api("api-compare-frames")
def _api_compare_frames() -> str:
    from rankflavor.compare import compare

    cmp = compare("small.qrels", ["small_a.run", "small_b.run", "small_c.run"], ["ndcg@3", "ndcg@3 gain=exp2", "sklearn@5"],
                  baseline="small_b.run", n_resamples=200, seed=3)
    parts = [f"# {name}\n" + getattr(cmp, name).to_csv(index=False) for name in ("pairs", "means", "verdicts", "flips",
                                                                                 "warnings")]
    return "".join(parts) + dump({"skipped": cmp.skipped, "settings": cmp.settings})


@api("api-compare-t-dicts")
def _api_compare_t() -> str:
    from rankflavor.compare import compare

    cmp = compare(QRELS_DICT, RUN_DICTS, grid={"gain": ["linear", "exp2"], "ideal": ["global", "recall(3)"],
                                               "ties": ["average", "input"]}, cutoffs=[3, 5], test="t")
    return dump(cmp.to_dict())


@api("api-compare-errors")
def _api_compare_errors() -> str:
    from rankflavor.compare import compare

    return dump([attempt(lambda: compare("small.qrels", ["small_a.run"]).to_dict()),
                 attempt(lambda: compare("small.qrels", SMALL[1:3], ["ndcg@3"], grid="ties").to_dict()),
                 attempt(lambda: compare("small.qrels", SMALL[1:3], grid={"colour": ["red"]}).to_dict()),
                 attempt(lambda: compare("small.qrels", SMALL[1:3], test="z", n_resamples=10).to_dict())])


@api("api-diff")
def _api_diff() -> str:
    from rankflavor.compare import diff

    out = {"one-run": diff("small.qrels", "small_a.run", "ndcg@10", "ndcg@10 gain=exp2 ideal=local", shapley=True).to_dict(),
           "two-runs": diff("deep.qrels", ["deep_a.run", "deep_b.run"], "trec_eval@10", "sklearn@5",
                            order=["ties", "cutoff"], top=3).to_dict(),
           "data-refuses": attempt(lambda: diff("mixed.qrels", "mixed_a.run", "ndcg@5", "sklearn@5").to_dict()),
           "three-runs": attempt(lambda: diff("small.qrels", list(SMALL[1:]), "ndcg@5", "ndcg@3").to_dict())}
    return dump(out)


@api("api-build-grid")
def _api_build_grid() -> str:
    from rankflavor.compare import GRIDS, build_grid

    out = {}
    for name in GRIDS:
        flavors, skipped = build_grid(name, [3, 10])
        out[name] = {"flavors": [str(f) for f in flavors], "skipped": skipped}
    out["dict"] = build_grid({"ideal": ["recall(5)", "global"], "ties": ["average", "input"]}, [5, 10], "ndcg gain=exp2")
    out["list"] = build_grid(["ndcg@3", "trec_eval", "gdeval", "dcg@2 ideal=local"])
    out["default"] = build_grid(None)
    out["file"] = build_grid("grid.txt", [4])
    return dump(out)


@api("api-views")
def _api_views() -> str:
    from rankflavor.compare import changed_winners, top_differences

    parts = ["# top_differences\n", top_differences("mixed.qrels", ["mixed_a.run", "mixed_c.run"], "ndcg@10", top=8)
             .to_csv(index=False), "# changed_winners\n",
             changed_winners("small.qrels", ["small_a.run", "small_b.run"], "ndcg@5", "ndcg@5 gain=exp2 ties=average")
             .to_csv(index=False),
             "# changed_winners top 3\n",
             changed_winners("mixed.qrels", ["mixed_a.run", "mixed_b.run"], "ndcg@10", "sklearn negative=keep", top=3)
             .to_csv(index=False)]
    return "".join(parts)


@api("api-presets")
def _api_presets() -> str:
    from rankflavor.flavor import PRESETS, Flavor, parse_spec

    out = {}
    for name, preset in PRESETS.items():
        flavors = attempt(lambda name=name: [str(f) for f in parse_spec(name)])
        at10 = [str(f) for f in parse_spec(f"{name}@10")]
        out[name] = {"peer": preset.peer, "source": preset.source, "axes": preset.axes, "cutoffs": preset.cutoffs,
                     "metric": preset.metric, "needs_cutoff": preset.needs_cutoff, "checked": preset.checked,
                     "note": preset.note, "flavors": flavors, "at10": at10,
                     "round_trip": all(Flavor.parse(s) == Flavor.parse(f"{name}@10") for s in at10),
                     "with_override": str(parse_spec(f"{name}@7 round=2")[0])}
    return dump(out)


def random_api_spec(rng: random.Random) -> str:
    """A random spec written untidily: keys in any order, spaces inside tables and calls, numbers in odd forms."""
    tidy = random_spec(rng)
    if rng.random() < 0.3:
        tidy = tidy.replace(",", ", ").replace("(", "( ")
    if rng.random() < 0.2:
        tidy = tidy.replace("min_grade=1", "min_grade=1.0").replace("jarvelin(2)", "jarvelin(2.0)")
    if rng.random() < 0.15:
        tidy += rng.choice([" ties=random(007)", " discount=log( e )", " round=0", " gain={1:1, 0:0, 2 : 3}",
                            " min_grade=-1.5", " run_depth=0", " ideal=recall(3)", " gain=exp3"])
    return tidy


@api("api-parse-spec-random")
def _api_parse_random() -> str:
    from rankflavor.flavor import Flavor, parse_spec

    rng = random.Random(7)
    out = []
    for _ in range(100):
        spec = random_api_spec(rng)
        parsed = attempt(lambda spec=spec: [str(f) for f in parse_spec(spec)])
        entry: dict[str, Any] = {"spec": spec, "parsed": parsed}
        if isinstance(parsed, list):
            entry["round_trip"] = all(Flavor.parse(s) == f for s, f in zip(parsed, parse_spec(spec), strict=True))
        out.append(entry)
    return dump(out)


@api("api-flavor-objects")
def _api_flavor_objects() -> str:
    from rankflavor.flavor import Flavor, parse_spec, parse_specs

    f = Flavor(cutoff=10, gain={0: 0, 1: 1.5, 2: 3}, min_grade=0.5, run_depth=20)
    g = f.with_(ties="average", ideal="local")
    out = {"f": str(f), "repr": repr(f), "head": f.head, "axis_items": f.axis_items(), "g": str(g),
           "differences": g.differences(f), "equal": Flavor.parse(str(f)) == f,
           "dcg": str(Flavor(metric="dcg", cutoff=3)), "dcg_items": Flavor(metric="dcg").axis_items(),
           "bad_with": attempt(lambda: str(f.with_(colour="red"))),
           "bad_metric": attempt(lambda: str(Flavor(metric="map"))),
           "bad_cutoff": attempt(lambda: str(Flavor(cutoff=0))),
           "parse_several": attempt(lambda: str(Flavor.parse("beir"))),
           "parse_spec_several": [str(x) for x in parse_spec("beir")],
           "parse_specs": [str(x) for x in parse_specs(["ndcg@3", "trec_eval@3", f, "lightgbm"])]}
    return dump(out)


@api("api-peers-arrays")
def _api_peers_arrays() -> str:
    from rankflavor.dialects.arrays import query_rows, spark_inputs, stack

    out = {}
    for run in ("small_a.run", "small_b.run", "small_c.run"):
        rows = query_rows("small.qrels", run)
        st = stack(rows)
        out[run] = {"rows": [{"query": r.query, "docs": r.docs, "labels": r.labels, "scores": r.scores,
                              "judged": r.judged} for r in rows],
                    "stacked": {"labels": st.labels, "scores": st.scores, "group_sizes": st.group_sizes,
                                "group_ids": st.group_ids, "queries": st.queries},
                    "spark": spark_inputs("small.qrels", run)}
    out["dicts"] = [{"query": r.query, "docs": r.docs, "labels": r.labels}
                    for r in query_rows(QRELS_DICT, RUN_DICTS["bm25"])]
    out["empty"] = {"labels": stack([]).labels, "group_sizes": stack([]).group_sizes}
    return dump(out)


@api("api-peers-arrays-mixed")
def _api_peers_arrays_mixed() -> str:
    from rankflavor.dialects.arrays import query_rows, stack

    st = stack(query_rows("mixed.qrels", "mixed_b.run"))
    return dump({"labels": st.labels, "scores": st.scores, "group_sizes": st.group_sizes, "queries": st.queries})


def _check_ids() -> None:
    seen: set[str] = set()
    for case in CASES:
        assert case.id not in seen, f"duplicate case id {case.id}"
        assert "/" not in case.id and case.id.strip() == case.id, case.id
        seen.add(case.id)


_check_ids()
