"""Every file rankflavor writes, written so that nothing is lost (docs/outputs.md, "Files rankflavor writes").

`check_output(path, inputs)` runs before an evaluation: an output that is (or resolves to, through a symlink, a hard
link or another spelling) one of the inputs, a folder, a device, a read-only file, or a file in a missing or
unwritable folder is a UsageError (exit 2) naming the paths. `write_text(path, text)` writes atomically: a
temporary file in the destination's folder, written, fsynced and renamed over it (POSIX rename(2) replaces the
name in one step), so a full disk or an interrupt leaves the previous file as it was and no partial file behind.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rankflavor.errors import UsageError

__all__ = ["check_output", "input_paths", "same_file", "write_text"]

_BLOCK = 1 << 20  # bytes per os.write


def input_paths(*inputs: Any) -> list[str]:
    """The file paths among inputs as callers hold them: a path, a list of them, or {name: path} (a dict of dicts,
    a DataFrame or `-` (the standard input) is no file)."""
    found: list[str] = []
    for item in inputs:
        if isinstance(item, str | os.PathLike):
            if os.fspath(item) != "-":
                found.append(os.fspath(item))
        elif isinstance(item, Mapping):
            found += input_paths(*item.values())
        elif isinstance(item, list | tuple):
            found += input_paths(*item)
    return found


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether two paths name one file: the same resolved path, or the same device and inode (a hard link)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = (), what: str = "output") -> Path:
    """Refuse, before any evaluation, an output that would destroy an input or cannot be written; the resolved
    destination (a symlink's target) back. `what` names the option in the messages (`-o`, `--output`)."""
    shown = os.fspath(path)
    if not shown:
        raise UsageError(f"{what}: an empty path; give a file path")
    for source in inputs:
        if same_file(path, source):
            how = (" (a hard link to it)" if os.path.realpath(path) != os.path.realpath(source) else ""
                   if os.path.normpath(shown) == os.path.normpath(source) else
                   f" (it resolves to {os.path.realpath(path)!r})")
            raise UsageError(f"{what} {shown!r} is the input {os.fspath(source)!r}{how}: writing it would destroy "
                             "the input; give another output path")
    target = Path(os.path.realpath(path))
    if target.exists():
        mode = target.stat().st_mode
        if stat.S_ISDIR(mode):
            raise UsageError(f"{what} {shown!r} is a folder; give a file path, e.g. {os.path.join(shown, 'out')!r}")
        if not stat.S_ISREG(mode):
            raise UsageError(f"{what} {shown!r} is not a regular file (a device, pipe or socket); give a file path")
        if not mode & 0o222 or not os.access(target, os.W_OK):
            raise UsageError(f"{what} {shown!r} is read-only; make it writable (chmod u+w) or give another path")
    folder = target.parent
    if not folder.is_dir():
        raise UsageError(f"{what} {shown!r}: the folder {str(folder)!r} does not exist; create it first "
                         f"(mkdir -p {str(folder)!r})")
    try:  # (a read-only file system, or a folder the user cannot write: only trying tells)
        fd, probe = _temporary(folder, target.name)
    except OSError as exc:
        raise UsageError(f"{what} {shown!r}: cannot write in the folder {str(folder)!r}: "
                         f"{exc.strerror or exc}") from None
    os.close(fd)
    probe.unlink()
    return target


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically: a temporary file in the same folder, fsync, rename. A failure
    (a full disk, an interrupt) removes the temporary file, leaves any previous file intact and is a UsageError
    saying so (an interrupt is re-raised as it came)."""
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """`write_text`'s bytes: the file at `path` (a symlink's target) is either the old one or the new one."""
    target = Path(os.path.realpath(path))
    existed = target.is_file()
    fd, temporary = _temporary(target.parent, target.name)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view[:_BLOCK]):]
        os.fsync(fd)
        if existed:  # (the new file keeps the old one's permissions; a new one gets 0o666 less the umask)
            os.fchmod(fd, stat.S_IMODE(target.stat().st_mode))
        os.close(fd)
        fd = -1
        os.replace(temporary, target)
    except BaseException as exc:
        if fd != -1:
            os.close(fd)
        temporary.unlink(missing_ok=True)
        if not isinstance(exc, OSError):
            raise
        kept = "the previous file is left as it was" if existed else "nothing was written"
        raise UsageError(f"cannot write {os.fspath(path)!r}: {exc.strerror or exc}; {kept}") from exc
    _sync_folder(target.parent)


def _temporary(folder: Path, name: str) -> tuple[int, Path]:
    """A new file `.NAME.XXXXXXXX.tmp` in `folder`, opened for writing (created 0o666 less the umask)."""
    while True:
        candidate = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), candidate
        except FileExistsError:
            continue


def _sync_folder(folder: Path) -> None:
    """fsync the folder so that the rename itself survives a crash (best effort: not every file system can)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
