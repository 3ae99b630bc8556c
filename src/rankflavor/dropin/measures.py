"""trec_eval's measures as `-m` marks them, each made the values it prints (its "slots"), each slot a flavor.

trec_eval 10.0 measures.c lists its measures (`te_trec_measures`: the order every query's lines and the summary
follow, whatever the order of the `-m` flags) and its nicknames (`official`, `set`, `all_trec`, ...). Each
measure's init function (meas_init.c) decides its printed names: a cutoff measure (`P`, `recall`, `success`,
...: te_init_meas_a_double_cut_long) prints one value per cutoff, sorted, as `P_5` (atol: `23.4` -> 23); a level
measure (`iprec_at_recall`, `Rprec_mult`: ..._cut_double) prints `%3.2f` of each level, sorted; a measure with
parameters (`utility`, `11pt_avg`, `relstring`, `set_F`: te_init_meas_s_double_p_double; `ndcg`, `G`, `rbp`, ...:
te_init_meas_s_double_p_pair) prints its name, `_`, and the parameters as typed (`utility_2,-1,0,0`). Only the
first `-m` with parameters of a measure counts (meas_init.c stops at the first match).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rankflavor.dialects.trec_table import LEVELS, MEASURES, NICKNAMES, ORDER, OTHER_FORMAT
from rankflavor.dropin.c_reading import TrecEvalExit, atol, c_doubles, c_longs
from rankflavor.dropin.options import RequestedMeasure, TrecEvalOptions
from rankflavor.engine.budget import check_flavor_count
from rankflavor.errors import SpecError
from rankflavor.flavor import Flavor, parse_spec
from rankflavor.flavor.values import MAX_WHOLE


# trec_eval's measure table (one, shared with the library's measure sets): dialects/trec_table.py
class Slot:
    """One value trec_eval prints per query and in the summary: its printed name, how it prints (`double`,
    `long`, `gm`, `runid`, `num_q`, `relstring`), and the flavor that computes it (`part`: a part of the
    flavor's per-query results instead of its value: trec_eval's dcg and ideal_dcg are ndcg's parts). Compared
    by identity: the print loop keys its per-query dicts by slot (a flavor's hash, 30 times a query, was the
    loop's cost). A plain class (a frozen dataclass cost 0.65 ms of every call's start-up)."""

    __slots__ = ("flavor", "kind", "length", "name", "part")

    def __init__(self, name: str, kind: str, flavor: Flavor | None = None, part: str | None = None,
                 length: int = 0) -> None:
        self.name, self.kind, self.flavor, self.part = name, kind, flavor, part
        self.length = length  # relstring's

    def __repr__(self) -> str:
        return f"Slot({self.name!r}, {self.kind!r}, {self.flavor!r}, {self.part!r}, {self.length!r})"


def marked_measures(requested: tuple[RequestedMeasure, ...]) -> list[str]:
    """The measures the `-m` flags mark, in te_trec_measures order (`official` when none is given)."""
    marked: set[str] = set()
    for request in requested or (RequestedMeasure("official"),):
        if request.params == "":
            raise TrecEvalExit(1, f"trec_eval: illegal measure '{request.name}.': a '.' must be followed by "
                                  f"parameters (e.g. -m {request.name}.5,10)")
        names = NICKNAMES.get(request.name, (request.name,))
        for name in names:
            if name not in ORDER:
                raise TrecEvalExit(1, f"trec_eval: illegal measure '{request.name}'{_suggestion(request.name)}")
        marked.update(names)
    return [name for name in ORDER if name in marked]


def _suggestion(name: str) -> str:
    from rankflavor.flavor.suggest import close, did_you_mean

    hint = did_you_mean(close(name, [*ORDER, *NICKNAMES]))
    return f"; {hint}" if hint else "; -h -m all_trec describes trec_eval's measures"


def parameters(name: str, requested: tuple[RequestedMeasure, ...]) -> str | None:
    """The parameter string of the first `-m NAME.PARAMS` of a measure (meas_init.c), else None."""
    return next((r.params for r in requested if r.name == name and r.params), None)


def slots(options: TrecEvalOptions) -> list[Slot]:
    """Every value the options ask trec_eval to print, in its order, each with its flavor."""
    out: list[Slot] = []
    for name in marked_measures(options.measures):
        if name in OTHER_FORMAT:
            raise TrecEvalExit(4, f"trec_eval: {name} is measured on preference or judgment-group files: add "
                                  "-R prefs, -R qrels_prefs or -R qrels_jg")
        out.extend(measure_slots(name, parameters(name, options.measures), options))
    return out


def measure_slots(name: str, params: str | None, options: TrecEvalOptions) -> list[Slot]:
    """The slots of one measure (its parameters as typed after the `.`, or None for its defaults)."""
    kind, defaults = MEASURES[name]
    if kind in ("runid", "num_q"):
        return [Slot(name, kind)]
    if kind in ("long", "double", "gm"):
        return [Slot(name, kind, with_options(trec_flavor(name), options))]
    if kind == "cuts":
        cuts = sorted(c_longs(params)) if params else list(defaults)
        _check_cuts(name, cuts, positive=True)
        check_flavor_count(len(cuts), f"{name}'s cutoffs")  # (before they are made: engine/budget.py)
        if name == "unj" and options.judged_docs_only:  # (-J drops every unjudged doc first: unj is 0)
            return [Slot(f"{name}_{k}", "double") for k in cuts]
        return [Slot(f"{name}_{k}", "double", with_options(trec_flavor(f"{name}_{k}"), options)) for k in cuts]
    if kind == "levels":
        levels = sorted(c_doubles(params)) if params else list(defaults)
        _check_cuts(name, levels, positive=False)
        check_flavor_count(len(levels), f"{name}'s levels")
        param = "level" if name == "iprec_at_recall" else "factor"
        base = trec_flavor(f"{name}_{defaults[0]:3.2f}")
        return [Slot(level_name(name, x), "double", with_options(base.with_(**{param: repr(x)}), options))
                for x in levels]
    printed = f"{name}_{params}" if params else name
    if kind == "params":
        values = c_doubles(params) if params else list(defaults)
        if name == "relstring":
            return [Slot(printed, "relstring", length=int(values[0]))]
        if name == "utility" and len(values) != 4:  # (m_utility.c fails at the first query: exit 4)
            return [Slot(printed, "double")]
        return [Slot(printed, "double", with_options(PARAMETERISED[name](values, options), options))]
    pairs = _pairs(params) if params else []
    flavor = with_options(_pair_flavor(name, pairs), options)
    part = {"dcg": "dcg", "ideal_dcg": "idcg"}.get(name)
    return [Slot(printed, "double", flavor, part)]


def trec_flavor(printed: str) -> Flavor:
    """The flavor of a name as trec_eval prints it (dialects/trec_eval.py)."""
    return parse_spec(f"trec_eval.{printed}")[0]


def with_options(flavor: Flavor, options: TrecEvalOptions) -> Flavor:
    """trec_eval's options as axes, each where the measure reads it (-l: the binary measures only)."""
    from rankflavor import registry

    reads = registry.get(flavor.metric).reads
    changes: dict[str, str] = {}
    if options.complete_rel_info:
        changes["missing"] = "empty"  # (trec_eval.c: a missing query is scored on a bogus, emptied ranking)
    if options.max_docs_per_topic is not None and options.max_docs_per_topic > 0:  # (-M 0: every list emptied)
        changes["run_depth"] = str(min(options.max_docs_per_topic, MAX_WHOLE))  # (beyond: every row)
    if options.relevance_level != 1 and "rel_level" in reads:
        changes["rel_level"] = str(options.relevance_level)
    if options.judged_docs_only:
        changes["unjudged"] = "skip"
    changes = {axis: value for axis, value in changes.items() if axis in reads}
    try:
        return flavor.with_(**changes)
    except SpecError:  # (a flavor that refuses rel_level reads grades: trec_eval's rbp ignores -l too)
        changes.pop("rel_level", None)
        return flavor.with_(**changes)


def _check_cuts(name: str, values: list, positive: bool) -> None:
    """meas_init.c's checks: cutoffs > 0 (long cutoffs) and no duplicates; trec_eval exits 2. A long cutoff beyond
    the engine's MAX_WHOLE is refused with exit 2 too, where trec_eval reads it (docs/trec_eval.md)."""
    if positive and values[0] <= 0:
        raise TrecEvalExit(2, f"trec_eval: cannot initialize measure '{name}': cutoff {values[0]} is not positive")
    if len(set(values)) != len(values):
        raise TrecEvalExit(2, f"trec_eval: cannot initialize measure '{name}': duplicate cutoffs")
    if positive and values[-1] > MAX_WHOLE:  # (sorted: the largest last)
        raise TrecEvalExit(2, f"trec_eval: measure '{name}': cutoff {values[-1]} is beyond {MAX_WHOLE:,}, the deepest "
                              "cutoff rankflavor evaluates (trec_eval reads it and cuts no list there); give a cutoff "
                              f"up to {MAX_WHOLE:,}")


def _pairs(text: str) -> list[tuple[str, float]]:
    """`1=3,2=9` -> [("1", 3.0), ("2", 9.0)], as meas_init.c get_param_pairs reads it: NAME=VALUE items
    separated by commas (a name or a value may be empty; two commas or two `=` in a row, or a last item without
    `=`, are malformed: exit 2), each value read by atof."""
    last = ","
    for char in text:
        if char in ",=" and char == last:
            last = ","
            break
        if char in ",=":
            last = char
    if last != "=":
        raise TrecEvalExit(2, f"trec_eval: malformed pair parameters in '{text}': write NAME=VALUE,... "
                              "(e.g. -m ndcg.1=3,2=9)")
    pairs: list[tuple[str, float]] = []
    name, start = "", 0
    for i, char in enumerate(text):
        if char == "=":
            name, start = text[start:i], i + 1
        elif char == ",":
            pairs.append((name, c_doubles(text[start:i])[0]))
            start = i + 1
    return [*pairs, (name, c_doubles(text[start:])[0])]


def level_name(name: str, value: float) -> str:
    """A level measure's printed name: meas_init.c append_double's `%s_%3.2f` in a buffer of strlen(name) + 10
    bytes (a longer number is cut: iprec_at_recall_100000.0)."""
    return f"{name}_{value:3.2f}"[:len(name) + 9]


def _pair_flavor(name: str, pairs: list[tuple[str, float]]) -> Flavor:
    """The flavor of a measure with name=value parameters: rbp's `p` (its last), the gain measures' gain per grade
    (gain_init.c setup_gains: a grade a pair does not name keeps its own value as gain; a name that is not an
    integer is ignored; the ideal holds the positive gains only, as m_ndcg.c's loop stops at the first gain
    <= 0)."""
    from rankflavor.flavor.values import format_number

    base = trec_flavor("ndcg" if name in ("dcg", "ideal_dcg") else name)
    if name in ("rbp", "rbp_resid"):
        p = [value for key, value in pairs if key == "p"]
        return base.with_(p=format_number(p[-1])) if p else base
    gains: dict[int, float] = {}
    for key, value in pairs:
        if not re.fullmatch(r"[+-]?[0-9]+", key):
            continue
        level = atol(key)
        if level < 0 and value != 0:
            raise TrecEvalExit(2, f"trec_eval: -m {name}.{key}=...: trec_eval gives this gain to the docs "
                                  f"{'absent from the qrels' if level == -1 else 'the qrels grade below 0'}"
                                  "; rankflavor's gain tables give gains to grades (see docs/trec_eval.md)")
        if level in gains and int(gains[level] - value) > 0:  # (gain_init.c sorts by (int)(a - b))
            raise TrecEvalExit(2, f"trec_eval: -m {name}: grade {level} is given two gains, {format_number(gains[level])} "
                                  f"then {format_number(value)}: trec_eval then ranks with the smaller and builds its "
                                  "ideal with the first (see docs/trec_eval.md); give one gain per grade")
        gains.setdefault(level, value)
    gains = {level: gain for level, gain in gains.items() if level >= 0}
    if not gains:
        return base
    table = ",".join(f"{grade}:{format_number(gain)}" for grade, gain in sorted(gains.items()))
    flavor = base.with_(gain=f"{{{table},*:g}}")
    return flavor.with_(ideal="positive") if name in ("ndcg", "dcg", "ideal_dcg") and min(gains.values()) < 0 \
        else flavor


def _utility(values: list[float], options: TrecEvalOptions) -> Flavor:
    names = ("rel_ret", "nonrel_ret", "rel_nonret", "nonrel_nonret")
    from rankflavor.flavor.values import format_number

    given = {key: format_number(value) for key, value in zip(names, values, strict=False)}
    return trec_flavor("utility").with_(**given, docs=str(options.num_docs_in_coll or 0))


def _eleven_point(values: list[float], options: TrecEvalOptions) -> Flavor:
    from rankflavor.flavor.values import format_number

    if values != sorted(values):  # (m_11pt_avg.c walks its levels as if ascending)
        raise TrecEvalExit(2, f"trec_eval: -m 11pt_avg.{','.join(format_number(x) for x in values)}: trec_eval reads "
                              "the recall levels as if they were in ascending order, and then gives a level the "
                              "value of another (see docs/trec_eval.md); list them in ascending order")
    if list(values) == list(LEVELS):
        return trec_flavor("11pt_avg")
    return trec_flavor("11pt_avg").with_(points="/".join(format_number(x) for x in values))


def _set_f(values: list[float], options: TrecEvalOptions) -> Flavor:
    from rankflavor.flavor.values import format_number

    return trec_flavor("set_F").with_(beta=f"sqrt({format_number(values[0])})")  # set_F.x: x is beta²


PARAMETERISED: dict[str, Callable[[list[float], TrecEvalOptions], Flavor]] = {
    "utility": _utility, "11pt_avg": _eleven_point, "set_F": _set_f}
