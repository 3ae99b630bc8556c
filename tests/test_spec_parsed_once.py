"""A `-m` spec is parsed once on its way from `rankflavor eval` to the printed lines (issue 40 item 4): the stderr
note on how a bare name was read (cli/main.py) and cmd_eval's flavors (flavor/flavor.py labelled_specs) come from
the spec's one parse (flavor.py `_parsed`), and the flavors go with their labels to the engine, the track's stream
and its worker processes, which take them as they are."""

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


def _counted(monkeypatch, name: str) -> list[str]:
    """The specs flavor.py's function `name` is called with, from now on."""
    calls: list[str] = []
    real = getattr(flavor_module, name)

    def counted(spec, *rest, **named):
        calls.append(spec)
        return real(spec, *rest, **named)

    monkeypatch.setattr(flavor_module, name, counted)
    return calls


@pytest.mark.parametrize("shape", [["--format", "trec"], ["--format", "table"], ["--format", "json"]])
@pytest.mark.parametrize("runs", [RUNS[:1], RUNS])
def test_the_spec_is_parsed_once(shape, runs, monkeypatch):
    monkeypatch.setenv("RANKFLAVOR_PROCESSES", "1")
    calls = _counted(monkeypatch, "parse_spec")
    splits = _counted(monkeypatch, "split_spec")
    flavor_module._parsed.cache_clear()  # (an earlier test's parse would be taken as it is)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main(["eval", QRELS, *runs, "-m", SPEC, "-m", "official", "-m", "P_10", *shape]) == 0, err.getvalue()
    assert calls.count(SPEC) == 1 and calls.count("official") == 1, calls
    assert splits.count(SPEC) == 1 and splits.count("official") == 1 and splits.count("P_10") == 1, splits
    assert "official: trec_eval's measure set official" in err.getvalue()
    assert "P_10: trec_eval's P_10 (trec_eval.P_10)" in err.getvalue()
    assert "ndcg@10;gain=exp2" in out.getvalue() or "ndcg@10 gain=exp2" in out.getvalue()
