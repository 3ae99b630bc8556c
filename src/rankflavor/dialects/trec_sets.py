"""trec_eval's measure sets: `trec_eval.official` (what `trec_eval` prints with no -m) and `trec_eval.all_trec`
(`-m all_trec`), expanded into trec_eval's measure names in the order trec_eval prints them;
`pytrec_eval.official` and `pytrec_eval.all_trec` are the same sets as pytrec_eval (trec_eval 9.0.x) computes
them, without trec_eval 10.0's unj, rbp and rbp_resid.

trec_eval 10.0 measures.c: `off_names` and `trec_names` list each set's measures; trec_eval computes and prints
the measures of `te_trec_measures` in that array's order (whatever the order of the set). A measure with
cutoffs or levels expands into one name per default value (m_P.c, m_recall.c, m_map_cut.c, m_ndcg_cut.c,
m_rel_P.c: 5 10 15 20 30 100 200 500 1000; m_success.c: 1 5 10; m_unjudged.c: 5 10 20; m_iprec_at_recall.c:
0.00 to 1.00 by 0.10; m_Rprec_mult.c: 0.20 to 2.00 by 0.20).

Not metrics, these are lines of `--format trec`: `runid` (the run's tag, m_runid.c) and `num_q` (the queries
averaged, m_num_q.c), printed in the summary only. `relstring` (m_relstring.c: a per-query string of the
ranked docs' grades, not a number) is not printed by rankflavor.
"""

from __future__ import annotations

from rankflavor.dialects.pytrec_eval import ONLY_IN_10  # (its metrics are named as trec_eval names them)

TREC_ORDER = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
              "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
              "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P",
              "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret",
              "rbp", "rbp_resid", "unj")  # te_trec_measures, without the prefs and avgjg measures of no set
SETS = {
    "official": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P"},
    "all_trec": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP",
                 "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map",
                 "set_F", "num_nonrel_judged_ret"},
}
LONG_CUTOFFS = ("5", "10", "15", "20", "30", "100", "200", "500", "1000")
EXPANSIONS = {"P": LONG_CUTOFFS, "recall": LONG_CUTOFFS, "map_cut": LONG_CUTOFFS, "ndcg_cut": LONG_CUTOFFS,
              "relative_P": LONG_CUTOFFS, "success": ("1", "5", "10"), "unj": ("5", "10", "20"),
              "iprec_at_recall": tuple(f"{i / 10:.2f}" for i in range(11)),
              "Rprec_mult": tuple(f"{i / 5:.2f}" for i in range(1, 11))}
LINES = ("runid", "num_q")  # printed by --format trec, not evaluated
UNPRINTED = ("relstring",)


def set_members(name: str) -> list[str] | None:
    """The measure names `trec_eval.SET` (or `pytrec_eval.SET`) stands for, prefix included, in trec_eval's print
    order (without runid, num_q and relstring), or None when `name` is not a set. A set named without a prefix
    (`official`) is trec_eval's (pytrec_eval's gives way to its reference implementation)."""
    prefix, _, set_name = ("trec_eval", ".", name) if name in SETS else name.partition(".")
    if prefix not in ("trec_eval", "pytrec_eval") or set_name not in SETS:
        return None
    out: list[str] = []
    for measure in TREC_ORDER:
        if measure not in SETS[set_name] or measure in LINES or measure in UNPRINTED:
            continue
        if prefix == "pytrec_eval" and measure in ONLY_IN_10:
            continue
        names = [f"{measure}_{value}" for value in EXPANSIONS[measure]] if measure in EXPANSIONS else [measure]
        out += [f"{prefix}.{n}" for n in names]
    return out
