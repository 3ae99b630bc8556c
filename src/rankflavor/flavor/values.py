"""Typed axis values: each is its canonical token (a `str`, so it prints, compares and hashes as the token)
carrying its parsed meaning, read once here and never parsed again downstream.

    Gain        kind linear | exp2 | table; `table` {grade: gain}, `rest` "g" when unlisted grades keep theirs
    Discount    kind log2 | jarvelin | log | reciprocal | none; `base` b of jarvelin(b) and log(b) (e = math.e)
    Ideal       kind global | local | recall | max; `k` the K of recall(K)
    Ties        kind docid_desc | docid_asc | input | average | pessimistic | optimistic | quicksort | random;
                `passes` of quicksort(passes), `seed` of random(seed)
    MinGrade    `threshold`: a number, or None for `none`
    RunDepth    `limit`: an int, or None for `all`
    Round       `decimals`: an int, or None for `none`
    Weights     `name`: the name of bound per-query weights, or None for `none`
    RelLevel    `threshold`: the grade from which a doc is relevant to a binary measure
    Choice      the axes whose values are plain words (ideal_depth, unjudged, negative, empty, ...)

`parse_value(axis, raw)` is the one place a token is read; numbers print as Python prints them, integral
values as integers (`log(10.0)` -> `log(10)`), so equal meanings have equal tokens.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from rankflavor.errors import SpecError

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_CALL = r"^([a-z_0-9]+)\((.*)\)$"


def format_number(value: float) -> str:
    """Print a number as Python prints it, with integral values printed as integers (3.0 -> 3)."""
    if isinstance(value, bool):
        raise SpecError(f"expected a number, got {value!r}")
    if float(value).is_integer() and abs(value) < 2**63:
        return str(int(value))
    return repr(float(value))


def read_number(text: str, what: str) -> float:
    if not re.fullmatch(_NUMBER, text.strip()):
        raise SpecError(f"{what}: {text!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise SpecError(f"{what}: {text!r} is not a finite number")
    return value


MAX_WHOLE = (1 << 31) - 1  # a cutoff, depth or count beyond any run's length reads every row; beyond an int32, a typo


def read_positive_int(text: str, what: str) -> int:
    """A whole number from 1 to MAX_WHOLE (a run_depth, recall(K), quicksort(passes)), else a SpecError saying so."""
    if not re.fullmatch(r"\d+", text.strip()) or int(text) < 1:
        raise SpecError(f"{what}: {text!r} is not a positive integer")
    if int(text) > MAX_WHOLE:
        raise SpecError(f"{what}: {text!r} is too large: give a whole number from 1 to {MAX_WHOLE:,} (a number "
                        "beyond any list's length reads every row: for every row write 'all' where the axis takes it)")
    return int(text)


def _call(raw: str) -> tuple[str, str | None]:
    match = re.match(_CALL, raw)
    return (match.group(1), match.group(2)) if match else (raw, None)


class AxisValue(str):
    """A canonical token with its parsed fields (immutable)."""

    axis: str
    kind: str

    def __new__(cls, token: str, kind: str, **fields: Any) -> AxisValue:
        self = super().__new__(cls, token)
        object.__setattr__(self, "kind", kind)
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self):
        return _rebuild, (type(self), str(self), dict(self.__dict__))

    def __repr__(self) -> str:  # (shown as the token it is, in dicts, frames and messages alike)
        return str.__repr__(self)


def _rebuild(cls: type[AxisValue], token: str, fields: dict[str, Any]) -> AxisValue:
    return cls(token, **fields)


class Choice(AxisValue):
    """A value that is one word from a fixed list (its kind is the word; `axis` names its axis)."""


class Gain(AxisValue):
    table: dict[float, float] | None
    rest: str | None  # "g": a grade the table does not list is its own gain (`*:g`); None: it is an error


class Discount(AxisValue):
    base: float | None


class Ideal(AxisValue):
    k: int | None


class Ties(AxisValue):
    seed: int | None  # of random(seed)
    passes: int | None  # of quicksort(passes)


class MinGrade(AxisValue):
    threshold: float | None


class RunDepth(AxisValue):
    limit: int | None


class Round(AxisValue):
    decimals: int | None


class RelLevel(AxisValue):
    threshold: float  # a doc is relevant to a binary measure when its grade is at least this


class Weights(AxisValue):
    name: str | None  # the name of per-query weights bound to the evaluation (--weights NAME=FILE), or None


def gain_value(raw: str) -> Gain:
    if raw in ("linear", "exp2"):
        return Gain(raw, axis="gain", kind=raw, table=None, rest=None)
    if raw.startswith("{") and raw.endswith("}"):
        body = raw[1:-1].strip()
        if not body:
            raise SpecError("gain table is empty; give grade:gain pairs, e.g. gain={0:0,1:1,2:3,3:7}")
        table: dict[float, float] = {}
        rest = None
        for item in body.split(","):
            if item.count(":") != 1:
                raise SpecError(f"gain table entry {item.strip()!r} is not grade:gain, e.g. gain={{0:0,1:1,2:3}}")
            key_text, value_text = (part.strip() for part in item.split(":"))
            if key_text == "*":
                if value_text != "g" or rest is not None:
                    raise SpecError(f"gain table entry {item.strip()!r}: the rest of the grades can only keep their "
                                    "grade, written *:g once (e.g. gain={2:3,3:7,*:g})")
                rest = "g"
                continue
            key = read_number(key_text, "gain table grade")
            if key in table:
                raise SpecError(f"gain table lists grade {format_number(key)} twice")
            table[key] = read_number(value_text, "gain table value")
        if not table:
            raise SpecError("gain table lists no grade; give grade:gain pairs, e.g. gain={2:3,3:7,*:g}")
        pairs = sorted(table.items())
        entries = [f"{format_number(k)}:{format_number(v)}" for k, v in pairs] + (["*:g"] if rest else [])
        return Gain("{" + ",".join(entries) + "}", axis="gain", kind="table", table=dict(pairs), rest=rest)
    raise SpecError(f"unknown value {raw!r} for gain; valid values: linear, exp2, a table like {{0:0,1:1,2:3,3:7}}")


def _base(text: str, what: str) -> tuple[str, float]:
    if text.strip() == "e":
        return "e", math.e
    base = read_number(text, what)
    if base <= 1:
        raise SpecError(f"{what}: base must be greater than 1, got {text!r}")
    return format_number(base), base


def discount_value(raw: str) -> Discount:
    if raw in ("log2", "reciprocal", "none"):
        return Discount(raw, axis="discount", kind=raw, base=None)
    name, arg = _call(raw)
    if name == "log" and arg is not None:
        text, base = _base(arg, "discount log(b)")
        return Discount(f"log({text})", axis="discount", kind="log", base=base)
    if name == "jarvelin" and arg is not None:
        text, base = _base(arg, "discount jarvelin(b)")
        if text == "e":
            text = format_number(math.e)
        return Discount(f"jarvelin({text})", axis="discount", kind="jarvelin", base=float(text))
    raise SpecError(
        f"unknown value {raw!r} for discount; valid values: log2, jarvelin(b), log(b) (log(e) natural), reciprocal, none"
    )


def ideal_value(raw: str) -> Ideal:
    if raw in ("global", "positive", "local", "max"):
        return Ideal(raw, axis="ideal", kind=raw, k=None)
    name, arg = _call(raw)
    if name == "recall" and arg is not None:
        k = read_positive_int(arg, "ideal recall(K)")
        return Ideal(f"recall({k})", axis="ideal", kind="recall", k=k)
    raise SpecError(f"unknown value {raw!r} for ideal; valid values: global, positive, local, recall(K), max")


TIE_WORDS = ("docid_desc", "docid_asc", "input", "average", "pessimistic", "optimistic")


def ties_value(raw: str) -> Ties:
    if raw in TIE_WORDS:
        return Ties(raw, axis="ties", kind=raw, seed=None, passes=None)
    if raw == "quicksort":
        raw = "quicksort(1)"
    name, arg = _call(raw)
    if name == "random" and arg is not None:
        seed = arg.strip()
        if not re.fullmatch(r"\d+", seed) or int(seed) >= 1 << 63:
            raise SpecError(f"ties random(seed): {seed!r} is not a whole number from 0 to 2^63 - 1")
        return Ties(f"random({int(seed)})", axis="ties", kind="random", seed=int(seed), passes=None)
    if name == "quicksort" and arg is not None:
        passes = read_positive_int(arg, "ties quicksort(passes)")
        return Ties(f"quicksort({passes})", axis="ties", kind="quicksort", seed=None, passes=passes)
    raise SpecError(f"unknown value {raw!r} for ties; valid values: {', '.join(TIE_WORDS)}, quicksort(passes), "
                    "random(seed)")


def min_grade_value(raw: str) -> MinGrade:
    if raw == "none":
        return MinGrade(raw, axis="min_grade", kind="none", threshold=None)
    threshold = read_number(raw, "min_grade")
    return MinGrade(format_number(threshold), axis="min_grade", kind="number", threshold=threshold)


def run_depth_value(raw: str) -> RunDepth:
    if raw == "all":
        return RunDepth(raw, axis="run_depth", kind="all", limit=None)
    limit = read_positive_int(raw, "run_depth")
    return RunDepth(str(limit), axis="run_depth", kind="number", limit=limit)


def round_value(raw: str) -> Round:
    if raw == "none":
        return Round(raw, axis="round", kind="none", decimals=None)
    if not re.fullmatch(r"\d+", raw) or int(raw) > 15:
        raise SpecError(f"round: {raw!r} is not none or a number of decimals from 0 to 15")
    return Round(str(int(raw)), axis="round", kind="number", decimals=int(raw))


def rel_level_value(raw: str) -> RelLevel:
    threshold = read_number(raw, "rel_level")
    return RelLevel(format_number(threshold), axis="rel_level", kind="number", threshold=threshold)


_WEIGHTS_NAME = r"[A-Za-z_][A-Za-z0-9_.-]*"


def weights_value(raw: str) -> Weights:
    if raw == "none":
        return Weights(raw, axis="weights", kind="none", name=None)
    if not re.fullmatch(_WEIGHTS_NAME, raw):
        raise SpecError(f"weights={raw!r}: give none or the name of weights bound with --weights NAME=FILE "
                        "(a letter, then letters, digits, _ . -)")
    return Weights(raw, axis="weights", kind="named", name=raw)


def choice_parser(axis: str, words: tuple[str, ...]):
    """The parser of an axis whose values are the given words."""

    def parse(raw: str) -> Choice:
        if raw in words:
            return Choice(raw, raw, axis=axis)
        raise SpecError(f"unknown value {raw!r} for {axis}; valid values: {', '.join(words)}")

    return parse


def token_of(axis: str, raw: Any) -> str:
    """The text to parse for `raw` on `axis`: a token (spaces removed), a number, or a {grade: gain} dict."""
    if isinstance(raw, dict):
        return "{" + ",".join(f"{format_number(k)}:{format_number(v)}" for k, v in raw.items()) + "}"
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return format_number(raw)
    if not isinstance(raw, str):
        raise SpecError(f"{axis}: expected a string token, got {raw!r}")
    return str.__str__(raw).replace(" ", "")


class Param(NamedTuple):
    """A metric's own parameter (in its head: `rbp(p=0.8)`): its name, default token, parser and meaning."""

    name: str
    default: str | None  # None: the parameter must be given
    parse: Callable[[str], AxisValue]
    meaning: str
    examples: tuple[str, ...] = ()  # values worth trying (tests, sweeps)


def number_parser(name: str, low: float, high: float, low_open: bool = False):
    """The parser of a number parameter in [low, high] ((low, high] when low_open)."""

    def parse(raw: str) -> AxisValue:
        value = read_number(raw, name)
        if value > high or value < low or (low_open and value == low):
            bounds = f"{'(' if low_open else '['}{format_number(low)}, {format_number(high)}]"
            raise SpecError(f"{name}: {raw!r} is not in {bounds}")
        return AxisValue(format_number(value), axis=name, kind="number", number=value)

    return parse


def word_parser(name: str, words: tuple[str, ...]):
    """The parser of a parameter that is one of some words."""

    def parse(raw: str) -> AxisValue:
        if raw not in words:
            raise SpecError(f"unknown value {raw!r} for {name}; valid values: {', '.join(words)}")
        return AxisValue(raw, axis=name, kind=raw)

    return parse
