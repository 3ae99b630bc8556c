"""The page's sections as HTML fragments, each from the PageModel: the header (with the query set every number is
over), the answer (one sentence per pair in the verdict words, then the downloads), the flavors' legend and the
inputs. The tables are display/tables.py's, the warnings display/warnings_section.py's; the charts, the per-query
table and the side-by-side lists are drawn by the page's script (assets/*.js)."""

from __future__ import annotations

import shlex
from typing import Any

from rankflavor.display.model import PageModel
from rankflavor.display.text import html_text as _t
from rankflavor.escape import html as escape  # (markup escaped, control and bidi characters shown)


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
            f'<p class="set" id="rf-set">Every mean, difference, test, chart and count on this page is '
            f"{_t(model.set_caption(), model.runs)}.</p>"
            f'<details class="command-box"><summary>the command that made this page</summary>'
            f'<pre class="command">{command(model.command)}</pre></details></header>')


def command(text: str) -> str:
    """The command that made the page, each word isolated (a U+202E in a file name reverses that name only)."""
    try:
        words = shlex.split(text)
    except ValueError:
        return _t(text)
    if shlex.join(words) != text:
        return _t(text)
    return " ".join(_t(shlex.quote(word)) for word in words)


KINDS = {"robust": "ok", "reverses": "bad", "flavor-dependent": "warn", "measures disagree": "warn"}


def answer(model: PageModel) -> str:
    """What was found, first: one short sentence per pair in the verdict words (compare/verdicts.py), its badge,
    and the pool's caveat where the runs' judged@k differ or unjudged=skip changes a significant winner (each
    pair's card below gives the whole verdict); then the downloads."""
    cmp = model.comparison
    if cmp is None:
        return (f'<p class="lead">One run: its means under each flavor, {_t(model.set_caption(), model.runs)}; '
                "nothing is compared.</p>" + downloads(model))
    items = []
    for v in cmp.verdicts.itertuples():
        kind = KINDS.get(v.verdict, "muted")
        caveat = _caveat(v)
        if kind == "ok" and caveat:
            kind = "warn"  # (a robust finding the pool sees unequally, or that unjudged=skip changes: not green)
        items.append(f'<li><span class="badge {kind}">{_t(v.verdict)}</span> <b>{_t(v.run_a)}</b> vs '
                     f'<b>{_t(v.run_b)}</b>: {_t(headline(cmp, v.run_a, v.run_b), model.runs)}'
                     + (f'<div class="pool-note caveat-line">⚠ {_t(caveat, model.runs)}</div>' if caveat else "")
                     + "</li>")
    return (f'<ul class="verdicts" id="rf-answer">{"".join(items)}</ul>'
            f'<p class="note">The verdict words: robust (the same run significantly better under every flavor), '
            "flavor-dependent (significant under some flavors only), reverses (significant winners that differ), "
            f"no finding (nothing significant, whatever the means' order); {_e(_rule(cmp.settings))}. Each pair's "
            "whole verdict is in its card under Every pair.</p>" + downloads(model))


def _names(labels: list[str], shown: int = 3) -> str:
    return ", ".join(labels[:shown]) + (f" and {len(labels) - shown} more" if len(labels) > shown else "")


def headline(cmp: Any, a: str, b: str) -> str:
    """One pair's finding in a short sentence, per measure: who is significantly better under which flavors, and
    where nothing is significant (the measures' rows of compare/verdicts.py)."""
    rows = cmp.measures[(cmp.measures.run_a == a) & (cmp.measures.run_b == b)]
    parts = []
    for m in rows.itertuples():
        sides = [(w, list(under)) for w, under in ((a, m.a_significant_under), (b, m.b_significant_under)) if under]
        quiet = list(m.not_significant_under) + ([] if m.disagree == 0 else ["(the test and the mean disagree)"])
        said = [f"{w} significantly better under " + ("every flavor" if len(under) == m.flavors > 1 else _names(under))
                for w, under in sides]
        if sides and quiet:
            said.append("no significant difference under " + _names(list(m.not_significant_under) or quiet))
        if not sides:
            said = ["no significant difference" + (f" under any of its {m.flavors} flavors" if m.flavors > 1 else "")]
        parts.append((f"{m.measure}: " if len(rows) > 1 else "") + "; ".join(said))
    return ". ".join(parts)


def _caveat(v: Any) -> str:
    """The pool's caveat of a verdict row, short: the judged@k that differ, the flavors unjudged=skip changes."""
    out = []
    if v.pool_unequal:
        gaps = [f"{x['depth']} {_share(x['run_a'])} vs {_share(x['run_b'])}" for x in v.judged
                if x["run_a"] is not None and x["run_b"] is not None and abs(x["run_a"] - x["run_b"]) >= 0.1]
        out.append("the pool sees the runs unequally (" + "; ".join(gaps) + ")")
    if len(v.skip_changes):
        n = len(v.skip_changes)
        out.append(f"unjudged=skip changes the significant winner under {n} flavor{'s' if n != 1 else ''}")
    return "; ".join(out)


def _share(x: float) -> str:
    return f"{x:.2f}"


def _rule(settings: dict) -> str:
    correction = {"holm": "Holm's correction", "bonferroni": "Bonferroni's correction",
                  "bh": "the Benjamini-Hochberg correction"}.get(settings["correction_method"], "no correction")
    return (f"significant: the {settings['test']} test, p < {settings['alpha']:g} after {correction}, credited to "
            "the run both the test's statistic and the mean favour")


def downloads(model: PageModel) -> str:
    """The page's data to take away, made in the browser from what the page holds (no request)."""
    json_button = ('<button type="button" data-download="json">comparison (JSON)</button>'
                   if model.comparison is not None else "")
    return ('<p class="downloads">Take it away: <button type="button" data-download="csv">per-query values (CSV)'
            f"</button>{json_button}</p>")


def legend(model: PageModel) -> str:
    rows = "".join(f"<tr><td><b>{_t(model.label(f))}</b></td><td><code>{_t(f)}</code></td></tr>" for f in model.flavors)
    skipped = ""
    if model.skipped:
        items = "".join(f"<li><code>{_t(c)}</code>: {_t(r)}</li>" for c, r in model.skipped[:20])
        skipped = f'<details><summary>{len(model.skipped)} flavors skipped</summary><ul>{items}</ul></details>'
    return (f'<table class="legend"><thead><tr><th>label</th><th>full flavor (canonical string)</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>{skipped}")


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
