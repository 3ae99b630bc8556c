"""What an input is, by name and by identity, so that no output can be written over it (rankflavor/outputs.py,
spark/output_dir.py).

An input is named as the caller typed it; it is the same file as an output when the two spellings normalise to one
path, resolve (through every symlink) to one path, or stat to one device and inode (a hard link, a bind mount, the
standard input redirected from the file: `report q.qrels - -o A.run < A.run`). `-` (or `/dev/stdin`) as an input is
the standard input: its identity is the descriptor's (`fstat(0)`). A path that passes through a descriptor's alias
(`/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`) is flagged by `fd_alias`: an output there would be whatever file that
descriptor happens to be.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass

__all__ = ["Identity", "fd_alias", "identify", "same_as"]

STDIN = "-"
_FD_DIR = re.compile(r"^/proc/[^/]+/(task/[^/]+/)?fd(/|$)")
_MAX_LINKS = 40  # symlinks followed before a path is called a loop (Linux's own limit)


@dataclass(frozen=True)
class Identity:
    """One input: as typed (`shown`), its resolved path (None for a pipe), its device and inode (None when it
    cannot be stat'ed: a file not there yet is compared by name only)."""

    shown: str
    real: str | None
    dev: int | None
    ino: int | None

    @property
    def key(self) -> tuple[int, int] | None:
        return None if self.dev is None or self.ino is None else (self.dev, self.ino)


def identify(paths: list[str]) -> list[Identity]:
    """The identity of each input path (`-`: the standard input's descriptor)."""
    found = []
    for path in paths:
        if path == STDIN:
            found.append(_stdin())
            continue
        try:
            info = os.stat(path)
            key: tuple[int | None, int | None] = (info.st_dev, info.st_ino)
        except (OSError, ValueError):
            key = (None, None)
        found.append(Identity(path, os.path.realpath(path), *key))
    return found


def _stdin() -> Identity:
    """The standard input as an input: its descriptor's device and inode; its path when it is a file."""
    try:
        info = os.fstat(0)
    except OSError:
        return Identity("-", None, None, None)
    real = None
    if stat.S_ISREG(info.st_mode):
        try:
            real = os.readlink("/proc/self/fd/0")
        except OSError:
            real = None
    return Identity("-", real if real and real.startswith("/") else None, info.st_dev, info.st_ino)


def same_as(path: str, key: tuple[int, int] | None, inputs: list[Identity]) -> tuple[Identity, str] | None:
    """(the input that `path` is, how: '', a hard link, what it resolves to), or None. `key`: the output's own
    device and inode when it exists (stat'ed once by the caller)."""
    typed = os.path.normpath(os.path.abspath(path))
    real = os.path.realpath(path)
    for source in inputs:
        if source.shown != STDIN and typed == os.path.normpath(os.path.abspath(source.shown)):
            return source, ""
        if source.real is not None and real == source.real:
            return source, ("" if source.shown == STDIN else f" (it resolves to {real!r})")
        if key is not None and key == source.key:
            return source, " (the same file: a hard link to it, or the file the standard input reads)"
    return None


def fd_alias(path: str) -> bool:
    """Whether `path`, or a symlink met while resolving it, goes through a file descriptor's alias (/dev/stdin,
    /dev/fd/N, /proc/self/fd/N): such a name stands for whatever file that descriptor holds."""
    pending = [part for part in os.path.abspath(path).split("/") if part]
    current, links = "/", 0
    while pending:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        candidate = os.path.dirname(current) if part == ".." else os.path.join(current, part)
        if _FD_DIR.match(candidate):
            return True
        try:
            target = os.readlink(candidate)
        except OSError:  # (not a symlink, or not there: the rest is plain names)
            current = candidate
            continue
        links += 1
        if links > _MAX_LINKS:
            return False
        pending = [p for p in target.split("/") if p] + pending
        current = "/" if target.startswith("/") else current
    return bool(_FD_DIR.match(current))
