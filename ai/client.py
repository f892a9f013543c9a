"""The app's side of the engine process: spawn, talk JSON lines, notice death or hangs.

Everything here is non-blocking for the caller: a reader thread queues the engine's lines
and ``poll()`` hands them over once per frame. When the engine dies or stops answering in
the middle of a search, ``poll()`` restarts it, sends the position again, resumes the
search under the same id, and reports ``{"type": "engine_restarted", "message": ...}``.
An ``error`` carrying the running search's id ends that search (it will never answer).
The first search of a game in an engine process may compile that game's search core, so
until it answers it gets the startup allowance instead of the short hang limit, and every search
may take ``SETUP_GRACE_S`` more before its first line (the engine may re-root a big kept tree).
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

STARTUP_TIMEOUT_S = 120.0  # a cold start compiles the search core
HANG_GRACE_S = 0.8  # silence beyond the info period (or the budget) that counts as a hang
# more allowed before a search's first line: the engine may first re-root the tree it kept
# (0.45 s measured for 12M nodes; the default 512 MB pool holds 18.5M)
SETUP_GRACE_S = 2.0
MAX_RESTARTS = 3
RESTART_WINDOW_S = 30.0


def default_command() -> list[str]:
    """Re-launch this app with the ``engine`` argument, frozen or from source."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "engine"]
    main_py = Path(__file__).resolve().parents[1] / "main.py"
    return [sys.executable, str(main_py), "engine"]


