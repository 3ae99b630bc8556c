"""rankflavor: NDCG (and AP, P, R, RR, ERR, RBP, ...) under a declared flavor, with a reconstructible record
behind every score. Every number is printed with its whole flavor (gain, discount, cutoff, ideal, ties,
unjudged docs, ...), and other tools' flavors are named presets and names (`sklearn@10`, `trec_eval.P_10`).

The calls a user needs:

    report = rankflavor.evaluate("qrels.txt", ["bm25.run", "dense.run"], ["ndcg@10", "sklearn@10", "map"])
    report.mean("bm25.run", "ndcg@10")             # a mean, found by the spec as written
    report.explain("bm25.run", "q17", "ndcg@10")   # the record: ranked list, ideal list, DCG, IDCG, why
    report.verify()                                # every value recomputed from its record: [] when all agree
    rankflavor.compare.compare("qrels.txt", ["bm25.run", "dense.run"], ["ndcg@10", "map"])  # does X beat Y?
    rankflavor.ndcg_score(y_true, y_score, k=10)   # scikit-learn's arrays and numbers; flavor= for any other

`rankflavor.Flavor.parse(spec)` reads one flavor; `str(flavor)` is its canonical string. The README and docs/
say more. (Names are imported on first use, so that `rankflavor --help` does not pay for numpy and pyarrow.)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rankflavor import _early

if _early.command_line():  # (Ctrl-C in the imports before the command's `main`: one line, exit 130)
    _early.install()
    _early.young_collections()

from rankflavor.version import __version__

_EXPORTS = {
    "EvaluationError": "rankflavor.errors",
    "InputError": "rankflavor.errors",
    "RankflavorError": "rankflavor.errors",
    "SpecError": "rankflavor.errors",
    "PRESETS": "rankflavor.flavor",
    "Flavor": "rankflavor.flavor",
    "parse_spec": "rankflavor.flavor",
    "parse_specs": "rankflavor.flavor",
    "Record": "rankflavor.report",
    "Report": "rankflavor.report",
    "Result": "rankflavor.report",
    "evaluate": "rankflavor.report",
    "explain": "rankflavor.report",
    "load": "rankflavor.report",
    "power": "rankflavor.compare.power",
    "ndcg_score": "rankflavor.arrays",
    "dcg_score": "rankflavor.arrays",
}

__all__ = [  # noqa: RUF022 (kept in the order of _EXPORTS)
    "__version__",
    "EvaluationError", "InputError", "RankflavorError", "SpecError",
    "PRESETS", "Flavor", "parse_spec", "parse_specs",
    "Record", "Report", "Result", "evaluate", "explain", "load", "power",
    "ndcg_score", "dcg_score",
]
SUBPACKAGES = ("compare", "arrays")  # rf.compare.compare(...), or `import rankflavor.compare as rc`

if TYPE_CHECKING:
    from rankflavor.arrays import dcg_score, ndcg_score
    from rankflavor.compare.power import power
    from rankflavor.errors import EvaluationError, InputError, RankflavorError, SpecError
    from rankflavor.flavor import PRESETS, Flavor, parse_spec, parse_specs
    from rankflavor.report import Record, Report, Result, evaluate, explain, load


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    if name in SUBPACKAGES:
        return importlib.import_module(f"rankflavor.{name}")
    raise AttributeError(f"module 'rankflavor' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public API (what tab completion offers), not the module's own imports."""
    return sorted({*__all__, *SUBPACKAGES})
