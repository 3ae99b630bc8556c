#!/usr/bin/env python3
"""Record the golden corpus: run every case of cases.py and write corpus/<case id>.txt.

usage: .venv/bin/python tests/golden/record.py [CASE_ID_PREFIX ...]

Re-record only for an intended change of output, and say so (and why) in the commit message: the corpus
is the proof that a change of code changed no number and no CLI output. With prefixes, only the matching
cases are re-recorded and no file is deleted; without, every case is recorded and corpus files that belong
to no case are deleted. The large workload (benchmarks/make_synthetic.py 300 1000 40) is generated into a
temporary folder first. tests/golden/test_golden.py runs the same cases through the same `run_case`.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import CASES, CORPUS, make_synthetic, run_case


def main(prefixes: list[str]) -> int:
    chosen = [c for c in CASES if not prefixes or any(c.id.startswith(p) for p in prefixes)]
    if not chosen:
        print(f"no case matches {prefixes}", file=sys.stderr)
        return 2
    CORPUS.mkdir(exist_ok=True)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rankflavor-golden-") as tmp:
        data_dirs = {}
        if any(c.data == "synthetic" for c in chosen):
            data_dirs["synthetic"] = make_synthetic(Path(tmp) / "synthetic")
        written = 0
        for case in chosen:
            text = run_case(case, data_dirs)
            path = CORPUS / f"{case.id}.txt"
            if not path.exists() or path.read_bytes() != text.encode("utf-8"):
                path.write_bytes(text.encode("utf-8"))
                written += 1
    stale = []
    if not prefixes:
        wanted = {f"{c.id}.txt" for c in CASES}
        stale = [p for p in CORPUS.iterdir() if p.name not in wanted]
        for p in stale:
            p.unlink()
    size = sum(p.stat().st_size for p in CORPUS.iterdir())
    print(f"{len(chosen)} cases run, {written} files written, {len(stale)} stale files deleted; corpus "
          f"{len(list(CORPUS.iterdir()))} files, {size / 1e6:.2f} MB; {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
