"""One server per games file: a lock held for as long as the server runs.

Two servers on one file would both restore its unfinished games and accept their seat tokens, and
the second would overwrite moves the first had already told its players. ``lock_games_file`` takes
an exclusive lock on ``<file>.lock`` beside it; the operating system lets it go when the process
ends, however it ends (a crashed or killed server leaves no stale lock behind).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO


class GamesFileInUse(RuntimeError):
    """Another process holds the games file; the message is one line."""


class GamesFileLock:
    """Held from ``lock_games_file`` until ``release`` (or the process ends)."""

    def __init__(self, handle: IO[bytes], path: Path) -> None:
        self._handle = handle
        self.path = path

    def release(self) -> None:
        if not self._handle.closed:
            self._handle.close()  # closing the file lets the lock go


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def lock_games_file(db: str | os.PathLike[str]) -> GamesFileLock | None:
    """Lock ``db`` for this process; GamesFileInUse if another process has it. None for ``:memory:``."""
    if str(db) == ":memory:":
        return None
    path = lock_path(Path(db))
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+b")  # noqa: SIM115 - held open for the life of the server
    try:
        _lock(handle)
    except OSError:
        handle.close()
        raise GamesFileInUse(
            f"the games file {db} is in use by another server (lock {path}); stop it first, or use another --db"
        ) from None
    return GamesFileLock(handle, path)


def _lock(handle: IO[bytes]) -> None:
    """An exclusive lock without waiting: OSError if another process holds it."""
    if sys.platform == "win32":
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
