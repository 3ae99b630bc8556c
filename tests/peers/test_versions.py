"""The peers installed are the versions the presets and docs/presets.md claim to be checked against."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest

from heavy import absent
from rankflavor import PRESETS

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def pinned() -> dict[str, str]:
    extra = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]["peers"]
    return dict(re.fullmatch(r"([A-Za-z0-9_.-]+)==([^;\s]+)", spec).groups() for spec in extra)


@pytest.mark.parametrize(("dist", "version"), sorted(pinned().items()))
def test_installed_peer_is_the_pinned_version(dist, version):
    try:
        installed = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        absent("peers", f"{dist} (pinned in the peers extra)")
    assert installed.split("+")[0] == version


def test_every_live_claim_names_a_pinned_version():
    pins = pinned()
    for preset in PRESETS.values():
        if "live" not in preset.checked:
            continue
        claims = re.findall(r"([a-z][a-z0-9-]*) (\d+(?:\.\d+)+)", preset.checked)
        assert claims, preset.name
        for dist, version in claims:
            if dist in pins:
                assert pins[dist] == version, (preset.name, dist, version)
