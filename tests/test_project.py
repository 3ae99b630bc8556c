"""A project's pinned flavors (flavor/project.py) and `eval --against saved.json` (report/against.py)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import rankflavor as rf
from rankflavor.cli.main import main
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS
from rankflavor.flavor.project import find_project


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    (tmp_path / "rankflavor.toml").write_text('primary = "ndcg@3 gain=exp2"\n[flavors]\ndeep = "ndcg@4 ideal=local"\n')
    work = tmp_path / "experiments" / "today"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)  # (found by searching upward)
    return tmp_path


def test_project_flavors_are_found_upward_and_used_when_no_spec_is_given(project):
    assert find_project().path == project / "rankflavor.toml"
    assert rf.parse_spec("project.primary") == rf.parse_spec("ndcg@3 gain=exp2")
    assert rf.parse_spec("project.deep@2 ties=average") == rf.parse_spec("ndcg@2 ideal=local ties=average")
    code, out, _ = _cli("eval", str(SEED000_QRELS), str(SEED000_RUNS[0]), "--format", "json")
    result = json.loads(out)["results"][0]
    assert code == 0 and result["label"] == "project.primary"
    assert result["flavor"] == str(rf.Flavor.parse("ndcg@3 gain=exp2"))
    code, out, _ = _cli("presets", "--format", "json")
    rows = {r["preset"]: r for r in json.loads(out)}
    assert rows["project.deep"]["flavor"] == str(rf.Flavor.parse("ndcg@4 ideal=local"))
    assert rows["sklearn"]["peer"].startswith("scikit-learn")  # (the presets stay: project.* never shadows one)


def test_project_errors_are_named(project, tmp_path):
    with pytest.raises(rf.SpecError, match=r"names no flavor 'nope'; it names: project\.primary, project\.deep"):
        rf.parse_spec("project.nope")
    with pytest.raises(rf.SpecError, match=r"names no flavor 'deeep'; did you mean project\.deep\? it names"):
        rf.parse_spec("project.deeep")
    (project / "pyproject.toml").write_text('[tool.rankflavor]\nprimary = "ndcg@5"\n')
    with pytest.raises(rf.SpecError, match="both define the project's flavors"):
        rf.parse_spec("project.primary")
    (project / "pyproject.toml").write_text('[tool.other]\nx = 1\n')  # (no [tool.rankflavor]: not a project file)
    assert rf.parse_spec("project.primary") == rf.parse_spec("ndcg@3 gain=exp2")
    (project / "rankflavor.toml").write_text('primary = "ndcg@3 gain=cubic"\n')
    with pytest.raises(rf.SpecError, match=r"rankflavor\.toml: project\.primary = 'ndcg@3 gain=cubic': unknown value"):
        rf.parse_spec("project.primary")
    (project / "rankflavor.toml").write_text('primary = "ndcg@3\n')
    with pytest.raises(rf.SpecError, match="not valid TOML"):
        rf.parse_spec("project.primary")


def test_pyproject_tool_table(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.rankflavor]\nprimary = "sklearn@5"\n'
                                             '[tool.rankflavor.flavors]\ncut = "trec_eval@10"\n')
    monkeypatch.chdir(tmp_path)
    assert rf.parse_spec("project.primary") == rf.parse_spec("sklearn@5")
    assert rf.parse_spec("project.cut") == rf.parse_spec("ndcg@10")


def test_against_a_saved_result(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    qrels, x, y = (str(p) for p in (SEED000_QRELS, *SEED000_RUNS))
    code, out, _ = _cli("eval", qrels, x, y, "-m", "ndcg@3", "-m", "ndcg@3 gain=exp2", "--format", "json")
    saved = tmp_path / "saved.json"
    saved.write_text(out)
    code, out, err = _cli("eval", qrels, x, y, "-m", "ndcg@3", "-m", "ndcg@3 gain=exp2", "--against", str(saved))
    notes = [line for line in err.splitlines() if "ranx reads ndcg@3 otherwise" not in line]  # (eval's note on ranx)
    assert code == 0 and "against" in out and "+0.000000  ndcg@3 gain=exp2" in out and not notes
    # the same label under another flavor: refused, naming the axis; allowed with a warning
    (tmp_path / "rankflavor.toml").write_text('primary = "ndcg@3"\n')
    base = json.loads(saved.read_text())
    base["results"][0]["label"] = "project.primary"
    saved.write_text(json.dumps(base))
    (tmp_path / "rankflavor.toml").write_text('primary = "ndcg@3 gain=exp2"\n')
    code, _, err = _cli("eval", qrels, x, "--against", str(saved))
    assert code == 2 and "the flavor changed since the saved results (gain linear -> exp2)" in err
    code, out, err = _cli("eval", qrels, x, "--against", str(saved), "--allow-flavor-change", "--format", "json")
    rows = json.loads(out)["against"]["rows"]
    assert code == 0 and rows[0]["saved"] == base["results"][0]["mean"] and "compared across a change" in err
    # another qrels: refused; another version: a warning
    other = tmp_path / "other.qrels"
    other.write_text(Path(qrels).read_text().replace(" 3\n", " 2\n", 1))
    code, _, err = _cli("eval", str(other), x, "-m", "ndcg@3", "--against", str(saved))
    assert code == 2 and "the qrels differ" in err
    base["version"] = "0.0.1"
    saved.write_text(json.dumps(base))
    code, _, err = _cli("eval", qrels, x, "-m", "ndcg@3", "--against", str(saved))
    assert code == 0 and "from rankflavor 0.0.1" in err
    code, _, err = _cli("eval", qrels, x, "--against", str(tmp_path / "missing.json"))
    assert code == 2 and "file not found" in err


def test_against_names_what_is_on_one_side_only(tmp_path):
    """A result the saved file lacks is a warning (its saved and change are null), and when nothing matches at all
    (a run renamed) the warning says what the saved file holds."""
    qrels, x, y = (str(p) for p in (SEED000_QRELS, *SEED000_RUNS))
    saved = tmp_path / "saved.json"
    saved.write_text(_cli("eval", qrels, x, "-m", "ndcg@3", "--format", "json")[1])
    code, out, err = _cli("eval", qrels, x, "-m", "ndcg@3", "-m", "map", "--against", str(saved))
    assert code == 0 and "X.run map: not in the saved results (saved and change null)" in err
    assert "no run and label" not in err and "in the saved results only" not in err
    code, out, err = _cli("eval", qrels, y, "-m", "ndcg@3", "--against", str(saved))
    assert code == 0 and ("no run and label of these results is in the saved results, which hold runs X.run and "
                          "labels ndcg@3") in err and "X.run ndcg@3: in the saved results only" in err
    code, out, err = _cli("eval", qrels, y, "-m", "ndcg@3", "--name", "Y.run=X.run", "--against", str(saved))
    assert code == 0 and "not in the saved" not in err and "X.run  0.904977  0.760188  -0.144789  ndcg@3" in out, out


@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_a_project_file_that_is_not_a_file_is_refused_not_skipped(tmp_path, kind):
    """A rankflavor.toml that is a symlink to /dev/zero, a FIFO or a folder was skipped silently ("no project
    flavors here"); it is an error naming it."""
    import os

    from rankflavor.errors import SpecError

    path = tmp_path / "rankflavor.toml"
    {"device": lambda: path.symlink_to("/dev/zero"), "fifo": lambda: os.mkfifo(path), "folder": path.mkdir}[kind]()
    with pytest.raises(SpecError, match=r"rankflavor\.toml is not a regular file"):
        find_project(tmp_path)
