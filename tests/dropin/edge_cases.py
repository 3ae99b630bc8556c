"""The drop-in's edge cases: command lines on the small files of edge_inputs.py, each recorded from C trec_eval
10.0 by record_c.py like the cases of trec_cases.py (which merges them in, under their names here).

Generated, not hand-picked: every way of reading a file (edge_inputs.py), every measure alone and with
parameters (good, odd and refused), every flag and the pairs of flags that interact, on the base pair and on
random pairs. A case C trec_eval 10.0 runs into undefined behaviour on (valgrind: an uninitialised read, a read
past a buffer, a crash) is not here: docs/trec_eval.md says what rankflavor does instead (record_c.py --valgrind
checks each recorded case).
"""

from __future__ import annotations

import edge_inputs as e

CASES: dict[str, list[str]] = {}
MEASURES = ("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall",
            "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG", "G",
            "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
            "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "yaap", "rbp_resid",
            "unj", "runid", "num_q")  # (rbp: its gains' min and max are read uninitialised, m_rbp.c; see rbp below)
PARAMS = {  # measure -> parameter strings (as typed after the '.'), the good, the odd and the refused
    "P": ["1,2,3", "3x", "2.9", "7,1", "0", "-1", "abc", "5,5", "1,,2", "100000", "+4"],
    "recall": ["1,4", "1000", "2,02"],
    "ndcg_cut": ["1,3", "2.5", "0,1"],
    "map_cut": ["2,3,9"],
    "relative_P": ["1,2,5"],
    "success": ["1,2,3", "-4"],
    "unj": ["1,2,3,50"],
    "iprec_at_recall": ["0.5", ".25,.75", "0,1", "1.5,-0.5", "0.333", "abc", "0.5,0.50", "100000", "-0.001"],
    "Rprec_mult": ["0.5,1.5", "0", "3", "-1", "0.25,4"],
    "11pt_avg": ["0.5", "0,1", ".2,.4,.6", "1.5,-1", "0.1,0.1"],
    "utility": ["2,-1,0,0", "1,2", "1,2,3,4,5", "0,0,0,1", "1,-1,-1,0.5", "x,y,z,w"],
    "set_F": ["0", "2", "0.25", "-1", "1,2"],
    "relstring": ["0", "3", "-2", "3.7", "50", "1,2"],
    "ndcg": ["1=-1", "1=3,2=9", "0=1", "1=0.5,2=0.5", "x=3", "-1=5", "-2=4", "1=3,1=5", "1=-2,2=-1", "2=0",
             "1=3,", "=3", "1=2=3", "1", "1=3,,2=4", "12=0.5", "3=100", "1=5,1=3", "-1=0", "+1=4", "01=7"],
    "G": ["1=2,2=1", "0=-1", "1=-1"],
    "ndcg_rel": ["1=3,2=1", "1=-1"],
    "Rndcg": ["1=3,2=9", "2=-1"],
    "dcg": ["1=3"],
    "ideal_dcg": ["1=3,2=-5"],
    "rbp_resid": ["p=0.5", "p=1", "p=0", "q=0.3", "p=0.5,p=0.8", "p=1.5"],
}


def add(name: str, *argv: str) -> None:
    assert name not in CASES, name
    CASES[name] = list(argv)


