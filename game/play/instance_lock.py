"""One autosave per running app: instances in one config folder never overwrite each other's game.

Instance slot 1 keeps its game in ``autosave.json`` and holds ``instance.lock``; a second window at the
same time gets slot 2 (``autosave-2.json``, ``instance-2.lock``), and so on. A slot is owned by an
exclusive, non-blocking lock on its lock file (``flock`` on POSIX, ``msvcrt.locking`` on Windows), which
the system releases when the process dies however it dies, so a stale lock (a crashed app's file with its
dead pid) is simply taken over. The lock file holds the owner's pid: for the notice, and on a file
system without locks (``ENOLCK``) as the lock itself (taken over when that process no longer exists).

At start the app takes, among the free slots, the one holding the most recent unfinished game (else
the lowest free slot), so a game left by a second window is restored on a later launch. No pygame here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MAX_SLOTS = 16
CLAIM_LOCK = "instance-claim.lock"
CLAIM_WAIT_S = 3.0
AUTOSAVE_STEM = "autosave"


def autosave_name(number: int) -> str:
    return f"{AUTOSAVE_STEM}.json" if number == 1 else f"{AUTOSAVE_STEM}-{number}.json"


def lock_name(number: int) -> str:
    return "instance.lock" if number == 1 else f"instance-{number}.lock"


@dataclass
class Slot:
    """A claimed instance slot: where this app autosaves, and the lock that says it is taken."""

    directory: Path
    number: int
    fd: int | None  # the open, locked lock file; None when the folder allows no lock (read-only...)
    others: tuple[int, ...] = ()  # pids of the other running instances seen at claim time

    @property
    def autosave_path(self) -> Path:
        return self.directory / autosave_name(self.number)

    def release(self) -> None:
        if self.fd is not None:
            _unlock(self.fd)
            os.close(self.fd)
            self.fd = None


def _lock_nb(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _unlock(fd: int) -> None:
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            pass
    except OSError:
        pass


def try_lock(path: Path, write_pid: bool = True) -> int | None:
    """The open descriptor of ``path`` locked by this process with our pid written in it; None when
    another live process holds it. OSError when the file cannot be created (read-only folder...)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOINHERIT", 0), 0o644)
    try:
        locked = _lock_nb(fd)
    except OSError:  # a file system without locks (ENOLCK): the pid in the file decides
        pid = holder_pid(path)
        locked = pid is None or pid == os.getpid() or not pid_alive(pid)
    if not locked:
        os.close(fd)
        return None
    if not write_pid:
        return fd
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError:
        pass  # the lock counts, not the pid
    return fd


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (POSIX; elsewhere assumed gone, so a stale file never blocks)."""
    if os.name != "posix" or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def holder_pid(path: Path) -> int | None:
    try:
        with open(path, "rb") as fh:
            text = fh.read(32).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def claim(directory: Path, unfinished_since: Callable[[Path], float | None]) -> Slot:
    """Take a free slot in ``directory``: the one whose autosave holds the most recent unfinished game
    (``unfinished_since(path)`` gives its time, None when there is none), else the lowest free one."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        gate = _wait_for_lock(directory / CLAIM_LOCK, CLAIM_WAIT_S)  # two apps started together claim in turn
    except OSError:
        return Slot(directory, 1, None)
    try:
        return _claim_free(directory, unfinished_since)
    finally:
        if gate is not None:
            _unlock(gate)
            os.close(gate)


def _wait_for_lock(path: Path, seconds: float) -> int | None:
    deadline = time.monotonic() + seconds
    while True:
        fd = try_lock(path, write_pid=False)
        if fd is not None or time.monotonic() > deadline:
            return fd
        time.sleep(0.02)


def _claim_free(directory: Path, unfinished_since: Callable[[Path], float | None]) -> Slot:
    free: list[tuple[int, int]] = []  # (number, fd)
    others: list[int] = []
    try:
        for number in range(1, MAX_SLOTS + 1):
            has_game = (directory / autosave_name(number)).exists()
            if free and not has_game:
                continue  # an empty slot above the first free one is never a better choice
            fd = try_lock(directory / lock_name(number))
            if fd is None:
                pid = holder_pid(directory / lock_name(number))
                others.append(pid if pid is not None else 0)
                continue
            free.append((number, fd))
    except OSError:
        for _number, fd in free:
            os.close(fd)
        return Slot(directory, 1, None)
    if not free:  # every slot is taken: play on without a lock in the last one's neighbour
        return Slot(directory, MAX_SLOTS + 1, None, tuple(others))
    dated = [
        (when, number)
        for number, _fd in free
        if (when := unfinished_since(directory / autosave_name(number))) is not None
    ]
    chosen = max(dated)[1] if dated else free[0][0]
    for number, fd in free:
        if number != chosen:
            _unlock(fd)
            os.close(fd)
    fd_chosen = next(fd for number, fd in free if number == chosen)
    return Slot(directory, chosen, fd_chosen, tuple(others))


def waiting_games(slot: Slot, unfinished_since: Callable[[Path], float | None]) -> list[Path]:
    """Autosaves of other slots, not in use now, that hold an unfinished game (restored on a later launch)."""
    waiting = []
    for number in range(1, MAX_SLOTS + 1):
        path = slot.directory / autosave_name(number)
        if number == slot.number or not path.exists():
            continue
        fd = None
        try:
            fd = try_lock(slot.directory / lock_name(number))
        except OSError:
            pass
        if fd is None:
            continue  # in use by a running instance
        _unlock(fd)
        os.close(fd)
        if unfinished_since(path) is not None:
            waiting.append(path)
    return waiting
