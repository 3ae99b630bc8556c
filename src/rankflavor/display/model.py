"""What the page shows: the runs' scores under every flavor, the comparison of every pair (or each run against
each baseline) over one query set, and the queries it offers first; the data the page's script reads is
display/page_data.py's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rankflavor.compare.comparison import Comparison, compare_scores
from rankflavor.compare.grid import labelled_grid
from rankflavor.compare.scores import Scores
from rankflavor.compare.stats import TestSettings
from rankflavor.display.picks import Picks, pick_queries
from rankflavor.flavor import Flavor
from rankflavor.inputs.subtopics import as_subtopic_qrels


@dataclass
class PageModel:
    scores: Scores
    flavors: list[Flavor]
    labels: dict[str, str]  # canonical string -> label (the spec as written, or the short form)
    comparison: Comparison | None  # None with one run
    baseline: str | None  # the one baseline, if one was given
    command: str
    version: str
    skipped: list[tuple[str, str]] = field(default_factory=list)
    picks: Picks = field(default_factory=Picks)
    lists: dict[str, Any] = field(default_factory=dict)  # the side-by-side lists embedded (display/lists.py)

    @property
    def runs(self) -> list[str]:
        return self.scores.runs

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The pairs compared: every pair, or each run against each baseline."""
        if self.comparison is None:
            return []
        return list(dict.fromkeys(zip(self.comparison.pairs.run_a, self.comparison.pairs.run_b, strict=True)))

    def label(self, flavor: Flavor | str) -> str:
        return self.labels.get(str(flavor), flavor.short if isinstance(flavor, Flavor) else str(flavor))

    def query_mask(self) -> np.ndarray:
        """The comparison's query set over the judged queries (with one run: the queries it answers)."""
        if self.comparison is not None and self.comparison.query_set is not None:
            return self.comparison.query_set.mask
        judged = np.flatnonzero(self.scores.dataset.judged)
        return self.scores.dataset.run(self.runs[0]).present[judged]

    def flavor_mask(self, flavor: Flavor) -> np.ndarray:
        """The set's queries every run scores under `flavor` (those its means and tests are over)."""
        values = [self.scores.values(r, flavor) for r in self.runs]
        return self.query_mask() & np.logical_and.reduce([~np.isnan(v) for v in values])

    def set_caption(self) -> str:
        """The query set and its size, as every caption on the page says it."""
        if self.comparison is not None:
            from rankflavor.compare.paper import set_caption

            return set_caption(self.comparison)
        return f"over the {int(self.query_mask().sum())} judged queries {self.runs[0]} answers"

@dataclass
class WarningGroup:
    """The warnings of one kind: every row (run, label, flavor, code, message), the runs and flavors they
    concern (in order, once each)."""

    code: str
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def runs(self) -> list[str]:
        return list(dict.fromkeys(row["run"] for row in self.rows))

    @property
    def flavors(self) -> list[str]:
        """The canonical strings of the flavors concerned."""
        return list(dict.fromkeys(row["flavor"] for row in self.rows))


def build_model(qrels: Any, runs: Any, flavors: Any = None, *, grid: Any = None, cutoffs: list[int] | None = None,
                base: str = "ndcg", baseline: str | list[str] | None = None, command: str = "",
                on_duplicate: str = "error", settings: TestSettings | None = None, query_set: str = "common",
                unjudged_bounds: str | None = None) -> PageModel:
    """Evaluate the runs under the flavors (specs, or a grid as `compare` takes it; default the 'default' grid
    @10) and, with two runs or more, compare every pair (or each run with each baseline given) as `settings` says
    (default `TestSettings()`), over the query set `query_set` (compare/query_set.py); `unjudged_bounds`: a grade
    ("top" or a number) adds the bounds for unjudged documents (compare/unjudged_bounds.py)."""
    from rankflavor.version import __version__

    if isinstance(flavors, (str, Flavor)):
        flavors = [flavors]
    labelled, skipped = labelled_grid(flavors if flavors is not None else grid, cutoffs, base)
    chosen = list(labelled)
    scores = Scores.load(as_subtopic_qrels(qrels, [flavor.metric for flavor in chosen]), runs, on_duplicate)
    scores.evaluate_all(chosen)
    labels = {str(f): label for f, label in labelled.items()}
    comparison = None
    if len(scores.runs) >= 2:
        comparison = compare_scores(scores, chosen, baseline=baseline, settings=settings, skipped=skipped,
                                    labels=labelled, query_set=query_set)
        chosen, skipped, baseline = list(comparison.flavors), list(comparison.skipped), comparison.baseline
        if unjudged_bounds is not None:
            from rankflavor.compare.unjudged_bounds import add_unjudged_bounds

            add_unjudged_bounds(comparison, unjudged_bounds)
    model = PageModel(scores, chosen, labels, comparison, baseline if isinstance(baseline, str) else None, command,
                      __version__, skipped)
    values = {(r, f): scores.values(r, f) for r in scores.runs for f in chosen}
    model.picks = pick_queries(values, scores.runs, chosen, model.pairs, model.query_mask())
    from rankflavor.display.lists import side_lists

    model.lists = side_lists(model)
    return model
