"""trec_eval's -Z: per-query values turned into z-scores against a file of `qid measure mean stddev` lines
(get_zscores.c, convert_zscores.c), as the non-standard rel_info formats apply it."""

from __future__ import annotations

from rankflavor.dropin.te_text import c_atof, fail, read_bytes
from rankflavor.errors import InputError

MISSING = -1000000.0  # MISSING_ZSCORE_VALUE (trec_eval.h)
EXIT_BAD_ZSCORES = 255  # trec_eval.c returns UNDEF (-1) from main when the file cannot be read

Zscores = dict[bytes, dict[bytes, tuple[float, float]]]
"""qid -> measure value name -> (mean, stddev)."""


def read_zscores(path: str) -> Zscores:
    """get_zscores.c: exactly four fields on every line (no comments, no blank lines), mean and stddev by atof."""
    table: Zscores = {}
    for line_no, line in enumerate(read_bytes(path, "-Z z-scores file").rstrip(b"\n").split(b"\n"), start=1):
        fields = line.split()
        if len(fields) != 4:
            raise fail(InputError, f"malformed -Z z-scores line: {len(fields)} fields where trec_eval reads exactly 4 "
                       "(qid measure mean stddev)", source=path, line=line_no, text=line.decode("utf-8", "replace"),
                       fix="write `qid measure mean stddev` on every line", exit_code=EXIT_BAD_ZSCORES)
        qid, measure, mean, stddev = fields
        table.setdefault(qid, {})[measure] = (c_atof(mean), c_atof(stddev))
    return table


def to_zscores(table: Zscores, qid: bytes, values: dict[str, float]) -> dict[str, float]:
    """convert_zscores.c: z = (value - mean) / stddev; with stddev 0, 0 when value == mean; MISSING for a value
    the file lacks, and for every value of a query it lacks."""
    per_query = table.get(qid)
    if per_query is None:
        return dict.fromkeys(values, MISSING)
    converted = {}
    for name, value in values.items():
        mean, stddev = per_query.get(name.encode(), (None, None))
        if mean is None or stddev is None:
            converted[name] = MISSING
        elif stddev:
            converted[name] = (value - mean) / stddev
        else:
            converted[name] = 0.0 if value == mean else MISSING
    return converted