def measures() -> None:
    """Each measure alone, per query and summary, on the base pair; then each parameter string."""
    for m in MEASURES:
        add(f"e_m_{m}", "-q", "-m", m, e.Q, e.R)
    for m, params in PARAMS.items():
        for i, p in enumerate(params):
            add(f"e_p_{m}_{i}", "-q", "-m", f"{m}.{p}", e.Q, e.R)
    for nick in ("official", "all_trec", "set", "prefs", "all_prefs", "qrels_jg"):
        add(f"e_nick_{nick}", "-q", "-m", nick, e.Q, e.R)
    add("e_m_yaap_l2", "-q", "-l2", "-m", "yaap", e.Q, e.R)
    add("e_m_prefs_measure", "-m", "prefs_simp", e.Q, e.R)
    add("e_m_map_avgjg", "-m", "map_avgjg", e.Q, e.R)
    add("e_m_ndcg_p", "-m", "ndcg_p", e.Q, e.R)
    add("e_m_empty_name", "-m", "", e.Q, e.R)
    add("e_m_dot_only", "-m", ".5", e.Q, e.R)
    add("e_m_trailing_dot", "-m", "map.", e.Q, e.R)
    add("e_m_params_on_plain", "-q", "-m", "map.5", e.Q, e.R)
    add("e_m_nick_params", "-m", "official.5", e.Q, e.R)
    add("e_m_two_dots", "-q", "-m", "P.5.6", e.Q, e.R)
    add("e_m_second_params_ignored", "-m", "ndcg.1=5", "-m", "ndcg.1=1", e.Q, e.R)
    add("e_m_plain_then_params", "-m", "P", "-m", "P.2", e.Q, e.R)
    add("e_m_repeat", "-m", "map", "-m", "map", "-m", "official", e.Q, e.R)
    add("e_m_cutoff_beyond_int32", "-m", "P.5,2147483648", e.Q, e.R)


def files() -> None:
    """Every way of writing the files (edge_inputs.py), with the measures that read what differs."""
    allm = ("-q", "-c", "-m", "all_trec")
    add("e_tester_neg_gain", "-q", "-m", "ndcg.1=-1", e.NEG_Q, e.NEG_R)
    add("e_tester_frac_grades", "-q", "-m", "ndcg", e.FRAC_Q, e.FRAC_R)
    add("e_tester_exp_grade", "-q", "-m", "ndcg", "-m", "relstring", "-m", "num_rel", e.EXP_GRADE_Q, e.FRAC_R)
    for m in ("utility.3,-1,0,0", "rbp_resid.p=0.8", "relstring.5", "utility", "rbp_resid", "relstring",
              "unj.3", "set_F.0.5", "num_ret", "ndcg.1=2"):
        add(f"e_tester_c_missing_{m}", "-c", "-q", "-m", m, e.MISS_Q, e.MISS_R)
    add("e_c_missing_all_trec", *allm, e.MISS_Q, e.MISS_R)
    add("e_bom_run", "-q", "-c", "-m", "official", e.BOM_BOTH_Q, e.BOM_R)
    add("e_bom_run_stops", "-q", e.Q, e.BOM_R)
    add("e_bom_qrels", "-q", "-c", "-m", "P.1", e.BOM_Q, e.BOM_R)
    add("e_scores_odd", "-q", "-m", "all_trec", e.SCORE_Q, e.ODD_SCORES)
    add("e_scores_odd_M3", "-q", "-M", "3", "-m", "relstring.30", e.SCORE_Q, e.ODD_SCORES)
    add("e_scores_nan_only", "-q", "-m", "relstring", "-m", "map", e.NAN_Q, e.NAN_ONLY)
    add("e_grades_odd", "-q", "-m", "all_trec", e.ODD_GRADES, e.ODD_GRADES_R)
    add("e_grades_odd_l2", "-q", "-l", "2", "-m", "official", "-m", "ndcg", e.ODD_GRADES, e.ODD_GRADES_R)
    pairs = [("tabs", "tabs"), ("crlf", "crlf"), ("spaces", "spaces"), ("vtab", "formfeed"), ("cr_sep", "tabs"),
             ("no_final_newline", "no_final_newline"), ("comment_first", "comments"), ("comment_middle", "blank_lines"),
             ("two_comments", "seven_fields"), ("indented_comment", "base"), ("hash_ids", "hash_ids")]
    for qname, rname in pairs:
        add(f"e_file_{qname}_{rname}", *allm, f"inputs/edge/{qname}.qrels", f"inputs/edge/{rname}.run")
    for bad in ("blank_line", "blank_last", "space_line", "two_comments_bad", "three_fields", "five_fields",
                "comment_then_blank"):
        add(f"e_bad_qrels_{bad}", "-q", f"inputs/edge/{bad}.qrels", e.R)
    for bad in ("five_fields", "one_field"):
        add(f"e_bad_run_{bad}", "-q", e.Q, f"inputs/edge/{bad}.run")
    add("e_empty_run", "-q", e.Q, e.EMPTY)
    add("e_empty_qrels", "-q", e.EMPTY, e.R)
    add("e_empty_run_c_all_trec", "-c", "-q", "-m", "all_trec", e.Q, e.EMPTY)
    add("e_long_ids", "-q", "-m", "official", "-m", "relstring", "inputs/edge/long_ids.qrels", "inputs/edge/long_ids.run")
    add("e_long_line", "-q", "-c", "-m", "P.1", e.Q, "inputs/edge/long_line.run")
    add("e_ids_order", "-q", "-m", "all_trec", "inputs/edge/ids.qrels", "inputs/edge/ids.run")
    add("e_ids_latin1", "-q", "-m", "official", "-m", "relstring", "inputs/edge/latin1.qrels", "inputs/edge/latin1.run")
    add("e_big_grades", "-q", "-m", "all_trec", "inputs/edge/big_grades.qrels", "inputs/edge/big_grades.run")
    add("e_big_grades_l100", "-q", "-l", "100", "-m", "official", "inputs/edge/big_grades.qrels",
        "inputs/edge/big_grades.run")
    add("e_zero_only", "-q", "-m", "all_trec", "inputs/edge/zero_only.qrels", "inputs/edge/single.run")
    add("e_bogus_judged", "-q", "-c", "-m", "all_trec", "inputs/edge/bogus_judged.qrels", e.MISS_R)


