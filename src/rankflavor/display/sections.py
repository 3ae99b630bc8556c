"""The page's sections as HTML fragments, each from the PageModel: the header, the verdicts, the systems x
measures table (compare's paper table, with CIs), the flavors' legend, the flavor-sensitivity table, the
warnings and the inputs. The per-query table and the records are drawn by the page's script (assets/page.js)."""

from __future__ import annotations

import shlex
from html import escape
from typing import Any

from rankflavor.compare.paper import BETTER, WORSE, set_caption, significant_winner
from rankflavor.compare.verdicts import measure_of
from rankflavor.display.model import PageModel
from rankflavor.display.text import html_text as _t
from rankflavor.display.text import needs_isolation


def _e(x: Any) -> str:
    """An attribute's value."""
    return escape(str(x), quote=True)


def _f(x: Any, digits: int = 4, signed: bool = False) -> str:
    if x is None or x != x:
        return "null"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def flavor_name(model: PageModel, canonical: str) -> str:
    """A flavor's label, its canonical string on hover."""
    return f'<span class="flv" title="{_e(canonical)}">{_t(model.label(canonical))}</span>'


def header(model: PageModel, generated: str) -> str:
    scores = model.scores
    n = int(scores.dataset.judged.sum())
    runs = ", ".join(_t(r) for r in model.runs)
    baseline = f" · baseline <b>{_t(model.baseline)}</b>" if model.baseline else ""
    return (f'<header><h1>Ranking evaluation <span class="muted">· {runs}</span></h1>'
            f'<p class="meta">{n:,} judged queries · {len(model.runs)} run{"s" * (len(model.runs) != 1)} · '
            f'{len(model.flavors)} flavor{"s" * (len(model.flavors) != 1)}{baseline} · rankflavor {_t(model.version)}'
            f' · {_t(generated)}</p>'
            f'<pre class="command" title="the command that made this page">{command(model.command)}</pre></header>')


def command(text: str) -> str:
    """The command that made the page, each word isolated (a U+202E in a file name reverses that name only)."""
    try:
        words = shlex.split(text)
    except ValueError:
        return _t(text)
    if shlex.join(words) != text:
        return _t(text)
    return " ".join(_t(shlex.quote(word)) for word in words)


def verdicts(model: PageModel) -> str:
    cmp = model.comparison
    if cmp is None:
        return ""
    items = []
    for v in cmp.verdicts.itertuples():
        kind = {"robust": "ok", "reverses": "bad", "flavor-dependent": "warn", "measures disagree": "warn"}
        kind = kind.get(v.verdict, "muted")
        if kind == "ok" and (getattr(v, "pool_unequal", False) or len(getattr(v, "skip_changes", []) or [])):
            kind = "warn"  # (a robust finding the pool sees unequally, or that unjudged=skip changes: not green)
        items.append(f'<li><span class="badge {kind}">{_t(v.verdict)}</span> <b>{_t(v.run_b)}</b> vs '
                     f'<b>{_t(v.run_a)}</b>: {_t(v.summary.split(": ", 1)[-1], model.runs)}</li>')
    return f'<ul class="verdicts">{"".join(items)}</ul>'


def _pair_row(model: PageModel, run: str, flavor: str) -> Any:
    pairs = model.comparison.pairs  # type: ignore[union-attr]
    rows = pairs[(pairs.run_a == model.baseline) & (pairs.run_b == run) & (pairs.flavor == flavor)]
    return None if rows.empty else rows.iloc[0]


def _mean(model: PageModel, run: str, flavor: Any) -> float | None:
    """The mean a page's table prints: over the comparison's query set (each run's own mean with one run)."""
    if model.comparison is None:
        return model.scores.mean(run, flavor)
    means = model.comparison.means
    value = means[(means.run == run) & (means.flavor == str(flavor))]["mean"].iloc[0]
    return None if value is None or value != value else float(value)


