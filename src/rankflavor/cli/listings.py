"""What `rankflavor metrics` and `rankflavor presets` list, read from `listings.json` beside this module: a table
generated from the one metric registry and the presets (`python tools/docs.py` writes it; tests/test_docs.py and
tests/test_startup.py fail when it differs from what the registry gives). The rows are static given the shipped
families, and computing them imports every family, hence numpy and pyarrow (0.2-0.3 s): read, they cost a JSON
parse, so both commands start in about the time of `--help`."""

from __future__ import annotations

import json
from pathlib import Path

TABLE = Path(__file__).with_name("listings.json")


def _table() -> dict[str, list[dict[str, str]]]:
    return json.loads(TABLE.read_text(encoding="utf-8"))


def metric_rows() -> list[dict[str, str]]:
    """The rows of `rankflavor metrics` (metrics/catalog.py `metric_rows`, as generated)."""
    return _table()["metrics"]


def preset_rows() -> list[dict[str, str]]:
    """The rows of `rankflavor presets` for the shipped presets (cli/cmd_presets.py `shipped_rows`, as generated);
    a project's own flavors are not in it (they depend on the working directory)."""
    return _table()["presets"]


def render(metrics: list[dict[str, str]], presets: list[dict[str, str]]) -> str:
    """The text of listings.json for these rows: metrics/catalog.py `metric_rows()` and cli/cmd_presets.py
    `shipped_rows()` (which import every metric family: the caller's, tools/docs.py's, not this module's)."""
    return json.dumps({"metrics": metrics, "presets": presets}, indent=1, ensure_ascii=False) + "\n"
