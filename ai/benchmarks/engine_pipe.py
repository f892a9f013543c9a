"""A real engine subprocess for the benchmarks: typed commands in (``ai.vocab.commands``), JSON messages out,
read by a thread so that no read blocks a benchmark forever."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ai.vocab.commands import Command, Quit, encode

ROOT = Path(__file__).resolve().parents[2]


class EnginePipe:
    """A real engine subprocess with a reader thread (no read ever blocks the benchmark forever)."""

    def __init__(self, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "engine", *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        ready = self.read(timeout=300)
        if ready.get("type") != "ready":
            raise RuntimeError(f"engine did not start: {ready}")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, command: Command) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(encode(command) + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"the engine said nothing for {timeout:.0f} s") from None
        if line is None:
            raise RuntimeError(f"the engine exited (status {self.proc.wait()})")
        message: dict[str, Any] = json.loads(line)
        return message

    def until(
        self,
        kind: str,
        search_id: Any = None,
        timeout: float = 300.0,
        on_message: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any]:
        """The next message of ``kind`` (of ``search_id`` when given); an ``error`` line raises RuntimeError."""
        while True:
            message = self.read(timeout)
            if on_message is not None:
                on_message(message)
            if message.get("type") == "error":
                raise RuntimeError(f"engine error: {message.get('message')}")
            if message.get("type") == kind and (search_id is None or message.get("id") == search_id):
                return message

    def close(self) -> None:
        try:
            self.send(Quit())
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
