"""trec_eval's judgment-group measures (`-R qrels_jg`): each JG (one user's qrels of a query) scores the ranking
as a standard qrels would, and the query's value is the mean over its JGs (form_res_rels_jg.c, m_map_avgjg.c,
m_P_avgjg.c, m_Rprec_mult_avgjg.c). (yaap, which reads a standard qrels ranking, is the engine's metric.)"""

from __future__ import annotations

from dataclasses import dataclass

from rankflavor.dropin.results_read import ranked_docnos
from rankflavor.dropin.te_text import c_div

NONPOOL = -1  # RELVALUE_NONPOOL: a retrieved doc absent from the JG's judgments
UNJUDGED = -2  # RELVALUE_UNJUDGED: judged with a negative rel ("in the pool, not judged")


@dataclass(frozen=True)
class JgRanking:
    """One JG's view of the ranking (form_res_rels_jg.c's RES_RELS): the rel of each ranked doc, the number
    ranked, the JG's relevant docs (rel >= -l) and those of them ranked."""

    rel_list: tuple[int, ...]
    num_ret: int
    num_rel: int
    num_rel_ret: int


def form_res_rels_jg(judgments: dict[bytes, dict[bytes, int]], results: list[tuple[bytes, float]],
                     max_docs: int | None, relevance_level: int, judged_only: bool) -> list[JgRanking]:
    """form_res_rels_jg.c: results by sim descending, ties by docno descending, cut to -M; per JG (strcmp order),
    each doc's rel (NONPOOL, UNJUDGED); with -J only the docs judged (rel >= 0) stay, in rank order.
    num_rel = #{judged docs, rel >= 0 and rel >= -l}; num_rel_ret = #{ranked docs, rel >= 0 and rel >= -l}."""
    ranked = ranked_docnos(results, max_docs, ties_docno_ascending=False)
    rankings = []
    for judged in judgments.values():
        rels = [NONPOOL if docno not in judged else UNJUDGED if judged[docno] < 0 else judged[docno]
                for docno in ranked]
        if judged_only:
            rels = [rel for rel in rels if rel >= 0]
        num_rel = sum(1 for rel in judged.values() if rel >= 0 and rel >= relevance_level)
        num_rel_ret = sum(1 for rel in rels if rel >= 0 and rel >= relevance_level)
        rankings.append(JgRanking(tuple(rels), len(rels), num_rel, num_rel_ret))
    return rankings


def map_avgjg(rankings: list[JgRanking], relevance_level: int) -> float:
    """m_map_avgjg.c: per JG, AP = (sum over relevant ranks i of rel_so_far / i) / num_rel (a JG with no
    relevant doc ranked adds 0); summed over JGs, divided by their number when there are several."""
    value = 0.0
    for jg in rankings:
        rel_so_far, total = 0, 0.0
        for rank, rel in enumerate(jg.rel_list, start=1):
            if rel >= relevance_level:
                rel_so_far += 1
                total += rel_so_far / rank
        if rel_so_far:
            value += c_div(total, jg.num_rel)
    return value / len(rankings) if len(rankings) > 1 else value


def p_avgjg(rankings: list[JgRanking], cutoffs: list[int], relevance_level: int) -> list[float]:
    """m_P_avgjg.c: per JG and cutoff k (sorted, positive), P@k = (relevant docs in the top k) / k, the docs
    past the ranking's end counted nonrelevant; summed over JGs, divided by their number when there are several."""
    values = [0.0] * len(cutoffs)
    for jg in rankings:
        index, rel_so_far = 0, 0
        for rank, rel in enumerate(jg.rel_list):
            if rank == cutoffs[index]:
                values[index] += rel_so_far / rank
                index += 1
                if index == len(cutoffs):
                    break
            if rel >= relevance_level:
                rel_so_far += 1
        for rest in range(index, len(cutoffs)):
            values[rest] += rel_so_far / cutoffs[rest]
    return [value / len(rankings) for value in values] if len(rankings) > 1 else values


def rprec_mult_avgjg(rankings: list[JgRanking], multiples: list[float], relevance_level: int) -> list[float]:
    """m_Rprec_mult_avgjg.c: per JG and multiple m (sorted), precision at cutoff c = (long)(m * num_rel + 0.9):
    num_rel_ret / c when c is past the ranking's end, else (relevant docs in the top c) / c (0 once no relevant
    doc is left above c, and for c = 0); summed over JGs, divided by their number when there are several."""
    values = [0.0] * len(multiples)
    for jg in rankings:
        cutoffs = [int(m * jg.num_rel + 0.9) for m in multiples]
        cut = len(cutoffs) - 1
        while cut >= 0 and cutoffs[cut] > jg.num_ret:
            values[cut] += jg.num_rel_ret / cutoffs[cut]
            cut -= 1
        rel_so_far, rank = jg.num_rel_ret, jg.num_ret
        while rank > 0 and rel_so_far > 0:
            precision = rel_so_far / rank
            while cut >= 0 and rank == cutoffs[cut]:
                values[cut] += precision
                cut -= 1
            if jg.rel_list[rank - 1] >= relevance_level:
                rel_so_far -= 1
            rank -= 1
    return [value / len(rankings) for value in values] if len(rankings) > 1 else values

