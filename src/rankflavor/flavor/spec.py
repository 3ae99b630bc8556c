"""The grammar of a flavor spec: `ndcg@10`, `dcg`, `ndcg@10 gain=exp2 ties=average`, `lightgbm@5 empty=zero`.

    SPEC = HEAD [key=value ...]      HEAD = name[(params)][@k]      (name: a metric or a preset)

params are a metric's own parameters, `key=value` separated by commas (`rbp(p=0.8)`), or one bare value for
the metric's first parameter (`rbp(0.8)`).

Keys are axis names (any subset, any order, each at most once); metric and cutoff live in the head only.
Whitespace inside {...} and (...) is ignored. This module splits the text; `rankflavor.flavor.flavor`
resolves the parts into Flavors. A head that a peer table reads in its own grammar (`ir_measures.IPrec@0.1`,
`ir_measures.nDCG(gains={0:0,1:1})@10`: dialects/trec_eval.py RAW_HEADS) is kept as written, unread.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from rankflavor.errors import SpecError
from rankflavor.flavor.axes import AXIS_BY_NAME, AXIS_NAMES

PROJECT_PREFIX = "project."  # a project's pinned flavor, `project.NAME` (flavor/project.py reads them)
_HEAD = r"^([0-9]*[A-Za-z_][A-Za-z_0-9.\-]*)(?:\(((?:[^()]|\([^()]*\))*)\))?(?:@(\S+))?$"  # a value may be f(x)


class SpecText(NamedTuple):
    """A spec split into its head name, its cutoff (None when absent) and its key=value overrides."""

    name: str
    cutoff: int | None
    overrides: dict[str, str]
    params: tuple[tuple[str | None, str], ...] = ()  # (key or None for a bare value, value) as written
    head: str | None = None  # the head as written when a peer table reads it (params and cutoff then unread)


def _tokens(spec: str) -> list[str]:
    tokens: list[str] = []
    depth = 0
    current = ""
    for char in spec.strip():
        if char in "{(":
            depth += 1
        elif char in "})":
            depth -= 1
        if char.isspace() and depth == 0:
            if current:
                tokens.append(current)
            current = ""
        elif not char.isspace():
            current += char
    if depth != 0:
        raise SpecError(f"unbalanced brackets in flavor spec {spec!r}")
    if current:
        tokens.append(current)
    return tokens


def _cutoff(text: str, spec: str) -> int:
    from rankflavor.flavor.values import MAX_WHOLE

    if not re.fullmatch(r"\d+", text) or int(text) < 1:
        raise SpecError(f"cutoff @{text} in {spec!r} is not a positive integer; write e.g. ndcg@10")
    if int(text) > MAX_WHOLE:
        raise SpecError(f"cutoff @{text} in {spec!r} is too large: give a whole number from 1 to {MAX_WHOLE:,} (a "
                        "cutoff beyond every list reads the whole list)")
    return int(text)


def head_parts(head: str, spec: str) -> tuple[str, tuple[tuple[str | None, str], ...], int | None]:
    """(name, params, cutoff) of a head as rankflavor's grammar reads it (`hit_rate@10` -> hit_rate, (), 10);
    a SpecError when it is not such a head."""
    match = re.match(_HEAD, head)
    if not match:
        raise SpecError(f"{head!r} in {spec!r} is no NAME[(params)][@k]")
    params = _params(match.group(2), spec) if match.group(2) is not None else ()
    return match.group(1), params, _cutoff(match.group(3), spec) if match.group(3) is not None else None


_VALUE_LIST = r"(?P<prefix>(?:py)?trec_eval\.)?(?P<base>[A-Za-z][A-Za-z0-9_]*)\.(?P<values>[0-9.]+(?:,[0-9.]+)+)"


def _refuse_value_list(head: str) -> None:
    """trec_eval's `-m P.5,10` (one measure at several values) is several flavors: say how to write each."""
    match = re.fullmatch(_VALUE_LIST, head)
    if match:
        prefix, base, values = match.group("prefix") or "", match.group("base"), match.group("values").split(",")
        each = " ".join(f"-m {prefix}{base}.{value}" for value in values[:3]) + (" ..." if len(values) > 3 else "")
        shown = ",".join(values[:5]) + (f",... ({len(values):,} values)" if len(values) > 5 else "")
        asked = f"-m {base}.{shown}"
        raise SpecError(f"{head!r} is trec_eval's way to ask for {len(values)} measures at once ({asked}): give each "
                        f"its own -m ({each}; Python: one spec each), or run `rankflavor trec_eval {asked}`")


def split_spec(spec: str, raw_head: Callable[[str], bool] | None = None) -> SpecText:
    """The parts of one spec. When `raw_head(name)` holds, the head is kept as written (SpecText.head) and its
    params and cutoff are left to the peer table that reads them."""
    tokens = _tokens(spec)
    if not tokens:
        raise SpecError("empty flavor spec; write e.g. ndcg@10, or a preset name like trec_eval@10")
    match = re.match(_HEAD, tokens[0])
    if not match:
        _refuse_value_list(tokens[0])
        raise SpecError(f"flavor spec {spec!r} must start with a metric (ndcg, map, p, recall, mrr, ...: `rankflavor "
                        "metrics` lists them) or a preset name, optionally with @k, e.g. ndcg@10")
    name, params_text, cut_text = match.group(1), match.group(2), match.group(3)
    head = tokens[0] if raw_head is not None and raw_head(name) else None
    cutoff = _cutoff(cut_text, spec) if cut_text is not None and head is None else None
    params = _params(params_text, spec) if params_text is not None and head is None else ()

    overrides: dict[str, str] = {}
    for token in tokens[1:]:
        if "=" not in token:
            raise SpecError(f"{token!r} in {spec!r} is not key=value; valid keys: {', '.join(AXIS_NAMES)}")
        key, value = token.split("=", 1)
        if key in ("metric", "cutoff"):
            raise SpecError(f"{key} lives in the head of the spec (e.g. dcg@10), not in {token!r}")
        if key not in AXIS_BY_NAME:
            from rankflavor.flavor.suggest import close, did_you_mean

            hint = did_you_mean(close(key, AXIS_NAMES))
            raise SpecError(f"unknown key {key!r} in {spec!r}; {hint + ' ' if hint else ''}valid keys: "
                            f"{', '.join(AXIS_NAMES)}")
        if key in overrides:
            raise SpecError(f"key {key!r} given twice in {spec!r}")
        overrides[key] = value
    return SpecText(name, cutoff, overrides, params, head)


def _params(text: str, spec: str) -> tuple[tuple[str | None, str], ...]:
    items = [item for item in text.split(",") if item.strip()]
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if sep and (not key.strip() or not value.strip()):
            raise SpecError(f"parameter {item.strip()!r} in {spec!r} is not key=value, e.g. rbp(p=0.8)")
        out.append((key.strip(), value.strip()) if sep else (None, key.strip()))
    return tuple(out)
