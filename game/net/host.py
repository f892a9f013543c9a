"""The game server the app starts when its player hosts: ``main.py serve`` in a child process.

Why a child process and not a thread in the app: the server keeps its own event loop and SQLite file
away from the frame loop (a slow disk or a burst of lines never stutters the window), a crash in one
never takes the other down, and it is the very server anyone runs with ``main.py serve``. It lives as
long as the app: it reads its standard input and stops when that closes (the app quit, or died),
keeping unfinished games in SQLite, so the app relaunched restarts it on the same port and resumes the
game with its seat token. If the server dies while the app runs, ``HostedServer`` starts it again on
the same port with the same file: every game comes back and both players' clients reconnect.

The watcher thread does all the waiting; ``events()`` never blocks.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from game.net.worker import Worker

DEFAULT_PORT = 4242
LOOPBACK, EVERY_INTERFACE = "127.0.0.1", "0.0.0.0"
MAX_RESTARTS = 5
START_TIMEOUT_S = 20.0
_SERVING = re.compile(r"serving \S+ on (\S+):(\d+)\s+\(share: (\S+?);")


@dataclass(frozen=True)
class ServerReady:
    port: int
    share: str  # HOST:PORT to give the opponent
    restarted: bool


@dataclass(frozen=True)
class ServerFailed:
    message: str
    for_good: bool  # False: it is being started again


HostEvent = ServerReady | ServerFailed


def default_port() -> int:
    """The port a hosted server tries first: 4242, or ``CONNECT4_HOST_PORT`` (0: any free port)."""
    text = os.environ.get("CONNECT4_HOST_PORT", "")
    return int(text) if text.isdigit() and int(text) < 65536 else DEFAULT_PORT


def serve_command(args: list[str]) -> list[str]:
    """This program's ``serve`` subcommand, from source or frozen."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "serve", *args]
    return [sys.executable, str(Path(__file__).resolve().parents[2] / "main.py"), "serve", *args]


class HostedServer(Worker["HostEvent"]):
    """``lan``: listen on every interface (other computers can join) instead of this computer only."""

    def __init__(self, game: str, lan: bool = False, port: int | None = None, db: Path | None = None) -> None:
        super().__init__("hosted-server")
        self.game = game
        self.host = EVERY_INTERFACE if lan else LOOPBACK
        self.port = default_port() if port is None else port
        self.db = db
        self.share: str | None = None
        self._proc: subprocess.Popen[str] | None = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def close(self) -> None:
        """Stop the server (it keeps unfinished games in its file)."""
        self._stop.set()
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(3.0)
            except subprocess.TimeoutExpired:
                proc.kill()

    # -- the watcher thread ------------------------------------------------------------------------------
    def _run(self) -> None:
        restarts = 0
        while not self._stop.is_set():
            problem = self._launch(restarted=restarts > 0)
            if problem is not None and restarts == 0 and self.port != 0 and "cannot listen" in problem:
                self.port = 0  # the usual port is taken (another server): any free port, shown to share
                problem = self._launch(restarted=False)
            if problem is None:
                assert self._proc is not None
                code = self._proc.wait()
                if self._stop.is_set():
                    return
                problem = f"the game server stopped (exit status {code})"
            restarts += 1
            if restarts > MAX_RESTARTS:
                self._events.put(ServerFailed(f"{problem}; gave up after {MAX_RESTARTS} restarts", True))
                return
            self._events.put(ServerFailed(f"{problem}; starting it again", False))
            self._stop.wait(min(4.0, 0.5 * restarts))

    def _launch(self, restarted: bool) -> str | None:
        """Start the server; None once it serves, else why it could not."""
        args = ["--game", self.game, "--host", self.host, "--port", str(self.port), "--exit-with-parent"]
        if self.db is not None:
            args += ["--db", str(self.db)]
        creation = {"creationflags": subprocess.CREATE_NO_WINDOW} if sys.platform == "win32" else {}  # type: ignore[attr-defined]
        try:
            proc = subprocess.Popen(
                serve_command(args),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=dict(os.environ, PYTHONUNBUFFERED="1"),
                **creation,
            )
        except OSError as exc:
            return f"cannot start the game server: {exc.strerror or exc}"
        self._proc = proc
        assert proc.stdout is not None and proc.stderr is not None
        watchdog = threading.Timer(START_TIMEOUT_S, proc.kill)  # a server that never says it serves
        watchdog.start()
        line = proc.stdout.readline()  # the server's first line says where it listens
        watchdog.cancel()
        match = _SERVING.search(line)
        if match is None:
            proc.kill()
            error = (proc.stderr.read() or line).strip().splitlines()
            return error[-1] if error else "the game server did not start"
        for stream in (proc.stdout, proc.stderr):
            threading.Thread(target=_drain, args=(stream,), daemon=True).start()
        self.port = int(match[2])  # a restart keeps this port: the clients come back to it
        self.share = match[3]
        self._events.put(ServerReady(self.port, self.share, restarted))
        return None


def _drain(stream: IO[str]) -> None:
    """Read the server's output so its pipes never fill up."""
    for _ in stream:
        pass
