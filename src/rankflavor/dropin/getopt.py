"""trec_eval's command line read as its getopt_long reads it (trec_eval.c: the option string
`hvqm:cl:nD:JN:M:R:T:oZ:` and its long options), into TrecEvalOptions.

GNU getopt_long's conventions: short options cluster (`-qc`), an argument may follow its letter (`-M100`,
`-mP.5`) or be the next word (`-m P.5`); long options take `--name=value` or `--name value` and may be
abbreviated to a unique prefix (`--meas`); options and the two file names may come in any order (the words
are permuted); `--` ends the options; `-` alone is a file name (stdin). Numbers are read as C's atol reads
them (leading digits, else 0). rankflavor adds `-a` (older trec_eval's "all measures": `-m all_trec`) and
`--flavors`.
"""

from __future__ import annotations

from typing import NamedTuple

from rankflavor.dropin.c_reading import TrecEvalExit, atol
from rankflavor.dropin.options import RequestedMeasure, TrecEvalOptions

TAKES_ARGUMENT = frozenset("mlDNMRTZ")
FLAGS = frozenset("hvqcnJoa")
LONG_OPTIONS = {  # trec_eval.c long_options: name -> (letter, takes an argument)
    "help": ("h", False), "version": ("v", False), "query_eval_wanted": ("q", False), "measure": ("m", True),
    "complete_rel_info_wanted": ("c", False), "level_for_rel": ("l", True), "nosummary": ("n", False),
    "Debug_level": ("D", True), "Judged_docs_only": ("J", False), "Number_docs_in_coll": ("N", True),
    "Max_retrieved_per_topic": ("M", True), "Rel_info_format": ("R", True), "Results_format": ("T", True),
    "Output_old_results_format": ("o", True), "Zscore": ("Z", True),
    "flavors": ("flavors", False),  # rankflavor's addition
}


class CommandLine(NamedTuple):
    """What a command line asks for: the options, or help (`-h`) or the version (`-v`)."""

    options: TrecEvalOptions | None
    help_wanted: bool = False
    version_wanted: bool = False
    help_measures: tuple[RequestedMeasure, ...] = ()


def requested_measure(text: str) -> RequestedMeasure:
    """`-m NAME[.PARAMS]` split at its first `.` (trec_eval.c mark_measure)."""
    name, dot, params = text.partition(".")
    return RequestedMeasure(name, params if dot else None)


def _usage_error(what: str) -> TrecEvalExit:
    return TrecEvalExit(1, f"trec_eval: {what}; usage: rankflavor trec_eval [flags] REL_INFO_FILE RESULTS_FILE "
                           "(-h lists the flags)")


def _long_option(word: str) -> tuple[str, bool, str | None]:
    """A `--name[=value]` word -> (its letter, whether it takes an argument, its inline value); a unique prefix is
    enough, as in getopt_long."""
    name, eq, value = word[2:].partition("=")
    matches = [full for full in LONG_OPTIONS if full == name] or [full for full in LONG_OPTIONS
                                                                   if full.startswith(name)]
    if len(matches) != 1:
        from rankflavor.flavor.suggest import close, did_you_mean

        hint = did_you_mean(close(name, list(LONG_OPTIONS)))
        kind = "ambiguous" if matches else "unrecognized"
        raise _usage_error(f"{kind} option '--{name}'{' (' + hint + ')' if hint else ''}")
    letter, takes = LONG_OPTIONS[matches[0]]
    if eq and not takes:
        raise _usage_error(f"option '--{matches[0]}' doesn't allow an argument")
    return letter, takes, (value if eq else None)


def _options(argv: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """The options in order as (letter, argument) and the other words (getopt_long with permutation)."""
    found: list[tuple[str, str | None]] = []
    operands: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--":
            operands.extend(words)
            break
        if word.startswith("--"):
            letter, takes, value = _long_option(word)
            if takes:
                value = value if value is not None else next(words, None)
                if value is None:
                    raise _usage_error(f"option '{word}' requires an argument")
            found.append((letter, value))
        elif word.startswith("-") and word != "-":
            found.extend(_cluster(word, words))
        else:
            operands.append(word)
    return found, operands


def _cluster(word: str, words) -> list[tuple[str, str | None]]:
    """`-qc`, `-M100`, `-m P.5`: one word of short options."""
    out: list[tuple[str, str | None]] = []
    for i, letter in enumerate(word[1:], start=1):
        if letter in TAKES_ARGUMENT:
            value = word[i + 1:] or next(words, None)
            if value is None:
                raise _usage_error(f"option requires an argument -- '{letter}'")
            out.append((letter, value))
            return out
        if letter not in FLAGS:
            raise _usage_error(f"invalid option -- '{letter}'")
        out.append((letter, None))
    return out


def parse_command_line(argv: list[str]) -> CommandLine:
    """trec_eval's flags -> what to do. Raises TrecEvalExit(1, ...) for a bad flag or a wrong number of files,
    as trec_eval prints its usage and exits 1."""
    found, operands = _options(argv)
    fields: dict = {}
    measures: list[RequestedMeasure] = []
    help_wanted = False
    for letter, value in found:
        if letter == "h":
            help_wanted = True
        elif letter == "v":
            return CommandLine(None, version_wanted=True)
        elif letter in ("m", "a"):
            from rankflavor.dropin.measures import marked_measures

            measures.append(requested_measure(value) if letter == "m" else RequestedMeasure("all_trec"))
            marked_measures(measures[-1:])  # (trec_eval.c marks each -m as getopt reads it: exit 1 there)
        elif letter == "D":
            level, _, query = str(value).partition(".")
            fields.update(debug_level=atol(level), debug_query=query or None)
        else:
            fields.update(_setting(letter, value))
    if help_wanted:
        return CommandLine(None, help_wanted=True, help_measures=tuple(measures))
    if len(operands) != 2:
        raise _usage_error(f"expected 2 files (REL_INFO_FILE RESULTS_FILE), got {len(operands)}")
    options = TrecEvalOptions(operands[0], operands[1], measures=tuple(measures))
    return CommandLine(options._replace(**fields))


def _setting(letter: str, value: str | None) -> dict:
    """The TrecEvalOptions field a flag sets (trec_eval.c's switch)."""
    text = str(value)
    return {
        "q": {"query_wanted": True}, "c": {"complete_rel_info": True}, "n": {"summary_wanted": False},
        "J": {"judged_docs_only": True}, "o": {"old_output": True}, "flavors": {"flavors": True},
        "l": {"relevance_level": atol(text)}, "N": {"num_docs_in_coll": atol(text)},
        "M": {"max_docs_per_topic": atol(text)}, "R": {"rel_info_format": text}, "T": {"results_format": text},
        "Z": {"zscore_file": text},
    }.get(letter, {})
