"""Test helpers for network play: a server subprocess and a minimal seed-protocol client.

The client is written from the issue's description of the seed protocol only (it does not use
``game.net``): it reads ``player`` / ``update`` / ``illegal`` / ``error`` / ``decline`` lines, stops on
any other type, and answers each update where ``state.player`` is its seat with a random legal action
worked out from the STATE alone.
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[1]
SEED_TYPES = {"player", "update", "illegal", "error", "decline"}


def start_server(db: Path, *args: str, port: int = 0) -> tuple[subprocess.Popen[str], int]:
    """``main.py serve`` on loopback; returns the process and its port."""
    proc = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            str(db),
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"127\.0\.0\.1:(\d+)", line)
    if not match:
        proc.kill()
        raise AssertionError(f"server did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    return proc, int(match[1])


class LineSocket:
    """A blocking socket that reads and writes JSON lines (``\\r\\n``), with a timeout."""

    def __init__(self, port: int, timeout: float = 10.0, source: str = "127.0.0.1") -> None:
        """``source``: the local address (another 127.x.y.z is another client address to the server)."""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
        self.file = self.sock.makefile("rb")
        self.raw_lines: list[bytes] = []

    def send(self, obj: dict[str, Any] | str) -> None:
        text = obj if isinstance(obj, str) else json.dumps(obj)
        self.sock.sendall(text.encode() + b"\r\n")

    def hello(self, **fields: Any) -> dict[str, Any]:
        """As our clients do: read the server's first line (a ``player`` line announcing the
        extensions), then send a ``hello`` with ``fields``; returns that first line."""
        first = self.receive()
        assert first is not None and first["type"] == "player" and "hello" in first["extensions"], first
        self.send({"type": "hello", **fields})
        return first

    def receive(self) -> dict[str, Any] | None:
        raw = self.file.readline()
        if not raw:
            return None
        self.raw_lines.append(raw)
        result: dict[str, Any] | None = json.loads(raw)
        return result

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes a thread blocked reading (it holds the file's lock)
        except OSError:
            pass
        self.file.close()
        self.sock.close()


def connect4_actions(state: dict[str, Any]) -> list[dict[str, int]]:
    heights = [0] * 7
    for piece in state["pieces"]:
        heights[piece["column"]] += 1
    return [{"column": c} for c in range(7) if heights[c] < 6]


def uttt_actions(state: dict[str, Any]) -> list[dict[str, int]]:
    taken = {(p["outer-row"], p["outer-column"], p["inner-row"], p["inner-column"]) for p in state["pieces"]}
    closed = {(b["outer-row"], b["outer-column"]) for b in state["boards"]}
    constraint = state["constraint"]
    if constraint["outer-row"] is None:
        boards = [(r, c) for r in range(3) for c in range(3) if (r, c) not in closed]
    else:
        boards = [(constraint["outer-row"], constraint["outer-column"])]
    return [
        {"outer-row": R, "outer-column": C, "inner-row": r, "inner-column": c}
        for R, C in boards
        for r in range(3)
        for c in range(3)
        if (R, C, r, c) not in taken
    ]


def play_seed_client(port: int, game: str, seed: int, result: dict[str, Any]) -> None:
    """Play one whole game as a seed client; fills ``result`` (seat, moves sent, last update, types seen)."""
    rng = random.Random(seed)
    choose = connect4_actions if game == "connect4" else uttt_actions
    client = LineSocket(port, timeout=20.0)
    result.update(types=[], sent=0, illegal=0)
    try:
        while True:
            message = client.receive()
            if message is None:
                result["closed"] = True
                return
            kind = message.get("type")
            result["types"].append(kind)
            if kind not in SEED_TYPES:
                raise AssertionError(f"a seed client stops on message type {kind!r}")
            if kind == "player":
                result["seat"] = message["message"]
            elif kind == "illegal":
                result["illegal"] += 1
            elif kind == "update":
                result["last"] = message
                if "winners" in message:
                    result["winners"] = message["winners"]
                    result["points"] = message["points"]
                    return
                if message["state"]["player"] == result["seat"]:
                    client.send({"type": "action", "message": rng.choice(choose(message["state"]))})
                    result["sent"] += 1
    finally:
        result["raw"] = client.raw_lines
        client.close()


def wait_for(predicate: Any, timeout: float = 10.0) -> None:
    wait_until(predicate, timeout, "the condition")
