"""`eval --engine spark --output DIR`: the per-query results as a folder of Parquet files, written so that nothing
is lost (no pyspark import here; the frame's own writer is called).

DIR is resolved once, before a session starts (`plan_output`). Its scheme is read as Hadoop reads it (a name
before a `:` that comes before any `/`), in any case: `file:/x`, `file:///x`, `FILE://localhost/x` and a path
without a scheme are paths on this machine; `hdfs://...`, `s3a://...` are on a cluster's file system.

- A path on this machine with a local master (`local`, `local[N]`; the default) is refused when it is, or holds, an
  input (by resolved path, and by device and inode of every folder above each input: a bind mount or another
  spelling) or the current folder, when it is a file, and when it is not empty without `--overwrite`. Spark writes
  into a temporary sibling `.DIR.rankflavor-XXXXXXXX`, renamed into place when the job has succeeded, through the
  parent folder held open since the check (an old DIR, with `--overwrite`, is moved aside first and removed last,
  unless an input has been moved into it meanwhile); a failed job removes the sibling and leaves DIR as it was.
- A path on this machine with a cluster master (`spark://`, `yarn`, `k8s://`, `sc://`) is refused: the executors
  would write it on their own machines. Give a URI on the cluster's file system.
- A URI on a cluster's file system is refused when it is, or holds, an input's URI (scheme and host compared
  without case, paths normalised); Spark writes it in place, `errorifexists` unless `--overwrite` (then Spark's
  `overwrite`).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rankflavor.errors import UsageError

__all__ = ["OutputPlan", "plan_output", "split_uri", "write_output"]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):(.*)$", re.DOTALL)
_LOCAL_HOSTS = ("", "localhost", "127.0.0.1")


@dataclass
class OutputPlan:
    """Where and how `--output` is written: `local` (a path on this machine, renamed into place through the parent
    folder held open, `parent_fd`) or by Spark in place (`local` None)."""

    path: str  # as typed
    local: Path | None  # the resolved folder, when written through a temporary sibling
    overwrite: bool
    inputs: list[str] = field(default_factory=list)
    parent_fd: int = field(default=-1, repr=False)

    def close(self) -> None:
        if self.parent_fd != -1:
            os.close(self.parent_fd)
            self.parent_fd = -1

    def __del__(self) -> None:
        self.close()


def split_uri(text: str) -> tuple[str | None, str | None, str]:
    """(scheme in lower case or None, authority or None, path) as Hadoop's Path reads `text`."""
    match = _SCHEME.match(text)
    if match is None:
        return None, None, text
    scheme, rest = match.group(1).lower(), match.group(2)
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        return scheme, authority.lower(), slash + path
    return scheme, None, rest


def local_path(text: str) -> str | None:
    """The path on this machine that `text` names (no scheme, or `file:` on this host), else None."""
    scheme, authority, path = split_uri(text)
    if scheme is None:
        return text
    if scheme == "file" and (authority is None or authority in _LOCAL_HOSTS):
        return path
    return None


def local_master(master: str | None) -> bool:
    """The default session and `local`, `local[N]`, `local-cluster[...]` run on this machine; others on a cluster."""
    return master is None or master.strip().lower().startswith("local")


def plan_output(output: str, inputs: list[str], overwrite: bool, master: str | None) -> OutputPlan:
    """Refuse an --output DIR that would destroy anything (module docstring), before any Spark job."""
    if not output or not output.strip():
        raise UsageError("--output: an empty path; give a folder path")
    here = local_path(output)
    if here is None:
        return _remote_plan(output, inputs, overwrite)
    if split_uri(output)[0] == "file" and not here:
        raise UsageError(f"--output {output!r}: a file: URI without a path; give a folder path")
    if not local_master(master):
        raise UsageError(f"--output {output!r} is a path on this machine, but --master {master} runs the job on a "
                         "cluster, whose executors would each write it on their own machine: give a URI on the "
                         "cluster's file system (hdfs://..., s3a://...)")
    target = Path(os.path.realpath(here))
    _refuse_inputs(output, target, inputs)
    cwd = Path.cwd().resolve()
    if target == cwd or target in cwd.parents:
        raise UsageError(f"--output {output!r} holds the current folder {str(cwd)!r}; give a new folder's path")
    return _local_plan(output, target, overwrite, inputs)


