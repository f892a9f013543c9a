"""``main.py bot``: our engine as a network player, on a seed-only server and on ours."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from game.rules.connect4 import Connect4Spec
from game.rules.errors import GameError
from tests.net_helpers import ROOT, play_seed_client, start_server


class SeedOnlyServer:
    """A minimal Connect 4 server that speaks only the seed protocol, written from the issue's description.

    It seats the first two connections (seats drawn at random), answers anything that is not an
    action with ``error``, and records the moves it accepted."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.moves: list[int] = []
        self.errors: list[str] = []
        self.result: dict[str, Any] | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    @staticmethod
    def _send(conn: socket.socket, obj: dict[str, Any]) -> None:
        conn.sendall(json.dumps(obj).encode() + b"\r\n")

    def _state(self, position: Any) -> dict[str, Any]:
        pieces = [
            {"type": "disc", "player": owner + 1, "row": r, "column": c}
            for r in range(6)
            for c in range(7)
            if (owner := position.cell(r * 7 + c)) is not None
        ]
        player = position.to_move + 1
        return {"pieces": pieces, "player": player, "previous_player": 3 - player}

    def _run(self) -> None:
        conns = [self.listener.accept()[0] for _ in range(2)]
        seats = random.sample([1, 2], 2)
        readers = {seat: conn.makefile("rb") for seat, conn in zip(seats, conns, strict=True)}
        by_seat = dict(zip(seats, conns, strict=True))
        for seat, conn in by_seat.items():
            self._send(conn, {"type": "player", "message": seat})
        position = Connect4Spec().start()
        for conn in conns:
            self._send(conn, {"type": "update", "board": None, "state": self._state(position)})
        while not position.outcome.is_over:
            seat = position.to_move + 1
            raw = readers[seat].readline()
            if not raw:
                return
            try:
                message = json.loads(raw)
                assert message["type"] == "action"
                column = message["message"]["column"]
                position = position.play(column)
            except (ValueError, KeyError, TypeError, AssertionError):
                self.errors.append(raw.decode())
                self._send(by_seat[seat], {"type": "error", "message": raw.decode().strip()})
                continue
            except GameError:
                self._send(by_seat[seat], {"type": "illegal", "message": message["message"]})
                continue
            self.moves.append(column)
            update: dict[str, Any] = {
                "type": "update",
                "board": None,
                "state": self._state(position),
                "last_action": {"player": seat, "action": {"column": column}, "sequence": len(self.moves)},
            }
            if position.outcome.is_over:
                winner = position.outcome.winner
                winners = {"1": 0.5, "2": 0.5} if winner is None else {str(winner + 1): 1, str(2 - winner): 0}
                update.update(winners=winners, points=winners)
                self.result = winners
            for conn in conns:
                self._send(conn, update)


def _bot(port: int, *args: str, time_ms: int = 30) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "bot",
            "--connect",
            f"127.0.0.1:{port}",
            "--time-ms",
            str(time_ms),
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.timeout(120)
def test_bot_plays_a_whole_game_on_a_seed_only_server() -> None:
    server = SeedOnlyServer()
    bot = _bot(server.port)
    opponent: dict[str, Any] = {}
    play_seed_client(server.port, "connect4", 7, opponent)
    out, err = bot.communicate(timeout=60)
    assert bot.returncode == 0, err
    assert server.result is not None and server.result == opponent["winners"]
    assert server.errors == []  # no announcement in its player line: the bot never said hello
    assert f"moves {Connect4Spec().moves_to_text(server.moves)}" in out
    bot_seat = 3 - opponent["seat"]
    assert ("we won" if server.result[str(bot_seat)] == 1 else "") in out
    assert server.result[str(bot_seat)] >= 0.5  # our engine does not lose to random moves


@pytest.mark.timeout(120)
def test_bot_plays_uttt_on_our_server(tmp_path: Path) -> None:
    proc, port = start_server(tmp_path / "b.db", "--game", "uttt")
    try:
        bot = _bot(port, "--game", "uttt", "--plain")
        opponent: dict[str, Any] = {}
        play_seed_client(port, "uttt", 3, opponent)
        out, err = bot.communicate(timeout=60)
        assert bot.returncode == 0, err
        assert "game over after" in out
        assert opponent["winners"][str(3 - opponent["seat"])] >= 0.5
    finally:
        proc.kill()
        proc.wait(5)


@pytest.mark.timeout(30)
def test_bot_errors_are_one_line() -> None:
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    for args, code in (
        (["--connect", f"127.0.0.1:{port}"], 1),
        (["--connect", "nowhere"], 2),
        (["--connect", "127.0.0.1:1", "--game", "chess"], 2),
    ):
        proc = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "bot", *args], capture_output=True, text=True, timeout=20
        )
        assert proc.returncode == code
        assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.timeout(150)
def test_two_bots_survive_a_server_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    proc, port = start_server(db)
    bots = [_bot(port, "--room", "k", "--game", "uttt", time_ms=300) for _ in range(2)]
    try:
        assert bots[0].stdout is not None
        seen = [bots[0].stdout.readline() for _ in range(4)]  # seated, then a few moves
        assert any("seated" in line for line in seen)
        proc.send_signal(signal.SIGKILL)
        proc.wait(5)
        proc, _ = start_server(db, port=port)
        outputs = [bot.communicate(timeout=100)[0] for bot in bots]
        assert [bot.returncode for bot in bots] == [0, 0]
        finals = [line for out in outputs for line in out.splitlines() if line.startswith("game over")]
        assert len(finals) == 2 and finals[0].split("moves ")[1] == finals[1].split("moves ")[1]
        assert all("reconnected" in out for out in outputs)
    finally:
        for bot in bots:
            bot.kill()
        proc.kill()
        proc.wait(5)
