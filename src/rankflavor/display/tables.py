"""The page's tables, every number over the comparison's query set: the systems x measures table (compare's paper
table, with each mean's interval), one card per pair (each flavor's means, Δ = a − b with its interval, the
corrected p, the finding, and the unjudged interval of the same a − b; the pair's charts beside), and the flavor
sensitivity table (each flavor's means, its highest, and per pair the difference, starred where significant and
tagged where the significant winner reverses); then the flips (compare/verdicts.py)."""

from __future__ import annotations

from typing import Any

from rankflavor.compare.pair_tests import finding_text
from rankflavor.compare.paper import BETTER, WORSE, significant_winner
from rankflavor.compare.verdicts import measure_of
from rankflavor.display.model import PageModel
from rankflavor.display.sections import KINDS, _e, _f, flavor_name
from rankflavor.display.text import html_text as _t
from rankflavor.escape import html_key


def _mean(model: PageModel, run: str, flavor: Any) -> float | None:
    """The mean a page's table prints: over the comparison's query set (each run's own mean with one run)."""
    if model.comparison is None:
        return model.scores.mean(run, flavor)
    means = model.comparison.means
    value = means[(means.run == run) & (means.flavor == str(flavor))]["mean"].iloc[0]
    return None if value is None or value != value else float(value)


def _scroll(table: str) -> str:
    """A table in a box that scrolls sideways, its first column kept in view (page.js marks a box that overflows:
    a shadow at the hidden edge and a 'scroll' hint)."""
    return f'<div class="scroll">{table}</div>'


def paper_table(model: PageModel) -> str:
    """Runs x measures: the mean with its interval, and the marks of the declared test (letters, or ▲/▼ against
    the one baseline)."""
    flavors = [str(f) for f in model.flavors]
    head = "".join(f"<th>{flavor_name(model, f)}</th>" for f in flavors)
    if model.comparison is None:
        body = "".join(f"<tr><th>{_t(r)}</th>" + "".join(f'<td class="num">{_f(model.scores.mean(r, f))}</td>'
                                                          for f in model.flavors) + "</tr>" for r in model.runs)
        return (_scroll(f'<table class="paper"><thead><tr><th>run</th>{head}</tr></thead><tbody>{body}</tbody></table>')
                + f'<p class="note">Each mean {_t(model.set_caption(), model.runs)}.</p>')
    table = model.comparison.paper_table()
    rows = []
    for run in table.runs:
        cells = []
        for measure in table.measures:
            mean = table.means[(run, measure)]
            best = mean is not None and mean == table.best(measure)
            marks = table.marks(run, measure)
            mark = (f'<span class="mark {"up" if marks == BETTER else "down" if marks == WORSE else ""}">{_t(marks)}'
                    "</span>") if marks else ""
            interval = table.interval(run, measure)
            ci = f'<div class="ci"><span>{_t(interval)}</span></div>' if interval else ""
            cells.append(f'<td class="num{" best" if best else ""}">{_f(mean)}{mark}{ci}</td>')
        rows.append(f"<tr><th>{_t(table.run_name(run))}</th>{''.join(cells)}</tr>")
    return (_scroll(f'<table class="paper"><thead><tr><th>run</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
                    "</table>")
            + f'<p class="note">{_t(table.note, model.runs)} Bold: the highest mean of each measure, significant or '
            "not.</p>")


def _pair_rows(model: PageModel, a: str, b: str) -> list[Any]:
    pairs = model.comparison.pairs  # type: ignore[union-attr]
    return list(pairs[(pairs.run_a == a) & (pairs.run_b == b)].itertuples())


