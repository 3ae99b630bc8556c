#!/usr/bin/env python3
"""Record C trec_eval 10.0's outputs on the drop-in's cases (trec_cases.py, with edge_cases.py's): c_outputs/trec/
<case>.out (stdout, its bytes) and <case>.code (the exit code). Run after make_inputs.py, with the trec_eval
built from its source by `make`:

usage: .venv/bin/python tests/dropin/record_c.py --trec-eval PATH/TO/trec_eval [--valgrind] [CASE_PREFIX ...]

--valgrind also runs each case under valgrind's memcheck and refuses to record one on which C trec_eval reads or
writes past a buffer, reads an uninitialised value or crashes: such a case belongs in edge_cases.UNDEFINED (the
goldens are C's output where C is defined). One uninitialised value is let pass: m_rbp.c's `min` and `max`, never
initialised, on every rbp (-m all_trec too), and what it flows into (valgrind --track-origins names m_rbp.c's
stack as the origin): this build holds tiny positive numbers there, so the gains are normalised as if they
started at 0, the reading rankflavor follows (docs/trec_eval.md).

The tests never run C trec_eval: they compare `rankflavor trec_eval` with these files.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trec_cases import CASES, HERE, OUTPUTS

RBP_ORIGIN = "te_calc_rbp (m_rbp.c"  # (the stack allocation of m_rbp.c's uninitialised min and max)


def undefined(binary: str, argv: list[str]) -> str | None:
    """valgrind's first complaint about C trec_eval on this command line (but m_rbp.c's min and max), or None."""
    done = subprocess.run(["valgrind", "-q", "--track-origins=yes", binary, *argv], cwd=HERE, capture_output=True)
    lines = [line.split(" ", 1)[-1] for line in done.stderr.decode("latin-1").splitlines() if line.startswith("==")]
    blocks, block = [], []
    for line in [*lines, ""]:
        if line.strip():
            block.append(line)
        elif block:
            blocks.append(block)
            block = []
    complaints = [b[0] for b in blocks if not any(RBP_ORIGIN in line for line in b)]
    if done.returncode < 0:
        complaints.append(f"killed by signal {-done.returncode}")
    return complaints[0] if complaints else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trec-eval", required=True, help="C trec_eval 10.0's binary")
    parser.add_argument("--valgrind", action="store_true", help="refuse a case on which C's behaviour is undefined")
    parser.add_argument("prefixes", nargs="*", help="record only the cases whose name starts with one of these")
    args = parser.parse_args()
    binary = str(Path(args.trec_eval).resolve())
    version = subprocess.run([binary, "-v"], capture_output=True, text=True).stderr.strip()
    if "10.0" not in version:
        sys.exit(f"record_c.py: {binary} says {version!r}; the goldens are trec_eval 10.0's")
    OUTPUTS.mkdir(parents=True, exist_ok=True)
    cases = {name: argv for name, argv in CASES.items() if not args.prefixes or name.startswith(tuple(args.prefixes))}
    if args.valgrind:
        with ThreadPoolExecutor(4) as pool:
            found = dict(zip(cases, pool.map(lambda argv: undefined(binary, argv), cases.values()), strict=True))
        bad = {name: complaint for name, complaint in found.items() if complaint}
        if bad:
            sys.exit("record_c.py: C's behaviour is undefined on these (move them to edge_cases.UNDEFINED):\n"
                     + "\n".join(f"  {name}: {complaint}" for name, complaint in bad.items()))
    for name, argv in cases.items():
        done = subprocess.run([binary, *argv], cwd=HERE, capture_output=True)
        (OUTPUTS / f"{name}.out").write_bytes(done.stdout)
        (OUTPUTS / f"{name}.code").write_text(f"{done.returncode}\n")
        print(f"{name}: exit {done.returncode}, {len(done.stdout.splitlines())} lines")
    (OUTPUTS / "VERSION").write_text(f"{version}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
