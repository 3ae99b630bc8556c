"""Golden corpus: every case of cases.py must print today's output byte for byte (corpus/<case id>.txt).

A failure means a number or an output changed. If the change is intended, re-record with
`.venv/bin/python tests/golden/record.py` and say so in the commit message; otherwise fix the code.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import CASES, CORPUS, make_synthetic, run_case

SHOWN_LINES = 60


@pytest.fixture(scope="session")
def synthetic_dir(tmp_path_factory) -> Path:
    """benchmarks/make_synthetic.py 300 1000 40 into a temporary folder, once per session (per xdist worker)."""
    return make_synthetic(tmp_path_factory.mktemp("golden-synthetic"))


def _mismatch(case_id: str, expected: str, actual: str) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                      fromfile=f"corpus/{case_id}.txt", tofile="today", n=2))
    shown = "".join(lines[:SHOWN_LINES])
    more = f"\n... {len(lines) - SHOWN_LINES} more diff lines" if len(lines) > SHOWN_LINES else ""
    if not lines:  # equal line by line: the difference is in line ends or a final newline
        shown = f"expected {expected[-80:]!r}\nactual   {actual[-80:]!r}"
    return (f"output of golden case {case_id} differs from the corpus (re-record with tests/golden/record.py only for "
            f"an intended change):\n{shown}{more}")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden(case, request):
    path = CORPUS / f"{case.id}.txt"
    assert path.exists(), f"corpus file {path.name} is missing: record it with tests/golden/record.py"
    data_dirs = {"synthetic": request.getfixturevalue("synthetic_dir")} if case.data == "synthetic" else {}
    expected = path.read_bytes().decode("utf-8")
    actual = run_case(case, data_dirs)
    if actual != expected:
        pytest.fail(_mismatch(case.id, expected, actual), pytrace=False)


def test_corpus_has_no_stale_files():
    wanted = {f"{c.id}.txt" for c in CASES}
    stale = sorted(p.name for p in CORPUS.iterdir() if p.name not in wanted)
    assert not stale, f"corpus files of no case (delete them with tests/golden/record.py): {stale[:10]}"