def paper_table(model: PageModel) -> str:
    """Runs x measures: the mean, ▲/▼ where significantly better/worse than the baseline (compare's paper
    table), and each run's difference from the baseline with its CI."""
    flavors = [str(f) for f in model.flavors]
    head = "".join(f"<th>{flavor_name(model, f)}</th>" for f in flavors)
    if model.comparison is None:
        body = "".join(f"<tr><th>{_t(r)}</th>" + "".join(f'<td class="num">{_f(model.scores.mean(r, f))}</td>'
                                                          for f in model.flavors) + "</tr>" for r in model.runs)
        return (f'<div class="scroll"><table class="paper"><thead><tr><th>run</th>{head}</tr></thead>'
                f'<tbody>{body}</tbody></table></div>')
    table = model.comparison.paper_table()
    rows = []
    for run in table.runs:
        cells = []
        for measure, flavor in zip(table.measures, table.flavors, strict=True):
            mean = table.means[(run, measure)]
            best = mean is not None and mean == table.best(measure)
            marks = table.marks(run, measure)
            mark = (f'<span class="mark {"up" if marks == BETTER else "down" if marks == WORSE else ""}">{_t(marks)}'
                    "</span>") if marks else ""
            ci = ""
            pair = _pair_row(model, run, flavor) if run != model.baseline else None
            if pair is not None:  # (the pair is baseline - run: shown as run - baseline, the means' difference)
                level = int(model.comparison.settings["confidence"] * 100)
                base = table.means[(model.baseline, measure)]
                delta = None if mean is None or base is None else mean - base
                ci = (f'<div class="ci" title="{_e(run)} − {_e(model.baseline)}, {level}% CI, '
                      f'p ({_e(pair.correction)}) = {pair.p_adjusted:.3g}"><span>Δ {_f(delta, signed=True)}</span> '
                      f'<span>[{_f(-pair.ci_high, signed=True)}, {_f(-pair.ci_low, signed=True)}]</span></div>')
            interval = table.interval(run, measure)  # (the mean's own interval, as the note says)
            ci = (f'<div class="ci"><span>{_t(interval)}</span></div>' if interval else "") + ci
            cells.append(f'<td class="num{" best" if best else ""}">{_f(mean)}{mark}{ci}</td>')
        name = f"{_t(run)}" + (' <span class="muted">(baseline)</span>' if run == model.baseline else "")
        rows.append(f"<tr><th>{name}</th>{''.join(cells)}</tr>")
    return (f'<div class="scroll"><table class="paper"><thead><tr><th>run</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>'
            f'<p class="note">{_t(table.note, model.runs)} Bold: the best mean of each measure. Δ: the run\'s mean minus '
            f'the baseline\'s, with the {int(model.comparison.settings["confidence"] * 100)}% CI of the mean paired '
            f'difference ({_t(model.comparison.settings["ci"])}).</p>')


