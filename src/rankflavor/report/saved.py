"""A saved report read back (`rankflavor.load("saved.json")`): the JSON of `rankflavor eval --format json` (either
engine) or of `Report.to_json()`, as a `SavedReport`.

A saved report holds the numbers (means, counts, denominators, warnings, the per-query values when saved with
`--per-query`), the canonical flavors (each parses back to an equal Flavor) and the labels, not the inputs: what
needs the qrels and the runs (`explain`, `records`, `verify`) is refused with the way to get it. The JSON carries
`format_version` (report/result.py `FORMAT_VERSION`); a file of a newer format is refused, one without the key
(written before it was added, the same shape) is read as format 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rankflavor.errors import InputError, SpecError, UsageError
from rankflavor.escape import visible
from rankflavor.flavor import Flavor
from rankflavor.report.report import Report
from rankflavor.report.result import FORMAT_VERSION, FlavorNames
from rankflavor.report.warnings import FlavorWarning

WRITERS = "rankflavor eval --format json > FILE, or report.to_json(FILE)"


@dataclass
class SavedResult(FlavorNames):
    """One run x flavor as saved: a report.result.ResultView whose numbers are the file's, not recomputed."""

    run: str
    flavor: Flavor
    labels: list[str]
    mean: float | None
    counts: dict[str, int]
    warnings: list[Any]  # FlavorWarning (its code and numbers from the saved details) or the message alone
    saved: dict[str, Any]  # the result's dict as saved (denominator, warning details, per-query rows)
    source: str = ""  # the file read

    def __repr__(self) -> str:
        mean = "null" if self.mean is None else f"{self.mean:.6f}"
        return visible(f"<SavedResult {self.run} {self.label}: mean {mean} over {self.counts.get('scored')} scored "
                       f"queries; {len(self.warnings)} warnings; from {self.source}>")

    @property
    def parts(self) -> list[str]:
        return list(self.metric.parts)

    def denominator(self) -> dict[str, Any]:
        return dict(self.saved.get("denominator", {}))

    def per_query(self) -> list[dict[str, Any]]:
        """The per-query rows as saved; a report saved without them cannot give them."""
        if "per_query" not in self.saved:
            raise UsageError(f"{self.source}: saved without per-query values; save them with rankflavor eval "
                             "--format json --per-query, or report.to_json(FILE, per_query=True)")
        return [dict(row) for row in self.saved["per_query"]]

    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"run": self.run, "label": self.label, **({"labels": self.labels} if len(
                               self.labels) > 1 else {}), "flavor": str(self.flavor), "mean": self.mean,
                               "denominator": self.denominator(), "counts": dict(self.counts),
                               "warnings": [str(w) for w in self.warnings],
                               "warning_details": list(self.saved.get("warning_details", []))}
        if per_query:
            out["per_query"] = self.per_query()
        return out


class SavedReport(Report):
    """A Report read from its JSON (`rankflavor.load`): means, counts, per-query values, flavors, labels and
    warnings as saved. Look-ups (`mean`, `result`, `value`), `to_dict`, `to_json`, `means_frame`, `to_frame`
    work as on the report that was saved; `explain`, `records` and `verify` need the inputs and say so."""

    def __init__(self, results: list[SavedResult], provenance: dict[str, Any], source: str) -> None:
        self.dataset = None  # type: ignore[assignment]  # (the inputs are not in the file)
        self.engine = None  # type: ignore[assignment]
        self.results = results  # type: ignore[assignment]
        self.flavors = list(dict.fromkeys(r.flavor for r in results))
        self.provenance = provenance
        self.source = source

    @property
    def runs(self) -> list[str]:
        return list(dict.fromkeys(r.run for r in self.results))

    @property
    def judged_queries(self) -> int:
        return int(self.results[0].counts.get("judged_queries", 0)) if self.results else 0

    def value(self, query: str, run: str | None = None, flavor: Flavor | str | None = None) -> float | None:
        rows = self.result(run, flavor).per_query()
        for row in rows:
            if row["query"] == query:
                return row["value"]
        from rankflavor.flavor.suggest import close, did_you_mean

        hint = did_you_mean(close(query.lower(), {row["query"].lower(): row["query"] for row in reversed(rows)}))
        raise KeyError(f"no judged query {query!r} in {self.source}{'; ' + hint if hint else ''}")

    def _needs_inputs(self, what: str) -> UsageError:
        inputs = ", ".join(f"{i.get('role')} {i.get('path') or i.get('name')}"
                           for i in self.provenance.get("inputs", []))
        return UsageError(f"{self.source}: a saved report holds the numbers, not the inputs, so it cannot {what}; "
                          f"evaluate the inputs again (rankflavor.evaluate(qrels, runs, flavors), or "
                          f"rankflavor.explain(qrels, run, query, flavor) for one record)"
                          + (f"; they were: {inputs}" if inputs else ""))

    def explain(self, run: str | None = None, query: str | None = None, flavor: Flavor | str | None = None) -> Any:
        raise self._needs_inputs("explain a query")

    def records(self, run: str, flavor: Flavor | str, queries: list[str] | None = None) -> Any:
        raise self._needs_inputs("give records")

    def verify(self) -> Any:
        raise self._needs_inputs("verify its values (each is recomputed from its record)")


