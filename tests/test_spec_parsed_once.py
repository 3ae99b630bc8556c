"""A `-m` spec is parsed once on its way from `rankflavor eval` to the printed lines (issue 40 item 4): cmd_eval
parses it (flavor/flavor.py labelled_specs) and hands the flavors with their labels to the engine, the track's
stream and its worker processes, which take them as they are."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import rankflavor.flavor.flavor as flavor_module
from rankflavor.cli.main import main

EDGE = Path(__file__).resolve().parent / "dropin" / "inputs" / "edge"
QRELS = str(EDGE / "base.qrels")
RUNS = [str(EDGE / name) for name in ("base.run", "missing.run", "one.run")]
SPEC = "ndcg@10 gain=exp2"


@pytest.mark.parametrize("shape", [["--format", "trec"], ["--format", "table"], ["--format", "json"]])
@pytest.mark.parametrize("runs", [RUNS[:1], RUNS])
def test_the_spec_is_parsed_once(shape, runs, monkeypatch):
    monkeypatch.setenv("RANKFLAVOR_PROCESSES", "1")
    calls: list[str] = []
    real = flavor_module.parse_spec

    def counted(spec, *rest, **named):
        calls.append(spec)
        return real(spec, *rest, **named)

    monkeypatch.setattr(flavor_module, "parse_spec", counted)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main(["eval", QRELS, *runs, "-m", SPEC, "-m", "official", *shape]) == 0, err.getvalue()
    assert calls.count(SPEC) == 1 and calls.count("official") == 1, calls
    assert "ndcg@10;gain=exp2" in out.getvalue() or "ndcg@10 gain=exp2" in out.getvalue()
