"""Start-up stays light: `rankflavor --help` imports no numerical library, and `rankflavor eval` on
TREC files never imports pandas, scipy or rich (pyarrow imports pandas behind `Array.to_numpy`, `pa.array` and
Python scalars given to compute functions: about 0.2 s of every call), nor `pyarrow.compute` (its generated
wrappers: about 0.05 s, inputs/kernels.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "rankflavor" / "examples"

PROBE = """
import sys
from rankflavor.cli.main import main
code = main(sys.argv[1:])
heavy = sorted(m for m in ("pandas", "scipy", "rich", "numpy", "pyarrow", "pyarrow.compute") if m in sys.modules)
print("HEAVY", " ".join(heavy), file=sys.stderr)
"""


def _imported(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stderr.splitlines() if line.startswith("HEAVY")]
    assert lines, done.stderr
    return set(lines[-1].split()[1:])


def test_help_imports_no_numerical_library():
    probe = "import sys\nfrom rankflavor.cli.main import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n" \
            "print('HEAVY', *[m for m in ('numpy', 'pyarrow', 'pandas') if m in sys.modules], file=sys.stderr)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stderr.strip().splitlines()[-1] == "HEAVY"


def test_presets_and_metrics_import_no_metric_family_nor_numerical_library(tmp_path):
    """Their rows come from the generated table (cli/listings.py), not from importing the families."""
    probe = ("import sys\nfrom rankflavor.cli.main import main\nmain(sys.argv[1:])\n"
             "print('HEAVY', *sorted(m for m in sys.modules if m in ('numpy', 'pyarrow', 'pandas') "
             "or m.startswith(('rankflavor.metrics.', 'rankflavor.engine'))), file=sys.stderr)")
    import os

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(EXAMPLES.parents[1]), os.environ.get("PYTHONPATH", "")])}
    commands = (["presets"], ["presets", "--format", "json"], ["presets", "trec_eval"], ["metrics"],
                ["metrics", "--format", "json"])
    for args in commands:  # (in a folder without a project file: a project's flavors are resolved, see below)
        done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120,
                              cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        assert done.stderr.strip().splitlines()[-1] == "HEAVY", (args, done.stderr)
    (tmp_path / "rankflavor.toml").write_text('primary = "ndcg@10 gain=exp2"\n')
    done = subprocess.run([sys.executable, "-c", probe, "presets"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env=env)
    assert "project.primary" in done.stdout and "rankflavor.metrics.ndcg" in done.stderr, done.stderr  # (the probe)


def test_the_listings_table_is_what_the_registry_gives():
    """cli/listings.json holds what the registry and the presets give now: a family, a peer name or a preset
    changed without `python tools/docs.py` fails here."""
    from rankflavor.cli import cmd_presets, listings
    from rankflavor.metrics import catalog

    assert listings.metric_rows() == catalog.metric_rows()
    assert listings.preset_rows() == cmd_presets.shipped_rows()
    assert listings.TABLE.read_text(encoding="utf-8") == listings.render(catalog.metric_rows(), cmd_presets.shipped_rows())


def test_the_registry_index_is_what_the_families_declare():
    """registry_index.py holds what the families declare now (a family's names changed without `python
    tools/docs.py` fails here), and while it answers, a name's lookup imports its own family only."""
    from rankflavor import registry

    assert Path(registry.__file__).with_name("registry_index.py").read_text(encoding="utf-8") == registry.render_index()
    probe = ("import sys; from rankflavor import registry; from rankflavor.flavor import parse_spec; "
             "parse_spec('trec_eval.map'); print(*sorted(f for f in registry.families() "
             "if 'rankflavor.metrics.' + f in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["ap"], done.stdout


def test_a_plug_in_or_a_removal_makes_the_tables_live():
    """A metric the index lacks, registered or removed, makes every table derived from the families loaded."""
    probe = ("from rankflavor import registry; from rankflavor.dialects import trec_eval as t; "
             "from rankflavor.metrics.ap import *; m = registry.get('map'); before = 'map' in t.tables().plain; "
             "registry.unregister('map'); after = 'map' in t.tables().plain; registry.register(m, ('ap',), "
             "{'trec_eval': ('map_again',)}); print(before, after, t.tables().plain.get('map_again'), "
             "'udcg' in registry.names())")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["True", "False", "map", "True"], done.stdout + done.stderr


def test_eval_on_trec_files_imports_neither_pandas_nor_scipy_nor_rich(tmp_path):
    # a run whose ties straddle the cutoff and with unjudged docs: every warning's extra evaluation runs
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q{q} Q0 d{d} {d + 1} {float(d // 2)} sys\n" for q in range(3) for d in range(30)))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 d{d} {d % 3}\n" for q in range(4) for d in range(0, 30, 4)))
    heavy = _imported("eval", str(qrels), str(run), "-m", "trec_eval@10", "-m", "ndcg@5 ties=average")
    assert {"numpy", "pyarrow"} <= heavy  # the probe sees what it should
    assert not heavy & {"pandas", "scipy", "rich", "pyarrow.compute"}, heavy
    heavy = _imported("eval", str(EXAMPLES / "seed000.qrels"), str(EXAMPLES / "X.run"), "--format", "json")
    assert not heavy & {"pandas", "scipy", "rich", "pyarrow.compute"}, heavy
    heavy = _imported("eval", str(qrels), str(run), "-m", "trec_eval.official", "--format", "trec")
    assert not heavy & {"pandas", "scipy", "rich", "pyarrow.compute"}, heavy
    heavy = _imported("eval", str(qrels), str(run), str(run), "-m", "trec_eval.official", "--format", "trec")
    assert not heavy & {"pandas", "scipy", "rich", "pyarrow.compute"}, heavy  # (a track, streamed: cli/trec_stream.py)


def test_a_slow_read_on_a_terminal_shows_a_progress_bar(tmp_path, monkeypatch):
    """After PROGRESS_AFTER seconds of parsing, a bar named after the file appears (terminal only), and goes."""
    import io
    import time

    import pyarrow.csv as pacsv
    from rich.console import Console

    from rankflavor.inputs import arrow_csv

    run = tmp_path / "slow.run"
    run.write_text("".join(f"q1 Q0 d{i} {i + 1} {1.0 / (i + 1)} t\n" for i in range(50)))
    screen = io.StringIO()
    real_read = pacsv.read_csv

    def slow_read(*args, **kwargs):
        time.sleep(1.0)  # a parse that lasts (the bar appears after PROGRESS_AFTER, patched to 0.05 s)
        return real_read(*args, **kwargs)

    monkeypatch.setattr(arrow_csv.pacsv, "read_csv", slow_read)
    monkeypatch.setattr(arrow_csv, "PROGRESS_AFTER", 0.05)
    monkeypatch.setattr(arrow_csv, "_progress_console", lambda: Console(file=screen, force_terminal=True, width=100))
    for terminal, shown in ((False, False), (True, True)):
        monkeypatch.setattr(arrow_csv, "_terminal", lambda t=terminal: t)
        screen.seek(0)
        screen.truncate()
        table = arrow_csv.parse_columns(run, arrow_csv.RUN_COLUMNS, 4, ["query", "doc", "score"], gz=False)
        assert table is not None and table.num_rows == 50
        assert ("reading slow.run" in screen.getvalue()) is shown


RANKFLAVOR_MODULES_OF_A_SMALL_EVAL = 140  # 129 on 2026-12-01 (docs/performance.md: start-up and small runs)


def test_a_small_trec_eval_imports_only_what_it_needs(tmp_path):
    """`eval -m trec_eval.official --format trec` on a small run: no comparison, page, Spark, drop-in or adapter
    module, no other numerical or plotting library, no Arrow module beyond the CSV reader and the kernels, and a
    bounded number of rankflavor's modules (counted, not timed): a new import on this path fails here."""
    probe = ("import sys\nfrom rankflavor.cli.main import main\nmain(sys.argv[1:])\n"
             "print('MODULES', *sorted(sys.modules), file=sys.stderr)")
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q{q} Q0 d{d} {d + 1} {float(d // 2)} sys\n" for q in range(3) for d in range(30)))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 d{d} {d % 3}\n" for q in range(4) for d in range(0, 30, 4)))
    done = subprocess.run([sys.executable, "-c", probe, "eval", str(qrels), str(run), "-m", "trec_eval.official",
                           "--format", "trec"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "map" in done.stdout, done.stderr
    modules = done.stderr.strip().splitlines()[-1].split()[1:]
    assert "rankflavor.engine.front" in modules and "pyarrow" in modules  # (the probe sees what it should)
    unneeded = ("rankflavor.compare", "rankflavor.display", "rankflavor.spark", "rankflavor.dropin",
                "rankflavor.adapters", "pandas", "scipy", "rich", "polars", "plotly", "pyspark", "torch",
                "statsmodels", "numba", "pyarrow.compute", "pyarrow.parquet", "pyarrow.dataset", "pyarrow.json",
                *(f"rankflavor.dialects.{name}" for name in ("ir_measures", "ranx", "cwl_eval", "ndeval", "trectools",
                                                             "torchmetrics")))  # (dialects/lookup.py: on first use)
    assert [m for m in modules if (m + ".").startswith(tuple(u + "." for u in unneeded))] == []
    ours = [m for m in modules if m == "rankflavor" or m.startswith("rankflavor.")]
    assert len(ours) <= RANKFLAVOR_MODULES_OF_A_SMALL_EVAL, sorted(ours)


def test_a_small_eval_gives_arrow_the_system_allocator_unless_the_user_chose(tmp_path):
    """mimalloc, Arrow's default pool, costs a small job 15-30 MB of peak RSS (cli/threads.py small_job_allocator);
    a large input keeps the default, and a pool the user chose is kept."""
    import os

    probe = ("import os, sys\nfrom rankflavor.cli.main import main\nmain(sys.argv[1:])\nimport pyarrow\n"
             "print('POOL', os.environ.get('ARROW_DEFAULT_MEMORY_POOL'), pyarrow.default_memory_pool().backend_name,"
             " os.environ.get('RANKFLAVOR_JEMALLOC_DECAY'), file=sys.stderr)")
    large = tmp_path / "large.run"
    with large.open("wb") as sparse:  # (a sparse file past SMALL_INPUTS: refused by the reader, after the choice)
        sparse.truncate(65 << 20)
    qrels, run = str(EXAMPLES / "seed000.qrels"), str(EXAMPLES / "X.run")
    cases = ((["eval", qrels, run], None, "system"), (["eval", qrels, str(large)], None, None),
             (["eval", qrels, run], "jemalloc", "jemalloc"))
    for args, preset, expected in cases:
        env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
        if preset is not None:
            env["ARROW_DEFAULT_MEMORY_POOL"] = preset
        done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120,
                              env=env)
        words = done.stderr.strip().splitlines()[-1].split()
        assert words[0] == "POOL", done.stderr
        if expected is None:
            assert words[1] == "None" and words[2] != "system" and words[3] == "None", (args, done.stderr)
        else:
            assert words[1:3] == [expected, expected], (args, preset, done.stderr)
            assert words[3] == ("0" if preset is None else "None"), (args, done.stderr)  # (small: pages back at once)


def test_eval_and_explain_set_numpy_start_up_settings_unless_the_user_chose(tmp_path):
    """OpenBLAS's idle workers spin after numpy's import, on the core the parser needs, and numpy's huge-page advice
    stalls each first touch of a large array (cli/threads.py): the settings must be there when numpy is imported
    (a spec's resolution imports it before the command runs), and a user's own value kept."""
    import os

    names = ("OPENBLAS_NUM_THREADS", "NUMPY_MADVISE_HUGEPAGE")
    probe = ("import os, sys\n"
             "seen = []\n"
             "class Probe:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name == 'numpy' and not seen:\n"
             f"            seen.extend(os.environ.get(n) for n in {names!r})\n"
             "sys.meta_path.insert(0, Probe())\n"
             "from rankflavor.cli.main import main\nmain(sys.argv[1:])\n"
             "print('NUMPY', *seen, file=sys.stderr)")
    qrels, run = str(EXAMPLES / "seed000.qrels"), str(EXAMPLES / "X.run")
    commands = (["eval", qrels, run, "-m", "ndcg@10"], ["explain", qrels, run, "-q", "q1", "-m", "P@5"])
    for args in commands:
        for preset, expected in ((None, "1 0"), ("3", "3 1")):
            env = {k: v for k, v in os.environ.items() if k not in names}
            if preset is not None:
                env["OPENBLAS_NUM_THREADS"], env["NUMPY_MADVISE_HUGEPAGE"] = preset, "1"
            done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True,
                                  timeout=120, env=env)
            assert done.stderr.strip().splitlines()[-1] == f"NUMPY {expected}", (args, done.stderr)


def test_the_cli_sets_glibc_malloc_before_any_thread_unless_the_user_did():
    """cli/threads.py malloc_settings: one arena, a 32 MB mmap threshold, a 256 MB trim threshold, asked of mallopt
    before any thread starts (an arena is a thread's at its first malloc); none when the user set MALLOC_* (glibc then
    applied the user's)."""
    import os

    probe = ("import ctypes, sys, threading\n"
             "calls = []\n"
             "class Libc:\n"
             "    class mallopt:\n"
             "        def __init__(self, parameter, value):\n"
             "            calls.append((parameter, value, threading.active_count()))\n"
             "ctypes.CDLL = lambda name, *a, **k: Libc()\n"
             "from rankflavor.cli.main import main\nmain(sys.argv[1:])\n"
             "print('MALLOPT', calls, file=sys.stderr)")
    args = ["eval", str(EXAMPLES / "seed000.qrels"), str(EXAMPLES / "X.run"), "-m", "ndcg@10"]
    for user, expected in ((None, [(-8, 1, 1), (-3, 32 << 20, 1), (-1, 256 << 20, 1)]), ("2", [])):
        env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"}
        if user is not None:
            env["MALLOC_ARENA_MAX"] = user
        done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120, env=env)
        assert done.stderr.strip().splitlines()[-1] == f"MALLOPT {expected}", done.stderr
