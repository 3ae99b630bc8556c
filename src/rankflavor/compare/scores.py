"""Per-query scores of several runs under several flavors, evaluated once each and cached."""

from __future__ import annotations

import shlex
from typing import Any

import numpy as np

from rankflavor.engine import Engine
from rankflavor.flavor import Flavor
from rankflavor.inputs.dataset import Dataset
from rankflavor.report.averages import averaging_for
from rankflavor.report.result import Result
from rankflavor.report.warnings import Cache, FlavorWarning, warnings_for


class Scores:
    """A dataset, its runs, and a cache of (run, flavor) -> Result (with warnings on demand)."""

    def __init__(self, dataset: Dataset, provenance: dict[str, Any] | None = None) -> None:
        self.dataset = dataset
        self.engine = Engine(dataset)
        self.provenance = provenance or {}
        self._results: dict[tuple[str, Flavor], Result] = {}
        self._warned: set[tuple[str, Flavor]] = set()
        self._values = Cache()  # raw values by run and flavor, shared with warnings_for

    @classmethod
    def load(cls, qrels: Any, runs: Any, on_duplicate: str = "error") -> Scores:
        from rankflavor.inputs.pipeline import prepare

        return cls(*prepare(qrels, runs, on_duplicate))

    @property
    def runs(self) -> list[str]:
        return [r.name for r in self.dataset.runs]

    def result(self, run: str, flavor: Flavor) -> Result:
        key = (run, flavor)
        if key not in self._results:
            interned = self.dataset.run(run)
            res = self.engine.evaluate(interned, [flavor])[0].results
            unjudged = int((interned.present & ~self.dataset.judged).sum())
            self._results[key] = Result(run, flavor, res, self.dataset.query_ids, unjudged,
                                        averaging=averaging_for(self.dataset, interned, flavor))
            self._values.put(interned, flavor, res.raw_value)
        return self._results[key]

    def evaluate_all(self, flavors: list[Flavor]) -> None:
        """Evaluate every run under all `flavors` at once (a large run's chunks then serve every flavor); a run
        that some flavor refuses is left to `result`, one flavor at a time, which raises for that flavor only."""
        from rankflavor.errors import RankflavorError

        for run in self.runs:
            wanted = [f for f in dict.fromkeys(flavors) if (run, f) not in self._results]
            interned = self.dataset.run(run)
            try:
                evaluations = self.engine.evaluate(interned, wanted) if wanted else []
            except RankflavorError:
                continue
            unjudged = int((interned.present & ~self.dataset.judged).sum())
            for flavor, evaluation in zip(wanted, evaluations, strict=True):
                res = evaluation.results
                self._results[(run, flavor)] = Result(run, flavor, res, self.dataset.query_ids, unjudged,
                                                      averaging=averaging_for(self.dataset, interned, flavor))
                self._values.put(interned, flavor, res.raw_value)

    def warnings(self, run: str, flavor: Flavor) -> list[FlavorWarning]:
        result = self.result(run, flavor)
        if (run, flavor) not in self._warned:
            result.warnings = warnings_for(result, flavor, self.engine, self.dataset.run(run), self._values)  # type: ignore[assignment]
            self._warned.add((run, flavor))
        return result.warnings  # type: ignore[return-value]

    def values(self, run: str, flavor: Flavor) -> np.ndarray:
        """Unrounded per-query values over the judged queries (NaN = excluded), in `query_ids` order."""
        return self.result(run, flavor).queries.raw_value

    def cached_values(self, run: str, flavor: Flavor) -> np.ndarray | None:
        """The raw per-query values of `flavor` if an evaluation or a warning already made them (the warnings'
        ties=pessimistic and ties=optimistic ones), else None."""
        return self._values.get(self.dataset.run(run), flavor)

    def mean(self, run: str, flavor: Flavor) -> float | None:
        return self.result(run, flavor).mean

    @property
    def query_ids(self) -> np.ndarray:
        """Ids of the judged queries, aligned with `values`."""
        return self.dataset.query_ids[np.flatnonzero(self.dataset.judged)]

    def _path(self, role: str, name: str) -> str:
        for item in self.provenance.get("inputs", []):
            if item["role"] == role and (role == "qrels" or item["name"] == name):
                return item.get("path") or ("QRELS" if role == "qrels" else name)
        return "QRELS" if role == "qrels" else name

    def explain_command(self, run: str, query: str, flavor: Flavor) -> str:
        """The `rankflavor explain` command line that prints the record behind this value."""
        return " ".join(["rankflavor", "explain", shlex.quote(self._path("qrels", "")), shlex.quote(self._path("run", run)),
                         "-q", shlex.quote(str(query)), "-m", shlex.quote(spec_of(flavor))])


def spec_of(flavor: Flavor) -> str:
    """The shortest spec that parses back to `flavor`: its head and the axes that differ from the default."""
    from rankflavor.compare.grid import short_label

    short = short_label(flavor)
    try:
        return short if Flavor.parse(short) == flavor else str(flavor)
    except Exception:  # a label that does not parse: the canonical string always does
        return str(flavor)
