"""The systems x measures table of an IR paper, from a Comparison: each run's mean under each measure, marked
where its paired test against another run is significant (after the declared correction, as `compare` makes it),
with the interval of each mean (t or bootstrap, as declared: compare/effects.py).

With a baseline (`compare --baseline RUN`), a run's cell is marked ▲ when it is significantly better than
the baseline and ▼ when significantly worse (marks as many IR papers print them; PyTerrier's Experiment has
columns instead: compare/pyterrier.py). Without one, each run gets a letter and a cell carries the letters of
the runs it is significantly better than (ranx's report convention). The best mean of each measure is in bold
(Markdown, LaTeX). With several baselines (`--baseline A --baseline B`) the letters mark the runs beaten among
the pairs tested (each run against each baseline). Rendered as plain text, Markdown or LaTeX (booktabs), each
with a note saying what the marks mean: the test, alpha, the correction, the intervals, the query set, and the
comparison's settings as their canonical string (`TestSettings`, with the seed and the resample count).
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

BETTER, WORSE = "▲", "▼"
STYLES = ("text", "markdown", "latex")
BOLD = " Bold: the best mean of each measure, significant or not."  # (Markdown and LaTeX set it in bold)
TEST_NAMES = {"randomization": "paired randomization test", "t": "paired t-test",
              "wilcoxon": "Wilcoxon signed-rank test", "sign": "sign test", "tukey": "randomised Tukey HSD test"}
CORRECTION_PHRASES = {"holm": "Holm's correction", "bonferroni": "Bonferroni's correction",
                      "bh": "the Benjamini-Hochberg correction (false discovery rate)"}


@dataclass
class PaperTable:
    """runs x measures: means, and per cell the runs it is significantly better / worse than."""

    runs: list[str]
    measures: list[str]  # the measures' labels (the specs as written)
    flavors: list[str]  # their canonical strings, aligned with `measures`
    means: dict[tuple[str, str], float | None]  # (run, measure) -> mean
    better: dict[tuple[str, str], list[str]]  # (run, measure) -> the runs it is significantly better than
    worse: dict[tuple[str, str], list[str]]
    baseline: str | None
    note: str
    letters: dict[str, str] = field(default_factory=dict)  # run -> its letter (no baseline)
    digits: int = 4
    query_set: dict[str, Any] | None = None  # the comparison's query set (QuerySet.to_dict)
    intervals: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)  # (run, measure) -> CI
    settings: str = ""  # the comparison's TestSettings, canonical

    def interval(self, run: str, measure: str) -> str:
        """The cell's interval, `[low, high]` ("" when unknown)."""
        low, high = self.intervals.get((run, measure), (None, None))
        if low is None or high is None or low != low or high != high:
            return ""
        return f"[{low:.{self.digits}f}, {high:.{self.digits}f}]"

    def marks(self, run: str, measure: str) -> str:
        """The cell's significance marks: ▲/▼ against the baseline, else the letters of the runs it beats."""
        key = (run, measure)
        if self.baseline is not None:  # (the baseline's own row is unmarked)
            return BETTER if self.baseline in self.better[key] else WORSE if self.baseline in self.worse[key] else ""
        return "".join(sorted(self.letters[r] for r in self.better[key]))

    def best(self, measure: str) -> float | None:
        values = [v for r in self.runs if (v := self.means[(r, measure)]) is not None]
        return max(values) if values else None

    def cell(self, run: str, measure: str) -> str:
        value = self.means[(run, measure)]
        return "null" if value is None else f"{value:.{self.digits}f}"

    def run_name(self, run: str) -> str:
        if self.baseline is not None:
            return f"{run} (baseline)" if run == self.baseline else run
        return f"({self.letters[run]}) {run}"

    # ---- renderings -------------------------------------------------------------------------------------
    def render(self, style: str = "text") -> str:
        if style not in STYLES:
            raise ValueError(f"table style must be one of {', '.join(STYLES)}, not {style!r}")
        return {"text": self.to_text, "markdown": self.to_markdown, "latex": self.to_latex}[style]()

    def to_text(self) -> str:
        rows = [["run", *self.measures]]
        rows += [[self.run_name(r), *(" ".join(x for x in (self.cell(r, m), self.marks(r, m), self.interval(r, m))
                                                   if x) for m in self.measures)]
                 for r in self.runs]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
        return "\n".join([lines[0], "  ".join("-" * w for w in widths), *lines[1:], "", self.note]) + "\n"

    def to_markdown(self) -> str:
        def cell(r: str, m: str) -> str:
            text = self.cell(r, m)
            if self.means[(r, m)] is not None and self.means[(r, m)] == self.best(m):
                text = f"**{text}**"
            marks, interval = self.marks(r, m), self.interval(r, m)
            return text + (f"<sup>{marks}</sup>" if marks else "") + (f" {interval}" if interval else "")

        lines = ["| run | " + " | ".join(_md(m) for m in self.measures) + " |",
                 "|---|" + "---:|" * len(self.measures)]
        lines += ["| " + _md(self.run_name(r)) + " | " + " | ".join(cell(r, m) for m in self.measures) + " |"
                  for r in self.runs]
        return "\n".join([*lines, "", self.note + BOLD]) + "\n"

    def to_latex(self) -> str:
        def cell(r: str, m: str) -> str:
            text = self.cell(r, m)
            if self.means[(r, m)] is not None and self.means[(r, m)] == self.best(m):
                text = f"\\textbf{{{text}}}"
            marks = self.marks(r, m).replace(BETTER, "$\\blacktriangle$").replace(WORSE, "$\\blacktriangledown$")
            interval = self.interval(r, m)
            return (text + (f"\\textsuperscript{{{marks}}}" if marks else "")
                    + (f" {{\\scriptsize {interval}}}" if interval else ""))

        head = " & ".join(["Run", *(_tex(m) for m in self.measures)])
        body = [" & ".join([_tex(self.run_name(r)), *(cell(r, m) for m in self.measures)]) + " \\\\" for r in self.runs]
        note = "$\\blacktriangledown$".join("$\\blacktriangle$".join(_tex(part) for part in piece.split(BETTER))
                                           for piece in (self.note + BOLD).split(WORSE))
        return "\n".join([
            "% needs \\usepackage{booktabs,amssymb}",
            "\\begin{table}", "\\centering", f"\\begin{{tabular}}{{l{'r' * len(self.measures)}}}", "\\toprule",
            head + " \\\\", "\\midrule", *body, "\\bottomrule", "\\end{tabular}", f"\\caption{{{note}}}",
            "\\end{table}"]) + "\n"

    def to_frame(self) -> pd.DataFrame:
        """One row per run x measure: mean, marks, the runs it is significantly better and worse than."""
        frame = pd.DataFrame([{"run": r, "measure": m, "flavor": f, "mean": self.means[(r, m)],
                               "ci_low": self.intervals.get((r, m), (None, None))[0],
                               "ci_high": self.intervals.get((r, m), (None, None))[1],
                               "marks": self.marks(r, m), "better_than": list(self.better[(r, m)]),
                               "worse_than": list(self.worse[(r, m)])}
                              for r in self.runs for m, f in zip(self.measures, self.flavors, strict=True)])
        frame.attrs["settings"] = self.settings
        return frame

    def to_dict(self) -> dict[str, Any]:
        return {"runs": self.runs, "measures": self.measures, "flavors": self.flavors, "baseline": self.baseline,
                "letters": self.letters, "note": self.note, "query_set": self.query_set, "settings": self.settings,
                "cells": self.to_frame().replace({np.nan: None}).to_dict(orient="records")}


