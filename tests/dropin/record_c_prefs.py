"""Record C trec_eval 10.0's output on the cases of prefs_cases.py: tests/dropin/c_outputs/prefs/<case>.out (its
stdout, bytes) and <case>.exit (its exit code; a signal N is 128 + N, as a shell reports abort() as 134).

    python tests/dropin/make_prefs_inputs.py
    python tests/dropin/record_c_prefs.py --trec-eval /path/to/trec_eval   # built from usnistgov/trec_eval 10.0
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from prefs_cases import CASES

HERE = Path(__file__).parent
INPUTS = HERE / "inputs_prefs"
OUT = HERE / "c_outputs" / "prefs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trec-eval", required=True, help="the C trec_eval 10.0 binary")
    args = parser.parse_args()
    binary = str(Path(args.trec_eval).resolve())
    OUT.mkdir(parents=True, exist_ok=True)
    for stale in OUT.glob("*"):
        stale.unlink()
    for name, argv in CASES.items():
        done = subprocess.run([binary, *argv], cwd=INPUTS, capture_output=True, check=False)
        code = done.returncode if done.returncode >= 0 else 128 - done.returncode
        (OUT / f"{name}.out").write_bytes(done.stdout)
        (OUT / f"{name}.exit").write_text(f"{code}\n")
        print(f"{name}: exit {code}, {len(done.stdout)} bytes")


if __name__ == "__main__":
    main()