def _refuse_inputs(output: str, target: Path, inputs: list[str]) -> None:
    """A local DIR that is or holds an input: by resolved path, and by the identity of each folder above it."""
    try:
        info = os.stat(target)
        key: tuple[int, int] | None = (info.st_dev, info.st_ino)
    except OSError:
        key = None
    for path in inputs:
        local = local_path(path)
        if local is None:
            continue
        source = Path(os.path.realpath(local))
        chain = [source, *source.parents]
        if target in chain or (key is not None and key in _keys(chain)):
            verb = "is" if target == source or key in _keys([source]) else "holds"
            raise UsageError(f"--output {output!r} {verb} the input {path!r}: writing it would destroy the input; "
                             "give another folder")


def _keys(paths: list[Path]) -> set[tuple[int, int]]:
    keys = set()
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue
        keys.add((info.st_dev, info.st_ino))
    return keys


def _local_plan(output: str, target: Path, overwrite: bool, inputs: list[str]) -> OutputPlan:
    if target.exists() and not target.is_dir():
        raise UsageError(f"--output {output!r} is a file; Spark writes a folder of Parquet files: give a new "
                         "folder's path")
    if target.is_dir() and not overwrite and (held := sorted(p.name for p in target.iterdir())):
        entries = f"{len(held)} {'entry' if len(held) == 1 else 'entries'}"
        raise UsageError(f"--output {output!r} is not empty ({entries}, e.g. {held[0]!r}); give a new or empty "
                         "folder, or --overwrite to replace the folder and everything in it")
    if not target.parent.is_dir():
        raise UsageError(f"--output {output!r}: the folder {str(target.parent)!r} does not exist; create it first")
    if not os.access(target.parent, os.W_OK):
        raise UsageError(f"--output {output!r}: cannot write in the folder {str(target.parent)!r}")
    try:
        fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise UsageError(f"--output {output!r}: cannot open the folder {str(target.parent)!r}: "
                         f"{exc.strerror or exc}") from None
    return OutputPlan(output, target, overwrite, list(inputs), fd)


def _normal(uri: str) -> tuple[str | None, str | None, str]:
    scheme, authority, path = split_uri(uri)
    if scheme is None or (scheme == "file" and (authority or "") in _LOCAL_HOSTS):
        return "file", "", os.path.realpath(path)
    return scheme, authority or "", os.path.normpath(path or "/")


def _remote_plan(output: str, inputs: list[str], overwrite: bool) -> OutputPlan:
    """A URI on a cluster's file system: refused when it is or holds an input's URI (compared without case)."""
    scheme, authority, path = _normal(output)
    for item in inputs:
        other = _normal(item)
        if other[:2] == (scheme, authority) and (other[2] == path or other[2].startswith(path.rstrip("/") + "/")):
            verb = "is" if other[2] == path else "holds"
            raise UsageError(f"--output {output!r} {verb} the input {item!r}: writing it would destroy the input; "
                             "give another folder")
    return OutputPlan(output, None, overwrite, list(inputs))


def write_output(frame: Any, plan: OutputPlan) -> None:
    """Write the DataFrame `frame` as Parquet where `plan` says (module docstring)."""
    if plan.local is None:
        frame.write.mode("overwrite" if plan.overwrite else "errorifexists").parquet(plan.path)
        return
    target, fd = plan.local, plan.parent_fd
    token = secrets.token_hex(4)
    staged = f".{target.name}.rankflavor-{token}"
    try:
        frame.write.mode("errorifexists").parquet(str(target.parent / staged))
    except BaseException:
        _remove(fd, staged)
        raise
    old = f".{target.name}.rankflavor-old-{token}"
    replacing = _exists(fd, target.name)
    if replacing:
        os.rename(target.name, old, src_dir_fd=fd, dst_dir_fd=fd)
    try:
        os.rename(staged, target.name, src_dir_fd=fd, dst_dir_fd=fd)
    except OSError:
        if replacing:
            os.rename(old, target.name, src_dir_fd=fd, dst_dir_fd=fd)
        _remove(fd, staged)
        raise
    if replacing:
        moved_in = [p for p in plan.inputs if (lp := local_path(p)) and Path(os.path.realpath(lp)).is_relative_to(
            target.parent / old)]
        if moved_in:
            raise UsageError(f"--output {plan.path!r}: the input {moved_in[0]!r} was moved into the old folder while "
                             f"the job ran; the old folder is kept as {str(target.parent / old)!r}")
        _remove(fd, old)
    plan.close()


def _exists(fd: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def _remove(fd: int, name: str) -> None:
    """Remove the folder `name` of the folder `fd` (a symlink put there is unlinked, never followed)."""
    try:
        info = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except OSError:
        return
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(name, dir_fd=fd, ignore_errors=True)
    else:
        try:
            os.unlink(name, dir_fd=fd)
        except OSError:
            pass
