"""`rankflavor trec_eval` where it differs from C trec_eval 10.0 on purpose, or where C's behaviour is undefined
(edge_cases.DIFFERENT and UNDEFINED, not recorded from C; docs/trec_eval.md "What differs"): the exit code
rankflavor gives, a refusal in one stderr line naming trec_eval's reading and the fix, an answer with its lines."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from edge_cases import DIFFERENT, KEPT_OUT, UNDEFINED
from trec_cases import CASES, HERE

from rankflavor.cli.main import main


def test_kept_out_cases_are_not_recorded():
    assert set(KEPT_OUT) == {*DIFFERENT, *UNDEFINED}
    assert not set(KEPT_OUT) & set(CASES)


@pytest.mark.parametrize("name", [*DIFFERENT, *UNDEFINED])
def test_rankflavor_side(name, monkeypatch, capsysbinary):
    code = {**DIFFERENT, **UNDEFINED}[name]
    monkeypatch.chdir(HERE)
    got = main(["trec_eval", *KEPT_OUT[name]])
    out, err = capsysbinary.readouterr()
    assert got == code, err
    if code:
        lines = err.decode().splitlines()
        assert len(lines) == 1 and lines[0].startswith("trec_eval: "), err
        assert "trec_eval" in lines[0][len("trec_eval: "):] or "no result line" in lines[0], lines[0]
    else:
        assert out and not err, err


def test_close_gains_are_ranked_by_their_value(monkeypatch, capsysbinary):
    """ndcg.1=0.5,2=0.5 (gains less than 1 apart, which gain_init.c's (int)(a - b) calls equal): the ideal is
    sorted, so ndcg is at most 1 on every query."""
    monkeypatch.chdir(HERE)
    assert main(["trec_eval", *KEPT_OUT["e_p_ndcg_3"]]) == 0
    values = [float(line.split(b"\t")[2]) for line in capsysbinary.readouterr().out.splitlines()]
    assert values and all(0 <= v <= 1 for v in values)
