"""Interop with the seed protocol's programs, through exact stand-ins (``tests/seed_standins.py``):
the seed's UCT clients (long ``extras`` lines) on our server, and our clients, with no flag, on the
seed's server (reads only at a seat's turn, first line only, never again after an error)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.net_helpers import ROOT, start_server
from tests.seed_standins import SeedServer, seed_client


def _pair(port: int, game: str) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = [{}, {}]
    threads = [threading.Thread(target=seed_client, args=(port, game, n, results[n])) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), results
    return results


@pytest.mark.timeout(90)
@pytest.mark.parametrize("game", ["connect4", "uttt"])
def test_two_seed_uct_clients_play_whole_games_on_our_server(tmp_path: Path, game: str) -> None:
    proc, port = start_server(tmp_path / "g.db", "--game", game)
    try:
        first, second = _pair(port, game)
    finally:
        proc.kill()
        proc.wait(5)
    assert {first["seat"], second["seat"]} == {1, 2}
    assert first["winners"] == second["winners"] and first["plies"] == second["plies"] > 0
    assert first["errors"] == second["errors"] == [] and first["illegal"] == second["illegal"] == 0
    longest = max(first["longest"], second["longest"])
    assert longest > (6000 if game == "uttt" else 500), longest  # the UCT player's statistics ride along


@pytest.mark.timeout(60)
def test_the_seed_stand_in_server_hangs_on_a_hello_as_the_real_one_does() -> None:
    """The stand-in is as unforgiving as the seed's server: a client that opens with hello is stuck."""
    server = SeedServer("connect4")
    try:
        result: dict[str, Any] = {}
        opponent = threading.Thread(target=seed_client, args=(server.port, "connect4", 1, result), daemon=True)
        opponent.start()
        import socket

        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(b'{"type": "hello", "game": "connect4"}\r\n{"type": "action", "message": {"column": 3}}\r\n')
            lines = sock.makefile("rb")
            seat = __import__("json").loads(lines.readline())["message"]
            if seat == 2:  # the opponent moves first: wait for its move to reach us
                while b"last_action" not in lines.readline():
                    pass
            while b'"error"' not in (line := lines.readline()):
                assert line
        assert server.errors and '"hello"' in server.errors[0]
        assert server.result is None  # the move after the hello was never read
    finally:
        server.close()


def _bot(port: int, game: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(ROOT / "main.py"), "bot", "--game", game, "--connect", f"127.0.0.1:{port}"]
    return subprocess.run([*command, "--time-ms", "20"], capture_output=True, text=True, timeout=150)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("game", ["connect4", "uttt"])
def test_our_bot_with_no_flag_plays_whole_games_on_the_seed_server(game: str) -> None:
    server = SeedServer(game)
    result: dict[str, Any] = {}
    opponent = threading.Thread(target=seed_client, args=(server.port, game, 7, result), daemon=True)
    opponent.start()
    try:
        run = _bot(server.port, game)
    finally:
        server.close()
    assert run.returncode == 0, run.stderr
    assert "game over" in run.stdout and server.result is not None
    assert server.errors == []  # the seed server never got a line it could not parse
    opponent.join(10)
    assert result.get("winners") == server.result


@pytest.mark.timeout(120)
def test_the_terminal_client_with_no_flag_plays_on_the_seed_server() -> None:
    server = SeedServer("connect4")
    result: dict[str, Any] = {}
    opponent = threading.Thread(target=seed_client, args=(server.port, "connect4", 3, result), daemon=True)
    opponent.start()
    moves = "\n".join(str(c) for c in [1, 2, 3, 4, 5, 6, 7] * 20) + "\n"
    try:
        run = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "play", "--text", "--connect", f"127.0.0.1:{server.port}"],
            input=moves,
            capture_output=True,
            text=True,
            timeout=90,
        )
    finally:
        server.close()
    assert server.errors == [], server.errors
    assert server.result is not None, run.stdout[-2000:] + run.stderr
    assert run.returncode == 0, run.stderr


@pytest.mark.timeout(60)
def test_the_apps_client_says_nothing_a_seed_server_cannot_parse() -> None:
    from game.net.client import NetClient
    from game.net.events import Declined
    from game.net.wire import Address

    server = SeedServer("connect4")
    client = NetClient(Address("127.0.0.1", server.port), "connect4")
    client.start()
    try:
        client.join(30)
        events = client.events()
    finally:
        client.close()
        server.close()
    assert any(isinstance(event, Declined) and "seed protocol" in event.message for event in events), events
    assert server.first_lines == [] and server.errors == []