def duplicates_and_negatives() -> None:
    for name in ("dup_judgment", "dup_judgment_diff", "dup_judgment_q1"):
        add(f"e_{name}", "-q", f"inputs/edge/{name}.qrels", e.R)
        add(f"e_{name}_numq", "-q", "-m", "num_q", "-m", "runid", f"inputs/edge/{name}.qrels", e.R)
    add("e_dup_judgment_D", "-q", "-D", "0.q1", "inputs/edge/dup_judgment.qrels", e.R)
    add("e_dup_judgment_Dc", "-q", "-c", "-m", "num_rel", "-D", "0.q1", "inputs/edge/dup_judgment.qrels", e.R)
    for name in ("dup_run_q1", "dup_run_q4", "dup_run_unjudged_q", "dup_run_same_score"):
        add(f"e_{name}", "-q", e.Q, f"inputs/edge/{name}.run")
    add("e_dup_run_below_M", "-q", "-M", "5", e.Q, "inputs/edge/dup_run_q1.run")
    add("e_dup_run_at_M", "-q", "-M", "11", e.Q, "inputs/edge/dup_run_q1.run")
    add("e_dup_run_J", "-q", "-J", e.Q, "inputs/edge/dup_run_q1.run")
    add("e_all_negative_first", "-q", "inputs/edge/all_negative_first.qrels", "inputs/edge/all_negative_first.run")
    add("e_all_negative_first_numq", "-m", "num_q", "inputs/edge/all_negative_first.qrels",
        "inputs/edge/all_negative_first.run")
    add("e_all_negative_m2_first", "-q", "-m", "P.5", "inputs/edge/all_negative_m2.qrels",
        "inputs/edge/all_negative_first.run")


