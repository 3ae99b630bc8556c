"""trec_eval 10.0's measure table, once: every measure in the order trec_eval prints them (measures.c
`te_trec_measures`), how meas_init.c reads its parameters and meas_print_*.c prints it, its default cutoffs or
levels, and trec_eval's nicknames (`official`, `all_trec`, `set`, ...). Read by the library's measure sets
(dialects/trec_sets.py: `trec_eval.official`, the family names' expansions) and by `rankflavor trec_eval`
(dropin/measures.py: each printed value made a flavor). Data only: no import.

Kinds: `runid` and `num_q` (lines, not measures), `long` and `double` (one value), `gm` (a geometric mean),
`cuts` (one value per cutoff, te_init_meas_a_double_cut_long: `P_5`), `levels` (one per level, `%3.2f`,
..._cut_double: `iprec_at_recall_0.10`), `params` (numbers after the name, te_init_meas_s_double_p_double:
`utility_2,-1,0,0`), `pairs` (NAME=VALUE pairs, te_init_meas_s_double_p_pair: `ndcg_1=3,2=9`).
"""

from __future__ import annotations

LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
LEVELS = tuple(i / 10 for i in range(11))
MULTS = tuple(i / 5 for i in range(1, 11))
# name -> (kind, defaults), the standard (-R qrels) measures in te_trec_measures order
MEASURES: dict[str, tuple[str, tuple]] = {
    "runid": ("runid", ()), "num_q": ("num_q", ()), "num_ret": ("long", ()), "num_rel": ("long", ()),
    "num_rel_ret": ("long", ()), "map": ("double", ()), "gm_map": ("gm", ()), "Rprec": ("double", ()),
    "bpref": ("double", ()), "recip_rank": ("double", ()), "iprec_at_recall": ("levels", LEVELS),
    "P": ("cuts", LONG_CUTS), "relstring": ("params", (10,)), "recall": ("cuts", LONG_CUTS),
    "infAP": ("double", ()), "gm_bpref": ("gm", ()), "Rprec_mult": ("levels", MULTS),
    "utility": ("params", (1.0, -1.0, 0.0, 0.0)), "11pt_avg": ("params", LEVELS), "binG": ("double", ()),
    "G": ("pairs", ()), "dcg": ("pairs", ()), "ideal_dcg": ("pairs", ()), "ndcg": ("pairs", ()),
    "ndcg_rel": ("pairs", ()), "Rndcg": ("pairs", ()), "ndcg_cut": ("cuts", LONG_CUTS), "map_cut": ("cuts", LONG_CUTS),
    "relative_P": ("cuts", LONG_CUTS), "success": ("cuts", (1, 5, 10)), "set_P": ("double", ()),
    "set_relative_P": ("double", ()), "set_recall": ("double", ()), "set_map": ("double", ()),
    "set_F": ("params", (1.0,)), "num_nonrel_judged_ret": ("long", ()),
    "yaap": ("double", ()), "rbp": ("pairs", ()), "rbp_resid": ("pairs", ()), "unj": ("cuts", (5, 10, 20)),
}
# the measures of the preference and judgment-group formats (-R prefs, qrels_prefs, qrels_jg), in their place
OTHER_FORMAT = ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
                "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
                "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg",
                "P_avgjg", "Rprec_mult_avgjg")
ORDER = (*list(MEASURES)[:36], *OTHER_FORMAT, "yaap", "rbp", "rbp_resid", "unj")  # measures.c te_trec_measures
_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
             "iprec_at_recall", "P")
NICKNAMES = {
    "official": _OFFICIAL,
    "all_trec": (*_OFFICIAL, "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel",
                 "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F",
                 "num_nonrel_judged_ret"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
    "all_prefs": ("runid", "num_q", *OTHER_FORMAT[:14]),
    "prefs": ("runid", "num_q", *OTHER_FORMAT[:8]),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}


def default_values(name: str) -> tuple[str, ...]:
    """The values a cutoff or level measure prints by default, as trec_eval prints them (`5`, `0.10`)."""
    kind, defaults = MEASURES[name]
    return tuple(f"{x:3.2f}" for x in defaults) if kind == "levels" else tuple(str(x) for x in defaults)
