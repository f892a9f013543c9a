"""The server's pure parts: the bounded line splitter, client line parsing, STATE/ACTION per game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.net.states import action_to_move, move_to_action, state_of, winners_of
from game.net.wire import Action, BadLine, Command, Hello, LineBuffer, LineTooLong, parse_client_line
from game.rules import get_game


@pytest.mark.timeout(30)
@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=30).filter(lambda b: b"\n" not in b), max_size=8), st.integers(1, 7))
def test_line_buffer_gives_back_the_lines_in_any_chunking(lines: list[bytes], chunk: int) -> None:
    data = b"".join(line + b"\r\n" for line in lines)
    buffer = LineBuffer(limit=100)
    out: list[str | LineTooLong] = []
    for i in range(0, len(data), chunk):
        out += buffer.feed(data[i : i + chunk])
    assert out == [line.decode("utf-8", errors="replace").rstrip("\r") for line in lines]


@pytest.mark.timeout(10)
def test_line_buffer_drops_long_lines_and_goes_on() -> None:
    buffer = LineBuffer(limit=10)
    out = buffer.feed(b"x" * 25)  # no newline yet: reported once, then skipped
    out += buffer.feed(b"y" * 25 + b"\nok\n" + b"z" * 11 + b"\nfine\n")
    assert [type(x) for x in out] == [LineTooLong, str, LineTooLong, str]
    assert out[1] == "ok" and out[3] == "fine"


@pytest.mark.timeout(10)
def test_client_lines() -> None:
    assert parse_client_line('{"type": "action", "message": {"column": 3}}') == Action({"column": 3})
    assert parse_client_line('{"type": "hello", "room": "r", "clock_ms": 5000}') == Hello(room="r", clock_ms=5000)
    assert parse_client_line('{"type": "resign"}') == Command("resign")
    for bad in (
        "",
        "[1]",
        "nul",
        '{"type": "move"}',
        '{"type": "action"}',
        '{"type": "action", "seat": 3, "message": 1}',
        '{"type": "hello", "clock_ms": -1}',
        '{"type": "hello", "room": ""}',
        "[" * 100_000,
    ):
        assert isinstance(parse_client_line(bad), BadLine), bad


@pytest.mark.timeout(60)
@pytest.mark.parametrize("game", ["connect4", "uttt", "tictactoe", "gomoku", "connect4:8x6"])
def test_actions_and_states_follow_the_rules(game: str) -> None:
    spec = get_game(game)
    rng = random.Random(game)
    for _ in range(20):
        position = spec.start()
        while not position.outcome.is_over:
            legal = position.legal_moves()
            for move in legal:
                assert action_to_move(spec, move_to_action(spec, move)) == move
            state = state_of(position)
            assert len(state["pieces"]) == position.ply and state["player"] == position.to_move + 1
            if game == "uttt":
                constraint = state["constraint"]
                boards = {(m // 9 // 3, m % 9 // 3) for m in legal}
                if constraint["outer-row"] is not None:
                    assert boards == {(constraint["outer-row"], constraint["outer-column"])}
            position = position.play(rng.choice(legal))
        winners = winners_of(position)
        assert winners is not None and sum(winners.values()) == 1
