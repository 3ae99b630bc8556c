"""`rankflavor trec_eval`'s own additions and its reading of the command line: --flavors (each printed measure's
canonical flavor, which parses back to itself and gives the number printed), -h with -m (the measure's
description), getopt_long's word forms. The outputs themselves are compared with C trec_eval in
test_trec_eval_c.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trec_cases import HERE, OUTPUTS

from rankflavor import evaluate
from rankflavor.cli.main import main
from rankflavor.dropin.c_reading import TrecEvalExit, atol
from rankflavor.dropin.getopt import parse_command_line
from rankflavor.flavor import parse_spec

Q, RUN = str(HERE / "inputs" / "graded.qrels"), str(HERE / "inputs" / "full.run")


def test_flavors_follow_the_output_and_parse_back_to_the_numbers(capsys):
    assert main(["trec_eval", "--flavors", "-m", "all_trec", "-m", "dcg", Q, RUN]) == 0
    out = capsys.readouterr().out
    printed = [line for line in out.splitlines() if not line.startswith("#")]
    flavors = [line[2:] for line in out.splitlines() if line.startswith("# ")]
    assert out.startswith("\n".join(printed) + "\n")  # (the flavors come after trec_eval's lines)
    summary = {line.split("\t")[0].strip(): line.split("\t")[2] for line in printed}
    assert len(flavors) == len(summary) - 2  # (every measure but runid and num_q)
    for line in flavors:
        name, _, spec = line.partition(" = ")
        spec, _, part = spec.partition(" (its ")
        flavor = parse_spec(spec)[0]
        assert str(flavor) == spec, name  # canonical: it parses back to itself
        if part or name.startswith("gm_"):
            continue  # (dcg is a part of ndcg's results; the gm means are checked by their own tests)
        mean = evaluate(Q, RUN, flavor, warnings=False).results[0].mean
        shown = summary[name]
        assert (f"{mean:6.4f}" if "." in shown else str(int(mean))) == shown, name


def test_help_describes_the_measures_asked_for(capsys):
    assert main(["trec_eval", "-h", "-m", "ndcg_cut", "-m", "relstring"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: rankflavor trec_eval")
    for flag in "-q -m -a -c -l -n -N -M -J -D -R -T -Z -o -v -h --flavors".split():
        assert f"  {flag}" in out, flag
    line = next(line for line in out.splitlines() if line.startswith("  ndcg_cut:"))
    assert "ndcg_cut_K" in line and "rankflavor flavor: " + parse_spec("trec_eval.ndcg_cut_5")[0].short in line
    assert any(line.startswith("  relstring: ") for line in out.splitlines())


def test_help_for_a_name_that_is_no_measure(capsys):
    assert main(["trec_eval", "-h", "-m", "ndcg_cutt"]) == 1  # (trec_eval marks -m before it reads -h)
    assert "did you mean ndcg_cut" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "fields"), [
    (["-qcM100", "q", "r"], {"query_wanted": True, "complete_rel_info": True, "max_docs_per_topic": 100}),
    (["-l", "2x", "q", "r", "-N7"], {"relevance_level": 2, "num_docs_in_coll": 7}),
    (["--Max=5", "--level_for_rel", "3", "q", "r"], {"max_docs_per_topic": 5, "relevance_level": 3}),
    (["-D", "2.q1", "-Jn", "q", "r"], {"debug_level": 2, "debug_query": "q1", "judged_docs_only": True,
                                       "summary_wanted": False}),
    (["--", "-q", "r"], {"rel_info_file": "-q", "results_file": "r"}),
    (["q", "-", "-oR", "qrels"], {"results_file": "-", "old_output": True, "rel_info_format": "qrels"}),
])
def test_getopt_long_word_forms(argv, fields):
    options = parse_command_line(argv).options
    for name, value in fields.items():
        assert getattr(options, name) == value, name


def test_ambiguous_long_option_and_atol():
    with pytest.raises(TrecEvalExit) as stop:
        parse_command_line(["--Re", "x", "q", "r"])  # Rel_info_format or Results_format
    assert stop.value.code == 1 and "ambiguous" in stop.value.message
    assert (atol("23.4"), atol("-7x"), atol("x")) == (23, -7, 0)


def test_m_with_params_is_read_from_its_first_flag():
    options = parse_command_line(["-mP.3", "-m", "P.8,2", "q", "r"]).options
    from rankflavor.dropin.measures import slots

    assert [s.name for s in slots(options) if s.name.startswith("P_")] == ["P_3"]
    assert (OUTPUTS / "first_params_win.out").read_text().count("P_3 ") == 1


def test_one_measure_table_for_the_sets_and_the_drop_in():
    """trec_eval's table is dialects/trec_table.py alone: the library's trec_eval.official and trec_eval.all_trec
    name the values `rankflavor trec_eval -m official` and `-m all_trec` print (but runid, num_q, relstring), in
    its order, and the family names expand into the default values the drop-in prints."""
    from rankflavor.dialects import trec_sets, trec_table
    from rankflavor.dropin.measures import slots

    for nickname in ("official", "all_trec"):
        options = parse_command_line(["-m", nickname, "q", "r"]).options
        printed = [s.name for s in slots(options) if s.kind not in ("runid", "num_q", "relstring")]
        assert [m.removeprefix("trec_eval.") for m in trec_sets.set_members(nickname)] == printed
    for family, values in trec_sets.EXPANSIONS.items():
        options = parse_command_line(["-m", family, "q", "r"]).options
        assert [s.name for s in slots(options)] == [f"{family}_{v}" for v in values]
    assert trec_sets.SETS["official"] == set(trec_table.NICKNAMES["official"])
