"""Which measures a `-m` list asks for under `-R prefs`, `qrels_prefs` or `qrels_jg`, and their printed value
names, as trec_eval 10.0 marks and initialises them (trec_eval.c mark_measure, measures.c, meas_init.c)."""

from __future__ import annotations

from dataclasses import dataclass

from rankflavor.dropin.options import RequestedMeasure
from rankflavor.dropin.prefs_measures import PREFS_COUNT, PREFS_DOUBLE
from rankflavor.dropin.te_text import c_atof, c_atol, usage

EXIT_BAD_MEASURE = 1  # trec_eval.c: an illegal measure name or an empty parameter, at option parsing
EXIT_BAD_INIT = 2  # trec_eval.c: "Cannot initialize measure" (a negative or duplicate cutoff)

TREC_EVAL_MEASURES = (
    "runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P relstring recall "
    "infAP gm_bpref Rprec_mult utility 11pt_avg binG G dcg ideal_dcg ndcg ndcg_rel Rndcg ndcg_cut map_cut "
    "relative_P success set_P set_relative_P set_recall set_map set_F num_nonrel_judged_ret prefs_num_prefs_poss "
    "prefs_num_prefs_ful prefs_num_prefs_ful_ret prefs_simp prefs_pair prefs_avgjg prefs_avgjg_Rnonrel "
    "prefs_simp_ret prefs_pair_ret prefs_avgjg_ret prefs_avgjg_Rnonrel_ret prefs_simp_imp prefs_pair_imp "
    "prefs_avgjg_imp map_avgjg P_avgjg Rprec_mult_avgjg yaap rbp rbp_resid unj").split()
"""trec_eval 10.0's measures in measures.c's order: the order their lines are printed in."""

NICKNAMES = {
    "official": "runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P",
    "set": "runid num_q num_ret num_rel num_rel_ret utility set_P set_recall set_relative_P set_map set_F",
    "all_trec": "runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P "
                "relstring recall unj rbp rbp_resid infAP gm_bpref utility 11pt_avg ndcg relative_P Rprec_mult "
                "success map_cut ndcg_cut ndcg_rel Rndcg binG G set_P set_recall set_relative_P set_map set_F "
                "num_nonrel_judged_ret",
    "all_prefs": "runid num_q " + " ".join(PREFS_COUNT) + " " + " ".join(PREFS_DOUBLE),
    "prefs": "runid num_q prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret prefs_simp prefs_pair "
             "prefs_avgjg",
    "qrels_jg": "runid num_q map_avgjg P_avgjg Rprec_mult_avgjg",
}
"""measures.c's nicknames (measure sets)."""

JG_MEASURES = ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg")
COMPUTABLE = {"prefs": {"runid", "num_q", *PREFS_COUNT, *PREFS_DOUBLE}, "qrels_jg": {"runid", "num_q", *JG_MEASURES}}
"""What each rel_info family can compute; qrels_prefs is read into prefs (get_qrels_prefs.c)."""

DEFAULT_P_AVGJG = "5,10,15,20,30,100,200,500,1000"
DEFAULT_RPREC_MULT_AVGJG = "0.2,0.4,0.6,0.8,1.0,1.2,1.4,1.6,1.8,2.0"


@dataclass(frozen=True)
class Selected:
    """A measure to compute: its name, its cutoffs (P_avgjg: ints, Rprec_mult_avgjg: floats, sorted) and the
    names of the values it prints."""

    name: str
    cutoffs: tuple[float, ...] = ()
    value_names: tuple[str, ...] = ()


def select(requested: tuple[RequestedMeasure, ...]) -> list[Selected]:
    """mark_measure + the measures' init: the names (a nickname stands for its set; none means `official`),
    the first parameters given for a measure (`-m P_avgjg.5,10`), in measures.c's order."""
    marked: set[str] = set()
    params: dict[str, str] = {}
    for measure in requested or (RequestedMeasure("official"),):
        if measure.params is not None:
            if measure.params == "":
                raise usage(f"improper measure in parameter '{measure.name}': nothing after the '.'",
                            EXIT_BAD_MEASURE)
            params.setdefault(measure.name, measure.params)
        if measure.name in NICKNAMES:
            marked.update(NICKNAMES[measure.name].split())
        elif measure.name in TREC_EVAL_MEASURES:
            marked.add(measure.name)
        else:
            raise usage(f"illegal measure '{measure.name}': not a trec_eval 10.0 measure or measure set "
                        "(these formats' sets: all_prefs, prefs, qrels_jg)", EXIT_BAD_MEASURE)
    return [_init(name, params.get(name)) for name in TREC_EVAL_MEASURES if name in marked]


def _init(name: str, params: str | None) -> Selected:
    """meas_init.c: P_avgjg's cutoffs read by atol, sorted, positive and distinct (te_init_meas_a_double_cut_long,
    `P_avgjg_%ld`); Rprec_mult_avgjg's by atof, sorted and distinct (te_init_meas_a_double_cut_double,
    `Rprec_mult_avgjg_%3.2f`, cut to the name plus 9 characters as its snprintf buffer cuts it)."""
    if name == "P_avgjg":
        cutoffs = sorted(c_atol(part.encode()) for part in (params or DEFAULT_P_AVGJG).split(","))
        if cutoffs[0] <= 0:
            raise usage(f"cannot initialize measure 'P_avgjg': cutoff {cutoffs[0]} is not positive", EXIT_BAD_INIT)
        names = [f"{name}_{cutoff}" for cutoff in cutoffs]
    elif name == "Rprec_mult_avgjg":
        cutoffs = sorted(c_atof(part.encode()) for part in (params or DEFAULT_RPREC_MULT_AVGJG).split(","))
        names = [f"{name}_{cutoff:3.2f}"[:len(name) + 9] for cutoff in cutoffs]
    else:
        return Selected(name, (), (name,) if name != "runid" else ())
    if len(set(cutoffs)) != len(cutoffs):
        raise usage(f"cannot initialize measure '{name}': duplicate cutoffs in '{params}'", EXIT_BAD_INIT)
    return Selected(name, tuple(cutoffs), tuple(names))
