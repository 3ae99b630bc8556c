"""Every file rankflavor writes, written so that nothing is lost (docs/outputs.md, "Files rankflavor writes").

`check_output(path, inputs)` runs before an evaluation and resolves the output once: an output that is one of the
inputs (the same spelling, another one, a symlink, a hard link, the file the standard input reads: file_identity.py),
`-` or a descriptor's alias (`/dev/stdin`, `/dev/fd/N`), a folder, a device, a read-only file, or a file in a
missing or unwritable folder is a UsageError (exit 2) naming the paths. What it gives back, a `Destination`, holds
the resolved folder open (a descriptor opened without following a symlink) and the file's name in it; `write_text`
writes through that descriptor: a temporary file created in that folder (never through a symlink), written,
fsynced and renamed over the name (rename(2) replaces the name itself, never what a symlink put there after the
check points to), so a swap of the output for a symlink to an input while the job runs cannot redirect the write,
and a full disk, an interrupt or a signal (SIGTERM, SIGHUP: cli/signals.py) leaves the previous file as it was and
no temporary file behind.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rankflavor.errors import UsageError
from rankflavor.file_identity import fd_alias, identify, same_as

__all__ = ["Destination", "check_output", "input_paths", "remove_temporaries", "same_file", "write_text"]

_BLOCK = 1 << 20  # bytes per os.write
_temporaries: dict[int, tuple[int, str]] = {}  # the temporary files being written: id -> (folder fd, name)


def input_paths(*inputs: Any) -> list[str]:
    """The file paths among inputs as callers hold them: a path, a list of them, or {name: path} (a dict of dicts
    or a DataFrame is no file; `-`, the standard input, is kept: its descriptor is compared)."""
    found: list[str] = []
    for item in inputs:
        if isinstance(item, str | os.PathLike):
            found.append(os.fspath(item))
        elif isinstance(item, Mapping):
            found += input_paths(*item.values())
        elif isinstance(item, list | tuple):
            found += input_paths(*item)
    return found


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether two paths name one file: the same resolved path, or the same device and inode (a hard link)."""
    try:
        key = os.stat(a)
        pair: tuple[int, int] | None = (key.st_dev, key.st_ino)
    except OSError:
        pair = None
    return same_as(os.fspath(a), pair, identify([os.fspath(b)])) is not None


@dataclass
class Destination:
    """An output resolved once: its folder held open by a descriptor, the file's name in it (a symlink given as the
    output: its target's folder and name, as resolved at the check)."""

    shown: str
    folder: str
    name: str
    what: str
    fd: int = field(repr=False, default=-1)

    def close(self) -> None:
        if self.fd != -1:
            os.close(self.fd)
            self.fd = -1

    def __del__(self) -> None:
        self.close()


def check_output(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = (), what: str = "output"
                 ) -> Destination:
    """Refuse, before any evaluation, an output that would destroy an input or cannot be written; the output
    resolved and its folder held open (`Destination`). `what` names the option in the messages (`-o`, `path`)."""
    shown = os.fspath(path)
    if not shown:
        raise UsageError(f"{what}: an empty path; give a file path")
    if shown == "-" or fd_alias(shown):
        raise UsageError(f"{what} {shown!r} is the standard input or output (or an open descriptor's alias): "
                         "rankflavor writes this file itself; give a file path" + (" (./- for a file named -)"
                                                                                    if shown == "-" else ""))
    try:
        info: os.stat_result | None = os.stat(shown)
    except (OSError, ValueError):
        info = None
    found = same_as(shown, None if info is None else (info.st_dev, info.st_ino), identify([os.fspath(i) for i in inputs]))
    if found is not None:
        source, how = found
        named = "the standard input" if source.shown == "-" else f"the input {source.shown!r}"
        if source.shown == "-" and source.real:
            named += f" ({source.real!r})"
        raise UsageError(f"{what} {shown!r} is {named}{how}: writing it would destroy the input; give another "
                         "output path")
    target = Path(os.path.realpath(shown))
    if info is not None:
        _check_existing(shown, what, info, target)
    return _open_folder(shown, what, target)


