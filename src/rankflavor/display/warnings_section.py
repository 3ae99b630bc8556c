"""The page's warnings, over the comparison's query set like every other number of the page: per run and flavor,
how many of the set's queries have tied scores across the cutoff (and the set's mean between the pessimistic and
the optimistic tie order), unjudged documents in the top k (judged@k over the set, and the set's mean with
unjudged=skip), a zero ideal, or are lacked by the run; the input warnings (about the files, not the means) above.
`rankflavor eval` prints the same warnings over each run's own queries."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rankflavor.compare.query_set import set_mean
from rankflavor.display.model import PageModel
from rankflavor.display.sections import _e, flavor_name
from rankflavor.display.text import html_text as _t
from rankflavor.display.text import needs_isolation
from rankflavor.engine import ZERO_IDEAL
from rankflavor.errors import RankflavorError
from rankflavor.flavor import Flavor

KIND_NAMES = {"ties_across_cutoff": "ties across @k", "unjudged_in_top": "unjudged in top k",
              "zero_ideal": "zero ideal", "missing": "missing queries"}


@dataclass
class SetWarning:
    run: str
    flavor: str  # canonical string
    code: str
    message: str


def _mean_as(model: PageModel, run: str, flavor: Flavor, other: dict[str, str], mask: np.ndarray) -> float | None:
    """The run's mean over `mask` of its values under `flavor` changed on the axes `other` (None if refused)."""
    try:
        changed = flavor.with_(**other)
        raw = model.scores.values(run, changed)
    except RankflavorError:
        return None
    return set_mean(model.scores, run, flavor, np.where(mask, raw, np.nan))


def _fmt(x: float | None) -> str:
    return "null" if x is None or x != x else f"{x:.4f}"


def set_warnings(model: PageModel) -> list[SetWarning]:
    """Each warning of each run and flavor, counted over the query set."""
    out = []
    in_set, size = model.query_mask(), int(model.query_mask().sum())

    def of(n: int, verb: str) -> str:  # '3 of the 114 queries of the set have'
        return f"{n} of the {size} queries of the set {verb if n == 1 else {'has': 'have', 'is': 'are'}[verb]}"

    for f in model.flavors:
        mask = model.flavor_mask(f)
        k = f"@{f.cutoff}" if f.cutoff is not None else ""
        for run in model.runs:
            q = model.scores.result(run, f).queries
            tied = int((q.ties_straddle & mask).sum())
            if tied:
                low = _mean_as(model, run, f, {"ties": "pessimistic"}, mask)
                high = _mean_as(model, run, f, {"ties": "optimistic"}, mask)
                out.append(SetWarning(run, str(f), "ties_across_cutoff",
                                      f"{of(tied, 'has')} tied scores across the cutoff{k}: the set's mean is "
                                      f"{_fmt(low)} to {_fmt(high)} by the tie order"))
            unjudged = int(((q.unjudged_in_top > 0) & mask).sum())
            if unjudged:
                shares = q.judged_in_top[mask]
                shares = shares[~np.isnan(shares)]
                skip = _mean_as(model, run, f, {"unjudged": "skip"}, mask) if f.unjudged != "skip" else None
                out.append(SetWarning(run, str(f), "unjudged_in_top",
                                      f"{of(unjudged, 'has')} unjudged documents in the top{k}: judged{k} "
                                      f"{_fmt(float(shares.mean()) if len(shares) else None)}"
                                      + ("" if skip is None else f"; the set's mean with unjudged=skip {_fmt(skip)}")))
            zero = int(((q.status == ZERO_IDEAL) & in_set).sum())
            if zero:
                out.append(SetWarning(run, str(f), "zero_ideal", f"{of(zero, 'has')} a zero ideal (empty={f.empty})"))
            lacking = int((~model.scores.dataset.run(run).present[np.flatnonzero(model.scores.dataset.judged)]
                           & in_set).sum())
            if lacking:
                out.append(SetWarning(run, str(f), "missing", f"{of(lacking, 'is')} lacked by {run}, counted as "
                                      f"missing={f.missing} says"))
    return out


def _some(names: list[str], total: int, shown: int = 6) -> str:
    """'all 4: a, b, c, d' or '2 of 4: a, b', the first `shown` names (already HTML) and how many more."""
    more = f" <span class=\"muted\">+{len(names) - shown} more</span>" if len(names) > shown else ""
    count = f"all {total}" if len(names) == total and total > 1 else f"{len(names)} of {total}"
    return f'<span class="muted">{count}:</span> {", ".join(names[:shown])}{more}'


def _quoted(model: PageModel) -> list[str]:
    """The names a message may quote that need isolating on their own (html_text): runs, right-to-left ids."""
    return [*model.runs, *(q for q in map(str, model.scores.query_ids.tolist()) if needs_isolation(q))]


def warnings(model: PageModel) -> str:
    """The input warnings, then the flavors' warnings over the set, one row per kind: the kind, how many, the runs
    and flavors concerned, one example, and the whole list (run, flavor, message) behind a <details>."""
    names = _quoted(model)
    inputs = model.scores.provenance.get("input_warnings", [])
    out = []
    if inputs:
        messages = (w.get("message", w) if isinstance(w, dict) else w for w in inputs)
        out.append('<ul class="input-warnings">' + "".join(f"<li>{_t(m, names)}</li>" for m in messages) + "</ul>")
    groups: dict[str, list[SetWarning]] = {}
    for w in set_warnings(model):
        groups.setdefault(w.code, []).append(w)
    if not groups:
        out.append('<p class="ok-line">No warning over the set: no tie across a cutoff, no unjudged document in the '
                   "top k, no zero-ideal or missing query.</p>")
        return "".join(out)
    body = []
    for code, rows in groups.items():
        runs = _some([_t(r) for r in dict.fromkeys(w.run for w in rows)], len(model.runs))
        flavors = _some([flavor_name(model, f) for f in dict.fromkeys(w.flavor for w in rows)], len(model.flavors))
        every = "".join(f"<tr><td>{_t(w.run)}</td><td>{flavor_name(model, w.flavor)}</td><td>{_t(w.message, names)}"
                        "</td></tr>" for w in rows)
        listing = (f'<details><summary>all {len(rows)} warnings</summary><div class="scroll">'
                   '<table class="warning-list"><thead><tr><th>run</th><th>flavor</th><th>message</th></tr>'
                   f"</thead><tbody>{every}</tbody></table></div></details>") if len(rows) > 1 else ""
        first = rows[0]
        body.append(f'<tr data-code="{_e(code)}"><td data-label="kind"><span class="badge warn">'
                    f'{_t(KIND_NAMES.get(code, code))}</span></td><td class="num" data-label="count">{len(rows)}</td>'
                    f'<td data-label="runs">{runs}</td><td data-label="flavors">{flavors}</td><td data-label="example">'
                    f'<b>{_t(first.run)}</b> under {flavor_name(model, first.flavor)}: {_t(first.message, names)}'
                    f"{listing}</td></tr>")
    out.append('<table class="warnings"><thead><tr><th>kind</th><th class="num">count</th><th>runs</th>'
               f'<th>flavors</th><th>example</th></tr></thead><tbody>{"".join(body)}</tbody></table>'
               f'<p class="note">Counted over the query set; <code>rankflavor eval</code> prints the same warnings '
               "over each run's own queries.</p>")
    return "".join(out)
