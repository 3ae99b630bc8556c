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
from rankflavor.dialects.trec_table import MEASURES, NICKNAMES, ORDER, OTHER_FORMAT, default_values

# (trec_eval's measure table, dialects/trec_table.py: its order without the other formats' measures and yaap,
# which no set holds; official's and all_trec's members; each cutoff and level measure's default values)
TREC_ORDER = tuple(name for name in ORDER if name not in OTHER_FORMAT and name != "yaap")
SETS = {name: set(NICKNAMES[name]) for name in ("official", "all_trec")}
EXPANSIONS = {name: default_values(name) for name, (kind, _) in MEASURES.items() if kind in ("cuts", "levels")}
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
