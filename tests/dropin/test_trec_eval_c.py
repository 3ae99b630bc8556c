"""`rankflavor trec_eval` against C trec_eval 10.0, byte for byte: for each case of trec_cases.py, stdout and the
exit code equal what C trec_eval printed (c_outputs/trec/, written by record_c.py); a refused case says why in
one stderr line. The CLI's main function is called in-process; two cases run as subprocesses (the console
entry point, and results read from standard input)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trec_cases import CASES, HERE, OUTPUTS

import rankflavor
from rankflavor.cli.main import main


def _expected(name: str) -> tuple[bytes, int]:
    return (OUTPUTS / f"{name}.out").read_bytes(), int((OUTPUTS / f"{name}.code").read_text())


def test_goldens_are_trec_eval_10():
    assert (OUTPUTS / "VERSION").read_text().startswith("trec_eval version 10.0")
    assert sorted(p.stem for p in OUTPUTS.glob("*.out")) == sorted(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_as_c_trec_eval(name, monkeypatch, capsysbinary):
    """stdout's bytes: an id is printed as the file holds it (latin-1, a byte-order mark)."""
    expected, code = _expected(name)
    monkeypatch.chdir(HERE)
    got = main(["trec_eval", *CASES[name]])
    out, err_bytes = capsysbinary.readouterr()
    err = err_bytes.decode("utf-8", "replace")
    assert out == expected, f"{name}: stdout differs from C trec_eval's"
    assert got == code, f"{name}: exit code {got}, C trec_eval's {code}"
    if code != 0:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("trec_eval: "), err


def test_subprocess_and_stdin():
    """The installed console path (python -m rankflavor) with the results on standard input (`-`)."""
    expected, _ = _expected("q")
    run = (HERE / "inputs" / "full.run").read_bytes()
    package_root = str(Path(rankflavor.__file__).resolve().parents[1])  # (this rankflavor, from tests/dropin/)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "rankflavor", "trec_eval", "-q", "inputs/graded.qrels", "-"],
                          cwd=HERE, input=run, capture_output=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected


def test_a_is_all_trec(monkeypatch, capsysbinary):
    """-a (older trec_eval's "all measures"; trec_eval 10.0 has no -a) prints what -m all_trec prints."""
    expected, _ = _expected("all_trec_q")
    monkeypatch.chdir(HERE)
    assert main(["trec_eval", "-a", "-q", "inputs/graded.qrels", "inputs/full.run"]) == 0
    assert capsysbinary.readouterr().out == expected