def load(path: str | Path) -> SavedReport:
    """Read a report saved as JSON (`rankflavor eval --format json`, `Report.to_json`) back into a SavedReport.
    A missing file, a file that is not JSON, JSON of another shape or of a newer format version is an
    InputError naming the file, what is wrong and what to do."""
    from rankflavor.inputs.structured import load_json

    source = str(path)
    saved = load_json(path, f"load a report saved by {WRITERS}")  # (within the input and nesting caps, finite)
    results = checked_results(saved, source)
    return SavedReport(results, dict(saved.get("provenance") or {}), source)


def checked_results(saved: Any, source: str) -> list[SavedResult]:
    """The results of a saved report's JSON, its shape checked (what `load` and `eval --against` read): an
    InputError naming the key and the value that is not what rankflavor writes (a tampered or foreign file)."""
    _check_shape(saved, source)
    provenance = saved.get("provenance")
    inputs = provenance.get("inputs", []) if isinstance(provenance, dict) else None
    if provenance is not None and not (isinstance(inputs, list) and all(isinstance(i, dict) for i in inputs)):
        raise InputError(f"its 'provenance' is not an object with an 'inputs' list of objects (got {provenance!r:.80})",
                         source=source, fix=f"load a report saved by {WRITERS}")
    return [_result(item, i, source) for i, item in enumerate(saved["results"])]


def _check_shape(saved: Any, source: str) -> None:
    """A report's JSON: an object with a `results` list, of a format version this rankflavor reads."""
    if not isinstance(saved, dict) or not isinstance(saved.get("results"), list):
        keys = f"its keys: {', '.join(list(saved)[:8])}" if isinstance(saved, dict) else f"a JSON {type(saved).__name__}"
        if isinstance(saved, dict) and {"query", "ranked"} <= saved.keys():
            keys = "it is one record (rankflavor explain --format json)"
        raise InputError(f"JSON, but not a saved rankflavor report: no 'results' list ({keys})", source=source,
                         fix=f"load a report saved by {WRITERS}")
    version = saved.get("format_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise InputError(f"format_version {version!r} is not a format version (a whole number from 1)",
                         source=source, fix=f"load a report saved by {WRITERS}")
    if version > FORMAT_VERSION:
        from rankflavor.version import __version__

        raise InputError(f"written in format version {version} (by rankflavor {saved.get('version')}); this "
                         f"rankflavor ({__version__}) reads format versions up to {FORMAT_VERSION}", source=source,
                         fix="upgrade rankflavor (pip install -U rankflavor), or load it with the version that "
                             "wrote it")


def _result(item: Any, index: int, source: str) -> SavedResult:
    """One saved result, its flavor parsed back; a missing or mistyped key is an InputError naming it."""
    where = f"results[{index}]"
    if not isinstance(item, dict):
        raise InputError(f"{where} is a JSON {type(item).__name__}, not an object", source=source,
                         fix=f"load a report saved by {WRITERS}")
    for key, kinds in (("run", str), ("flavor", str), ("mean", (int, float, type(None))), ("counts", dict)):
        if not isinstance(item.get(key), kinds) or isinstance(item.get(key), bool):
            raise InputError(f"{where} has no {key!r} of the right type (got {item.get(key)!r})", source=source,
                             fix=f"load a report saved by {WRITERS}")
    from rankflavor.report.saved_fields import check_fields

    check_fields(item, where, source)  # (counts, warnings, per-query rows: typed and in range)
    labels = item.get("labels", [item.get("label", "")])
    if not (isinstance(labels, list) and all(isinstance(label, str) for label in labels)):
        key = "labels" if "labels" in item else "label"
        raise InputError(f"{where} has no {key!r} of the right type (got {item[key]!r})", source=source,
                         fix=f"load a report saved by {WRITERS}")
    try:
        flavor = Flavor.parse(item["flavor"])
    except SpecError as exc:
        raise InputError(f"{where}: its flavor does not parse here ({exc})", source=source, text=item["flavor"],
                         fix="load it with the rankflavor version that wrote it (a newer one may know more names)",
                         ) from None
    labels = item.get("labels") or [item.get("label") or flavor.short]
    texts = [str(w) for w in item.get("warnings", [])]
    details = item.get("warning_details", [])
    warnings: list[Any] = list(texts)
    if len(details) == len(texts):
        warnings = [FlavorWarning(d["code"], text, **{k: v for k, v in d.items() if k not in ("code", "message")})
                    if isinstance(d, dict) and "code" in d else text for d, text in zip(details, texts, strict=True)]
    return SavedResult(item["run"], flavor, list(labels), item["mean"], dict(item["counts"]), warnings, item, source)
