"""Talk to a real engine subprocess in tests."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class EngineProcess:
    def __init__(self, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "engine", *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def send(self, obj: Any) -> None:
        line = obj if isinstance(obj, str) else json.dumps(obj)
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 120.0) -> dict[str, Any]:
        """The next line, which must be valid protocol JSON."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        line = self.proc.stdout.readline()
        assert line, f"engine closed stdout; stderr: {self.proc.stderr.read() if self.proc.stderr else ''}"
        assert time.monotonic() < deadline + 1
        message = json.loads(line)
        assert isinstance(message, dict) and "type" in message
        return message

    def read_until(self, kind: str, timeout: float = 120.0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        seen: list[dict[str, Any]] = []
        while True:
            message = self.read(timeout)
            if message["type"] == kind:
                return message, seen
            seen.append(message)

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                self.send({"cmd": "quit"})
            except (BrokenPipeError, OSError):
                pass
        try:
            return self.proc.wait(timeout=30)
        finally:
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if stream:
                    stream.close()
