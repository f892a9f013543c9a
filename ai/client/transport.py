"""How the client reaches an engine: a ``Transport`` carries lines both ways.

``ProcessTransport`` is the real one (a subprocess with reader threads, so nothing blocks the
caller); tests give the client a scripted fake instead (see tests/fake_engine.py).
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Protocol

from ai.vocab import limits
from ai.vocab.commands import Quit, encode

# engine lines can be long (Gomoku: 225 children), but never this long
MAX_REPLY_BYTES = 16 * limits.MAX_LINE


class Transport(Protocol):
    """One running engine. ``receive`` never blocks; ``None`` in its list means the output ended."""

    @property
    def pid(self) -> int | None: ...

    def send(self, line: str) -> None:
        """Write one line (no newline in it); OSError when the engine is gone."""

    def receive(self) -> list[bytes | None]: ...

    def wait_readable(self, timeout: float) -> None:
        """Block until a line (or the end of the output) is there to ``receive``, or ``timeout`` seconds."""

    def exit_code(self) -> int | None:
        """The exit status once the engine is gone, else None."""

    def wait_exit(self, timeout: float) -> int | None:
        """The exit status, waiting for it ``timeout`` seconds at most (None: still running)."""

    def last_words(self) -> str | None:
        """The last line the engine wrote on stderr, if any."""

    def kill(self) -> None: ...

    def close(self) -> None:
        """Ask it to quit, wait a little, then kill it."""


def default_command() -> list[str]:
    """Re-launch this app with the ``engine`` argument, frozen or from source."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "engine"]
    main_py = Path(__file__).resolve().parents[2] / "main.py"
    return [sys.executable, str(main_py), "engine"]


class ProcessTransport:
    def __init__(self, command: list[str]) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        creation = {"creationflags": subprocess.CREATE_NO_WINDOW} if sys.platform == "win32" else {}  # type: ignore[attr-defined]
        self._proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            **creation,
        )
        self._inbox: queue.Queue[bytes | None] = queue.Queue()
        self._early: list[bytes | None] = []  # taken from the inbox by wait_readable, not received yet
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(target=self._read_stdout, args=(self._proc.stdout,), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self._proc.stderr,), daemon=True).start()

    @property
    def pid(self) -> int | None:
        return self._proc.pid

    def _read_stdout(self, stream: IO[bytes]) -> None:
        try:
            while True:
                raw = stream.readline(MAX_REPLY_BYTES + 1)
                if not raw:
                    break
                if len(raw) > MAX_REPLY_BYTES and not raw.endswith(b"\n"):
                    while raw and not raw.endswith(b"\n"):  # drop the rest of an endless line
                        raw = stream.readline(MAX_REPLY_BYTES + 1)
                    self._inbox.put(b"<a line longer than %d bytes>" % MAX_REPLY_BYTES)
                    continue
                self._inbox.put(raw)
        except (OSError, ValueError):
            pass
        finally:
            self._inbox.put(None)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                raw = stream.readline(4096)
                if not raw:
                    break
                self._stderr_tail.append(raw.decode("utf-8", errors="replace").rstrip())

    def send(self, line: str) -> None:
        if self._proc.stdin is None:
            raise OSError("engine not running")
        try:
            self._proc.stdin.write((line + "\n").encode())
            self._proc.stdin.flush()
        except ValueError as exc:  # closed pipe object
            raise OSError(str(exc)) from None

    def wait_readable(self, timeout: float) -> None:
        if self._early or timeout <= 0:
            return
        with contextlib.suppress(queue.Empty):
            self._early.append(self._inbox.get(timeout=timeout))

    def receive(self) -> list[bytes | None]:
        lines, self._early = self._early, []
        while True:
            try:
                lines.append(self._inbox.get_nowait())
            except queue.Empty:
                return lines

    def exit_code(self) -> int | None:
        return self._proc.poll()

    def wait_exit(self, timeout: float) -> int | None:
        try:
            return self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def last_words(self) -> str | None:
        return self._stderr_tail[-1] if self._stderr_tail else None

    def kill(self) -> None:
        if self._proc.poll() is None:
            with contextlib.suppress(OSError):
                self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=2.0)
        self._close_pipes()

    def close(self) -> None:
        try:
            self.send(encode(Quit()))
            self._proc.wait(timeout=2.0)
        except (subprocess.TimeoutExpired, OSError):
            self.kill()
        self._close_pipes()

    def _close_pipes(self) -> None:
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
