"""PyTerrier's Experiment table from a Comparison: the columns `pt.Experiment(systems, topics, qrels, eval_metrics,
baseline=B, correction="holm")` returns (pyterrier 1.1.2, pyterrier/_evaluation/_rendering.py
RenderFromPerQuery.averages), each measure named by its label (the spec as written).

- `name`, then one column per measure: each run's mean (a count's sum: num_ret, num_rel, num_rel_ret, as PyTerrier
  sums NumRet, NumRel, NumRelRet, NumQ).
- With a baseline, after every measure's column, for each measure in turn: `<m> +` and `<m> -`, the queries where the
  run's value is greater / smaller than the baseline's (compared exactly, as `perQuery > baselinePerQuery`), `<m>
  p-value` (the comparison's paired test: PyTerrier's default is scipy's paired t-test, `compare(test="t")`), `<m>
  reject` and `<m> p-value corrected` (the comparison's declared correction, Holm by default, over the runs
  compared with the baseline, as statsmodels' multipletests(method="holm"); reject: corrected p below alpha).
  PyTerrier inserts the last two only when a correction is asked; rankflavor's comparison always declares one
  (correction=none: the p-value itself), so they are always there.
- The baseline's row: NaN in its `+`, `-`, p-value and corrected columns, False in `reject` (PyTerrier fills None,
  then np.insert(reject, baseline, False) and np.insert(corrected, baseline, nan)).

Where they differ: the means, `+`, `-` and tests are over the comparison's query set (compare/query_set.py: by
default the judged queries every run answers; `qrels` with missing=zero, as ir_measures' flavors have it, every
judged query), where PyTerrier averages each run over its own queries and pairs the baseline's; and where every
paired difference is 0, compare/stats.py's t_test gives p = 1 (no evidence) where scipy's ttest_rel gives NaN (0/0),
and where every difference is the same non-zero number, NaN where scipy gives 0 (t = inf).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from rankflavor.compare.corrections import NAMES as CORRECTION_NAMES
from rankflavor.compare.paper import TEST_NAMES, set_caption
from rankflavor.compare.query_set import set_values


def pyterrier_table(cmp: Any) -> pd.DataFrame:
    """pt.Experiment's averages table of a Comparison (rankflavor.compare.compare): one row per run."""
    flavors = [str(f) for f in cmp.flavors]
    labels = [cmp.labels.get(f, f) for f in flavors]
    means = {(row.run, row.flavor): (np.nan if row.mean is None else float(row.mean)) for row in cmp.means.itertuples()}
    frame = pd.DataFrame({"name": list(cmp.runs)})
    for flavor, label in zip(flavors, labels, strict=True):
        frame[label] = [means[(run, flavor)] for run in cmp.runs]
    frame.attrs["settings"] = cmp.settings.get("canonical", "")  # (the comparison's TestSettings, canonical)
    if cmp.baseline is None:
        return frame
    pairs = {(row.run_b, row.flavor): row for row in cmp.pairs.itertuples()}
    columns: dict[str, list[Any]] = {}
    for flavor, label, measure in zip(flavors, labels, cmp.flavors, strict=True):
        compared = set_values(cmp.scores, cmp.query_set, measure)
        base = compared[cmp.baseline]
        plus, minus, p, reject, corrected = [], [], [], [], []
        for run in cmp.runs:
            if run == cmp.baseline:
                plus.append(np.nan), minus.append(np.nan), p.append(np.nan), reject.append(False)
                corrected.append(np.nan)
                continue
            values = compared[run]
            both = ~np.isnan(values) & ~np.isnan(base)
            plus.append(float((values[both] > base[both]).sum()))
            minus.append(float((values[both] < base[both]).sum()))
            pair = pairs[(run, flavor)]
            p.append(float(pair.p)), reject.append(bool(pair.significant)), corrected.append(float(pair.p_adjusted))
        columns |= {f"{label} +": plus, f"{label} -": minus, f"{label} p-value": p, f"{label} reject": reject,
                    f"{label} p-value corrected": corrected}
    table = pd.concat([frame, pd.DataFrame(columns)], axis=1)
    table.attrs["settings"] = frame.attrs["settings"]
    return table


def note(cmp: Any) -> str:
    """What the table's columns mean, for a printed table."""
    if cmp.baseline is None:
        return (f"PyTerrier's Experiment columns: each run's mean per measure {set_caption(cmp)} (give --baseline for "
                "+, -, p-value).")
    test = {**TEST_NAMES, "t": "paired t-test (scipy.stats.ttest_rel)"}
    pairs = len(cmp.runs) - 1
    method = cmp.settings.get("correction_method", "holm")
    correction = ("the Tukey HSD test's own" if method == "none" and cmp.settings["test"] == "tukey"
                  else CORRECTION_NAMES[method])
    return (f"PyTerrier's Experiment columns against the baseline {cmp.baseline}: + / - the queries better / worse "
            f"than it; p-value: {test[cmp.settings['test']]}; means, +, - and tests {set_caption(cmp)}; p-value "
            f"corrected: {correction} over the {pairs} run{'s' if pairs > 1 else ''} compared with it; reject: "
            f"corrected p < {cmp.settings['alpha']:g}; settings: {cmp.settings.get('canonical', '')}.")


def to_text(frame: pd.DataFrame, digits: int = 4) -> str:
    """The table as plain text: means with `digits` decimals, counts as integers, p-values with 4 significant
    digits, NaN as PyTerrier's frame prints it."""
    def number(x: float) -> str:
        return "NaN" if x != x else f"{x:.{digits}f}"

    def count(x: float) -> str:
        return "NaN" if x != x else str(int(x))

    def p_value(x: float) -> str:
        return "NaN" if x != x else f"{x:.4g}"

    formats = {c: (count if c.endswith((" +", " -")) else p_value if c.endswith(("p-value", "p-value corrected"))
                   else str if c.endswith(" reject") else number) for c in frame.columns[1:]}
    rows = [list(frame.columns)] + [[str(row[0]), *(formats[c](v) for c, v in zip(frame.columns[1:], row[1:],
                                                                                    strict=True))]
                                    for row in frame.itertuples(index=False)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths,
                                                                                                  strict=True)))
             for r in rows]
    return "\n".join(lines) + "\n"