def legend(model: PageModel) -> str:
    rows = "".join(f"<tr><td><b>{_t(model.label(f))}</b></td><td><code>{_t(f)}</code></td></tr>" for f in model.flavors)
    skipped = ""
    if model.skipped:
        items = "".join(f"<li><code>{_t(c)}</code>: {_t(r)}</li>" for c, r in model.skipped[:20])
        skipped = f'<details><summary>{len(model.skipped)} flavors skipped</summary><ul>{items}</ul></details>'
    return (f'<table class="legend"><thead><tr><th>label</th><th>full flavor (canonical string)</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>{skipped}")


def sensitivity(model: PageModel) -> str:
    """Flavors x runs: each mean, the highest; per run against the baseline, the difference of the means, * where
    the declared test finds a run significantly better (compare/pair_tests.py), tagged where that significant
    winner differs from the one under another flavor of the measure (a reversal); then the flips."""
    cmp = model.comparison
    runs = model.runs
    others = [r for r in runs if r != model.baseline] if cmp is not None else []
    reversing: set[tuple[str, str]] = set()  # (run, measure) whose pair with the baseline reverses
    if cmp is not None:
        reversing = {(m.run_b, m.measure) for m in cmp.measures.itertuples() if m.verdict == "reverses"}
    head = "".join(f"<th>{_t(r)}</th>" for r in runs) + "<th>highest mean</th>"
    head += "".join(f"<th>{_t(r)} − {_t(model.baseline)}</th>" for r in others)
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
        for r in others:
            pair = _pair_row(model, r, str(f))
            if pair is None:
                cells += '<td class="num">—</td>'
                continue
            winner = significant_winner(pair)
            reverse = winner is not None and (r, measure_of(f)) in reversing
            flipped |= reverse
            star = '<span class="mark">*</span>' if winner is not None else ""
            base = means[model.baseline]  # type: ignore[index]
            delta = None if means[r] is None or base is None else means[r] - base  # the means' difference
            cls = "" if delta is None else "pos" if delta > 0 else "neg" if delta < 0 else ""
            cells += (f'<td class="num {cls}">{_f(delta, signed=True)}{star}'
                      + ('<span class="tag">reverses</span>' if reverse else "") + "</td>")
        body.append(f'<tr class="{"reversal" if flipped else ""}"><th>{flavor_name(model, str(f))}</th>{cells}</tr>')
    over = _e(set_caption(cmp)) if cmp is not None else "over each run's own queries"
    corrected = "" if cmp is None else _e(_corrected(cmp.settings))
    table = (f'<div class="scroll"><table class="sens"><thead><tr><th>flavor</th>{head}</tr></thead>'
             f'<tbody>{"".join(body)}</tbody></table></div>'
             '<p class="note">Bold: the highest mean under that flavor, significant or not. * a run significantly '
             f'better than the baseline: p &lt; {corrected}, the test\'s statistic and the mean favouring it. A '
             'highlighted row is a reversal: there the significant winner differs from the significant winner under '
             'another flavor of its measure (its metric). Hover a flavor for its full string. Means and differences '
             f'{over}.</p>')
    return table + flips(model)


def _corrected(settings: dict) -> str:
    """What the * marks: the declared test's p-value after the declared correction (compare/stats.py)."""
    correction = {"holm": "Holm's correction", "bonferroni": "Bonferroni's correction",
                  "bh": "the Benjamini-Hochberg correction"}.get(settings["correction"])
    where = f" after {correction}" if correction else (" (no correction)" if settings["test"] != "tukey" else
                                                       " (randomised Tukey HSD over all runs)")
    return f"{settings['alpha']:g}{where}"


def flips(model: PageModel, shown: int = 8) -> str:
    """Per pair and measure, the smallest changes of flavor that reverse its significant winner, or, where nothing
    reverses, that only change the order of the means, said as such (compare/verdicts.py)."""
    cmp = model.comparison
    if cmp is None:
        return ""
    reversals = cmp.flips[cmp.flips.kind == "reversal"] if "kind" in cmp.flips else cmp.flips
    orders = cmp.flips[cmp.flips.kind != "reversal"] if "kind" in cmp.flips else cmp.flips.iloc[:0]
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
            more = f"<li class=\"muted\">… and {len(block) - shown} more</li>" if len(block) > shown else ""
            within = f" of {_t(measure)}" if several else ""
            what = "the significant winner reverses" if reversal else "only the order of the means changes"
            parts.append(f'<div class="flips{"" if reversal else " muted"}"><h3>{_t(b)} vs {_t(a)}: {what} with the '
                         f'axis <span class="axis">{_t(axes)}</span>{within} ({n_axes} ax'
                         f'{"is" if n_axes == 1 else "es"} changed)</h3><ul>{items}{more}</ul></div>')
    return "".join(parts)


KIND_NAMES = {"ties_across_cutoff": "ties across @k", "unjudged_in_top": "unjudged in top k",
              "zero_ideal": "zero ideal", "missing": "missing queries", "unjudged_queries": "unjudged run queries"}


def _some(names: list[str], total: int, shown: int = 6) -> str:
    """'all 4: a, b, c, d' or '2 of 4: a, b', the first `shown` names (already HTML) and how many more."""
    more = f" <span class=\"muted\">+{len(names) - shown} more</span>" if len(names) > shown else ""
    count = f"all {total}" if len(names) == total and total > 1 else f"{len(names)} of {total}"
    return f'<span class="muted">{count}:</span> {", ".join(names[:shown])}{more}'


def warnings(model: PageModel) -> str:
    """The input warnings, then the flavors' warnings one row per kind: the kind, how many, the runs and
    flavors concerned, one example, and the whole list (run, flavor, message) behind a <details>."""
    groups = model.warning_groups()
    names = _quoted(model)
    inputs = model.scores.provenance.get("input_warnings", [])
    out = []
    if inputs:
        messages = (w.get("message", w) if isinstance(w, dict) else w for w in inputs)
        out.append('<ul class="input-warnings">' + "".join(f"<li>{_t(m, names)}</li>" for m in messages) + "</ul>")
    if not groups:
        out.append('<p class="ok-line">No warning: no tie across a cutoff, no unjudged document in the top k, '
                   "no zero-ideal or missing query.</p>")
        return "".join(out)
    body = []
    for group in groups:
        kind = KIND_NAMES.get(group.code, group.code.replace("_", " "))
        first = group.rows[0]
        runs = _some([_t(r) for r in group.runs], len(model.runs))
        flavors = _some([flavor_name(model, f) for f in group.flavors], len(model.flavors))
        every = "".join(f"<tr><td>{_t(w['run'])}</td><td>{flavor_name(model, w['flavor'])}</td><td>{_t(w['message'], names)}"
                        "</td></tr>" for w in group.rows)
        listing = (f'<details><summary>all {len(group.rows)} warnings</summary><div class="scroll">'
                   '<table class="warning-list"><thead><tr><th>run</th><th>flavor</th><th>message</th></tr>'
                   f"</thead><tbody>{every}</tbody></table></div></details>") if len(group.rows) > 1 else ""
        body.append(f'<tr data-code="{_e(group.code)}"><td data-label="kind"><span class="badge warn">{_t(kind)}</span>'
                    f'</td><td class="num" data-label="count">{len(group.rows)}</td><td data-label="runs">{runs}</td>'
                    f'<td data-label="flavors">{flavors}</td><td data-label="example"><b>{_t(first["run"])}</b> under '
                    f'{flavor_name(model, first["flavor"])}: {_t(first["message"], names)}{listing}</td></tr>')
    out.append('<table class="warnings"><thead><tr><th>kind</th><th class="num">count</th><th>runs</th>'
               f'<th>flavors</th><th>example</th></tr></thead><tbody>{"".join(body)}</tbody></table>')
    return "".join(out)


def _quoted(model: PageModel) -> list[str]:
    """The names a message may quote that need isolating on their own (html_text): runs, right-to-left ids."""
    return [*model.runs, *(q for q in map(str, model.scores.query_ids.tolist()) if needs_isolation(q))]


def inputs(model: PageModel) -> str:
    prov = model.scores.provenance
    rows = []
    for item in prov.get("inputs", []):
        count = item.get("judged_queries", item.get("queries", ""))
        n_rows = item.get("rows")
        rows.append(f"<tr><td>{_t(item['role'])}</td><td><b>{_t(item['name'])}</b></td>"
                    f"<td><code>{_t(item.get('path') or '')}</code></td>"
                    f'<td class="num">{"" if n_rows is None else f"{n_rows:,}"}</td><td class="num">{_t(count)}</td>'
                    f"<td><code class=\"hash\">{_t(item.get('sha256', ''))}</code></td></tr>")
    policies = "".join(f"<li><b>{_t(k)}</b>: {_t(v)}</li>" for k, v in prov.get("policies", {}).items())
    return (f'<div class="scroll"><table class="inputs"><thead><tr><th>role</th><th>name</th><th>path</th><th>rows</th>'
            f'<th>queries</th>'
            f'<th>sha256</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
            f'<details><summary>reading policies</summary><ul>{policies}</ul></details>')