def pair_cards(model: PageModel) -> str:
    """One card per pair: its verdict, each flavor's row, and its charts (drawn by charts.js under the chosen
    flavor)."""
    cmp = model.comparison
    if cmp is None:
        return ""
    bounds = "unjudged_low" in cmp.pairs
    level = f"{cmp.settings['confidence'] * 100:g}%"
    p_name = "p_" + cmp.settings.get("correction_method", "holm")
    cards = []
    for v in cmp.verdicts.itertuples():
        a, b = v.run_a, v.run_b
        head = (f"<tr><th>flavor</th><th>finding</th><th>Δ {_t(a)} − {_t(b)} [{level}]</th><th>{p_name}</th>"
                + (f"<th>unjudged: {_t(a)} − {_t(b)}</th>" if bounds else "") + f"<th>{_t(a)}</th><th>{_t(b)}</th></tr>")
        body = []
        for r in _pair_rows(model, a, b):
            cls = "pos" if r.diff > 0 else "neg" if r.diff < 0 else ""
            unjudged = (f'<td class="num">[{_f(r.unjudged_low, signed=True)}, {_f(r.unjudged_high, signed=True)}] '
                        f"{_t(r.unjudged_verdict)}</td>" if bounds else "")
            body.append(f"<tr><th>{flavor_name(model, r.flavor)}</th><td>{_t(finding_text(r))}</td>"
                        f'<td class="num {cls}">{_f(r.diff, signed=True)} '
                        f'<span class="ci">[{_f(r.ci_low, signed=True)}, {_f(r.ci_high, signed=True)}]</span></td>'
                        f'<td class="num">{r.p_adjusted:.3g}{"*" if r.significant else ""}</td>{unjudged}'
                        f'<td class="num">{_f(r.mean_a)}</td><td class="num">{_f(r.mean_b)}</td></tr>')
        charts = "".join(f'<figure class="chart-box"><figcaption data-caption="{kind}"></figcaption><div class="chart" '
                         f'data-chart="{kind}" data-a="{html_key(a)}" data-b="{html_key(b)}"></div></figure>'
                         for kind in ("diff", "scatter"))
        cards.append(f'<div class="pair" data-a="{html_key(a)}" data-b="{html_key(b)}"><h3><span class="badge '
                     f'{KINDS.get(v.verdict, "muted")}">{_t(v.verdict)}</span> {_t(a)} vs {_t(b)}</h3>'
                     f'<p class="pair-verdict">{_t(v.summary.split(": ", 1)[-1], model.runs)}</p>'
                     + _scroll(f'<table class="pair-table"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>')
                     + f'<div class="pair-charts">{charts}</div></div>')
    return ("".join(cards) + f'<p class="note">Δ: the mean paired difference, {_t(model.set_caption(), model.runs)}; '
            f"[ ]: its {_t(cmp.settings.get('interval_coverage', ''))}. * the corrected p below alpha. Click a point "
            "of a scatter plot to see the query's two lists side by side.</p>")


