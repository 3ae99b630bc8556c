"""JSON inputs (inputs/es_rank_eval.py, inputs/es_search.py): a file's text parsed by Python's json module, its
errors naming the line; and, when an error or a duplicate must name the line of an object inside a valid document,
a second parse by the json module's pure-Python scanner that records where each object starts (slower: only then).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from json import decoder, scanner
from typing import Any, NoReturn

from rankflavor.errors import InputError
from rankflavor.inputs.text_file import TextFile
from rankflavor.inputs.trec_lines import split_lines

Path_ = Sequence[str | int]  # keys and indices from the document's root to a value
_KIBANA = re.compile(r"\s*(GET|POST|PUT)\s+\S*\s*\n")


def parse(file: TextFile, fix: str, text: str | None = None, first_line: int = 1) -> Any:
    """The JSON value of the file (or of `text`, its line `first_line`); InputError naming the line of a syntax
    error, a Kibana console line (`GET /index/_rank_eval`) before the body, or a document nested too deeply."""
    text = file.text if text is None else text
    kibana = _KIBANA.match(text) if first_line == 1 else None
    if kibana:
        fail(file, 1, f"the file starts with Kibana's request line {kibana.group(0).strip()!r}, not with JSON",
             "delete that first line: the file holds the JSON body (or response) alone")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        fail(file, first_line + error.lineno - 1, f"not valid JSON: {error.msg} (column {error.colno})", fix)
    except RecursionError:
        fail(file, first_line, "JSON nested too deeply to read", fix)


def fail(file: TextFile, line: int | None, reason: str, fix: str) -> NoReturn:
    """Raise the InputError of a line of the file (its text shown)."""
    lines = split_lines(file.text)
    text = lines[line - 1] if line is not None and 0 < line <= len(lines) else None
    raise InputError(reason, source=file.where, line=line, text=text, fix=fix)


def where(path: Path_) -> str:
    """A path as it reads in JSON: `requests[2].ratings[0]`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "the document"


def located(text: str) -> tuple[Any, dict[int, int]]:
    """(the JSON value of `text`, the offset where each of its objects starts, by the object's id())."""
    starts: dict[int, int] = {}
    parser = json.JSONDecoder()

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[Any, int]:
        value, end = decoder.JSONObject(s_and_end, *args)
        starts[id(value)] = s_and_end[1] - 1
        return value, end

    parser.parse_object = parse_object  # type: ignore[attr-defined]
    parser.scan_once = scanner.py_make_scanner(parser)  # type: ignore[attr-defined]
    return parser.decode(text), starts


def line_at(text: str, offset: int) -> int:
    """The 1-based line of a character offset (lines end at \\n, \\r\\n or \\r, as split_lines splits them)."""
    head = text[:offset]
    return head.count("\n") + head.count("\r") - head.count("\r\n") + 1


def line_of_path(text: str, path: Path_, first_line: int = 1) -> int | None:
    """The line where the innermost object on `path` starts (None when the text cannot be parsed again)."""
    try:
        value, starts = located(text)
    except (ValueError, RecursionError):
        return None
    offset = starts.get(id(value), 0)
    for step in path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            break
        offset = starts.get(id(value), offset)
    return first_line + line_at(text, offset) - 1


def fail_at(file: TextFile, path: Path_, reason: str, fix: str, text: str | None = None, first_line: int = 1,
            ) -> NoReturn:
    """Raise the InputError of a value inside a valid document: its JSON path in the message, its line."""
    line = line_of_path(file.text if text is None else text, path, first_line)
    fail(file, line, f"{where(path)}: {reason}" if path else reason, fix)


def object_lines(text: str, paths: list[Path_]) -> list[int]:
    """The line of the object at each path (one parse for all)."""
    value, starts = located(text)
    return [line_at(text, starts.get(id(at(value, path)), 0)) for path in paths]


def at(value: Any, path: Path_) -> Any:
    """The value at `path` inside `value`."""
    for step in path:
        value = value[step]
    return value


def compact(value: Any) -> str:
    """A JSON value on one line (an error's offending text)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def as_id(value: Any) -> str | None:
    """A JSON id as its text: a non-empty string (valid Unicode), an integer's decimal text; None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str) or not value:
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # (a lone surrogate: "\ud800")
        return None
    return value


def as_number(value: Any) -> float | None:
    """A JSON number as a finite float; None for anything else (a string, a boolean, null, NaN, Infinity)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if number == number and abs(number) != float("inf") else None


def shown(mapping: Any, key: str) -> str:
    """A field's value as JSON writes it, for a message (`missing` when the object has no such field)."""
    if not isinstance(mapping, dict) or key not in mapping:
        return "missing"
    try:
        text = json.dumps(mapping[key], ensure_ascii=False)
    except ValueError:
        text = repr(mapping[key])
    return text if len(text) <= 60 else text[:57] + "..."