def flags() -> None:
    """Each flag's odd values, and the flags that interact with one another."""
    for m in ("0", "-1", "1", "2", "abc", "3x", "100000"):
        add(f"e_M_{m}", "-q", "-M", m, "-m", "all_trec", e.Q, e.R)
    for level in ("0", "-1", "2", "3", "5", "13", "abc", "2x"):
        add(f"e_l_{level}", "-q", "-l", level, "-m", "all_trec", e.Q, e.R)
    for n in ("0", "100", "-5", "1e3", "abc"):
        add(f"e_N_{n}", "-q", "-N", n, "-m", "utility.1,1,1,1", "-m", "utility", e.Q, e.R)
    add("e_J_all", "-q", "-J", "-m", "all_trec", e.Q, e.R)
    add("e_J_c_all", "-q", "-J", "-c", "-m", "all_trec", e.Q, e.R_MISSING)
    add("e_J_M2", "-q", "-J", "-M", "2", "-m", "all_trec", e.Q, e.R)
    add("e_J_l2", "-q", "-J", "-l", "2", "-m", "all_trec", e.Q, e.R)
    add("e_c_all", "-q", "-c", "-m", "all_trec", e.Q, e.R_MISSING)
    add("e_c_n", "-c", "-n", "-q", "-m", "official", e.Q, e.R_MISSING)
    add("e_c_M1", "-q", "-c", "-M", "1", "-m", "all_trec", e.Q, e.R_MISSING)
    add("e_c_l2", "-q", "-c", "-l", "2", "-m", "all_trec", e.Q, e.R_MISSING)
    add("e_c_one", "-q", "-c", "-m", "all_trec", e.Q, e.R_ONE)
    add("e_c_M0", "-q", "-c", "-M", "0", "-m", "official", e.Q, e.R_MISSING)
    add("e_missing_stops_all_trec", "-q", "-m", "all_trec", e.Q, e.R_MISSING)
    add("e_n_only", "-n", "-m", "all_trec", e.Q, e.R)
    add("e_n_without_q", "-n", e.Q, e.R)
    add("e_Z", "-q", "-Z", "inputs/edge/zscores.txt", "-m", "map", "-m", "P.5", "-m", "recip_rank", "-m", "num_rel",
        e.Q, e.R)
    add("e_Z_c", "-q", "-c", "-Z", "inputs/edge/zscores.txt", "-m", "map", "-m", "P.5", "-m", "recip_rank", e.Q,
        e.R_MISSING)
    add("e_D_q2", "-q", "-D", "0.q2", "-m", "all_trec", e.Q, e.R)
    add("e_D_c_q3", "-q", "-c", "-D", "0.q3", "-m", "all_trec", e.Q, e.R_MISSING)
    add("e_D_unknown", "-D", "0.q7", e.Q, e.R)
    add("e_R_qrels_yaap", "-q", "-R", "qrels", "-m", "yaap", e.Q, e.R)
    add("e_q_twice", "-q", "-q", "-m", "map", e.Q, e.R)
    add("e_flags_after_files", e.Q, e.R, "-q", "-c", "-M3", "-m", "official")
    add("e_long_options", "--query_eval_wanted", "--Max_retrieved_per_topic=2", "--level_for_rel", "2",
        "--Judged_docs_only", "--measure=all_trec", e.Q, e.R)
    add("e_o_flag", "-o", "-m", "map", e.Q, e.R)
    add("e_no_files", "-q")
    add("e_same_file_twice", "-q", "-m", "P.1", e.Q, e.Q)


def measures_under_flags() -> None:
    """Each measure under the flags that change what it reads: -c on a run that lacks queries, -J, -M, -l."""
    flags = {"c": ["-c"], "J": ["-J"], "M3": ["-M", "3"], "l2": ["-l", "2"], "cJM2": ["-c", "-J", "-M", "2"]}
    for m in MEASURES:
        for name, given in flags.items():
            add(f"e_f_{m}_{name}", "-q", *given, "-m", m, e.Q, e.R_MISSING if "c" in name else e.R)


