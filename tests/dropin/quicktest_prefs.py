"""trec_eval 10.0's `make quicktest` commands for -R prefs, qrels_prefs and qrels_jg (its Makefile), run through
rankflavor's evaluate_other_format on the files of trec_eval's own test/ folder, each compared byte for byte
with the expected file. Not part of `make test` (those files are trec_eval's, not the project's):

    python tests/dropin/quicktest_prefs.py /path/to/trec_eval-source   # the folder holding test/
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from prefs_cases import options_for

from rankflavor.dropin.other_formats import evaluate_other_format

COMMANDS = [  # (arguments after ./trec_eval, expected file), as the Makefile's quicktest target lists them
    ("-m all_prefs -q -R prefs test/prefs.test test/prefs.results.test", "test/out.test.prefs"),
    ("-m all_prefs -q -R prefs test/prefs.comment.test test/prefs.results.test", "test/out.test.prefs"),
    ("-m all_prefs -q -R qrels_prefs test/qrels.test test/results.test", "test/out.test.qrels_prefs"),
    ("-m qrels_jg -q -R qrels_jg test/qrels.123 test/results.test", "test/out.test.qrels_jg"),
    ("-m qrels_jg -q -R qrels_jg test/qrels.comments.123 test/results.test", "test/out.test.qrels_jg"),
]


def main() -> int:
    source = Path(sys.argv[1])
    failed = 0
    for command, expected_file in COMMANDS:
        expected = (source / expected_file).read_text(encoding="utf-8")
        got = evaluate_other_format(options_for(command.split(), source))
        same = got == expected
        failed += not same
        print(f"{'no diff' if same else 'DIFF'}: trec_eval {command} | diff - {expected_file}")
        if not same:
            sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), n=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
