"""rankflavor's -R prefs, qrels_prefs and qrels_jg against C trec_eval 10.0, byte for byte: the goldens of
c_outputs/prefs/ were written by the C binary (record_c_prefs.py) on the inputs of make_prefs_inputs.py. An
error case must raise with C's exit code and the stdout C printed before it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rankflavor.dropin.options import RequestedMeasure, TrecEvalOptions
from rankflavor.dropin.other_formats import evaluate_other_format
from rankflavor.errors import RankflavorError

sys.path.insert(0, str(Path(__file__).parent))
from prefs_cases import CASES

HERE = Path(__file__).parent
GOLDEN = HERE / "c_outputs" / "prefs"
FLAGS = {"-q": "query_wanted", "-c": "complete_rel_info", "-J": "judged_docs_only"}
VALUED = {"-M": "max_docs_per_topic", "-l": "relevance_level", "-N": "num_docs_in_coll"}


def options_for(argv: list[str]) -> TrecEvalOptions:
    """A private stand-in for the command's getopt, for the flags the cases use (each value its own token)."""
    fields: dict = {"measures": []}
    tokens = iter(argv[:-2])
    for token in tokens:
        if token in FLAGS:
            fields[FLAGS[token]] = True
        elif token == "-n":
            fields["summary_wanted"] = False
        elif token in VALUED:
            fields[VALUED[token]] = int(next(tokens))
        elif token == "-R":
            fields["rel_info_format"] = next(tokens)
        elif token == "-m":
            name, dot, params = next(tokens).partition(".")
            fields["measures"].append(RequestedMeasure(name, params if dot else None))
        else:
            raise AssertionError(f"the harness does not read {token}")
    fields["measures"] = tuple(fields["measures"])
    return TrecEvalOptions(str(HERE / "inputs_prefs" / argv[-2]), str(HERE / "inputs_prefs" / argv[-1]), **fields)


def run_case(argv: list[str]) -> tuple[bytes, int]:
    """rankflavor's stdout and trec_eval exit code for one case."""
    try:
        out = evaluate_other_format(options_for(argv))
    except RankflavorError as error:
        return error.stdout_before_error.encode(), error.trec_eval_exit
    return out.encode("utf-8", "surrogateescape"), 0


def test_every_case_has_its_golden():
    assert sorted(p.stem for p in GOLDEN.glob("*.out")) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_matches_c_trec_eval(case):
    expected = (GOLDEN / f"{case}.out").read_bytes()
    expected_exit = int((GOLDEN / f"{case}.exit").read_text())
    out, code = run_case(CASES[case])
    assert code == expected_exit, f"{case}: exit {code}, C trec_eval exits {expected_exit}"
    assert out == expected, f"{case}: stdout differs from C trec_eval's"


def test_error_message_names_file_line_and_fix():
    with pytest.raises(RankflavorError) as caught:
        evaluate_other_format(options_for(CASES["err_bad_fields"]))
    message = str(caught.value)
    assert "bad_fields.prefs:2:" in message and "exactly 5" in message and "fix:" in message
    assert os.path.basename(str(caught.value.source)) == "bad_fields.prefs"