class EngineClient:
    """One engine process, restarted on failure. Call ``poll()`` regularly (each frame)."""

    def __init__(self, command: list[str] | None = None) -> None:
        self.command = command or default_command()
        self._proc: subprocess.Popen[bytes] | None = None
        self._inbox: queue.Queue[tuple[int, dict[str, Any] | None]] = queue.Queue()
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._generation = 0
        self._ready = False
        self._next_id = 0
        self._position: tuple[str, str] | None = None
        self._active: dict[str, Any] | None = None  # the running go/solve command
        self._last_heard = 0.0
        self._spawned_at = 0.0
        self._restarts: list[float] = []
        self._warm_games: set[str] = set()  # games whose search core answered in this process
        self._failed = False
        self._closed = False

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> None:
        self._spawn()

    def _spawn(self) -> None:
        self._generation += 1
        self._ready = False
        self._warm_games = set()
        self._spawned_at = time.monotonic()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        creation = {"creationflags": subprocess.CREATE_NO_WINDOW} if sys.platform == "win32" else {}
        self._proc = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, **creation,  # type: ignore[call-overload]
        )
        generation = self._generation
        threading.Thread(target=self._read_stdout, args=(self._proc.stdout, generation), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self._proc.stderr,), daemon=True).start()

    def _read_stdout(self, stream: IO[bytes], generation: int) -> None:
        for raw in stream:
            try:
                message = json.loads(raw.decode("utf-8", errors="replace"))
            except (ValueError, RecursionError):
                message = {"type": "error", "message": f"engine wrote a non-protocol line: {raw[:80]!r}"}
            if isinstance(message, dict):
                self._inbox.put((generation, message))
        self._inbox.put((generation, None))

    def _read_stderr(self, stream: IO[bytes]) -> None:
        for raw in stream:
            self._stderr_tail.append(raw.decode("utf-8", errors="replace").rstrip())

    def close(self) -> None:
        self._closed = True
        proc = self._proc
        if proc is None:
            return
        try:
            self._write({"cmd": "quit"})
            proc.wait(timeout=2.0)
        except (subprocess.TimeoutExpired, OSError):
            proc.kill()
            proc.wait()
        finally:
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()

    @property
    def is_ready(self) -> bool:
        return self._ready and not self._failed

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def failed(self) -> bool:
        return self._failed

    # -- commands ---------------------------------------------------------------------------
    def set_position(self, game: str, moves: str) -> None:
        self._position = (game, moves)
        self._send({"cmd": "position", "game": game, "moves": moves})

    def go(self, *, time_ms: int | None = None, iterations: int | None = None, info_ms: int = 100,
           exact: bool = True) -> int:
        command: dict[str, Any] = {"cmd": "go", "id": self._new_id(), "info_ms": info_ms, "exact": exact}
        if time_ms is not None:
            command["time_ms"] = time_ms
        if iterations is not None:
            command["iterations"] = iterations
        return self._begin(command)

    def solve(self, *, time_ms: int = 300) -> int:
        return self._begin({"cmd": "solve", "id": self._new_id(), "time_ms": time_ms})

    def stop(self) -> None:
        self._active = None
        self._send({"cmd": "stop"})

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _begin(self, command: dict[str, Any]) -> int:
        game = self._position[0] if self._position is not None else "connect4"
        self._active = dict(command, sent_at=time.monotonic(), _game=game)
        self._last_heard = time.monotonic()
        self._send(command)
        return int(command["id"])

    def _send(self, command: dict[str, Any]) -> None:
        if self._proc is None and not self._closed:
            self._spawn()
        with contextlib.suppress(OSError):  # the engine is gone; poll() notices and restarts it
            self._write(command)

    def _write(self, command: dict[str, Any]) -> None:
        if self._proc is None or self._proc.stdin is None:
            raise OSError("engine not running")
        wire = {k: v for k, v in command.items() if k not in ("sent_at", "_game", "_heard")}
        self._proc.stdin.write((json.dumps(wire) + "\n").encode())
        self._proc.stdin.flush()

    # -- polling ----------------------------------------------------------------------------
    def poll(self) -> list[dict[str, Any]]:
        """All messages since the last call; restarts a dead or hung engine."""
        messages: list[dict[str, Any]] = []
        exited = False
        while True:
            try:
                generation, message = self._inbox.get_nowait()
            except queue.Empty:
                break
            if generation != self._generation:
                continue  # from a process we already replaced
            if message is None:
                exited = True
                continue
            self._last_heard = time.monotonic()
            kind = message.get("type")
            active = self._active
            if kind == "ready":
                self._ready = True
                self._warm_games.add("connect4")  # the engine warms it up before "ready"
            elif active is not None and "id" in message and message.get("id") == active["id"]:
                self._warm_games.add(active["_game"])
                active["_heard"] = True
                if kind in ("bestmove", "solution", "error"):
                    self._active = None
            messages.append(message)
        if self._closed or self._failed or self._proc is None:
            return messages
        problem = self._problem(exited)
        if problem:
            messages.append(self._restart(problem))
        return messages

    def _problem(self, exited: bool) -> str | None:
        assert self._proc is not None
        code = self._proc.poll()
        if exited or code is not None:
            if code is None:
                try:
                    code = self._proc.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    code = None
            return f"the engine process stopped (exit code {code})"
        now = time.monotonic()
        if not self._ready:
            if now - self._spawned_at > STARTUP_TIMEOUT_S:
                return f"the engine did not start within {STARTUP_TIMEOUT_S:.0f} s"
            return None
        active = self._active
        if active is None:
            return None
        if active["_game"] not in self._warm_games:
            limit = STARTUP_TIMEOUT_S  # this game's search core may be compiling
        elif active["cmd"] == "go" and active.get("info_ms"):
            limit = active["info_ms"] / 1000 + HANG_GRACE_S + (0.0 if active.get("_heard") else SETUP_GRACE_S)
        else:
            limit = active.get("time_ms", 60_000) / 1000 + 2 * HANG_GRACE_S
        if now - max(self._last_heard, active["sent_at"]) > limit:
            return f"the engine stopped answering for {limit:.1f} s"
        return None

    def _restart(self, problem: str) -> dict[str, Any]:
        now = time.monotonic()
        self._restarts = [t for t in self._restarts if now - t < RESTART_WINDOW_S] + [now]
        tail = f" (last words: {self._stderr_tail[-1][:120]})" if self._stderr_tail else ""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        if len(self._restarts) > MAX_RESTARTS:
            self._failed = True
            return {"type": "engine_failed",
                    "message": f"{problem}{tail}; gave up after {MAX_RESTARTS} restarts in {RESTART_WINDOW_S:.0f} s"}
        try:
            self._spawn()
        except OSError as exc:
            self._failed = True
            return {"type": "engine_failed", "message": f"{problem}; cannot restart it: {exc}"}
        if self._position is not None:
            game, moves = self._position
            self._send({"cmd": "position", "game": game, "moves": moves})
        resumed = ""
        if self._active is not None:
            self._active["sent_at"] = time.monotonic()
            self._active["_heard"] = False
            self._send(self._active)
            resumed = " and resumed the search"
        return {"type": "engine_restarted", "message": f"{problem}{tail}; restarted it{resumed}"}
