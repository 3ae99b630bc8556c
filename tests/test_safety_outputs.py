"""Issue 41, item 1: no input destroyed by any path. Every output is resolved once and compared with every input by
name and by identity (the standard input redirected from a file, the project file, a descriptor's alias); the page
is written through the folder held open since the check, so a swap of the output for a symlink to an input while
the job runs cannot redirect it; Spark's --output is read as Hadoop reads it (scheme in any case, `file:` forms)
and never written over an input's folder, nor as a local path under a cluster master; a signal during a write
leaves no temporary file."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from heavy import need_group
from rankflavor.cli.main import main
from rankflavor.errors import UsageError
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS
from rankflavor.spark.output_dir import plan_output

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example qrels and runs in a folder of their own, the working directory."""
    for source in (SEED000_QRELS, *SEED000_RUNS):
        shutil.copy(source, tmp_path / source.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _cli(*argv: str, cwd: Path, stdin: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
    with (stdin.open("rb") if stdin else open(os.devnull, "rb")) as source:
        return subprocess.run([sys.executable, "-m", "rankflavor", *argv], cwd=cwd, env=env, stdin=source,
                              capture_output=True, text=True, timeout=300)


def test_stdin_redirected_from_the_output_is_refused(inputs):
    """`report q.qrels - -o A.run < A.run`: the standard input is the file the page would replace."""
    need_group("report")
    before = _tree(inputs)
    for output in ("X.run", str(inputs / "X.run"), "./X.run"):
        done = _cli("report", "seed000.qrels", "-", "-m", "ndcg@3", "-o", output, cwd=inputs, stdin=inputs / "X.run")
        assert done.returncode == 2 and "is the standard input" in done.stderr and "X.run" in done.stderr, done.stderr
    done = _cli("eval", "seed000.qrels", "-", "--format", "json", cwd=inputs, stdin=inputs / "X.run")
    assert done.returncode == 0, done.stderr
    assert _tree(inputs) == before


@pytest.mark.parametrize("output", ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/dev/stdout"])
def test_a_standard_stream_as_the_page_is_refused(inputs, output):
    need_group("report")
    before = _tree(inputs)
    done = _cli("report", "seed000.qrels", "X.run", "-m", "ndcg@3", "-o", output, cwd=inputs, stdin=inputs / "Y.run")
    assert done.returncode == 2 and "standard input or output" in done.stderr, done.stderr
    assert _tree(inputs) == before


@pytest.mark.parametrize("name", ["rankflavor.toml", "pyproject.toml"])
def test_the_project_file_just_read_is_never_the_output(inputs, name, capsys):
    """`report ... -m project.primary -o rankflavor.toml`: the project file is an input."""
    need_group("report")
    text = 'primary = "ndcg@3"\n' if name == "rankflavor.toml" else '[tool.rankflavor]\nprimary = "ndcg@3"\n'
    (inputs / name).write_text(text)
    (inputs / "sub").mkdir()
    before = _tree(inputs)
    for output in (name, f"sub/../{name}"):
        assert main(["report", "seed000.qrels", "X.run", "Y.run", "-m", "project.primary", "-o", output]) == 2
        err = capsys.readouterr().err
        assert "is the input" in err and name in err and "internal" not in err, err
    os.chdir(inputs / "sub")  # (found upward from the working directory, as find_project finds it)
    assert main(["report", "../seed000.qrels", "../X.run", "-o", f"../{name}"]) == 2
    assert _tree(inputs) == before


def test_a_symlink_swapped_in_while_the_page_is_made_cannot_redirect_the_write(inputs, monkeypatch, capsys):
    """Check, then write: out.html replaced by a symlink to an input after the check (a deterministic hook in the
    evaluation); the write goes into the folder checked and replaces the name, never the input."""
    need_group("report")
    import rankflavor.display.page as page

    real_build = page.build_model
    page_path = inputs / "out.html"
    page_path.write_text("yesterday's page")

    def build_then_swap(*args, **kwargs):
        model = real_build(*args, **kwargs)
        page_path.unlink()
        page_path.symlink_to(inputs / "X.run")
        return model

    monkeypatch.setattr(page, "build_model", build_then_swap)
    before = (inputs / "X.run").read_bytes()
    assert main(["report", "seed000.qrels", "X.run", "Y.run", "-m", "ndcg@3", "-o", "out.html"]) == 0, \
        capsys.readouterr().err
    assert (inputs / "X.run").read_bytes() == before
    assert not page_path.is_symlink() and page_path.read_text().startswith("<!DOCTYPE html>")
    assert not [p for p in inputs.iterdir() if p.name.endswith(".tmp")]


def test_the_folder_swapped_for_a_symlink_cannot_redirect_the_write(tmp_path, monkeypatch):
    """The output's folder renamed away and replaced by a symlink to the inputs' folder after the check: the page
    lands in the folder checked (held open), the inputs' folder is untouched."""
    from rankflavor.outputs import check_output, write_text

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "page.html").write_text("an input")
    (tmp_path / "out").mkdir()
    destination = check_output(tmp_path / "out" / "page.html", [str(tmp_path / "in" / "page.html")])
    (tmp_path / "out").rename(tmp_path / "moved")
    (tmp_path / "out").symlink_to(tmp_path / "in")
    write_text(destination, "the page")
    assert (tmp_path / "in" / "page.html").read_text() == "an input"
    assert (tmp_path / "moved" / "page.html").read_text() == "the page"


def test_sigterm_during_the_page_write_leaves_no_temporary_file_and_the_old_page(inputs, monkeypatch, capsys):
    """A signal while the page is written (a deterministic hook: the first write of the temporary file sends it):
    exit 143, one line, the old page kept, no temporary file (a 7 MB one was left behind)."""
    need_group("report")
    (inputs / "page.html").write_text("yesterday's page")
    real_write = os.write

    def write(fd: int, data) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            real_write(fd, bytes(data[:1000]))
            os.kill(os.getpid(), signal.SIGTERM)
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)
    assert main(["report", "seed000.qrels", "X.run", "Y.run", "-m", "ndcg@3", "-o", "page.html"]) == 143
    assert capsys.readouterr().err.endswith("rankflavor: terminated (SIGTERM)\n")
    monkeypatch.undo()
    assert (inputs / "page.html").read_text() == "yesterday's page"
    assert not [p.name for p in inputs.iterdir() if p.name.endswith(".tmp")]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # (main's handlers put back)


@pytest.mark.parametrize("form", ["FILE://{folder}", "file://{folder}", "File:{folder}", "file://localhost{folder}",
                                  "FILE://LOCALHOST{folder}/sub/..", "{folder}/./"])
def test_spark_output_in_any_case_or_file_form_never_replaces_the_inputs_folder(inputs, form, capsys):
    """`--output FILE:///path/to/inputs/folder --overwrite`: refused before any Spark job (local[2])."""
    need_group("spark")
    before = _tree(inputs)
    (inputs / "sub").mkdir()
    output = form.format(folder=inputs)
    assert main(["eval", "seed000.qrels", "X.run", "-m", "ndcg@3", "--engine", "spark", "--master", "local[2]",
                 "--output", output, "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert "holds the input" in err and "internal" not in err, err
    assert _tree(inputs) == before


def test_spark_output_under_a_cluster_master():
    """A cluster master: a local-looking output is refused (its executors would write it on their own machines);
    a URI on the cluster's file system is compared with the inputs without case, never over an input's folder."""
    cluster = "spark://127.0.0.1:7077"
    for output in ("/tmp/results", "results", "file:///tmp/results", "FILE:/tmp/results"):
        with pytest.raises(UsageError, match="a path on this machine, but --master"):
            plan_output(output, ["q.txt"], overwrite=True, master=cluster)
    inputs = ["hdfs://NameNode:8020/data/runs/a.parquet", "s3a://bucket/qrels.parquet"]
    for output, says in [("HDFS://namenode:8020/data/runs", "holds"), ("hdfs://namenode:8020/data/./runs/", "holds"),
                         ("hdfs://namenode:8020/data/runs/a.parquet", "is"), ("S3A://bucket/", "holds")]:
        with pytest.raises(UsageError, match=f"{says} the input"):
            plan_output(output, inputs, overwrite=True, master=cluster)
    plan = plan_output("hdfs://namenode:8020/results", inputs, overwrite=True, master=cluster)
    assert plan.local is None and plan.overwrite


@pytest.mark.parametrize("argv", [["--engine", "spark", "--output", ""], ["--output", ""], ["--output", "out"],
                                  ["--master", "local[2]"], ["--overwrite"]])
def test_an_empty_or_unused_output_option_is_refused(inputs, argv, capsys):
    """`--output ""` was silently no output; --output, --master and --overwrite without --engine spark were dropped."""
    if "spark" in argv:
        need_group("spark")
    assert main(["eval", "seed000.qrels", "X.run", "-m", "ndcg@3", *argv]) == 2
    err = capsys.readouterr().err
    assert ("empty path" in err or "options of --engine spark" in err) and "internal" not in err, err
