"""rankflavor/_early.py: what the command line sets first thing, and what a library caller keeps."""

from __future__ import annotations

import subprocess
import sys

from rankflavor import _early

PROBE = "import sys; sys.argv = [{argv0!r}]; import gc; before = gc.get_threshold(); import rankflavor; " \
        "print(*before, *gc.get_threshold())"


def _thresholds(argv0: str) -> tuple[list[int], list[int]]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(argv0=argv0)], capture_output=True, text=True,
                         check=True).stdout.split()
    numbers = [int(x) for x in out]
    return numbers[:3], numbers[3:]


def test_the_command_line_collects_young_objects_less_often():
    for argv0 in ("/usr/bin/rankflavor", "-m"):  # (the console script; python -m rankflavor)
        before, after = _thresholds(argv0)
        assert after == [_early.YOUNG_OBJECTS, *before[1:]]
        assert before[0] < _early.YOUNG_OBJECTS


def test_a_library_caller_keeps_its_collector():
    before, after = _thresholds("my_script.py")
    assert after == before
