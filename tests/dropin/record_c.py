#!/usr/bin/env python3
"""Record C trec_eval 10.0's outputs on the drop-in's cases (trec_cases.py): c_outputs/trec/<case>.out (stdout)
and <case>.code (the exit code). Run after make_inputs.py, with the trec_eval built from its source by `make`:

usage: .venv/bin/python tests/dropin/record_c.py --trec-eval PATH/TO/trec_eval [CASE_PREFIX ...]

The tests never run C trec_eval: they compare `rankflavor trec_eval` with these files.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trec_cases import CASES, HERE, OUTPUTS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trec-eval", required=True, help="C trec_eval 10.0's binary")
    parser.add_argument("prefixes", nargs="*", help="record only the cases whose name starts with one of these")
    args = parser.parse_args()
    binary = str(Path(args.trec_eval).resolve())
    version = subprocess.run([binary, "-v"], capture_output=True, text=True).stderr.strip()
    if "10.0" not in version:
        sys.exit(f"record_c.py: {binary} says {version!r}; the goldens are trec_eval 10.0's")
    OUTPUTS.mkdir(parents=True, exist_ok=True)
    for name, argv in CASES.items():
        if args.prefixes and not name.startswith(tuple(args.prefixes)):
            continue
        done = subprocess.run([binary, *argv], cwd=HERE, capture_output=True)
        (OUTPUTS / f"{name}.out").write_bytes(done.stdout)
        (OUTPUTS / f"{name}.code").write_text(f"{done.returncode}\n")
        print(f"{name}: exit {done.returncode}, {len(done.stdout.splitlines())} lines")
    (OUTPUTS / "VERSION").write_text(f"{version}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
