"""The axes of an NDCG flavor: names, order, defaults, and the canonicalisation of each value.

Every axis value is held as its canonical token (a string without spaces), so that two flavors are
equal exactly when their canonical strings are equal. The engine reads the parsed meaning of a token
through the `parse_*` helpers at the bottom of this module.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from rankflavor.errors import SpecError

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_CALL = re.compile(r"^([a-z_0-9]+)\((.*)\)$")


def format_number(value: float) -> str:
    """Print a number as Python prints it, with integral values printed as integers (3.0 -> 3)."""
    if isinstance(value, bool):
        raise SpecError(f"expected a number, got {value!r}")
    if float(value).is_integer() and abs(value) < 2**63:
        return str(int(value))
    return repr(float(value))


def _number(text: str, what: str) -> float:
    if not re.fullmatch(_NUMBER, text.strip()):
        raise SpecError(f"{what}: {text!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise SpecError(f"{what}: {text!r} is not a finite number")
    return value


def _choice(axis: str, options: tuple[str, ...], extra: str = "") -> Callable[[str], str]:
    def canon(raw: str) -> str:
        if raw in options:
            return raw
        valid = ", ".join(options) + (f", {extra}" if extra else "")
        raise SpecError(f"unknown value {raw!r} for {axis}; valid values: {valid}")

    return canon


def _canon_gain(raw: str) -> str:
    if raw in ("linear", "exp2"):
        return raw
    if raw.startswith("{") and raw.endswith("}"):
        body = raw[1:-1].strip()
        if not body:
            raise SpecError("gain table is empty; give grade:gain pairs, e.g. gain={0:0,1:1,2:3,3:7}")
        table: dict[float, float] = {}
        for item in body.split(","):
            if item.count(":") != 1:
                raise SpecError(f"gain table entry {item.strip()!r} is not grade:gain, e.g. gain={{0:0,1:1,2:3}}")
            key_text, value_text = item.split(":")
            key = _number(key_text, "gain table grade")
            if key in table:
                raise SpecError(f"gain table lists grade {format_number(key)} twice")
            table[key] = _number(value_text, "gain table value")
        pairs = sorted(table.items())
        return "{" + ",".join(f"{format_number(k)}:{format_number(v)}" for k, v in pairs) + "}"
    raise SpecError(f"unknown value {raw!r} for gain; valid values: linear, exp2, a table like {{0:0,1:1,2:3,3:7}}")


def _canon_base(text: str, what: str) -> str:
    if text.strip() == "e":
        return "e"
    base = _number(text, what)
    if base <= 1:
        raise SpecError(f"{what}: base must be greater than 1, got {text!r}")
    return format_number(base)


def _canon_discount(raw: str) -> str:
    if raw in ("log2", "reciprocal", "none"):
        return raw
    match = _CALL.match(raw)
    if match and match.group(1) == "log":
        return f"log({_canon_base(match.group(2), 'discount log(b)')})"
    if match and match.group(1) == "jarvelin":
        base = _canon_base(match.group(2), "discount jarvelin(b)")
        if base == "e":
            base = format_number(math.e)
        return f"jarvelin({base})"
    raise SpecError(
        f"unknown value {raw!r} for discount; valid values: log2, jarvelin(b), log(b) (log(e) natural), reciprocal, none"
    )


def _positive_int(text: str, what: str) -> int:
    if not re.fullmatch(r"\d+", text.strip()) or int(text) < 1:
        raise SpecError(f"{what}: {text!r} is not a positive integer")
    return int(text)


def _canon_ideal(raw: str) -> str:
    if raw in ("global", "local", "max"):
        return raw
    match = _CALL.match(raw)
    if match and match.group(1) == "recall":
        return f"recall({_positive_int(match.group(2), 'ideal recall(K)')})"
    raise SpecError(f"unknown value {raw!r} for ideal; valid values: global, local, recall(K), max")


def _canon_ties(raw: str) -> str:
    simple = ("docid_desc", "docid_asc", "input", "average", "pessimistic", "optimistic")
    if raw in simple:
        return raw
    match = _CALL.match(raw)
    if match and match.group(1) == "random":
        seed = match.group(2).strip()
        if not re.fullmatch(r"\d+", seed):
            raise SpecError(f"ties random(seed): {seed!r} is not a non-negative integer")
        return f"random({int(seed)})"
    raise SpecError(f"unknown value {raw!r} for ties; valid values: {', '.join(simple)}, random(seed)")


def _canon_min_grade(raw: str) -> str:
    if raw == "none":
        return raw
    return format_number(_number(raw, "min_grade"))


def _canon_run_depth(raw: str) -> str:
    if raw == "all":
        return raw
    return str(_positive_int(raw, "run_depth"))


def _canon_round(raw: str) -> str:
    if raw == "none":
        return raw
    if not re.fullmatch(r"\d+", raw) or int(raw) > 15:
        raise SpecError(f"round: {raw!r} is not none or a number of decimals from 0 to 15")
    return str(int(raw))


@dataclass(frozen=True)
class Axis:
    name: str
    default: str
    canon: Callable[[str], str]
    meaning: str
    ndcg_only: bool = False


AXES: tuple[Axis, ...] = (
    Axis("gain", "linear", _canon_gain, "grade -> gain: linear g, exp2 2^g-1, or a table {grade:gain}"),
    Axis(
        "discount",
        "log2",
        _canon_discount,
        "rank i -> discount: log2 1/log2(i+1); jarvelin(b) 1 for i<b else 1/log_b(i); log(b) 1/log_b(i+1); "
        "reciprocal 1/i; none 1",
    ),
    Axis(
        "ideal",
        "global",
        _canon_ideal,
        "what IDCG is built from: global (all judged docs), local (the docs the run returned), "
        "recall(K) (judged docs in the run's top K), max (the highest grade in the qrels at every position)",
        ndcg_only=True,
    ),
    Axis(
        "ideal_depth",
        "k",
        _choice("ideal_depth", ("k", "all", "returned")),
        "IDCG cut at k, uncut (all), or at min(k, docs returned) (returned)",
        ndcg_only=True,
    ),
    Axis("ties", "docid_desc", _canon_ties, "order of documents with equal scores"),
    Axis("unjudged", "zero", _choice("unjudged", ("zero", "skip", "error")), "run docs absent from the qrels"),
    Axis(
        "negative",
        "unjudged",
        _choice("negative", ("unjudged", "zero", "keep", "error", "drop")),
        "negative grades: treated as unjudged, judged with gain 0, kept (negative gain), an error, or dropped "
        "(removed from the run's list before ranking and from the ideal: TF-Ranking's label < 0 mask)",
    ),
    Axis("min_grade", "none", _canon_min_grade, "judged grades below it get gain 0"),
    Axis(
        "empty",
        "zero",
        _choice("empty", ("skip", "zero", "one", "error")),
        "value of a query whose IDCG is 0 (status zero_ideal)",
        ndcg_only=True,
    ),
    Axis("missing", "skip", _choice("missing", ("skip", "zero")), "a judged query absent from the run"),
    Axis("precision", "f64", _choice("precision", ("f64", "f32")), "f32 rounds scores to float32 before ranking"),
    Axis("run_depth", "all", _canon_run_depth, "only the first N ranked docs of each query are read (trec_eval -M)"),
    Axis(
        "self_docs",
        "keep",
        _choice("self_docs", ("keep", "drop")),
        "drop removes run docs whose id equals the query id (BEIR)",
    ),
    Axis("round", "none", _canon_round, "reported values rounded to N decimals (the mean from unrounded values)"),
)
AXIS_BY_NAME = {axis.name: axis for axis in AXES}
AXIS_NAMES = tuple(axis.name for axis in AXES)
METRICS = ("ndcg", "dcg")


# ---- parsed meaning of tokens, for the engine and the reference -------------------------------------------


def parse_gain(token: str) -> str | dict[float, float]:
    """'linear', 'exp2', or the grade->gain table as a dict."""
    if token in ("linear", "exp2"):
        return token
    pairs = (item.split(":") for item in token[1:-1].split(","))
    return {float(k): float(v) for k, v in pairs}


def parse_call(token: str) -> tuple[str, str | None]:
    """Split 'jarvelin(2)' into ('jarvelin', '2'); a plain token gives (token, None)."""
    match = _CALL.match(token)
    if match:
        return match.group(1), match.group(2)
    return token, None


def parse_base(text: str) -> float:
    return math.e if text == "e" else float(text)

