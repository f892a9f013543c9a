"""A game the project has never heard of, registered in ONE call, plays on every path: the engine process, the
headless app, the game server and the terminal client.

The game is Connect 3 on a 5x4 board (discs fall, three in a row wins), written in tests/connect3_game.py, whose
one ``register_family`` call is all the project is told of it. The processes learn it the way a user's plugin
would reach them: ``CONNECT4_GAME_PLUGINS=tests.connect3_game``, which every ``main.py`` program loads first (and
the processes they start inherit)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from ai.client.session import EngineSession
from ai.mcts.games import adapter_for
from game.play.engine_driver import EngineDriver
from game.play.game_choices import game_choices
from game.play.players import Mode
from game.play.session import Session
from game.play.settings import Settings
from game.rules import get_game
from game.rules.base import GameSpec, Status
from game.rules.capabilities import capabilities
from game.rules.errors import UnknownGameError
from game.rules.family_registration import register_family, registered_families, unregister_family
from game.rules.plugins import PLUGINS_VARIABLE, PluginError, load_game_plugins
from game.text.render import render
from game.ui.app_run import create_app, shutdown
from tests.net_helpers import ROOT, LineSocket, start_server
from tests.waiting import wait_until

PLUGIN = "tests.connect3_game"
GAME = "connect3"

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def connect3(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[GameSpec]:
    """The plugin loaded here and named to every process this test starts; unregistered afterwards."""
    monkeypatch.setenv(PLUGINS_VARIABLE, PLUGIN)
    monkeypatch.setenv("CONNECT4_CONFIG_DIR", str(tmp_path / "config"))
    load_game_plugins()
    from tests import connect3_game

    if GAME not in {r.family for r in registered_families()}:  # (a test before this one unregistered it)
        register_family(connect3_game.REGISTRATION)
    yield get_game(GAME)
    unregister_family(GAME)


def _main(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, COLUMNS="80", **(env or {})),
    )


def test_the_game_is_new_to_every_floor(connect3: GameSpec) -> None:
    assert connect3.family not in {"connect4", "mnk", "uttt"} and adapter_for(connect3) is None
    position = connect3.parse_position("11223")
    assert position.outcome.status is Status.WIN and position.outcome.winner == 0
    assert "| X   X   X   .   . |" in render(position).plain  # the terminal draws it as discs on columns
    assert GAME in game_choices() and capabilities(connect3).title == "Connect 3 5x4"  # the new-game dialog
    assert capabilities(connect3).gravity  # the app draws columns of holes


def test_the_engine_process_finds_the_winning_move(connect3: GameSpec) -> None:
    session = EngineSession(threads=1)
    try:
        session.start()
        # X (discs in columns 1 and 2, bottom row) wins with column 3; O threatens the same column one row up
        result = session.search(connect3, "1122", time_ms=300)
        assert connect3.move_to_text(result.best_move) == "3" and result.proven == 1
        legal = connect3.parse_position("1122").legal_moves()
        assert {c.move for c in result.children} == set(legal)  # the heatmap's numbers, one per column
        # a position with no win in one: still a legal move, with visits spread over the columns
        quiet = session.search(connect3, "3", time_ms=200)
        assert quiet.best_move in connect3.parse_position("3").legal_moves() and quiet.iterations > 0
    finally:
        session.close()


def _click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)


def test_the_app_plays_it_against_the_engine_and_draws_the_discs(connect3: GameSpec) -> None:
    settings = Settings(mode=Mode.VS_BOT, window=(900, 650), sound=False, eval_bar=False)
    app = create_app(settings, Session.from_text(GAME, ""), persist=False, driver=EngineDriver(threads=1))
    try:
        app.turns.min_bot_delay = 0.0
        app.step([])
        board = app.layout.board
        empty = app.screen.get_at(_pixel(board, 0))[:3]
        app.step([_click(_pixel(board, 0))])  # the human's move, as a player clicks it: column 1
        assert app.session.moves_text == "1"
        wait_until(lambda: _stepped(app) and app.session.position.ply == 2, 120, "the engine's reply in the app")
        assert app.turns.driver.refused == {}  # the engine searched it (a refused game gets random moves)
        now = app.now
        for _ in range(120):  # two seconds of frames: the falling disc lands
            now += 1 / 60
            app.step([], now=now)
        position = app.session.position
        bot_cell = max(c for c in range(20) if position.cell(c) == 1)
        human, bot = (app.screen.get_at(_pixel(board, c))[:3] for c in (0, bot_cell))
        assert human != empty and bot != empty and human != bot, (empty, human, bot)
    finally:
        shutdown(app)


def _pixel(board: Any, cell: int) -> tuple[int, int]:
    (x, y), _ = board.cell_center(cell)
    return round(x), round(y)


def _stepped(app: Any) -> bool:
    app.step([])
    return True


def _connect3_actions(state: dict[str, Any]) -> list[dict[str, int]]:
    heights = [0] * 5
    for piece in state["pieces"]:
        heights[piece["column"]] += 1
    return [{"column": c} for c in range(5) if heights[c] < 4]


def _seed_client(port: int, seed: int, result: dict[str, Any]) -> None:
    """A client of the seed protocol that plays random legal columns, worked out from the STATE alone."""
    rng = random.Random(seed)
    client = LineSocket(port, timeout=30.0)
    result.update(sent=0, illegal=0)
    try:
        while (message := client.receive()) is not None:
            if message["type"] == "player":
                result["seat"] = message["message"]
            elif message["type"] == "illegal":
                result["illegal"] += 1
            elif message["type"] == "update":
                result["last"] = message
                if "winners" in message:
                    result["winners"], result["points"] = message["winners"], message["points"]
                    return
                if message["state"]["player"] == result["seat"]:
                    client.send({"type": "action", "message": rng.choice(_connect3_actions(message["state"]))})
                    result["sent"] += 1
    finally:
        client.close()


def test_two_clients_play_a_whole_game_on_the_server(connect3: GameSpec, tmp_path: Path) -> None:
    server, port = start_server(tmp_path / "games.db", "--game", GAME)
    try:
        results: list[dict[str, Any]] = [{}, {}]
        threads = [threading.Thread(target=_seed_client, args=(port, i, results[i])) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert all("winners" in r for r in results), results
        assert {r["seat"] for r in results} == {1, 2} and sum(r["illegal"] for r in results) == 0
        pieces = results[0]["last"]["state"]["pieces"]
        assert len(pieces) == sum(r["sent"] for r in results) and {p["type"] for p in pieces} == {"disc"}
        assert all(p["column"] < 5 and p["row"] < 4 for p in pieces)
        assert results[0]["winners"] == results[1]["winners"] and set(results[0]["points"]) == {"1", "2"}
    finally:
        server.terminate()
        server.wait(10)


def test_the_terminal_client_plays_it_hot_seat_and_against_the_bot(connect3: GameSpec) -> None:
    hot_seat = _main("play", "--text", "--game", GAME, "--mode", "hotseat", "--new", stdin="1\n1\n2\n2\n3\n")
    assert hot_seat.returncode == 0, hot_seat.stderr
    assert "X (player 1) wins after 5 moves." in hot_seat.stdout and "| X   X   X   .   . |" in hot_seat.stdout
    lines = "".join(f"{c}\n" for c in (1, 2, 3, 4, 5) * 4)  # a full column is refused and the next line read
    against_bot = _main("play", "--text", "--game", GAME, "--mode", "bot", "--time-ms", "100", "--new", stdin=lines)
    assert against_bot.returncode == 0, against_bot.stderr
    assert "the bot plays" in against_bot.stdout and "searched: " in against_bot.stdout
    assert "wins after" in against_bot.stdout or "Draw after" in against_bot.stdout


def test_the_terminal_client_plays_it_on_the_server_against_our_network_bot(connect3: GameSpec, tmp_path: Path) -> None:
    server, port = start_server(tmp_path / "games.db", "--game", GAME)
    address = f"127.0.0.1:{port}"
    bot = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "bot",
            "--connect",
            address,
            "--time-ms",
            "50",
            "--room",
            "c3",
            "--game",
            GAME,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = "".join(f"{c}\n" for c in (1, 2, 3, 4, 5) * 4)
        proc = _main("play", "--text", "--connect", address, "--room", "c3", "--game", GAME, stdin=lines)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "joined connect3, room c3" in proc.stdout and "\n  1   2   3   4   5\n" in proc.stdout  # 5 columns
        assert any(verdict in proc.stdout for verdict in ("You win", "You lose", "Draw"))
        assert bot.wait(60) == 0
    finally:
        bot.kill()
        server.kill()
        server.wait(5)


def test_without_the_registration_the_game_is_unknown_with_a_clear_error(connect3: GameSpec) -> None:
    unregister_family(GAME)
    try:
        with pytest.raises(UnknownGameError, match="unknown game 'connect3': expected one of connect4"):
            get_game(GAME)
        without = _main("play", "--text", "--game", GAME, "--new", env={PLUGINS_VARIABLE: ""})
        assert without.returncode != 0 and "unknown game 'connect3'" in without.stdout + without.stderr
    finally:
        from tests import connect3_game

        register_family(connect3_game.REGISTRATION)


@pytest.mark.parametrize(
    ("names", "error"),
    [
        ("tests.no_such_game", "the game plugin 'tests.no_such_game' failed to load: ModuleNotFoundError"),
        ("not a module", "'not a module' is not a module name"),
    ],
)
def test_a_bad_plugin_name_is_a_one_line_error(names: str, error: str) -> None:
    with pytest.raises(PluginError, match=error):
        load_game_plugins({PLUGINS_VARIABLE: names})
    proc = _main("engine", env={PLUGINS_VARIABLE: names})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and error in proc.stderr, proc.stderr
