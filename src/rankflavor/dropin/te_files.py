"""The files of a `rankflavor trec_eval` command: their bytes as trec_eval reads them, and both read and parsed by
the compiled reader on a thread (`EarlyRead`) while the main thread imports numpy and the engine.

The thread imports nothing heavy (the compiled reader releases the GIL while it scans), so the reading and parsing
overlap the imports instead of following them (200 x 1,000 rows, official measures: 0.187 -> 0.176 s median; on two
cores numpy's import slows by part of what the thread saves, so a 48,000-row run gains about 2 ms). What the thread
finds (the reader's answer, or the TrecEvalExit of a file it cannot read) is handed over once, when the reading asks
for it (dropin/standard_read.py), in the order trec_eval reads: the qrels, then the results, so an error is the one
trec_eval reports, at the point it reports it (an illegal measure before either file). A results file read from the
standard input (a name starting with `-`) is left to the main thread.
"""

from __future__ import annotations

import sys
import threading

from rankflavor.dropin.c_reading import TrecEvalExit
from rankflavor.environment import pure_python

try:
    from rankflavor.dropin import _te_reader
except ImportError:  # (not built: te_parse's Python loops read every file)
    _te_reader = None


STAND_IN = "ceci_nest_pas_un_docno"  # trec_eval.c's bogus ranking of a query -c adds: this doc, score 1.0


def compiled() -> bool:
    """Whether the compiled reader is built and not turned off (RANKFLAVOR_PURE_PYTHON=1)."""
    return _te_reader is not None and not pure_python()


def file_bytes(path: str, what: str, stdin: bool) -> bytes:
    """The file's bytes up to its first NUL (a `.gz` file decompressed: rankflavor's extension); exit 2 when it
    cannot be read or is empty, as trec_eval's `0 >= size` check. `stdin`: a path starting with `-` is the
    standard input (get_trec_results.c reads stdin for any such name)."""
    try:
        if stdin and path.startswith("-"):
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
            if path.endswith(".gz") and data[:2] == b"\x1f\x8b":
                import gzip

                data = gzip.decompress(data)
    except (OSError, EOFError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise TrecEvalExit(2, f"trec_eval: cannot read the {what} '{path}': {reason}") from None
    if not data:
        raise TrecEvalExit(2, f"trec_eval: the {what} '{path}' is empty (trec_eval cannot read an empty file)")
    end = data.find(b"\0")
    return data if end < 0 else data[:end]


Found = tuple[bytes, object]  # a file's bytes and the compiled reader's answer for them (te_parse reads it)


def _kept(data: bytes, answer: object) -> bytes:
    """The bytes to hand over beside the reader's answer: none once it has parsed them (freed at once, their memory
    reused by the arrays that follow), all of them when it declined (te_parse's Python loop reads them)."""
    return data if answer is None else b""


def bytes_and_answer(found: Found | None, path: str, what: str, stdin: bool) -> Found:
    """What an early read found for a file, else its bytes read now and no answer (te_parse parses them)."""
    return found if found is not None else (file_bytes(path, what, stdin), None)


class EarlyRead:
    """A standard qrels file and a results file read and parsed on a thread, started by `start`."""

    def __init__(self, qrels_path: str, results_path: str) -> None:
        self.qrels_path, self.results_path = qrels_path, results_path
        self._qrels: Found | TrecEvalExit | None = None
        self._results: Found | TrecEvalExit | None = None
        self._known: list[str] | None = None
        self._doc_ranks: bytearray | None = None  # the results' doc ids ranked (STAND_IN after them), while numpy imports
        self._handed_ranks: bytearray | None = None  # ... once the results they rank are handed over
        self._thread = threading.Thread(target=self._read_or_leave, name="rankflavor-early-read", daemon=True)
        self._thread.start()

    @classmethod
    def start(cls, options) -> EarlyRead | None:
        """The early read of a command's files (TrecEvalOptions), or None where the main thread reads them: another
        -R or -T format, or the compiled reader not built or turned off."""
        if options.rel_info_format != "qrels" or options.results_format != "trec_results" or not compiled():
            return None
        return cls(options.rel_info_file, options.results_file)

    def _read_or_leave(self) -> None:
        try:
            self._read()
        except BaseException:  # (anything else, e.g. MemoryError: left for the main thread to meet and report)
            self._qrels = self._results = None

    def _read(self) -> None:
        try:
            data = file_bytes(self.qrels_path, "qrels file", stdin=False)
        except TrecEvalExit as exc:
            self._qrels = exc
            return
        answer = _te_reader.parse_qrels(data)
        self._qrels = _kept(data, answer), answer
        if answer is None or len(answer) == 2 or self.results_path.startswith("-"):
            return  # (a malformed qrels stops trec_eval before its results are read)
        known = self._known = answer[2]
        try:
            data = file_bytes(self.results_path, "results file", stdin=True)
        except TrecEvalExit as exc:
            self._results = exc
            return
        parsed = _te_reader.parse_results(data, known) if known else _te_reader.parse_results(data)
        self._results = _kept(data, parsed), parsed
        if parsed is not None and len(parsed) == 6:  # (the order of tied docs needs these: ranked here, not later)
            self._doc_ranks = _te_reader.rank_ids([*known, *parsed[2], STAND_IN])

    def _taken(self, found: Found | TrecEvalExit | None) -> Found | None:
        if isinstance(found, TrecEvalExit):
            raise found
        return found

    def qrels(self, path: str) -> Found | None:
        """The qrels file's (bytes, reader's answer), raising trec_eval's exit where it could not be read; None
        when it is not the file read here or was handed over already (the caller reads it)."""
        if path != self.qrels_path:
            return None
        self._thread.join()
        found, self._qrels = self._qrels, None  # (handed over: its bytes are not held beyond their use)
        return self._taken(found)

    def results(self, path: str, known: list[str]) -> Found | None:
        """The results file's (bytes, reader's answer with `known` as the first doc codes), as `qrels`."""
        self._handed_ranks = None
        if path != self.results_path:
            return None
        self._thread.join()
        if isinstance(self._results, tuple) and self._known != known:
            return None
        found, self._results, self._known = self._results, None, None
        self._handed_ranks, self._doc_ranks = self._doc_ranks, None
        return self._taken(found)

    def doc_ranks(self) -> bytearray | None:
        """Right after `results` handed the results over: the rank (int64, in strcmp's order) of each of their doc
        ids, the known ones first, then that of -c's STAND_IN doc (`rank_ids` of the list); else None."""
        ranks, self._handed_ranks = self._handed_ranks, None
        return ranks