def _md(text: str) -> str:
    return text.replace("|", "\\|")


# LaTeX's special characters in text, each replaced once (one pass: the braces of \textbackslash{} stay braces)
_TEX = str.maketrans({"\\": "\\textbackslash{}", "&": "\\&", "%": "\\%", "$": "\\$", "#": "\\#", "_": "\\_",
                      "{": "\\{", "}": "\\}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}"})


def _tex(text: str) -> str:
    return text.translate(_TEX)


def paper_table(cmp: Any, digits: int = 4) -> PaperTable:
    """The systems x measures table of a Comparison (rankflavor.compare.compare): its means, and its pairs'
    significance (p_holm < alpha) as marks."""
    flavors = [str(f) for f in cmp.flavors]
    labels = [cmp.labels.get(f, f) for f in flavors]
    means = {(row.run, cmp.labels.get(row.flavor, row.flavor)): (None if row.mean is None or row.mean != row.mean
                                                                   else float(row.mean))
             for row in cmp.means.itertuples()}
    better: dict[tuple[str, str], list[str]] = {(r, m): [] for r in cmp.runs for m in labels}
    worse: dict[tuple[str, str], list[str]] = {(r, m): [] for r in cmp.runs for m in labels}
    for row in cmp.pairs.itertuples():
        winner = significant_winner(row)
        if winner is None:
            continue
        measure = cmp.labels.get(row.flavor, row.flavor)
        loser = row.run_b if winner == row.run_a else row.run_a
        better[(winner, measure)].append(loser)
        worse[(loser, measure)].append(winner)
    settings = cmp.settings
    baseline = cmp.baseline
    where = f"{method_caption(cmp)}; means and tests {set_caption(cmp)}" + disagreement_note(cmp)
    intervals = {(row.run, cmp.labels.get(row.flavor, row.flavor)): (row.ci_low, row.ci_high)
                 for row in cmp.means.itertuples()} if "ci_low" in cmp.means else {}
    if intervals:
        kind = "percentile bootstrap" if settings.get("ci") == "paired percentile bootstrap" else "t"
        where += f"; [low, high]: the {settings['confidence'] * 100:g}% {kind} interval of each mean"
    if "canonical" in settings:
        where += f"; settings: {settings['canonical']}"
    if baseline is not None:
        note = f"{BETTER} / {WORSE}: significantly better / worse than {baseline} ({where})."
        letters: dict[str, str] = {}
    else:
        letters = {run: _letter(i) for i, run in enumerate(cmp.runs)}
        tested = getattr(cmp, "baselines", [])
        among = f" (tested against the baselines {', '.join(tested)} only)" if tested else ""
        note = f"A letter marks a significant improvement over the run with that letter{among} ({where})."
    query_set = None if cmp.query_set is None else cmp.query_set.to_dict()
    return PaperTable(list(cmp.runs), labels, flavors, means, better, worse, baseline, note, letters, digits, query_set,
                      intervals, settings.get("canonical", ""))


