"""`eval --engine spark --output DIR` never destroys anything (rankflavor/spark/output_dir.py): a non-empty DIR
without --overwrite, a DIR holding an input or the current folder, an input as DIR are refused before any Spark
job and leave every file byte-identical; with --overwrite the folder is replaced by the job's Parquet files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq

from heavy import need_group
from rankflavor.cli.main import main
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

need_group("spark")


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_spark_output_refuses_what_it_would_destroy_and_replaces_only_with_overwrite(tmp_path, monkeypatch, capsys):
    for source in (SEED000_QRELS, *SEED000_RUNS):
        shutil.copy(source, tmp_path / source.name)
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("\\documentclass{article}\n")
    monkeypatch.chdir(tmp_path)
    base = ["eval", "seed000.qrels", "X.run", "-m", "ndcg@3", "--engine", "spark"]
    before = _tree(tmp_path)
    for output, says in [("precious", "is not empty (1 entry, e.g. 'thesis.tex')"), (".", "holds the input"),
                         ("X.run", "is the input 'X.run'"), (str(tmp_path), "holds the input"),
                         ("precious/..", "holds the input")]:
        assert main([*base, "--output", output]) == 2, output
        err = capsys.readouterr().err
        assert says in err and "internal" not in err, err
        assert _tree(tmp_path) == before
    assert main([*base, "--output", "precious", "--overwrite"]) == 0
    written = sorted(p.name for p in precious.iterdir() if p.suffix == ".parquet")
    assert written and not (precious / "thesis.tex").exists()
    table = pq.read_table(precious)
    assert table.num_rows > 0 and {"run", "flavor", "query", "value"} <= set(table.column_names)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # (no staged or old folder left)
    assert {k: v for k, v in _tree(tmp_path).items() if not k.startswith("precious")} == {
        k: v for k, v in before.items() if not k.startswith("precious")}
