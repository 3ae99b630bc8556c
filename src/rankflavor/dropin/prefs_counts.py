"""The preferences a run fulfils, per judgment group (JG), as form_prefs_counts.c counts them.

Docs judged for a query get an internal "docid rank": the judged docs the run retrieved, in rank order
(0 .. NJR-1, NJR = num_judged_ret), then the judged docs it did not retrieve, in docno order (NJR .. NJ-1).
A preference A > B is then one of: fulfilled, both retrieved (rank A < rank B < NJR); not fulfilled, both
retrieved; implied fulfilled (A retrieved, B not); implied not fulfilled (B retrieved, A not); or neither
retrieved ("not occur"). The `possible_*` counts include the fulfilled ones.

A JG with one sub-group (JSG) is a list of equivalence classes (ECs: the docs of one rel_level, highest first),
every doc of a higher EC preferred to every doc of a lower one. A JG with several JSGs is a preference matrix:
within each JSG a doc is preferred to the docs of lower rel_level, then the transitive closure is taken
(add_transitives); a pair preferred both ways is an inconsistency (trec_eval aborts). `pref_counts[i, j]`
counts the preferences i > j over all JGs (an EC pair listed twice counts twice, as in C).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby

import numpy as np

from rankflavor.dropin.prefs_read import PrefJudgment
from rankflavor.dropin.results_read import ranked_docnos


class PrefsInconsistent(Exception):
    """A JG that contradicts itself, about the docs of docid `ranks`; `aborts` when trec_eval calls abort()
    (a preference cycle)."""

    def __init__(self, message: str, *, ranks: tuple[int, ...] = (), aborts: bool = False) -> None:
        super().__init__(message)
        self.ranks = ranks
        self.aborts = aborts


@dataclass
class JudgmentGroup:
    """One JG's preferences (`ecs` or `matrix` + `rel_array`) and its counts (form_prefs_counts.c's JG)."""

    ecs: list[tuple[float, np.ndarray]] = field(default_factory=list)  # (rel_level, sorted docid ranks)
    matrix: np.ndarray | None = None  # bool NJ x NJ, closed transitively, zero diagonal
    rel_array: np.ndarray | None = None  # rel_level per docid rank, -1.0 when absent from this JG
    fulfilled_ret: int = 0
    possible_ret: int = 0
    fulfilled_imp: int = 0
    possible_imp: int = 0
    possible_notoccur: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0


@dataclass
class PrefsCounts:
    """A query's JGs, NJ, NJR and the pref_counts matrix over all JGs."""

    jgs: list[JudgmentGroup]
    num_judged: int
    num_judged_ret: int
    pref_counts: np.ndarray


def form_prefs_counts(judgments: list[PrefJudgment], results: list[tuple[bytes, float]],
                      max_docs: int | None) -> PrefsCounts:
    """form_prefs_counts.c: docid ranks (results sorted by sim descending, ties by docno ascending, cut to -M),
    then each JG's preferences and counts, in strcmp order of JG ids."""
    ranked = ranked_docnos(results, max_docs, ties_docno_ascending=True)
    judged = {j.docno for j in judgments}
    retrieved = [docno for docno in ranked if docno in judged]
    order = retrieved + sorted(judged.difference(retrieved))
    rank_of = {docno: rank for rank, docno in enumerate(order)}
    num_judged, num_judged_ret = len(order), len(retrieved)
    rows = sorted((j.jg, j.jsg, -j.rel_level, rank_of[j.docno]) for j in judgments)
    pref_counts = np.zeros((num_judged, num_judged), dtype=np.int64)
    jgs = []
    for group, group_rows in groupby(rows, key=lambda r: r[0]):
        lines = [(r[1], -r[2], r[3]) for r in group_rows]
        try:
            if len({jsg for jsg, *_ in lines}) > 1:
                jgs.append(_matrix_jg(lines, num_judged, num_judged_ret, pref_counts))
            else:
                jgs.append(_ec_jg(lines, num_judged_ret, pref_counts))
        except PrefsInconsistent as exc:
            docs = " and ".join(order[rank].decode("utf-8", "replace") for rank in exc.ranks)
            raise PrefsInconsistent(f"judgment group {group.decode('utf-8', 'replace')}: doc{'s' * (len(exc.ranks) > 1)} "
                                    f"{docs} {exc}", aborts=exc.aborts) from None
    return PrefsCounts(jgs, num_judged, num_judged_ret, pref_counts)


