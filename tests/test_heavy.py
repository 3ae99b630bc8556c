"""tests/heavy.py: a missing heavy install skips its group's tests with one reason locally and fails under CI."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import heavy

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def absent_group(monkeypatch):
    """A group whose module and program this machine lacks, and one it has."""
    monkeypatch.setitem(heavy.GROUPS, "nothing", heavy.Group(
        "the nothing extra", "`make nothing` installs it", ("rankflavor_no_such_module",), ("no-such-program-rf",)))
    monkeypatch.setitem(heavy.GROUPS, "here", heavy.Group("the here extra", "always", ("json",), ("python3",)))
    heavy.missing.cache_clear()
    yield
    heavy.missing.cache_clear()


def test_a_missing_module_skips_with_the_groups_reason(absent_group, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        heavy.need_module("nothing", "rankflavor_no_such_module")
    assert str(skipped.value) == ("needs the nothing extra (missing here: rankflavor_no_such_module, "
                                  "no-such-program-rf): `make nothing` installs it")
    with pytest.raises(pytest.skip.Exception) as group_skipped:
        heavy.need_group("nothing")
    assert str(group_skipped.value) == str(skipped.value)  # one reason for the group: one summary line


def test_under_ci_a_missing_module_fails(absent_group, monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="rankflavor_no_such_module is missing under CI"):
        heavy.need_module("nothing", "rankflavor_no_such_module")
    with pytest.raises(pytest.fail.Exception, match="no-such-program-rf is missing under CI"):
        heavy.need_group("nothing")


def test_a_present_group_passes_and_its_module_is_returned(absent_group):
    assert heavy.missing("here") == ()
    heavy.need_group("here")
    assert heavy.need_module("here", "json").dumps([1]) == "[1]"


def test_a_broken_install_is_an_error_never_a_skip(absent_group, tmp_path, monkeypatch):
    (tmp_path / "rankflavor_broken_peer.py").write_text("import rankflavor_no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="rankflavor_no_such_dependency"):
        heavy.need_module("here", "rankflavor_broken_peer")


def test_a_groups_skips_are_one_summary_line(tmp_path):
    """Two test modules needing two missing modules of a group: pytest reports one SKIPPED line for both;
    under CI, two errors."""
    for name in ("one", "two"):
        (tmp_path / f"test_{name}.py").write_text(textwrap.dedent(f"""
            from heavy import GROUPS, Group, need_module
            GROUPS["nothing"] = Group("the nothing extra", "`make nothing` installs it",
                                      ("rankflavor_nope_one", "rankflavor_nope_two"))
            need_module("nothing", "rankflavor_nope_{name}")
            def test_never_runs():
                raise AssertionError
        """))
    (tmp_path / "test_three.py").write_text("def test_runs():\n    pass\n")
    argv = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(tmp_path)]
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env |= {"PYTHONPATH": str(TESTS), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # (hypothesis, xdist: not needed)
    local = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env)
    summary = [line for line in local.stdout.splitlines() if line.startswith("SKIPPED")]
    assert local.returncode == 0 and len(summary) == 1, local.stdout
    assert summary[0].startswith("SKIPPED [2] ") and summary[0].endswith(
        ": needs the nothing extra (missing here: rankflavor_nope_one, rankflavor_nope_two): `make nothing` installs it")
    ci = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env={**env, "CI": "true"})
    assert ci.returncode != 0, ci.stdout
    assert "rankflavor_nope_one is missing under CI" in ci.stdout and "rankflavor_nope_two is missing under CI" in ci.stdout
