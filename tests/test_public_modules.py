"""Public modules export only their own names: each has an `__all__` of what it defines (or re-exports from its own
package), and neither `dir()` nor `from X import *` shows its helpers or the modules it imports (`annotations`,
`np`, `TYPE_CHECKING`, `Any`, ...)."""

from __future__ import annotations

import importlib
import inspect
import re
import types
from pathlib import Path

import pytest

import heavy

ROOT = Path(__file__).resolve().parents[1]
# the modules the README and docs/ tell a user to import or call into (rankflavor.dialects.arrays: docs/presets.md,
# "Array peers")
PUBLIC = ["rankflavor", "rankflavor.compare", "rankflavor.plots", "rankflavor.spark", "rankflavor.errors",
          "rankflavor.examples", "rankflavor.dialects.arrays", "rankflavor.ir_measures", "rankflavor.arrays",
          "rankflavor.beir", "rankflavor.mteb", "rankflavor.lightgbm", "rankflavor.xgboost", "rankflavor.catboost",
          "rankflavor.sklearn", "rankflavor.torchmetrics"]
NEEDS = {"rankflavor.plots": "report", "rankflavor.ir_measures": "peers",  # (plotly: the report extra; ir_measures)
         "rankflavor.sklearn": "peers", "rankflavor.torchmetrics": "peers"}  # (scikit-learn; torch and torchmetrics)


def _module(name: str) -> types.ModuleType:
    if name in NEEDS and heavy.missing(NEEDS[name]):
        heavy.absent(NEEDS[name], name)
    return importlib.import_module(name)


def _submodule(module: types.ModuleType, value: object) -> bool:
    return isinstance(value, types.ModuleType) and value.__name__.startswith(module.__name__ + ".")


def _own(module: types.ModuleType, value: object) -> bool:
    """A module of the package itself, or an object defined in rankflavor; a constant has no home, but a
    `from __future__` feature or a typing form is never one of ours."""
    if isinstance(value, types.ModuleType):
        return _submodule(module, value)
    if not (inspect.isclass(value) or callable(value)):
        return type(value).__module__ not in ("__future__", "typing")
    home = getattr(value, "__module__", None)
    return isinstance(home, str) and (home == "rankflavor" or home.startswith("rankflavor."))


@pytest.mark.parametrize("name", PUBLIC)
def test_a_public_module_lists_its_own_names_and_shows_no_others(name):
    module = _module(name)
    exported = module.__all__
    assert len(set(exported)) == len(exported) and all(isinstance(n, str) for n in exported)
    values = {n: getattr(module, n) for n in exported}  # (each listed name resolves: a lazy one is imported)
    foreign = [n for n, v in values.items() if not _own(module, v) or n in ("annotations", "TYPE_CHECKING")]
    assert not foreign, f"{name} exports names that are not its own: {foreign}"
    shown = {n for n in dir(module) if not n.startswith("_")}
    leaked = sorted(n for n in shown - set(exported) if not _submodule(module, getattr(module, n)))
    assert not leaked, f"dir({name}) shows its helpers or imports: {leaked}"
    assert set(exported) <= set(dir(module))
    star: dict[str, object] = {}
    exec(f"from {name} import *", star)  # (the point of the test)
    assert set(star) - {"__builtins__"} == set(exported)


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_a_module_defines_is_listed(name):
    """What the module itself defines (classes and functions whose home is the module), unless private, is in
    `__all__`: a new public function cannot be forgotten there."""
    module = _module(name)
    defined = {n for n, v in vars(module).items()
               if not n.startswith("_") and (inspect.isclass(v) or inspect.isfunction(v)) and v.__module__ == name}
    missing = sorted(defined - set(module.__all__))
    assert not missing, f"{name} defines names missing from __all__: {missing}"


def test_the_modules_the_docs_import_are_the_public_ones():
    """Every `import rankflavor.X` / `from rankflavor.X import` in the README and docs/ names a module of PUBLIC (a
    newly documented module gets its __all__ checked here)."""
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    imported = {m for path in texts for m in re.findall(r"(?:from|import) (rankflavor[\w.]*)", path.read_text("utf-8"))}
    assert imported and imported <= set(PUBLIC), f"documented but not checked: {sorted(imported - set(PUBLIC))}"
