"""The command lines of the trec_eval drop-in's goldens: each case's trec_eval arguments (run from tests/dropin/,
the inputs written by make_inputs.py). record_c.py runs C trec_eval 10.0 on each; test_trec_eval_c.py runs
`rankflavor trec_eval` on each and compares stdout and the exit code byte for byte. The cases below are written
by hand, one per flag and refusal; edge_cases.py generates the rest (`e_...`: every way of reading a file, every
measure with its parameters and under the flags, random pairs)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from edge_cases import CASES as EDGE_CASES

HERE = Path(__file__).resolve().parent
OUTPUTS = HERE / "c_outputs" / "trec"
Q, RUN = "inputs/graded.qrels", "inputs/full.run"
PARAMS = ["-miprec_at_recall..15,.5,1", "-m", "P.3,1,250", "-m", "recall.2,7", "-mRprec_mult.0.5,1.5",
          "-mutility.2,-1,0.5,0", "-m", "11pt_avg..1,.3,.9", "-mndcg_cut.3,7.9", "-msuccess.2,4"]
CASES: dict[str, list[str]] = {
    "default": [Q, RUN],
    "q": ["-q", Q, RUN],
    "all_trec_q": ["-q", "-m", "all_trec", Q, RUN],
    "set": ["-q", "-m", "set", Q, RUN],
    "params_q": ["-q", *PARAMS, Q, RUN],
    "first_params_win": ["-mP.3", "-mP.8,2", "-m", "official", Q, RUN],
    "gains": ["-q", "-mndcg.1=2,2=5,4=7.5,12=1", "-m", "G.2=8", "-m", "ndcg_rel", "-m", "Rndcg.4=1", Q, RUN],
    "gains_dcg": ["-q", "-m", "dcg.3=0,x=2", Q, RUN],  # (C: ndcg, dcg, ideal_dcg share their parameters)
    "dcg_ideal": ["-q", "-m", "dcg", "-m", "ideal_dcg", Q, RUN],
    "rbp_p": ["-q", "-m", "rbp.p=0.5", "-m", "rbp_resid.p=0.8", Q, RUN],
    "relstring": ["-q", "-m", "relstring.15", "-m", "relstring.4", "-m", "num_ret", Q, RUN],
    "relstring_default": ["-q", "-m", "relstring", Q, RUN],
    "missing_c": ["-q", "-c", "-m", "all_trec", "-m", "dcg", "-m", "ideal_dcg", Q, "inputs/missing.run"],
    "missing_stops": ["-q", Q, "inputs/missing.run"],
    "missing_stops_summary": [Q, "inputs/missing.run"],
    "depth_M3": ["-q", "-M3", "-m", "all_trec", Q, RUN],
    "depth_M_long": ["-q", "-M", "100", "-c", Q, "inputs/short.run"],
    "level_2": ["-q", "-l2", "-m", "all_trec", Q, RUN],
    "level_4_long": ["--level_for_rel=4", "--query_eval_wanted", "-m", "official", "-m", "ndcg", Q, RUN],
    "judged_only": ["-q", "-J", "-m", "all_trec", "-m", "relstring.12", Q, RUN],
    "judged_only_M": ["-J", "-M", "5", "-m", "official", Q, RUN],
    "nosummary": ["-q", "-n", Q, RUN],
    "nosummary_only": ["-n", Q, RUN],
    "collection_N": ["-q", "-N", "1000", "-m", "utility.1,-1,0,0.01", "-m", "utility", Q, RUN],
    "debug_query": ["-D", "0.2", "-q", "-m", "official", Q, RUN],
    "debug_query_c": ["-c", "-D", "0.5", "-q", "-m", "all_trec", Q, "inputs/missing.run"],  # (-c: all queries' mean)
    "formats_named": ["-R", "qrels", "-T", "trec_results", "-o", Q, RUN],
    "zscores": ["-q", "-Z", "inputs/zscores.txt", Q, RUN],
    "zscores_c": ["-q", "-c", "--Zscore", "inputs/zscores.txt", Q, "inputs/missing.run"],
    "long_abbreviated": ["--meas=map", "--measure", "P.2", "--query", "--complete", Q, RUN],
    "options_after_files": [Q, RUN, "-q", "-mbpref"],
    "clustered": ["-qcn", "-mrecip_rank", Q, RUN],
    "double_dash": ["-m", "map", "--", Q, RUN],
    "version": ["-v"],
    # refused: trec_eval's exit code, one line on stderr
    "bad_flag": ["-x", Q, RUN],
    "bad_long_flag": ["--nonsense", Q, RUN],
    "flag_without_argument": [Q, RUN, "-m"],
    "one_file": [Q],
    "three_files": [Q, RUN, RUN],
    "unknown_measure": ["-m", "ndcg_cutt.10", Q, RUN],
    "empty_parameters": ["-m", "P.", Q, RUN],
    "zero_cutoff": ["-m", "P.0,5", Q, RUN],
    "duplicate_cutoffs": ["-m", "success.5,5", Q, RUN],
    "no_qrels_file": ["inputs/absent.qrels", RUN],
    "no_results_file": [Q, "inputs/absent.run"],
    "malformed_qrels": ["inputs/bad.qrels", RUN],
    "bad_rel_format": ["-R", "trec", Q, RUN],
    "bad_results_format": ["-T", "csv", Q, RUN],
    "no_zscore_file": ["-Z", "inputs/absent.txt", Q, RUN],
    "no_query_in_common": ["-D", "0.nosuchquery", Q, RUN],
    "duplicate_doc": ["inputs/graded.qrels", "inputs/dup.run"],
}
CASES.update(EDGE_CASES)
