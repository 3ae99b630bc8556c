"""The trec_eval command lines whose C outputs are recorded (record_c_prefs.py) and compared
(test_trec_eval_prefs_c.py): case name -> arguments after `trec_eval`, run in tests/dropin/inputs_prefs/.
Every -R format, -q, -c, -n, -M, -l, -J, -N, -Z, -D N.QID, measure sets, single measures, parameters, and each error."""

from __future__ import annotations

from pathlib import Path

from rankflavor.dropin.options import TrecEvalOptions

ALL_PREFS = ["-m", "all_prefs", "-R", "prefs"]
QRELS_PREFS = ["-m", "all_prefs", "-R", "qrels_prefs"]
JG = ["-m", "qrels_jg", "-R", "qrels_jg"]

CASES: dict[str, list[str]] = {
    "prefs_hand_c_q": ["-q", "-c", *ALL_PREFS, "hand.prefs", "hand.run"],
    "prefs_hand_c": ["-c", *ALL_PREFS, "hand.prefs", "hand.run"],
    "prefs_hand_missing_query": ["-q", *ALL_PREFS, "hand.prefs", "hand.run"],
    "prefs_random_q": ["-q", *ALL_PREFS, "random.prefs", "random.run"],
    "prefs_random_M5": ["-q", "-M", "5", *ALL_PREFS, "random.prefs", "random.run"],
    "prefs_random_M1": ["-M", "1", *ALL_PREFS, "random.prefs", "random.run"],
    "prefs_random_n": ["-q", "-n", "-m", "prefs", "-R", "prefs", "random.prefs", "random.run"],
    "prefs_random_some": ["-q", "-m", "prefs_simp", "-m", "prefs_avgjg_Rnonrel_ret", "-m", "num_q", "-m",
                          "prefs_simp.5", "-R", "prefs", "random.prefs", "random.run"],
    "prefs_random_runid_numq": ["-m", "runid", "-m", "num_q", "-R", "prefs", "random.prefs", "random.run"],
    "prefs_random_ties": ["-q", *ALL_PREFS, "random.prefs", "ties.run"],
    "prefs_random_N_l_J": ["-q", "-N", "100", "-l", "2", "-J", *ALL_PREFS, "random.prefs", "random.run"],
    "prefs_random_c_short": ["-q", "-c", *ALL_PREFS, "random.prefs", "short.run"],
    "prefs_two_comments_c": ["-q", "-c", *ALL_PREFS, "two_comments.prefs", "random.run"],
    "qrels_prefs_random_q": ["-q", *QRELS_PREFS, "random.qrels", "random.run"],
    "qrels_prefs_c_M7": ["-q", "-c", "-M", "7", *QRELS_PREFS, "random.qrels", "short.run"],
    "qrels_prefs_ties": [*QRELS_PREFS, "random.qrels", "ties.run"],
    "jg_random_q": ["-q", *JG, "random.jg", "random.run"],
    "jg_params": ["-q", "-m", "P_avgjg.12,1,7,3", "-m", "Rprec_mult_avgjg.0.5,3.25,1.0", "-m", "map_avgjg",
                  "-R", "qrels_jg", "random.jg", "random.run"],
    "jg_params_with_set": ["-m", "Rprec_mult_avgjg.0.1", "-m", "qrels_jg", "-R", "qrels_jg", "random.jg",
                           "random.run"],
    "jg_l2": ["-q", "-l", "2", *JG, "random.jg", "random.run"],
    "jg_l0_J": ["-l", "0", "-J", *JG, "random.jg", "random.run"],
    "jg_J_q": ["-q", "-J", *JG, "random.jg", "random.run"],
    "jg_c_M4": ["-q", "-c", "-M", "4", *JG, "random.jg", "short.run"],
    "jg_ties": ["-q", *JG, "random.jg", "ties.run"],
    "jg_n": ["-q", "-n", *JG, "random.jg", "random.run"],
    "jg_missing_query": ["-q", *JG, "random.jg", "short.run"],
    "prefs_D1_one_query": ["-q", "-D", "1.q03", *ALL_PREFS, "random.prefs", "random.run"],
    "jg_D2_one_query_c": ["-q", "-c", "-D", "2.q04", *JG, "random.jg", "short.run"],
    "err_D1_no_such_query": ["-D", "1.nosuch", *JG, "random.jg", "random.run"],
    "prefs_Z_q": ["-q", "-Z", "prefs.zscores", *ALL_PREFS, "random.prefs", "random.run"],
    "jg_Z_c_q": ["-q", "-c", "-Z", "jg.zscores", *JG, "random.jg", "short.run"],
    "err_bad_zscores": ["-Z", "bad.zscores", *ALL_PREFS, "random.prefs", "random.run"],
    "err_bad_fields": [*ALL_PREFS, "bad_fields.prefs", "random.run"],
    "err_blank_line": [*ALL_PREFS, "blank_line.prefs", "random.run"],
    "err_two_comments": [*ALL_PREFS, "two_comments_bad.prefs", "random.run"],
    "err_ec_conflict": ["-q", *ALL_PREFS, "ec_conflict.prefs", "random.run"],
    "err_zero_nonzero": ["-q", *ALL_PREFS, "zero_nonzero.prefs", "random.run"],
    "err_cycle": ["-q", *ALL_PREFS, "cycle.prefs", "random.run"],
    "err_dup_jg": [*JG, "dup.jg", "random.run"],
    "err_dup_run": ["-q", *ALL_PREFS, "ec_conflict.prefs", "dup.run"],
    "err_jg_measure_on_prefs": ["-m", "map_avgjg", "-R", "prefs", "random.prefs", "random.run"],
    "err_prefs_measure_on_jg": ["-m", "all_prefs", "-R", "qrels_jg", "random.jg", "random.run"],
    "err_default_measures": ["-R", "prefs", "random.prefs", "random.run"],
    "err_unknown_measure": ["-m", "prefs_nosuch", "-R", "prefs", "random.prefs", "random.run"],
    "err_empty_parameter": ["-m", "P_avgjg.", "-R", "qrels_jg", "random.jg", "random.run"],
    "err_zero_cutoff": ["-m", "P_avgjg.0,5", "-R", "qrels_jg", "random.jg", "random.run"],
    "err_duplicate_cutoff": ["-m", "Rprec_mult_avgjg.1,1.0", "-R", "qrels_jg", "random.jg", "random.run"],
}


def options_for(argv: list[str], folder: Path) -> TrecEvalOptions:
    """The options `rankflavor trec_eval ARGV` reads (its own getopt), the files and -Z's file under `folder`."""
    from rankflavor.dropin.getopt import parse_command_line

    words = list(argv)
    words[-2:] = [str(folder / words[-2]), str(folder / words[-1])]
    if "-Z" in words:
        at = words.index("-Z") + 1
        words[at] = str(folder / words[at])
    options = parse_command_line(words).options
    assert options is not None
    return options