def _check_existing(shown: str, what: str, info: os.stat_result, target: Path) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{what} {shown!r} is a folder; give a file path, e.g. {os.path.join(shown, 'out')!r}")
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(f"{what} {shown!r} is not a regular file (a device, pipe or socket); give a file path")
    if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise UsageError(f"{what} {shown!r} is read-only; make it writable (chmod u+w) or give another path")


def _open_folder(shown: str, what: str, target: Path) -> Destination:
    """The resolved folder opened (O_NOFOLLOW: a symlink put in its place since is refused) and probed for a write."""
    folder = target.parent
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UsageError(f"{what} {shown!r}: the folder {str(folder)!r} does not exist; create it first "
                         f"(mkdir -p {str(folder)!r})") from None
    except OSError as exc:
        raise UsageError(f"{what} {shown!r}: cannot open the folder {str(folder)!r}: {exc.strerror or exc}") from None
    destination = Destination(shown, str(folder), target.name, what, fd)
    try:  # (a read-only file system, or a folder the user cannot write: only trying tells)
        probe_fd, probe = _temporary(fd, target.name)
    except OSError as exc:
        destination.close()
        raise UsageError(f"{what} {shown!r}: cannot write in the folder {str(folder)!r}: "
                         f"{exc.strerror or exc}") from None
    os.close(probe_fd)
    os.unlink(probe, dir_fd=fd)
    return destination


def write_text(path: str | os.PathLike | Destination, text: str) -> None:
    """Write `text` (UTF-8) atomically to a checked Destination (or a path, checked here): a temporary file in the
    same folder, fsync, rename. A failure (a full disk, an interrupt, a signal) removes the temporary file, leaves
    any previous file intact and is a UsageError saying so (an interrupt is re-raised as it came)."""
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | os.PathLike | Destination, data: bytes) -> None:
    """`write_text`'s bytes: the file at the destination is either the old one or the new one."""
    destination = path if isinstance(path, Destination) else check_output(path)
    if destination.fd == -1:
        raise UsageError(f"{destination.what} {destination.shown!r}: written already; check it again to write again")
    dirfd, name = destination.fd, destination.name
    try:
        old = os.stat(name, dir_fd=dirfd, follow_symlinks=False)
        mode = stat.S_IMODE(old.st_mode) if stat.S_ISREG(old.st_mode) else None
    except FileNotFoundError:
        mode = None
    fd, temporary = _temporary(dirfd, name)
    key = id(destination)
    _temporaries[key] = (dirfd, temporary)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view[:_BLOCK]):]
        os.fsync(fd)
        if mode is not None:  # (the new file keeps the old one's permissions; a new one gets 0o666 less the umask)
            os.fchmod(fd, mode)
        os.close(fd)
        fd = -1
        os.rename(temporary, name, src_dir_fd=dirfd, dst_dir_fd=dirfd)  # (the name itself: never a symlink's target)
    except BaseException as exc:
        if fd != -1:
            os.close(fd)
        _unlink(dirfd, temporary)
        if not isinstance(exc, OSError):
            raise
        kept = "the previous file is left as it was" if mode is not None else "nothing was written"
        raise UsageError(f"cannot write {destination.shown!r}: {exc.strerror or exc}; {kept}") from exc
    finally:
        _temporaries.pop(key, None)
    _sync_folder(dirfd)
    destination.close()


def remove_temporaries() -> None:
    """Remove every temporary file still being written (a signal's last chance: cli/signals.py)."""
    for dirfd, name in list(_temporaries.values()):
        _unlink(dirfd, name)
    _temporaries.clear()


def _unlink(dirfd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dirfd)
    except OSError:
        pass


def _temporary(dirfd: int, name: str) -> tuple[int, str]:
    """A new file `.NAME.XXXXXXXX.tmp` in the folder `dirfd`, opened for writing (created 0o666 less the umask,
    never through a symlink)."""
    while True:
        candidate = f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            return os.open(candidate, flags, 0o666, dir_fd=dirfd), candidate
        except FileExistsError:
            continue


def _sync_folder(dirfd: int) -> None:
    """fsync the folder so that the rename itself survives a crash (best effort: not every file system can)."""
    try:
        os.fsync(dirfd)
    except OSError:
        pass
