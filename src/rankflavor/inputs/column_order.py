"""Column-layout mistakes, named before they become numbers (a silent mean of 0, a reversed ranking).

A TREC qrels is `qid iter docid grade` and a run `qid Q0 docid rank score tag`. Files written in another
order still split into the right number of columns, so the readers accept them; what gives them away:

- a qrels whose doc ids are all iteration-like (`0`, `1`, `Q0`) and either repeat within a query or are one
  constant value across queries: `qid docid iter grade` (the doc ids are in the second column). The
  duplicate-judgment error it would raise otherwise advises `--on-duplicate first|max`, which would give a
  silent mean of 0: the layout error comes first, whatever the policy;
- a run whose doc column holds `Q0` on every line: `qid docid Q0 rank score tag`;
- a run whose scores are 1, 2, 3, ... (or 0, 1, 2, ...) down the file in every query, as ranks are: the rank
  and score columns are likely swapped (only likely: a warning, `rank_like_scores`);
- a line holding commas where columns are expected: a CSV file (trec_lines' fix says so).
Each fix is tested: applied to the file, it gives the numbers of the file written right.
"""

from __future__ import annotations

import re
import shlex

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.kernels import dictionary_encode, unique
from rankflavor.inputs.tables import QrelsTable, RunTable, Source
from rankflavor.inputs.trec import line_of, line_text

_ITERATION = re.compile(r"[0-9]{1,2}|[Qq]0")
SWAP_QRELS = "'{print $1, $3, $2, $4}'"  # awk programs: each fix is a command the user can run
SWAP_RUN = "'{print $1, $3, $2, $4, $5, $6}'"
SWAP_RANK_SCORE = "'{print $1, $2, $3, $5, $4, $6}'"


def awk(program: str, source: Source) -> str:
    """The command that rewrites the file with `program` (FILE for a Python input)."""
    path = shlex.quote(source.path) if source.path else "FILE"
    return f"awk {program} {path} > fixed.txt"


def _distinct(values: pa.Array) -> list[str]:
    return (values.dictionary if pa.types.is_dictionary(values.type) else unique(values)).to_pylist()


def _codes(values: pa.Array) -> np.ndarray:
    encoded = values if pa.types.is_dictionary(values.type) else dictionary_encode(values)
    return array_to_numpy(encoded.indices).astype(np.int64)


def _first_line(table: QrelsTable | RunTable) -> tuple[int | None, str | None]:
    line = line_of(table, 0)
    return line, (line_text(table.source.path or "", line) if line is not None else None)


def _where(source: Source) -> str:
    return source.path or source.name


def check_qrels_layout(table: QrelsTable) -> None:
    """Refuse a qrels written `qid docid iter grade` (see the module's docstring). Text files only: a
    mapping or a frame names its columns, it cannot swap them."""
    if table.source.kind != "trec" or table.rows < 2 or not _ITERATION.fullmatch(str(table.doc[0].as_py())):
        return
    docs = _distinct(table.doc)
    if not all(_ITERATION.fullmatch(d) for d in docs):
        return
    pairs = _codes(table.query) * (len(docs) + 1) + _codes(table.doc)
    repeated = len(np.unique(pairs)) < len(pairs)
    constant = len(docs) == 1 and len(_distinct(table.query)) > 1
    if not (repeated or constant):
        return
    line, text = _first_line(table)
    shown = ", ".join(repr(d) for d in docs[:3])
    raise InputError(
        f"the docid column (the third) holds only {shown}, which look like iteration numbers: this qrels looks "
        "written as 'qid docid iter grade'", source=_where(table.source), line=line, text=text,
        fix=f"TREC qrels are 'qid iter docid grade': swap the second and third columns, e.g. "
            f"{awk(SWAP_QRELS, table.source)}")


def check_run_layout(table: RunTable) -> None:
    """Refuse a run written `qid docid Q0 rank score tag` (see the module's docstring). Text files only."""
    if table.source.kind != "trec" or table.rows == 0 or table.doc[0].as_py() != "Q0":  # (TREC's literal; q0 is a doc)
        return
    if any(d != "Q0" for d in _distinct(table.doc)):
        return
    line, text = _first_line(table)
    raise InputError("the docid column (the third) holds 'Q0' on every line: this run looks written as "
                     "'qid docid Q0 rank score tag'", source=_where(table.source), line=line, text=text,
                     fix=f"TREC runs are 'qid Q0 docid rank score tag': swap the second and third columns, "
                         f"e.g. {awk(SWAP_RUN, table.source)}")


def rank_like_scores(table: RunTable) -> bool:
    """Whether, in every query, the scores down the file are 1, 2, 3, ... (or 0, 1, 2, ...), as ranks are,
    and some query lists two docs or more."""
    score = table.score
    if len(score) < 2 or score[0] not in (0.0, 1.0) or not bool((score == np.floor(score)).all()):
        return False
    query = _codes(table.query)
    order = np.argsort(query, kind="stable")
    grouped = query[order]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    if len(starts) == len(grouped):
        return False  # one doc per query: nothing to tell
    position = np.arange(len(grouped)) - np.repeat(starts, np.diff(np.r_[starts, len(grouped)]))
    base = score[order][starts]
    if not bool(np.isin(base, (0.0, 1.0)).all()):
        return False
    return bool((score[order] == position + np.repeat(base, np.diff(np.r_[starts, len(grouped)]))).all())


def rank_like_warning(name: str, source: Source) -> str:
    return (f"{name}: in every query the scores are 1, 2, 3, ... down the file, as ranks are: are the rank and "
            "score columns swapped? The highest score ranks first (as in trec_eval), so each query's last line "
            f"is ranked first here; if they are swapped, swap the 4th and 5th columns, e.g. "
            f"{awk(SWAP_RANK_SCORE, source)}")
