"""``main.py play --text`` driven through a pipe (the scriptable mode), as a script would use it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.net_helpers import ROOT, LineSocket, start_server


def _play(config: Path, lines: list[str], *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CONNECT4_CONFIG_DIR=str(config), COLUMNS="80")
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "play", "--text", *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def _autosave(config: Path) -> dict[str, object]:
    result: dict[str, object] = json.loads((config / "autosave.json").read_text())
    return result


@pytest.mark.timeout(60)
def test_hotseat_game_to_a_win_piped_plain(tmp_path: Path) -> None:
    proc = _play(tmp_path, ["1", "2", "1", "2", "1", "2", "1"], "--mode", "hotseat", "--new")
    assert proc.returncode == 0, proc.stderr
    assert "X (player 1) wins after 7 moves." in proc.stdout
    assert "\x1b[" not in proc.stdout  # no escape codes when piped
    assert "| X   O   .   .   .   .   . |" in proc.stdout
    assert _autosave(tmp_path)["moves"] == "1212121"


@pytest.mark.timeout(60)
def test_bad_input_undo_and_end_of_input_keep_the_game(tmp_path: Path) -> None:
    proc = _play(tmp_path, ["4", "9", "x", "", "help", "4", "undo", "3"], "--mode", "hotseat", "--new")
    assert proc.returncode == 0, proc.stderr
    assert "column 9 is out of range 1-7" in proc.stdout
    assert "'x' is not a column" in proc.stdout
    assert "Type a move (a column 1-7)" in proc.stdout
    assert "end of input: game saved (2 moves: 43)" in proc.stdout
    assert _autosave(tmp_path)["moves"] == "43"
    again = _play(tmp_path, ["moves", "quit"])
    assert "Resuming the saved connect4 game (2 moves" in again.stdout
    assert "connect4: 43" in again.stdout


@pytest.mark.timeout(90)
def test_whole_game_against_the_bot_shows_its_thinking(tmp_path: Path) -> None:
    moves = [str(c) for c in (1, 2, 3, 5, 6, 7) * 7]  # full columns are refused and the next line is read
    proc = _play(tmp_path, moves, "--mode", "bot", "--time-ms", "50", "--new", "--game", "connect4")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "the bot plays" in out and "searched: " in out
    assert out.count("%") > 10  # the per-column shares under the board
    assert "wins after" in out or "Draw after" in out
    saved = _autosave(tmp_path)
    assert len(str(saved["moves"])) >= 7


@pytest.mark.timeout(60)
def test_uttt_and_gomoku_take_cells(tmp_path: Path) -> None:
    proc = _play(tmp_path, ["e5", "a1", "moves"], "--mode", "hotseat", "--new", "--game", "uttt")
    assert "cell a1 is not in the board you must play" in proc.stdout
    assert "uttt: e5" in proc.stdout
    proc = _play(tmp_path, ["h8", "h9", "undo", "moves"], "--mode", "hotseat", "--new", "--game", "gomoku")
    assert "gomoku: h8" in proc.stdout and proc.returncode == 0


@pytest.mark.timeout(90)
def test_join_a_network_game_against_our_bot(tmp_path: Path) -> None:
    server, port = start_server(tmp_path / "t.db")
    bot = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "bot",
            "--connect",
            f"127.0.0.1:{port}",
            "--time-ms",
            "30",
            "--room",
            "tp",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        proc = _play(
            tmp_path, [str(c) for c in (1, 2, 3, 5, 6, 7) * 7], "--connect", f"127.0.0.1:{port}", "--room", "tp"
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "joined connect4, room tp" in proc.stdout
        assert any(v in proc.stdout for v in ("You win", "You lose", "Draw"))
        assert bot.wait(30) == 0
    finally:
        bot.kill()
        server.kill()
        server.wait(5)


@pytest.mark.timeout(60)
def test_bot_vs_bot_to_the_end(tmp_path: Path) -> None:
    proc = _play(tmp_path, [], "--mode", "botbot", "--time-ms", "20", "--new", "--game", "tictactoe")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("plays") >= 5 and ("Draw after" in proc.stdout or "wins after" in proc.stdout)


def _auto_opponent(client: LineSocket, seat: int, seen: list[str], start: threading.Event | None = None) -> None:
    """Plays column 1 (else the first open one) whenever it is its turn (once ``start`` is set); keeps the
    moves it saw."""
    while True:
        try:
            message = client.receive()
        except (OSError, ValueError):  # closed at the end of the test
            return
        if message is None:
            return
        if message["type"] != "update":
            continue
        seen.append(message["moves"])
        if message["state"]["player"] == seat and "winners" not in message:
            heights = [0] * 7
            for piece in message["state"]["pieces"]:
                heights[piece["column"]] += 1
            column = next(c for c in range(7) if heights[c] < 6)
            if start is not None and not start.wait(30):
                return
            client.send({"type": "action", "message": {"column": column}})


@pytest.mark.timeout(60)
def test_leave_a_network_game_and_come_back_with_the_token(tmp_path: Path) -> None:
    server, port = start_server(tmp_path / "t.db")
    opponent = LineSocket(port, timeout=50)
    try:
        opponent.hello(room="back")  # after the server's first line: a hello sent at once may be read late
        assert opponent.receive()["type"] == "welcome"  # type: ignore[index]
        seat = opponent.receive()["message"]  # type: ignore[index]
        seen: list[str] = []
        threading.Thread(target=_auto_opponent, args=(opponent, seat, seen), daemon=True).start()
        first = _play(tmp_path, ["4"], "--connect", f"127.0.0.1:{port}", "--room", "back", timeout=30)
        token = re.search(r"(--token=\S+)", first.stdout)
        assert first.returncode == 0 and token, first.stdout
        again = _play(tmp_path, ["5"], "--connect", f"127.0.0.1:{port}", token[1], timeout=30)
        assert again.returncode == 0 and "joined connect4, room back" in again.stdout
        mine = seen[-1][(2 - seat) :: 2]  # the terminal's moves: seat 1 plays the even plies
        assert mine[:2] == "45", seen
    finally:
        opponent.close()
        server.kill()
        server.wait(5)


@pytest.mark.timeout(60)
def test_watch_a_room_with_a_clock(tmp_path: Path) -> None:
    server, port = start_server(tmp_path / "w.db")
    players = [LineSocket(port, timeout=50) for _ in range(2)]
    try:
        for client in players:
            client.hello(room="watch", clock_ms=90_000)  # after the provisional seat's line (see above)
        seats: dict[int, LineSocket] = {}
        for client in players:
            while (message := client.receive()) is not None and message["type"] != "player":
                pass
            seats[message["message"]] = client  # type: ignore[index]
        seen: list[str] = []
        watching = threading.Event()  # the players move once the spectator has joined
        for seat, client in seats.items():
            threading.Thread(target=_auto_opponent, args=(client, seat, seen, watching), daemon=True).start()
        env = dict(os.environ, CONNECT4_CONFIG_DIR=str(tmp_path), COLUMNS="80")
        args = ["--connect", f"127.0.0.1:{port}", "--room", "watch", "--spectate"]
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "play", "--text", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert "watching connect4 in room watch" in first, first
        watching.set()
        rest, errors = proc.communicate(timeout=40)
        assert proc.returncode == 0, first + rest + errors
        assert "clocks: X 1:" in rest and "X played 1" in rest
        assert "Game over" in rest and "to move" not in rest
    finally:
        for client in players:
            client.close()
        server.kill()
        server.wait(5)


def test_the_printed_rejoin_arguments_give_back_a_token_that_starts_with_a_dash() -> None:
    """Seat tokens are URL-safe base64, so one in 64 starts with "-": ``--token -x`` would read as a missing value
    (the network test above failed once that way), ``--token=-x`` does not."""
    import argparse
    import shlex

    from game.text.net_play import rejoin_arguments
    from game.text.play import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    for token in ("-Ab_c9", "_x-", "plain"):
        args = parser.parse_args(shlex.split(rejoin_arguments("127.0.0.1:8765", token)))
        assert (args.connect, args.token) == ("127.0.0.1:8765", token)


@pytest.mark.timeout(120)
def test_a_book_move_says_it_came_from_the_book_with_the_books_verdicts(tmp_path: Path) -> None:
    """Issue 37 #12: after 4, Medium answers from the opening book: no search statistics that contradict it."""
    proc = _play(tmp_path, ["4", "quit"], "--level", "medium", "--new", timeout=110)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "plays 4 from the opening book" in out, out
    assert "searched:" not in out and "win chance" not in out
    book = next(line for line in out.splitlines() if "the book:" in line)
    assert "4 loss in" in book and "draw" not in book and "win" not in book  # after 4 Red wins: every reply loses
