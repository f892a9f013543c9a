"""Grid games (m,n,k, Gomoku, Ultimate tic-tac-toe): array reference, notation, bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import RefKInARow, RefUttt

from game.rules import IllegalMoveError, NotationError, Status, get_game
from game.rules.grid import board_range, cell_to_text, text_to_cell
from game.rules.mnk import MnkSpec
from game.rules.uttt import ANY_BOARD, BOARD_CELLS, UtttPosition, UtttSpec, board_name

MNK_GAMES = ["tictactoe", "mnk:6x6:4", "mnk:4x3:3", "mnk:5x1:3", "mnk:2x6:2", "mnk:7x5:4"]
ALL_GRID_GAMES = [*MNK_GAMES, "gomoku", "uttt"]
RANDOM_GAMES = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Hand-checkable UTTT games (inputs, not results):
# X takes g5, h5, i5 (the middle row of board 5 = g4-i6); i5 is local cell 5, so O is sent to the won board 5.
SENT_TO_WON_BOARD = "g5 c5 h5 f5 i5"
# Random game whose last move (i1, local cell 2) sends O to board 2 (g1-i3): full, nobody won it.
SENT_TO_FULL_BOARD = (
    "h5 d5 a6 c9 g7 c3 i7 h1 d3 c8 i5 i6 h7 e1 d1 c1 g1 b1 f2 g4 a2 a5 c4 h2 f4 i3 h3 f7 i2 i4 g3 a9 c7 g2 b4 f1 i1"
)
UTTT_WIN = "f5 i6 g7 b2 f4 g2 b5 d4 a2 a4 a3 a8 a6 a7 c3 g9 c9 h8 d5 a5 c4 g1 c1 g3 b7 d3 b9 d8 b3 d9 a9"
UTTT_DRAW = (
    "f1 i3 h7 e2 d6 c8 i6 i8 i4 h2 e4 d2 a6 a9 c7 h3 e7 f2 g5 a4 a2 b4 c3 g7 c2 i5 g6 c9 i7 g1 b2 d4 c5 h6 "
    "e9 e8 f6 g9 b9 d9 b7 g8 b6 f7 a7 f5 h5 f4 e6 a5 b5 c4"
)


def assert_same_mnk(pos: Any, ref: RefKInARow) -> None:
    assert pos.ply == len(ref.moves)
    assert pos.to_move == ref.to_move
    assert list(pos.legal_moves()) == ref.legal_moves()
    assert pos.outcome.status.value == ref.status()
    assert pos.outcome.winner == ref.winner
    assert pos.outcome.line == ref.line
    for index in range(pos.spec.width * pos.spec.height):
        assert pos.cell(index) == ref.cell(index)
        assert (pos.stones(0) >> index) & 1 == (ref.cell(index) == 0)
        assert (pos.stones(1) >> index) & 1 == (ref.cell(index) == 1)


def assert_same_uttt(pos: UtttPosition, ref: RefUttt) -> None:
    assert pos.ply == len(ref.moves)
    assert pos.to_move == ref.to_move
    assert list(pos.allowed_boards()) == ref.allowed_boards()
    assert list(pos.legal_moves()) == ref.legal_moves()
    assert pos.outcome.status.value == ref.status()
    assert pos.outcome.winner == ref.winner
    assert pos.outcome.line == ref.line
    assert [pos.local_winner(b) for b in range(9)] == [ref.local_winner(b) for b in range(9)]
    for index in range(81):
        assert pos.cell(index) == ref.cell(index)


def play_random(spec: Any, data: st.DataObject, max_moves: int | None = None) -> Any:
    pos = spec.start()
    limit = data.draw(st.integers(0, spec.width * spec.height)) if max_moves is None else max_moves
    for _ in range(limit):
        if not pos.legal_moves():
            break
        pos = pos.play(data.draw(st.sampled_from(pos.legal_moves())))
    return pos


@pytest.mark.parametrize("name", MNK_GAMES)
@RANDOM_GAMES
@given(data=st.data())
def test_mnk_random_games_agree_with_array_reference(name: str, data: st.DataObject) -> None:
    spec = get_game(name)
    assert isinstance(spec, MnkSpec)
    pos, ref = spec.start(), RefKInARow(spec.width, spec.height, spec.k, gravity=False)
    assert_same_mnk(pos, ref)
    while pos.legal_moves():
        move = data.draw(st.sampled_from(pos.legal_moves()))
        pos, _ = pos.play(move), ref.play(move)
        assert_same_mnk(pos, ref)
    assert pos.outcome.is_over


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_gomoku_random_games_agree_with_array_reference(data: st.DataObject) -> None:
    spec = get_game("gomoku")
    pos, ref = spec.start(), RefKInARow(15, 15, 5, gravity=False)
    while pos.legal_moves():
        move = data.draw(st.sampled_from(pos.legal_moves()))
        pos, _ = pos.play(move), ref.play(move)
        # The reference scans the whole board: compare the cheap parts every move, the rest every 8.
        assert pos.outcome.status.value == ref.status()
        assert pos.outcome.line == ref.line
        if pos.ply % 8 == 0 or pos.outcome.is_over:
            assert_same_mnk(pos, ref)


@RANDOM_GAMES
@given(data=st.data())
def test_uttt_random_games_agree_with_array_reference(data: st.DataObject) -> None:
    spec = UtttSpec()
    pos, ref = spec.start(), RefUttt()
    assert_same_uttt(pos, ref)
    while pos.legal_moves():
        move = data.draw(st.sampled_from(pos.legal_moves()))
        pos, _ = pos.play(move), ref.play(move)
        assert_same_uttt(pos, ref)
    assert pos.outcome.is_over


@pytest.mark.parametrize("name", ALL_GRID_GAMES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_position_text_round_trip(name: str, data: st.DataObject) -> None:
    spec = get_game(name)
    pos = play_random(spec, data, None if name != "gomoku" else data.draw(st.integers(0, 60)))
    text = pos.to_text()
    assert text == " ".join(spec.move_to_text(m) for m in pos.history)
    again = spec.parse_position(text)
    assert again == pos
    assert hash(again) == hash(pos)
    assert again.history == pos.history
    assert get_game(spec.name).parse_position(f"  {text.upper()}\n").history == pos.history
    assert spec.parse_position("\t\n".join(text.split())) == pos


@pytest.mark.parametrize("name", ALL_GRID_GAMES)
def test_move_text_round_trip(name: str) -> None:
    spec = get_game(name)
    for move in range(spec.width * spec.height):
        text = spec.move_to_text(move)
        assert spec.parse_move(text) == move
        assert spec.parse_move(text.upper()) == move
        row, col = divmod(move, spec.width)
        assert text == "abcdefghijklmnopqrs"[col] + str(row + 1)


def test_cell_notation_corners() -> None:
    assert cell_to_text(0, 3, 3) == "a1"
    assert cell_to_text(8, 3, 3) == "c3"
    assert cell_to_text(2, 3, 3) == "c1"
    assert text_to_cell("c1", 3, 3) == 2
    assert text_to_cell("a2", 3, 3) == 3
    assert text_to_cell("S19", 19, 19) == 360
    assert board_range(15, 15) == "a1-o15"
    assert board_name(0) == "a1-c3"
    assert board_name(4) == "d4-f6"
    assert board_name(8) == "g7-i9"
    assert BOARD_CELLS[5] == (33, 34, 35, 42, 43, 44, 51, 52, 53)


def test_equal_positions_ignore_move_order() -> None:
    spec = get_game("tictactoe")
    one, two = spec.parse_position("a1 b2 c3"), spec.parse_position("c3 b2 a1")
    assert one == two and hash(one) == hash(two)
    assert one.history != two.history
    assert len({one, two}) == 1


def test_uttt_positions_differ_by_the_board_to_play() -> None:
    spec = UtttSpec()
    # Same stones, but the last move sends X to board 0 (a1 is local cell 0) or board 3 (a5 is local cell 3).
    one, two = spec.parse_position("a2 a5 a4 a1"), spec.parse_position("a4 a1 a2 a5")
    assert one.stones(0) == two.stones(0) and one.stones(1) == two.stones(1)
    assert one.allowed_boards() == (0,)
    assert two.allowed_boards() == (3,)
    assert one != two


def test_uttt_sent_to_a_won_board_plays_anywhere_open() -> None:
    pos = UtttSpec().parse_position(SENT_TO_WON_BOARD)
    assert pos.local_winner(5) == 0
    assert pos.local_line(5) == (42, 43, 44)
    assert pos.board == ANY_BOARD
    assert pos.allowed_boards() == (0, 1, 2, 3, 4, 6, 7, 8)
    assert not any(cell in BOARD_CELLS[5] for cell in pos.legal_moves())
    with pytest.raises(IllegalMoveError, match="cell g4 is in board g4-i6, which is already won"):
        pos.play(pos.spec.parse_move("g4"))


def test_uttt_sent_to_a_full_board_plays_anywhere_open() -> None:
    pos = UtttSpec().parse_position(SENT_TO_FULL_BOARD)
    assert all(pos.cell(c) is not None for c in BOARD_CELLS[2])
    assert pos.local_winner(2) is None
    assert pos.board == ANY_BOARD
    open_boards = tuple(b for b in range(9) if pos.local_winner(b) is None and b != 2)
    assert pos.allowed_boards() == open_boards
    assert 2 not in open_boards and len(open_boards) > 1


def test_uttt_win_line_is_the_cells_of_the_winning_boards() -> None:
    pos = UtttSpec().parse_position(UTTT_WIN)
    assert pos.outcome.status is Status.WIN
    assert pos.outcome.winner == 0
    assert pos.outcome.line == tuple(sorted(BOARD_CELLS[0] + BOARD_CELLS[3] + BOARD_CELLS[6]))
    assert pos.legal_moves() == () and pos.allowed_boards() == ()


def test_uttt_no_open_board_and_no_line_is_a_draw() -> None:
    pos = UtttSpec().parse_position(UTTT_DRAW)
    assert all(pos.local_winner(b) is not None for b in range(9))
    assert pos.outcome.status is Status.DRAW
    assert pos.outcome.winner is None and pos.outcome.line == ()
    assert pos.legal_moves() == ()


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("tictactoe", "b2 b2", r"move 2 \(b2\) of 'b2 b2': cell b2 is taken"),
        ("tictactoe", "a1 a2 b1 b2 c1 c2", r"move 6 \(c2\) of .*: cell c2: the game is already over"),
        ("uttt", "e5 e5", r"move 2 \(e5\) of 'e5 e5': cell e5 is taken"),
        ("uttt", "e5 a1", r"move 2 \(a1\) of .*: cell a1 is not in the board you must play \(board d4-f6\)"),
        ("uttt", UTTT_WIN + " e5", r"move 32 \(e5\) of .*: cell e5: the game is already over"),
        ("gomoku", "h8 h8", "cell h8 is taken"),
    ],
)
def test_illegal_moves_are_rejected_with_the_reason(name: str, text: str, expected: str) -> None:
    with pytest.raises(IllegalMoveError, match=expected) as info:
        get_game(name).parse_position(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("tictactoe", "z9", r"move 1 of 'z9': 'z9' is not a cell of a 3x3 board \(a1-c3\)"),
        ("tictactoe", "b2 d1", r"move 2 of 'b2 d1': 'd1' is not a cell of a 3x3 board \(a1-c3\)"),
        ("tictactoe", "a0", "'a0' is not a cell of a 3x3 board"),
        ("tictactoe", "b2 a!", "move 2 of 'b2 a!': 'a!' is not a cell: unknown character '!'"),
        ("tictactoe", "b2,a1", "unknown character ','"),
        ("tictactoe", "1a", "'1a' is not a cell: expected a column letter then a row number"),
        ("uttt", "j1", r"'j1' is not a cell of a 9x9 board \(a1-i9\)"),
        ("mnk:6x6:4", "a7", r"'a7' is not a cell of a 6x6 board \(a1-f6\)"),
        ("gomoku", "p1", r"'p1' is not a cell of a 15x15 board \(a1-o15\)"),
        ("gomoku", "a" + "9" * 5000, "is not a cell"),
    ],
)
def test_bad_notation_is_rejected(name: str, text: str, expected: str) -> None:
    with pytest.raises(NotationError, match=expected):
        get_game(name).parse_position(text)


@pytest.mark.parametrize("name", ALL_GRID_GAMES)
@pytest.mark.parametrize("move", [-1, 10_000])
def test_out_of_range_cell_index_is_rejected(name: str, move: int) -> None:
    spec = get_game(name)
    with pytest.raises(IllegalMoveError, match=f"cell index {move} is out of range"):
        spec.start().play(move)
    with pytest.raises(NotationError, match=f"cell index {move} is out of range"):
        spec.move_to_text(move)


@pytest.mark.parametrize("move", ["a1", None, 1.0, False])
def test_non_integer_moves_are_rejected(move: object) -> None:
    for spec in (get_game("tictactoe"), UtttSpec()):
        with pytest.raises(IllegalMoveError, match="is not a cell index"):
            spec.start().play(move)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 12, ["a1"]])
def test_non_string_positions_are_rejected(value: object) -> None:
    with pytest.raises(NotationError, match="a position must be a string"):
        get_game("tictactoe").parse_position(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(("w", "h", "k"), [(0, 3, 3), (20, 3, 3), (3, 3, 4), (3, 3, 1), (3, 3, True)])
def test_bad_mnk_sizes_are_rejected(w: int, h: int, k: int) -> None:
    with pytest.raises(NotationError):
        MnkSpec(w, h, k)


def test_spec_names() -> None:
    assert MnkSpec(3, 3, 3).name == "tictactoe"
    assert MnkSpec(15, 15, 5).name == "gomoku"
    assert MnkSpec(6, 6, 4).name == "mnk:6x6:4"
    assert MnkSpec(7, 5, 4).name == "mnk:7x5:4"
    assert UtttSpec().name == "uttt"
    assert (UtttSpec().width, UtttSpec().height) == (9, 9)


def test_overline_counts_as_a_win() -> None:
    # X: a1 b1 d1 e1 then c1 makes five in a row with k=4; the line holds all five cells.
    pos = get_game("mnk:6x6:4").parse_position("a1 a6 b1 b6 d1 e6 e1 f5 c1")
    assert pos.outcome.status is Status.WIN
    assert pos.outcome.winner == 0
    assert pos.outcome.line == (0, 1, 2, 3, 4)


def test_line_masks_cover_every_k_line() -> None:
    spec = get_game("tictactoe")
    six = get_game("mnk:6x6:4")
    assert isinstance(spec, MnkSpec) and isinstance(six, MnkSpec)
    assert len(spec.line_masks) == 8
    assert all(mask.bit_count() == 3 for mask in spec.line_masks)
    assert len(six.line_masks) == 3 * 6 * 2 + 3 * 3 * 2


def test_numpy_integers_are_moves() -> None:
    for name in ("tictactoe", "uttt", "connect4"):
        spec = get_game(name)
        pos = spec.start().play(np.int64(4))  # type: ignore[arg-type]  # numpy integers are accepted
        assert pos == spec.start().play(4)
        assert type(pos.history[0]) is int
        assert spec.move_to_text(np.int32(4)) == spec.move_to_text(4)  # type: ignore[arg-type]


def test_specs_compare_by_rules() -> None:
    assert get_game("tictactoe") == MnkSpec(3, 3, 3) == get_game("mnk:3x3:3")
    assert get_game("uttt") == UtttSpec()
    assert len({get_game("gomoku"), MnkSpec(15, 15, 5), MnkSpec(15, 15, 4)}) == 2
    assert get_game("tictactoe").start() != get_game("mnk:3x3:2").start()
