"""Connect 4 rules against the array reference, notation round-trips, bad input, game names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import RefKInARow

from game.rules import GAME_NAMES, IllegalMoveError, NotationError, Status, UnknownGameError, get_game
from game.rules.connect4 import Connect4Position, Connect4Spec

REPO = Path(__file__).resolve().parents[1]
SIZES = [(7, 6), (8, 7), (5, 4), (4, 4), (9, 5)]
RANDOM_GAMES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_same(pos: Connect4Position, ref: RefKInARow) -> None:
    spec = pos.spec
    assert pos.ply == len(ref.moves)
    assert pos.to_move == ref.to_move
    assert list(pos.legal_moves()) == ref.legal_moves()
    assert pos.outcome.status.value == ref.status()
    assert pos.outcome.winner == ref.winner
    assert pos.outcome.line == ref.line
    for index in range(spec.width * spec.height):
        assert pos.cell(index) == ref.cell(index)


@pytest.mark.parametrize(("width", "height"), SIZES)
@RANDOM_GAMES
@given(data=st.data())
def test_random_games_agree_with_array_reference(width: int, height: int, data: st.DataObject) -> None:
    spec = Connect4Spec(width, height)
    pos, ref = spec.start(), RefKInARow(width, height, 4, gravity=True)
    assert_same(pos, ref)
    while pos.legal_moves():
        move = data.draw(st.sampled_from(pos.legal_moves()))
        pos = pos.play(move)
        ref.play(move)
        assert_same(pos, ref)
    assert pos.outcome.is_over


@pytest.mark.parametrize(("width", "height"), SIZES)
@RANDOM_GAMES
@given(data=st.data())
def test_position_text_round_trip(width: int, height: int, data: st.DataObject) -> None:
    spec = Connect4Spec(width, height)
    pos = spec.start()
    for _ in range(data.draw(st.integers(0, width * height))):
        if not pos.legal_moves():
            break
        pos = pos.play(data.draw(st.sampled_from(pos.legal_moves())))
    text = pos.to_text()
    again = spec.parse_position(text)
    assert again == pos
    assert again.history == pos.history
    assert again.key == pos.key
    assert get_game(spec.name).parse_position(text) == pos
    assert spec.moves_to_text(spec.parse_moves(text)) == text


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_move_text_round_trip(width: int, height: int) -> None:
    spec = Connect4Spec(width, height)
    texts = [spec.move_to_text(col) for col in range(width)]
    assert texts == [str(c) for c in range(1, width + 1)]
    assert [spec.parse_move(t) for t in texts] == list(range(width))
    assert [spec.parse_move(f" {t}\t") for t in texts] == list(range(width))


def test_game_names_round_trip() -> None:
    for name in ("connect4", "connect4:8x7", "connect4:5x4", "tictactoe", "gomoku", "mnk:6x6:4", "uttt"):
        assert get_game(name).name == name
        assert get_game(name.upper()).name == name
    assert get_game("mnk:3x3:3").name == "tictactoe"
    assert get_game("mnk:15x15:5").name == "gomoku"
    assert get_game("connect4:7x6").name == "connect4"
    assert get_game("mnk:7x5:4").width == 7
    assert get_game("mnk:7x5:4").height == 5


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("chess", "unknown game 'chess'"),
        ("", "unknown game ''"),
        ("connect5", "unknown game 'connect5'"),
        ("mnk:6x6", "bad m,n,k game name"),
        ("mnk:axb:3", "bad m,n,k game name"),
    ],
)
def test_unknown_game_names_are_rejected(name: str, expected: str) -> None:
    with pytest.raises(UnknownGameError, match=expected) as info:
        get_game(name)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name", ["connect4:3x3", "connect4:10x6", "connect4:9x7", "mnk:20x20:5", "mnk:3x3:4"])
def test_unsupported_sizes_are_rejected(name: str) -> None:
    with pytest.raises(NotationError, match="not supported"):
        get_game(name)


def test_accepted_names_are_listed() -> None:
    assert set(GAME_NAMES) == {"connect4", "connect4:WxH", "tictactoe", "mnk:MxN:K", "gomoku", "uttt"}


def test_full_column_is_rejected() -> None:
    spec = Connect4Spec()
    with pytest.raises(IllegalMoveError, match=r"move 7 \(1\) of '1111111': column 1 is full"):
        spec.parse_position("1111111")
    with pytest.raises(IllegalMoveError, match="column 1 is full"):
        spec.parse_position("111111").play(0)


def test_move_after_the_end_is_rejected() -> None:
    spec = Connect4Spec()
    won = spec.parse_position("1212121")
    assert won.outcome.status is Status.WIN
    assert won.outcome.winner == 0
    assert won.outcome.line == (0, 7, 14, 21)
    assert won.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match=r"move 8 \(3\) of '12121213': column 3: the game is already over"):
        spec.parse_position("12121213")


@pytest.mark.parametrize("move", [-1, 7, 100])
def test_out_of_range_column_is_rejected(move: int) -> None:
    with pytest.raises(IllegalMoveError, match=f"column {move + 1} is out of range 1-7"):
        Connect4Spec().start().play(move)


@pytest.mark.parametrize("move", ["4", None, 2.0, True])
def test_non_integer_move_is_rejected(move: object) -> None:
    with pytest.raises(IllegalMoveError, match="is not a column index"):
        Connect4Spec().start().play(move)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("44x3", "'x' is not a column"),
        ("0", "'0' is not a column"),
        ("8", "column 8 is out of range 1-7"),
        ("4 4", "' ' is not a column"),
        ("٣", "is not a column"),
    ],
)
def test_bad_position_text_is_rejected(text: str, expected: str) -> None:
    with pytest.raises(NotationError, match=expected):
        Connect4Spec().parse_position(text)


def test_draw_on_a_full_board() -> None:
    # Columns filled in pairs 1-2, 3-4, 5-6 with a shift so no four lines up, then column 7.
    spec = Connect4Spec()
    text = "121212" + "212121" + "343434" + "434343" + "565656" + "656565" + "777777"
    pos = spec.parse_position(text)
    assert pos.ply == 42
    assert pos.outcome.status is Status.DRAW
    assert pos.legal_moves() == ()


def test_importing_game_loads_no_pygame_or_numba() -> None:
    code = (
        "import sys, game, game.rules.mnk, game.rules.uttt, game.rules.grid, game.rules.connect4\n"
        "for name in ('connect4', 'tictactoe', 'gomoku', 'mnk:6x6:4', 'uttt'): game.rules.get_game(name).start()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'numba'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