def significant_winner(row: Any) -> str | None:
    """The run a pairs row finds significantly better (its test significant, its statistic and the mean favouring
    it: compare/pair_tests.py), else None."""
    winner = getattr(row, "significant_winner", None)
    if "finding" not in getattr(row, "_fields", ()):  # (a table made before findings: significance and the mean)
        winner = row.winner if row.significant and row.winner in (row.run_a, row.run_b) else None
    return winner if isinstance(winner, str) else None


def disagreement_note(cmp: Any) -> str:
    """Where the test is significant but favours the run with the lower mean: unmarked, and said."""
    pairs = cmp.pairs
    if "finding" not in pairs:
        return ""
    rows = pairs[pairs.finding == "mean and test disagree"]
    if rows.empty:
        return ""
    row = rows.iloc[0]
    more = f" (and {len(rows) - 1} more)" if len(rows) > 1 else ""
    return (f"; not marked: under {row.label}, the test is significant for {row.favours} against "
            f"{row.run_b if row.favours == row.run_a else row.run_a} while the mean favours {row.winner}{more}: mean "
            "and test disagree")


def method_caption(cmp: Any) -> str:
    """The test, alpha and the correction of a comparison's marks, as a caption says them."""
    settings = cmp.settings
    per_measure = len(cmp.pairs) // max(len(cmp.flavors), 1)
    method = settings.get("correction_method", "holm")
    if settings["test"] == "tukey":
        correction = f" (family-wise over all {len(cmp.runs)} runs' pairs of each measure, no further correction)"
    elif method == "none" or per_measure <= 1:
        correction = (", uncorrected (one comparison per measure)" if per_measure <= 1
                      else f", uncorrected over the {per_measure} comparisons of each measure")
    else:
        correction = f" after {CORRECTION_PHRASES[method]} over the {per_measure} comparisons of each measure"
    return f"{TEST_NAMES[settings['test']]}, p < {settings['alpha']:g}{correction}"


def set_caption(cmp: Any) -> str:
    """The comparison's query set and its size, and the flavors that leave some of its queries out (empty=skip)."""
    qs = cmp.query_set
    if qs is None:
        return "over the queries scored in both runs"
    fewer = {row.label: int(row.n) for row in cmp.means.itertuples() if row.n < qs.size}
    less = "; ".join(f"{label}: {n} of them scored in every run" for label, n in fewer.items())
    return qs.describe() + (f" ({less})" if less else "")


def _letter(i: int) -> str:
    letters = string.ascii_lowercase
    return letters[i] if i < len(letters) else letters[i // len(letters) - 1] + letters[i % len(letters)]
