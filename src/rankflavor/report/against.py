"""A report against a saved one (`rankflavor eval ... --against saved.json`): the change of each mean, only
where the two are comparable, so that a "4-point improvement" measured under two flavors cannot slip through.

Results are matched by run and label (the name the user gave the flavor; a saved file without labels: by
run and flavor). It refuses, naming what differs: a label whose flavor changed (the axes, old -> new;
`allow_flavor_change` goes on, with a warning each), and a qrels whose sha256 changed. A different
rankflavor version is a warning (a preset's numbers may have been corrected since).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rankflavor.errors import InputError, UsageError
from rankflavor.flavor import Flavor


class AgainstError(UsageError):
    """The saved results cannot be compared with these (another qrels, another flavor under a label, a file that
    is not what rankflavor eval --format json writes): a usage error, exit 2."""


@dataclass
class Against:
    rows: list[dict[str, Any]]  # run, label, saved, mean, change
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "warnings": self.warnings}


def load_saved(path: str | Path) -> dict[str, Any]:
    from rankflavor.inputs.structured import load_json

    try:
        saved = load_json(path, "--against takes a file written by rankflavor eval --format json")
    except InputError as exc:
        if exc.reason == "file not found":
            raise AgainstError(f"{path}: file not found (--against takes a file written by rankflavor eval --format "
                               "json)") from None
        where = f"line {exc.line}: " if exc.line else ""
        cap = f"; {exc.fix}" if "cap" in exc.reason else ""  # (the input or nesting cap: the option that raises it)
        raise AgainstError(f"{path}: not the JSON of rankflavor eval --format json ({where}{exc.reason}){cap}") \
            from None
    from rankflavor.report.saved import checked_results

    try:
        checked_results(saved, str(path))  # (every key `against` reads, of the type rankflavor writes)
    except InputError as exc:
        raise AgainstError(f"{path}: not the JSON of rankflavor eval --format json: {exc.reason}") from None
    return saved


def _qrels_sha(provenance: dict[str, Any]) -> str | None:
    return next((i.get("sha256") for i in provenance.get("inputs", []) if i.get("role") == "qrels"), None)


def against(report: Any, saved: dict[str, Any], allow_flavor_change: bool = False) -> Against:
    """The change of every mean of `report` from the saved report's (see the module's docstring)."""
    from rankflavor.version import __version__

    out = Against([])
    mine, theirs = _qrels_sha(report.provenance), _qrels_sha(saved.get("provenance", {}))
    if mine is None and theirs is not None:
        raise AgainstError(f"the qrels read now have no sha256 (a Parquet file read by Spark is not hashed), so they "
                           f"cannot be checked to be the saved results' (sha256 {theirs}); give the qrels as a TREC "
                           "file, or evaluate on the local engine")
    if mine != theirs:
        raise AgainstError(f"the qrels differ: sha256 {theirs} in the saved results, {mine} now; a change of mean "
                           "over other judgments is no comparison")
    if saved.get("version") != __version__:
        out.warnings.append(f"the saved results are from rankflavor {saved.get('version')}, these from {__version__}: "
                            "a preset's numbers may have been corrected in between")
    by_label = {(r.get("run"), r.get("label", r.get("flavor"))): r for r in saved["results"]}
    matched = set()
    for result in report.results:
        key = (result.run, result.label) if (result.run, result.label) in by_label else (result.run, str(result.flavor))
        old = by_label.get(key)
        if old is None:
            out.rows.append({"run": result.run, "label": result.label, "saved": None, "mean": result.mean,
                             "change": None})
            out.warnings.append(f"{result.run} {result.label}: not in the saved results (saved and change null)")
            continue
        matched.add(key)
        changed = Flavor.parse(old["flavor"]).differences(result.flavor)
        if changed:
            what = ", ".join(f"{axis} {a} -> {b}" for axis, a, b in changed)
            if not allow_flavor_change:
                raise AgainstError(f"{result.run} {result.label}: the flavor changed since the saved results ({what}); "
                                   "the means are not comparable (--allow-flavor-change compares them anyway)")
            out.warnings.append(f"{result.run} {result.label}: compared across a change of flavor: {what}")
        delta = None if old.get("mean") is None or result.mean is None else result.mean - old["mean"]
        out.rows.append({"run": result.run, "label": result.label, "saved": old.get("mean"), "mean": result.mean,
                         "change": delta})
    for key in by_label.keys() - matched:
        out.warnings.append(f"{key[0]} {key[1]}: in the saved results only")
    if by_label and report.results and not matched:  # (a run renamed, or another file's results)
        runs = ", ".join(dict.fromkeys(str(run) for run, _ in by_label))
        labels = ", ".join(dict.fromkeys(str(label) for _, label in by_label))
        out.warnings.insert(0, f"no run and label of these results is in the saved results, which hold runs {runs} "
                               f"and labels {labels}: name the runs as they were saved (--name FILE=NAME)")
    return out
