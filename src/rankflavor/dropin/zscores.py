"""`trec_eval -Z FILE`: each value printed as a z-score, (value - mean) / stddev, with the mean and standard deviation
of that measure and query read from FILE (get_zscores.c reads it, convert_zscores.c converts).

FILE has lines `qid measure mean stddev` (whitespace-separated; mean and stddev read as C's atof reads them).
A (query, measure) the file lacks gives -1000000 (trec_eval.h MISSING_ZSCORE_VALUE), as does a stddev of 0 with
a value other than the mean (the mean itself gives 0). The conversion happens per query, before the summary is
accumulated: the summary is the mean (or sum, or geometric mean) of the z-scores, as in trec_eval.
"""

from __future__ import annotations

from rankflavor.dropin.c_reading import TrecEvalExit

MISSING_ZSCORE = -1000000.0


def read_zscores(path: str) -> dict[tuple[str, str], tuple[float, float]]:
    """{(qid, measure): (mean, stddev)} from a z-score file; a file that cannot be read, or a line without its
    four fields, stops trec_eval (it returns UNDEF from main: exit code 255)."""
    from rankflavor.dropin.c_reading import c_doubles
    from rankflavor.inputs.bounded import CapExceeded, read_file_capped

    try:
        text = read_file_capped(path).decode("utf-8", "surrogateescape")
    except CapExceeded as exc:
        raise TrecEvalExit(255, f"trec_eval: the z-score file '{path}': {exc.reason}") from None
    except OSError as exc:
        raise TrecEvalExit(255, f"trec_eval: cannot read the z-score file '{path}' ({exc.strerror})") from None
    if not text:
        raise TrecEvalExit(255, f"trec_eval: the z-score file '{path}' is empty")
    table: dict[tuple[str, str], tuple[float, float]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if len(fields) != 4:
            raise TrecEvalExit(255, f"trec_eval: {path}:{number}: a z-score line has 4 fields (qid measure mean "
                                    f"stddev), this one has {len(fields)}")
        table[(fields[0], fields[1])] = (c_doubles(fields[2])[0], c_doubles(fields[3])[0])
    return table


def zscore(value: float, stats: tuple[float, float] | None) -> float:
    """A value as a z-score against (mean, stddev), as convert_zscores.c computes it."""
    if stats is None:
        return MISSING_ZSCORE
    mean, stddev = stats
    if stddev:
        return (value - mean) / stddev
    return 0.0 if value == mean else MISSING_ZSCORE


def zscores_of(table: dict[tuple[str, str], tuple[float, float]], qid: bytes, values: dict[str, float],
               ) -> dict[str, float]:
    """A query's values (by printed name) as z-scores: the non-standard rel_info formats' loop
    (dropin/other_formats.py) reads query ids as bytes."""
    query = qid.decode("utf-8", "surrogateescape")
    return {name: zscore(value, table.get((query, name))) for name, value in values.items()}
