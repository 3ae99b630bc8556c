"""A project's pinned flavors: "pick one flavor and hold it fixed across an entire project".

They live in `rankflavor.toml` (top level) or in `pyproject.toml` under `[tool.rankflavor]`:

    primary = "ndcg@10 gain=exp2"          # used when no -m is given
    [flavors]                              # ([tool.rankflavor.flavors] in pyproject.toml)
    deep = "ndcg@100 gain=exp2 ideal=local"

The file is found by searching upward from the working directory: the first directory holding a
`rankflavor.toml`, or a `pyproject.toml` with a `[tool.rankflavor]` table, is the project's; both there is an
error. A project flavor is written `project.NAME` (`project.primary`, `project.deep`), so it never shadows a
preset, and takes overrides as a preset does (`project.deep@20 ties=average`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rankflavor.errors import SpecError
from rankflavor.flavor.spec import PROJECT_PREFIX

if TYPE_CHECKING:
    from pathlib import Path

PREFIX = PROJECT_PREFIX
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Project:
    """The flavors a project pins: NAME -> spec text, and the file they come from."""

    path: Path
    flavors: dict[str, str]

    @property
    def primary(self) -> str | None:
        return self.flavors.get("primary")


def _table(path: Path) -> dict | None:
    from rankflavor.errors import InputError
    from rankflavor.inputs.structured import load_toml

    try:  # (within the input and nesting caps: inputs/structured.py)
        data = load_toml(path, "fix the file, or remove it")
    except InputError as exc:
        reason = exc.reason if exc.reason.startswith("not valid TOML") else f"cannot read the project's flavors: " \
                 f"{exc.reason}"
        raise SpecError(f"{path}: {reason}; {exc.fix}") from None
    if path.name == "pyproject.toml":
        return data.get("tool", {}).get("rankflavor")
    return data


def _flavors(path: Path, table: dict) -> dict[str, str]:
    out: dict[str, str] = {}
    unknown = sorted(set(table) - {"primary", "flavors"})
    if unknown:
        raise SpecError(f"{path}: unknown key {unknown[0]!r} for rankflavor; give primary = \"SPEC\" and a "
                        "[flavors] table of NAME = \"SPEC\"")
    if "primary" in table:
        out["primary"] = table["primary"]
    for name, spec in dict(table.get("flavors", {})).items():
        if not _NAME.fullmatch(name) or name == "primary":
            raise SpecError(f"{path}: flavor name {name!r} is not a name (a letter, then letters, digits, _ -), or "
                            "is 'primary' twice")
        out[name] = spec
    for name, spec in out.items():
        if not isinstance(spec, str):
            raise SpecError(f"{path}: flavor {name} is {spec!r}, not a spec string such as \"ndcg@10 gain=exp2\"")
    return out


def find_project(start: Path | None = None) -> Project | None:
    """The project's flavors, searching upward from `start` (the working directory), or None."""
    from pathlib import Path  # (a project flavor only: start-up spares pathlib)

    directory = (start or Path.cwd()).resolve()
    for folder in (directory, *directory.parents):
        own, pyproject = folder / "rankflavor.toml", folder / "pyproject.toml"
        for path in (own, pyproject):
            if path.exists() and not path.is_file():  # (a device, FIFO or folder: never read, never silently skipped)
                raise SpecError(f"{path} is not a regular file, so the project's flavors cannot be read from it: "
                                "make it a file (or remove it)")
        tables = [(p, t) for p in (own, pyproject) if p.is_file() and (t := _table(p)) is not None]
        if len(tables) > 1:
            raise SpecError(f"{own} and {pyproject} both define the project's flavors: keep one of them")
        if tables:
            path, table = tables[0]
            return Project(path, _flavors(path, table))
    return None


def project_spec(name: str, start: Path | None = None) -> tuple[str, Project]:
    """The spec text of `project.NAME`, and the project it comes from."""
    project = find_project(start)
    key = name[len(PREFIX):]
    if project is None:
        raise SpecError(f"{name}: no project flavors here: put primary = \"SPEC\" in a rankflavor.toml (or under "
                        "[tool.rankflavor] in pyproject.toml) in this folder or above")
    if key not in project.flavors:
        import difflib

        close = difflib.get_close_matches(key, list(project.flavors), n=2, cutoff=0.6)
        hint = f"did you mean {' or '.join(PREFIX + n for n in close)}? " if close else ""
        raise SpecError(f"{name}: {project.path} names no flavor {key!r}; {hint}it names: "
                        f"{', '.join(PREFIX + n for n in project.flavors) or 'none'}")
    return project.flavors[key], project


def project_files(start: Path | None = None) -> list[str]:
    """The files `find_project` reads (each `rankflavor.toml` and `pyproject.toml` from `start` upward, up to the
    project's folder): inputs an output may never be written over (rankflavor/outputs.py). Never raises."""
    from pathlib import Path  # (start-up spares pathlib)

    found: list[str] = []
    try:
        directory = (start or Path.cwd()).resolve()
    except OSError:
        return found
    for folder in (directory, *directory.parents):
        files = [p for p in (folder / "rankflavor.toml", folder / "pyproject.toml") if p.is_file()]
        found += [str(p) for p in files]
        try:
            if any(_table(p) is not None for p in files):
                break
        except SpecError:
            break
    return found
