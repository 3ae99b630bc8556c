"""Outputs never destroy anything (rankflavor/outputs.py): an output that is an input, through any spelling, is
refused before the evaluation and leaves every file byte-identical; an output that cannot be written is a usage
error before the evaluation; a write that fails half-way (a full disk, an interrupt) leaves the previous file."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

import rankflavor as rf
from heavy import need_group
from rankflavor.cli.main import main
from rankflavor.errors import UsageError
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """The example qrels and runs copied into a folder of their own (with a symlink and a hard link to a run)."""
    for source in (SEED000_QRELS, *SEED000_RUNS):
        shutil.copy(source, tmp_path / source.name)
    (tmp_path / "link.run").symlink_to("X.run")
    os.link(tmp_path / "X.run", tmp_path / "hard.run")
    return tmp_path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _no_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's evaluation fails the test if it starts: each refusal must come before it."""
    import rankflavor.display.page as page

    def evaluated(*_, **__):
        raise AssertionError("the evaluation started before the output was checked")

    monkeypatch.setattr(page, "build_model", evaluated)


@pytest.mark.parametrize("output", ["X.run", "./X.run", "link.run", "hard.run", "seed000.qrels", "{abs}/Y.run"])
def test_report_onto_an_input_is_refused_and_leaves_every_file_identical(inputs, output, monkeypatch, capsys):
    need_group("report")
    monkeypatch.chdir(inputs)
    _no_evaluation(monkeypatch)
    before = _snapshot(inputs)
    output = output.format(abs=inputs)
    assert main(["report", "seed000.qrels", "X.run", "Y.run", "-m", "ndcg@3", "-o", output]) == 2
    err = capsys.readouterr().err
    assert f"-o {output!r} is the input" in err and "would destroy the input" in err and "internal" not in err
    assert _snapshot(inputs) == before and (inputs / "link.run").is_symlink()


@pytest.mark.parametrize(("output", "says"), [
    ("missing/page.html", "does not exist"), (".", "is a folder"), ("/dev/full", "not a regular file"),
    ("readonly.html", "is read-only")])
def test_an_output_that_cannot_be_written_is_a_usage_error_before_the_evaluation(inputs, output, says, monkeypatch,
                                                                                 capsys):
    need_group("report")
    monkeypatch.chdir(inputs)
    (inputs / "readonly.html").write_text("kept")
    (inputs / "readonly.html").chmod(0o444)
    _no_evaluation(monkeypatch)
    assert main(["report", "seed000.qrels", "X.run", "-m", "ndcg@3", "-o", output]) == 2
    err = capsys.readouterr().err
    assert says in err and output in err and "internal" not in err
    assert (inputs / "readonly.html").read_text() == "kept"


def _full_disk_after(monkeypatch: pytest.MonkeyPatch, allowed: int) -> None:
    """os.write onto a temporary output file writes `allowed` bytes, then fails as a full disk does."""
    real_write = os.write
    written = {"bytes": 0}

    def write(fd: int, data) -> int:
        if not os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            return real_write(fd, data)
        if written["bytes"] >= allowed:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = real_write(fd, bytes(data[:allowed - written["bytes"]]))
        written["bytes"] += n
        return n

    monkeypatch.setattr(os, "write", write)


def test_a_full_disk_mid_page_leaves_the_previous_page_and_says_so(inputs, monkeypatch, capsys):
    need_group("report")
    monkeypatch.chdir(inputs)
    command = ["report", "seed000.qrels", "X.run", "Y.run", "-m", "ndcg@3", "--resamples", "100", "-o", "page.html"]
    assert main(command) == 0
    before = _snapshot(inputs)
    _full_disk_after(monkeypatch, 100_000)
    assert main([*command[:-2], "-m", "map", *command[-2:]]) == 2
    err = capsys.readouterr().err
    assert "cannot write 'page.html'" in err and os.strerror(errno.ENOSPC) in err and "left as it was" in err
    assert "internal" not in err
    assert _snapshot(inputs) == before  # (the old page, and no temporary file left)