def sensitivity(model: PageModel) -> str:
    """Flavors x runs: each mean, the highest; per pair, the difference of the means, * where the declared test
    finds a run significantly better (compare/pair_tests.py), tagged where the pair's significant winner differs
    under another flavor of the measure (a reversal); then the flips."""
    cmp = model.comparison
    runs, pairs = model.runs, model.pairs
    reversing = set() if cmp is None else {(m.run_a, m.run_b, m.measure) for m in cmp.measures.itertuples()
                                           if m.verdict == "reverses"}
    rows_by = {} if cmp is None else {(r.run_a, r.run_b, r.flavor): r for r in cmp.pairs.itertuples()}
    head = "".join(f"<th>{_t(r)}</th>" for r in runs) + "<th>highest mean</th>"
    head += "".join(f"<th>{_t(a)} − {_t(b)}</th>" for a, b in pairs)
    body = []
    for f in model.flavors:
        means = {r: _mean(model, r, f) for r in runs}
        known = {r: m for r, m in means.items() if m is not None}
        top = max(known.values()) if known else None
        winners = [r for r, m in known.items() if m == top]
        cells = "".join(f'<td class="num{" best" if r in winners and len(runs) > 1 else ""}">{_f(means[r])}</td>'
                        for r in runs)
        cells += f"<td>{', '.join(map(_t, winners)) if len(winners) < len(runs) or len(runs) == 1 else 'tie'}</td>"
        flipped = False
        for a, b in pairs:
            row = rows_by.get((a, b, str(f)))
            winner = None if row is None else significant_winner(row)
            reverse = winner is not None and (a, b, measure_of(f)) in reversing
            flipped |= reverse
            delta = None if means[a] is None or means[b] is None else means[a] - means[b]
            cls = "" if delta is None else "pos" if delta > 0 else "neg" if delta < 0 else ""
            cells += (f'<td class="num {cls}">{_f(delta, signed=True)}{"<span class=mark>*</span>" if winner else ""}'
                      + ('<span class="tag">reverses</span>' if reverse else "") + "</td>")
        body.append(f'<tr class="{"reversal" if flipped else ""}"><th>{flavor_name(model, str(f))}</th>{cells}</tr>')
    rule = "" if cmp is None else _e(_significant(cmp.settings))
    table = (_scroll(f'<table class="sens"><thead><tr><th>flavor</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
                     "</table>")
             + '<p class="note">Bold: the highest mean under that flavor, significant or not. '
             + (f"* a run significantly better: {rule}. A highlighted row is a reversal: there a pair's significant "
                "winner differs from its significant winner under another flavor of the measure. " if cmp else "")
             + f"Hover a flavor for its full string. Means and differences {_t(model.set_caption(), model.runs)}.</p>")
    return table + flips(model)


def _significant(settings: dict) -> str:
    """What * marks: the declared test's p after the declared correction (compare/stats.py)."""
    correction = {"holm": "Holm's correction", "bonferroni": "Bonferroni's correction",
                  "bh": "the Benjamini-Hochberg correction"}.get(settings["correction_method"])
    where = (f" after {correction}" if correction else " (no correction)" if settings["test"] != "tukey" else
             " (randomised Tukey HSD over all runs)")
    return f"p < {settings['alpha']:g}{where}, the test's statistic and the mean favouring it"


def flips(model: PageModel, shown: int = 8) -> str:
    """Per pair and measure, the smallest changes of flavor that reverse its significant winner, or, where nothing
    reverses, that only change the order of the means, said as such (compare/verdicts.py)."""
    cmp = model.comparison
    if cmp is None:
        return ""
    reversals = cmp.flips[cmp.flips.kind == "reversal"]
    orders = cmp.flips[cmp.flips.kind != "reversal"]
    several = cmp.measures.measure.nunique() > 1
    parts = [] if len(reversals) else [
        f'<p class="ok-line">No reversal: no pair has different significant winners under two flavors'
        f'{" of a measure" if several else ""}.</p>']
    for frame, reversal in ((reversals, True), (orders, False)):
        for (a, b, measure), block in frame.groupby(["run_a", "run_b", "measure"], sort=False):
            n_axes = int(block.n_axes.iloc[0])
            axes = ", ".join(dict.fromkeys(block.axis))
            said = "significantly better" if reversal else "mean higher, not significant on both sides"
            items = "".join(f"<li><b>{_t(f.change)}</b>: from {flavor_name(model, f.from_flavor)} "
                            f"({_t(f.from_winner)} {said}) to {flavor_name(model, f.to_flavor)} ({_t(f.to_winner)} "
                            f"{said})</li>" for f in block.head(shown).itertuples())
            more = f'<li class="muted">… and {len(block) - shown} more</li>' if len(block) > shown else ""
            within = f" of {_t(measure)}" if several else ""
            what = "the significant winner reverses" if reversal else "only the order of the means changes"
            parts.append(f'<div class="flips{"" if reversal else " muted"}"><h3>{_t(a)} vs {_t(b)}: {what} with the '
                         f'axis <span class="axis">{_t(axes)}</span>{within} ({n_axes} ax'
                         f'{"is" if n_axes == 1 else "es"} changed)</h3><ul>{items}{more}</ul></div>')
    return "".join(parts)