def _ec_jg(lines: list[tuple[bytes, float, int]], njr: int, pref_counts: np.ndarray) -> JudgmentGroup:
    """form_jg_ec + add_ec_pref_to_jg: ECs by rel_level (descending); a doc is relevant when rel_level > 0.
    For each pair (r1 in a higher EC, r2 in a lower one): fulfilled when r1 < r2 (retrieved both when r2 < NJR,
    implied when only r1 < NJR, else not occurring), not fulfilled when r1 > r2 (both retrieved when r1 < NJR,
    implied when only r2 < NJR, else not occurring)."""
    jg = JudgmentGroup()
    for level, members in groupby(lines, key=lambda line: line[1]):
        jg.ecs.append((level, np.array([line[2] for line in members], dtype=np.int64)))
    for index, (level, ranks) in enumerate(jg.ecs):
        retrieved = int(np.count_nonzero(ranks < njr))
        if level > 0.0:
            jg.num_rel_ret, jg.num_rel = jg.num_rel_ret + retrieved, jg.num_rel + len(ranks)
        else:
            jg.num_nonrel_ret, jg.num_nonrel = jg.num_nonrel_ret + retrieved, jg.num_nonrel + len(ranks)
        for _lower_level, lower in jg.ecs[index + 1:]:
            r1, r2 = ranks[:, None], lower[None, :]
            if np.any(r1 == r2):
                doc = int(ranks[np.any(r1 == r2, axis=1)][0])
                raise PrefsInconsistent("has two rel_levels in one sub-group", ranks=(doc,))
            np.add.at(pref_counts, (np.broadcast_to(r1, (len(ranks), len(lower))),
                                    np.broadcast_to(r2, (len(ranks), len(lower)))), 1)
            kept, inverted = r1 < r2, r1 > r2
            jg.fulfilled_ret += int(np.count_nonzero(kept & (r2 < njr)))
            jg.fulfilled_imp += int(np.count_nonzero(kept & (r2 >= njr) & (r1 < njr)))
            jg.possible_ret += int(np.count_nonzero(inverted & (r1 < njr)))
            jg.possible_imp += int(np.count_nonzero(inverted & (r1 >= njr) & (r2 < njr)))
            jg.possible_notoccur += int(np.count_nonzero((kept & (r1 >= njr)) | (inverted & (r2 >= njr))))
    jg.possible_ret += jg.fulfilled_ret
    jg.possible_imp += jg.fulfilled_imp
    return jg


def _matrix_jg(lines: list[tuple[bytes, float, int]], nj: int, njr: int,
               pref_counts: np.ndarray) -> JudgmentGroup:
    """form_jg_pa: within each JSG (lines sorted by JSG, rel_level descending, rank) every doc is preferred to
    the docs of strictly lower rel_level; rel_array keeps each doc's last rel_level, and a doc given 0 and a
    non-0 rel_level is an error."""
    matrix = np.zeros((nj, nj), dtype=bool)
    rel_array = np.full(nj, -1.0)
    for index, (jsg, level, rank) in enumerate(lines):
        if (rel_array[rank] > 0.0 and level == 0.0) or (rel_array[rank] == 0.0 and level > 0.0):
            raise PrefsInconsistent("is given rel_level 0 and a non-0 rel_level", ranks=(rank,))
        rel_array[rank] = level
        for other_jsg, other_level, other_rank in lines[index + 1:]:
            if other_jsg != jsg:
                break
            if other_level != level:
                matrix[rank, other_rank] = True
    _close_transitively(matrix)
    jg = JudgmentGroup(matrix=matrix, rel_array=rel_array)
    _count_matrix(jg, njr, pref_counts)
    return jg


def _close_transitively(matrix: np.ndarray) -> None:
    """add_transitives: the reflexive-transitive closure (C multiplies by (I + P) until nothing changes;
    Warshall's algorithm gives the same closure), the diagonal reset to 0; i > j and j > i both is an
    inconsistency, on which trec_eval aborts."""
    np.fill_diagonal(matrix, True)
    for k in range(len(matrix)):
        matrix |= matrix[:, k:k + 1] & matrix[k:k + 1, :]
    np.fill_diagonal(matrix, False)
    both = matrix & matrix.T
    if both.any():
        i, j = (int(x) for x in np.argwhere(both)[0])
        raise PrefsInconsistent("are each preferred to the other (through its sub-groups)", ranks=(i, j),
                                aborts=True)


def _count_matrix(jg: JudgmentGroup, njr: int, pref_counts: np.ndarray) -> None:
    """add_pa_pref_to_jg: the five areas of the matrix split at NJR and its diagonal: above the diagonal within
    the retrieved block fulfilled, below it not; retrieved row x unretrieved column implied fulfilled, the
    reverse implied not; both unretrieved not occurring. Relevant means rel_array > 0, nonrelevant == 0."""
    matrix, rel = jg.matrix, jg.rel_array
    assert matrix is not None and rel is not None
    jg.num_rel_ret = int(np.count_nonzero(rel[:njr] > 0.0))
    jg.num_nonrel_ret = int(np.count_nonzero(rel[:njr] == 0.0))
    jg.num_rel = jg.num_rel_ret + int(np.count_nonzero(rel[njr:] > 0.0))
    jg.num_nonrel = jg.num_nonrel_ret + int(np.count_nonzero(rel[njr:] == 0.0))
    block = matrix[:njr, :njr]
    jg.fulfilled_ret = int(np.count_nonzero(np.triu(block, 1)))
    jg.possible_ret = int(np.count_nonzero(np.tril(block, -1))) + jg.fulfilled_ret
    jg.fulfilled_imp = int(np.count_nonzero(matrix[:njr, njr:]))
    jg.possible_imp = int(np.count_nonzero(matrix[njr:, :njr])) + jg.fulfilled_imp
    jg.possible_notoccur = int(np.count_nonzero(matrix[njr:, njr:]))
    pref_counts += matrix
