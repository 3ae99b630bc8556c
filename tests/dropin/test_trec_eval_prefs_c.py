"""rankflavor's -R prefs, qrels_prefs and qrels_jg against C trec_eval 10.0, byte for byte: the goldens of
c_outputs/prefs/ were written by the C binary (record_c_prefs.py) on the inputs of make_prefs_inputs.py. An
error case must raise with C's exit code and the stdout C printed before it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rankflavor.cli.main import main
from rankflavor.dropin.other_formats import evaluate_other_format
from rankflavor.errors import RankflavorError

sys.path.insert(0, str(Path(__file__).parent))
from prefs_cases import CASES, options_for

HERE = Path(__file__).parent
GOLDEN = HERE / "c_outputs" / "prefs"
def run_case(argv: list[str], monkeypatch, capsys) -> tuple[bytes, int, str]:
    """rankflavor trec_eval's stdout, exit code and stderr for one case, through the command itself."""
    monkeypatch.chdir(HERE / "inputs_prefs")
    code = main(["trec_eval", *argv])
    out, err = capsys.readouterr()
    return out.encode("utf-8", "surrogateescape"), code, err


def test_every_case_has_its_golden():
    assert sorted(p.stem for p in GOLDEN.glob("*.out")) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_matches_c_trec_eval(case, monkeypatch, capsys):
    expected = (GOLDEN / f"{case}.out").read_bytes()
    expected_exit = int((GOLDEN / f"{case}.exit").read_text())
    out, code, err = run_case(CASES[case], monkeypatch, capsys)
    assert code == expected_exit, f"{case}: exit {code}, C trec_eval exits {expected_exit}"
    assert out == expected, f"{case}: stdout differs from C trec_eval's"
    if code != 0:
        lines = [line for line in err.splitlines() if not line.startswith("trec_eval: -D ")]
        assert len(lines) == 1 and lines[0].startswith("trec_eval: "), err


def test_error_message_names_file_line_and_fix():
    with pytest.raises(RankflavorError) as caught:
        evaluate_other_format(options_for(CASES["err_bad_fields"], HERE / "inputs_prefs"))
    message = str(caught.value)
    assert "bad_fields.prefs:2:" in message and "exactly 5" in message and "fix:" in message
    assert os.path.basename(str(caught.value.source)) == "bad_fields.prefs"


@pytest.mark.parametrize(("case", "words"), [
    ("err_cycle", ["query q02", "judgment group u1", "D01 and D02", "each preferred to the other"]),
    ("err_ec_conflict", ["query q02", "doc D01", "two rel_levels"]),
    ("err_dup_run", ["D01", "retrieved twice", "query q02"]),
    ("prefs_hand_missing_query", ["query 8", "-c"]),
])
def test_data_errors_name_the_query_and_docs(case, words):
    with pytest.raises(RankflavorError) as caught:
        evaluate_other_format(options_for(CASES[case], HERE / "inputs_prefs"))
    assert all(word in str(caught.value) for word in words), str(caught.value)
