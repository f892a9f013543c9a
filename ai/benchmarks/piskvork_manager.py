"""A minimal Piskvork manager (written from the Gomocup protocol description), for the tests and the benchmark."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Brain:
    """A brain as a subprocess (``main.py piskvork``, or ``command``: e.g. the bundle's ``pbrain-mcts``);
    ``ask`` sends lines and returns the reply that is a move or status."""

    def __init__(
        self, command: list[str] | None = None, env: dict[str, str] | None = None, cwd: str | None = None
    ) -> None:
        self.proc = subprocess.Popen(
            command or [sys.executable, str(ROOT / "main.py"), "piskvork"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
            cwd=cwd,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.messages: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def ask(self, *lines: str, timeout: float = 60.0) -> tuple[str, float]:
        """Send ``lines``; the first answer that is not MESSAGE/DEBUG, and the seconds it took."""
        start = time.perf_counter()
        self.send(*lines)
        while True:
            line = self.lines.get(timeout=timeout)
            if line.startswith(("MESSAGE", "DEBUG")):
                self.messages.append(line)
                continue
            return line, time.perf_counter() - start

    def close(self) -> int:
        try:
            self.send("END")
            return self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            return self.proc.wait(10)


def parse_xy(reply: str) -> tuple[int, int]:
    x, y = reply.split(",")
    return int(x), int(y)


def five_in_a_row(stones: set[tuple[int, int]], last: tuple[int, int]) -> bool:
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            x, y = last
            while (x + sign * dx, y + sign * dy) in stones:
                x, y = x + sign * dx, y + sign * dy
                count += 1
        if count >= 5:
            return True
    return False