def odd_files() -> None:
    add("e_all_negative_later", "-q", "-m", "all_trec", "inputs/edge/all_negative_later.qrels",
        "inputs/edge/all_negative_later.run")
    add("e_nul_line", "-q", "-c", "-m", "official", "inputs/edge/nul_line.qrels", "inputs/edge/nul_line.run")
    add("e_relstring_grades", "-q", "-m", "relstring.14", "-m", "relstring", "inputs/edge/relstring.qrels",
        "inputs/edge/relstring.run")
    add("e_relstring_grades_J", "-q", "-J", "-m", "relstring.14", "inputs/edge/relstring.qrels",
        "inputs/edge/relstring.run")
    add("e_relstring_grades_M", "-q", "-M", "4", "-m", "relstring.14", "inputs/edge/relstring.qrels",
        "inputs/edge/relstring.run")
    add("e_all_negative_later_ideal", "-q", "-m", "ideal_dcg", "-m", "ndcg.2=5", "-m", "dcg",
        "inputs/edge/all_negative_later.qrels", "inputs/edge/all_negative_later.run")
    add("e_all_negative_later_idcg", "-q", "-m", "ideal_dcg", "-m", "dcg", "inputs/edge/all_negative_later.qrels",
        "inputs/edge/all_negative_later.run")
    add("e_all_negative_later_gain", "-q", "-m", "ndcg.2=5", "-m", "ndcg_rel", "inputs/edge/all_negative_later.qrels",
        "inputs/edge/all_negative_later.run")
    add("e_comments_only_run", "-q", e.Q, "inputs/edge/comments_only.run")
    add("e_comment_last_qrels", "-q", "inputs/edge/comment_last.qrels", e.R)


def random_pairs() -> None:
    """Each random pair under two sets of flags (most with -c: a random run lacks some of the qrels' queries)."""
    flags = [["-q", "-c", "-m", "all_trec"], ["-q", "-m", "official"], ["-q", "-c", "-J", "-m", "all_trec"],
             ["-q", "-c", "-M", "5", "-l", "2", "-m", "all_trec"], ["-c", "-n", "-q", "-m", "ndcg.1=3,2=-1",
             "-m", "G.0=-1", "-m", "utility.2,-1,1,0.5", "-m", "yaap"], ["-q", "-c", "-l", "3", "-m", "set"]]
    for i, (qrels, run) in enumerate(e.RANDOM):
        for j in (i % len(flags), (i + 3) % len(flags)):
            add(f"e_random_{i}_{j}", *flags[j], qrels, run)


measures()
files()
duplicates_and_negatives()
flags()
measures_under_flags()
odd_files()
random_pairs()


# Where rankflavor differs from C trec_eval 10.0 on purpose (docs/trec_eval.md "What differs"): the case, and the
# exit code rankflavor gives. Not recorded from C; test_trec_eval_edges.py checks rankflavor's side.
DIFFERENT = {
    "e_p_11pt_avg_3": 2,  # levels not ascending: m_11pt_avg.c gives a level another's value
    "e_p_ndcg_3": 0,  # gains less than 1 apart: gain_init.c's (int)(a - b) calls them equal, their order unspecified
    "e_p_ndcg_15": 0,
    "e_p_ndcg_5": 2,  # a gain for docs the qrels lack (-1) or grade below 0 (-2): rankflavor's gains are per grade
    "e_p_ndcg_6": 2,
    "e_p_ndcg_17": 2,  # one grade given two gains, the first the larger: trec_eval ranks with one, its ideal the other
    "e_l_-1": 2,  # -l below 0: trec_eval counts a doc the qrels lack as relevant in the list, not in R
    "e_m_cutoff_beyond_int32": 2,  # a cutoff past 2,147,483,647 (the engine's deepest): trec_eval reads it
}
# Where C trec_eval 10.0's behaviour is undefined (valgrind: a read or write past a buffer, an uninitialised value,
# a crash): rankflavor's exit code. Not recorded from C.
UNDEFINED = {
    "e_M_-1": 1,  # a negative -M: form_res_rels.c sorts a negative count (crash)
    "e_random_37_4": 0,  # a later query judged only below -1: form_res_rels.c's memset of a negative size
    "e_random_42_3": 0,  # -l above a query's top grade + 1: m_bpref.c reads past its relevance levels
    "e_comments_only_run": 2,  # no result line: get_trec_results.c reads unset pointers
    "e_comment_last_qrels": 0,  # a comment on the last line: get_qrels.c parses past its buffer
    "e_all_negative_later_ideal": 0,  # -m ndcg.PARAMS with -m dcg, ideal_dcg: one parameter table, freed twice
}
KEPT_OUT = {name: CASES.pop(name) for name in [*DIFFERENT, *UNDEFINED]}
