"""The heavy installs some tests need, in groups: the peers, PyTerrier, the browser, Spark, the report page's plotly.

`make test-fast` installs none of them but plotly: a test module that needs a missing one is skipped with its
group's one reason (raised from one line here, so pytest's summary folds a group into one line). Under CI
(`make test` sets CI=true, and installs every group) a missing one fails the run instead, so a green CI cannot
hide a missing install step.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import shutil
from dataclasses import dataclass
from types import ModuleType
from typing import NoReturn

import pytest


@dataclass(frozen=True)
class Group:
    needs: str  # what the group's tests need, named in the reason
    installed_by: str  # the make targets that install it
    modules: tuple[str, ...]  # the top-level modules the group's tests import
    programs: tuple[str, ...] = ()  # programs on PATH, or absolute paths


GROUPS = {
    "peers": Group("the peers extra", "`make test` installs it",
                   ("pytrec_eval", "ir_measures", "cwl", "sklearn", "ranx", "numba", "lightgbm", "xgboost",
                    "catboost", "torch", "torchmetrics", "trectools", "beir")),
    "browser": Group("the browser extra and Debian's chromium", "`make test` installs both",
                     ("playwright",), ("/usr/bin/chromium",)),
    "pyterrier": Group("PyTerrier (pyterrier==1.1.2; its statsmodels makes pt.Experiment's correction)",
                       "`make test` installs it with the peers", ("pyterrier", "statsmodels")),
    "spark": Group("the spark extra and a JRE", "`make test` installs both", ("pyspark",), ("java",)),
    "report": Group("the report extra", "`make test` and `make test-fast` install it", ("plotly",)),
}


@functools.cache
def missing(group: str) -> tuple[str, ...]:
    """The group's modules and programs absent from this machine (modules found without importing them)."""
    spec = GROUPS[group]
    return (tuple(m for m in spec.modules if importlib.util.find_spec(m) is None)
            + tuple(p for p in spec.programs if shutil.which(p) is None))


def reason(group: str) -> str:
    """The group's one skip reason: the same text for every test of the group, so it is reported once."""
    spec = GROUPS[group]
    return f"needs {spec.needs} (missing here: {', '.join(missing(group))}): {spec.installed_by}"


def absent(group: str, what: str) -> NoReturn:
    """`what` of `group` is missing: skip the calling test or module; under CI, fail it (nothing may be skipped)."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing under CI: {reason(group)}; CI must install it, not skip its tests",
                    pytrace=False)
    pytest.skip(reason(group), allow_module_level=True)


def need_group(group: str) -> None:
    """At a test module's top: skip the module (fail under CI) unless every module and program of `group` is here."""
    if missing(group):
        absent(group, ", ".join(missing(group)))


def need_module(group: str, module: str) -> ModuleType:
    """At a test module's top: import `module` of `group` and return it; where it is missing, skip the test
    module with the group's reason (fail under CI). A module that is there but fails to import is an error."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] != module.split(".")[0]:
            raise
    absent(group, module)