def test_report_to_json_is_atomic_and_never_overwrites_an_input(inputs, monkeypatch):
    monkeypatch.chdir(inputs)
    report = rf.evaluate("seed000.qrels", ["X.run", "link.run"], ["ndcg@3"])
    before = _snapshot(inputs)
    for target in ("X.run", "link.run", "hard.run", str(inputs / "seed000.qrels")):
        with pytest.raises(UsageError, match="is the input"):
            report.to_json(target)
    assert _snapshot(inputs) == before
    report.to_json("saved.json")
    saved = (inputs / "saved.json").read_bytes()
    _full_disk_after(monkeypatch, 10)
    with pytest.raises(UsageError, match="left as it was"):
        report.to_json("saved.json", per_query=True)
    assert (inputs / "saved.json").read_bytes() == saved and rf.load("saved.json").runs == ["X.run", "link.run"]
    assert sorted(p.name for p in inputs.iterdir() if p.name.endswith(".tmp")) == []


def test_an_interrupt_mid_write_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch):
    from rankflavor.outputs import write_text

    target = tmp_path / "out.json"
    target.write_text("old")
    target.chmod(0o640)
    real_write = os.write

    def interrupted(fd: int, data) -> int:
        real_write(fd, bytes(data[:3]))
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text(target, "new text")
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"] and target.read_text() == "old"
    (tmp_path / "alias.json").symlink_to("out.json")
    write_text(tmp_path / "alias.json", "new text")  # (through a symlink: its target is replaced, the link kept)
    assert (tmp_path / "alias.json").is_symlink() and target.read_text() == "new text"
    assert target.stat().st_mode & 0o777 == 0o640


class _FakeFrame:
    """A DataFrame's writer stand-in: `frame.write.mode(m).parquet(path)` writes a part file, then fails if told."""

    def __init__(self, fail: bool) -> None:
        self.fail, self.modes = fail, []

    @property
    def write(self):
        return self

    def mode(self, mode: str):
        self.modes.append(mode)
        return self

    def parquet(self, path: str) -> None:
        if "://" in path:  # (a cluster's file system: nothing here to write)
            return
        Path(path).mkdir()
        (Path(path) / "part-00000.parquet").write_bytes(b"PAR1 new")
        if self.fail:
            raise RuntimeError("the job failed on an executor")


def test_spark_output_folder_is_replaced_only_when_the_job_succeeds(tmp_path, monkeypatch):
    from rankflavor.spark.output_dir import plan_output, write_output

    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.txt").write_text("q1 0 a 1\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.parquet").write_bytes(b"PAR1 old")
    with pytest.raises(UsageError, match="is not empty"):
        plan_output("out", ["q.txt"], overwrite=False, master=None)
    for folder, says in [("q.txt", "is the input"), (".", "holds the input"), ("..", "holds the input")]:
        with pytest.raises(UsageError, match=says):
            plan_output(folder, ["q.txt"], overwrite=True, master="local[2]")
    plan = plan_output("out", ["q.txt"], overwrite=True, master=None)
    with pytest.raises(RuntimeError, match="executor"):
        write_output(_FakeFrame(fail=True), plan)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "q.txt"]  # (the staged folder removed)
    assert [p.name for p in out.iterdir()] == ["old.parquet"]
    frame = _FakeFrame(fail=False)
    write_output(frame, plan)
    assert frame.modes == ["errorifexists"] and [p.name for p in out.iterdir()] == ["part-00000.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "q.txt"]  # (the old folder removed)
    remote = _FakeFrame(fail=False)
    with pytest.raises(UsageError, match="a path on this machine, but --master"):  # (the executors' machines)
        plan_output(str(tmp_path / "remote"), ["q.txt"], overwrite=False, master="spark://h:7077")
    write_output(remote, plan_output("hdfs://h:8020/remote", ["q.txt"], overwrite=False, master="spark://h:7077"))
    assert remote.modes == ["errorifexists"]
