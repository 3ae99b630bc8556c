"""The page's table of bounds for unjudged documents (`report --unjudged-bounds`; compare/unjudged_bounds.py makes
them): per flavor and pair, the paired difference, its interval over the fills of both runs' holes and whether the
winner is robust to them; per flavor and run, the mean with its lowest and highest over the fills; each row with
its queries enumerated and bounded by their measure's range."""

from __future__ import annotations

from rankflavor.display.model import PageModel
from rankflavor.display.sections import _f, flavor_name
from rankflavor.display.text import html_text as _t


def unjudged_bounds(model: PageModel) -> str:
    """The bounds' tables and their note, or nothing when the comparison has none."""
    cmp = model.comparison
    if cmp is None or "unjudged_verdict" not in cmp.pairs:
        return ""
    pairs = "".join(
        f"<tr><th>{flavor_name(model, r.flavor)}</th><td>{_t(r.run_a)}</td><td>{_t(r.run_b)}</td>"
        f'<td class="num">{_f(r.diff, signed=True)}</td><td class="num">[{_f(r.unjudged_low, signed=True)}, '
        f'{_f(r.unjudged_high, signed=True)}]</td><td>{_t(r.winner)}</td><td>{_t(r.unjudged_verdict)}</td>'
        f'<td class="num">{r.unjudged_exact}</td><td class="num">{r.unjudged_by_range}</td></tr>'
        for r in cmp.pairs.itertuples())
    settings = cmp.settings["unjudged_bounds"]
    notes = "".join(f'<p class="note">{_t(line)}.</p>' for line in settings.get("by_range", []))
    means = "".join(
        f"<tr><th>{flavor_name(model, r.flavor)}</th><td>{_t(r.run)}</td><td class=\"num\">{_f(r.mean)}</td>"
        f'<td class="num">{_f(r.mean_low)}</td><td class="num">{_f(r.mean_high)}</td>'
        f'<td class="num">{r.unjudged_exact}</td><td class="num">{r.unjudged_by_range}</td></tr>'
        for r in cmp.means.itertuples())
    return ('<h3>Bounds for unjudged documents</h3><div class="scroll"><table class="bounds"><thead><tr><th>flavor</th>'
            '<th>run a</th><th>run b</th><th>a − b</th><th>interval over the fills</th><th>winner</th>'
            '<th>robust to unjudged</th><th>enumerated</th><th>by range</th></tr></thead>'
            f'<tbody>{pairs}</tbody></table></div>'
            '<div class="scroll"><table class="bounds"><thead><tr><th>flavor</th><th>run</th><th>mean</th>'
            '<th>lowest over the fills</th><th>highest over the fills</th><th>enumerated</th><th>by range</th></tr>'
            f'</thead><tbody>{means}</tbody></table></div>{notes}'
            f'<p class="note">{_t(settings["description"])}.</p>')
