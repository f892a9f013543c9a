"""Fuzz the rules' text parsers: game names, moves, move lists and positions of every game.

Every input either parses or is rejected with a ``GameError`` (a ValueError subclass) whose
message is one non-empty line; nothing else may escape. Valid games survive a text round trip.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules import GameError, get_game

GAMES = ["connect4", "connect4:8x7", "connect4:4x4", "tictactoe", "mnk:6x6:4", "mnk:19x3:3", "gomoku", "uttt"]
SPECS = {name: get_game(name) for name in GAMES}

# Text that looks like notation (and often nearly is), mixed with arbitrary Unicode.
_NOTATION_CHARS = string.digits + "abcdefghijklmnopqrsxyzABCS :-_\t\n\r\x00" + "\u0663\u00b2\u0130\u212a\u3000\ufeff"
notation_text = st.one_of(
    st.text(alphabet=_NOTATION_CHARS, max_size=40),
    st.text(max_size=40),
    st.lists(
        st.sampled_from(["a1", "b2", "c3", "s19", "i9", "t1", "a0", "a01", "z9", "4", "7", "8", "0", "  "]), max_size=12
    ).map(" ".join),
)
non_text = st.one_of(st.none(), st.integers(), st.floats(), st.binary(max_size=5), st.lists(st.text(max_size=2)))

pytestmark = pytest.mark.timeout(300)

FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rejected_cleanly(exc: BaseException) -> None:
    assert isinstance(exc, GameError) and isinstance(exc, ValueError), f"{type(exc).__name__}: {exc}"
    message = str(exc)
    assert message.strip(), "empty error message"
    assert "\n" not in message and "\r" not in message, f"multi-line message: {message!r}"


def _call(fn, *args):  # type: ignore[no-untyped-def]
    """``fn(*args)``, or None when it rejected the input cleanly (any other exception fails the test)."""
    try:
        return fn(*args)
    except Exception as exc:  # the point: only GameError may come out
        _rejected_cleanly(exc)
        return None


def _must_reject(fn, value: object) -> None:  # type: ignore[no-untyped-def]
    """``fn(value)`` must raise a clean one-line GameError: a parser that accepts a non-string fails loudly."""
    try:
        result = fn(value)
    except Exception as exc:  # the point: only GameError may come out
        _rejected_cleanly(exc)
        return
    raise AssertionError(f"{getattr(fn, '__qualname__', fn)} accepted {type(value).__name__} {value!r}: {result!r}")


# -- game names ------------------------------------------------------------------------------
_NAME_PARTS = [
    "connect4",
    "mnk",
    "tictactoe",
    "gomoku",
    "uttt",
    ":",
    "x",
    "0",
    "1",
    "4",
    "7",
    "9",
    "15",
    "19",
    "20",
    "99",
    "100",
    " ",
    "-",
    "\u0667",
    "CONNECT4",
    "Gomoku",
]


@FUZZ
@given(st.one_of(st.lists(st.sampled_from(_NAME_PARTS), max_size=7).map("".join), st.text(max_size=30)))
def test_fuzz_game_names(name: str) -> None:
    spec = _call(get_game, name)
    if spec is not None:
        assert get_game(spec.name) == spec  # the canonical name names the same game
        assert spec.width >= 1 and spec.height >= 1


@settings(max_examples=100, deadline=None)
@given(non_text)
def test_fuzz_game_name_of_wrong_type(value: object) -> None:
    _must_reject(get_game, value)


# -- moves, move lists, positions -------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(text=notation_text)
def test_fuzz_parsers(game: str, text: str) -> None:
    spec = SPECS[game]
    move = _call(spec.parse_move, text)
    if move is not None:
        assert spec.parse_move(spec.move_to_text(move)) == move
    moves = _call(spec.parse_moves, text)
    position = _call(spec.parse_position, text)
    if position is not None:
        assert moves is not None and tuple(position.history) == tuple(moves)
        assert spec.parse_position(position.to_text()).history == position.history


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None)
@given(value=non_text)
def test_fuzz_parsers_wrong_type(game: str, value: object) -> None:
    spec = SPECS[game]
    for parser in (spec.parse_move, spec.parse_moves, spec.parse_position):
        _must_reject(parser, value)


@pytest.mark.timeout(30)
def test_the_wrong_type_check_catches_a_parser_that_accepts_anything() -> None:
    """The mutant of the issue: a parser returning () for any non-string must not pass."""
    real = SPECS["connect4"].parse_moves

    def lenient(value: object) -> tuple[int, ...]:
        return real(value) if isinstance(value, str) else ()

    with pytest.raises(AssertionError, match="accepted"):
        _must_reject(lenient, 42)
    with pytest.raises(AssertionError, match="accepted"):
        _must_reject(lenient, None)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_fuzz_random_games_round_trip_and_hostile_edits(game: str, data: st.DataObject) -> None:
    """Play random legal moves; the text round-trips, and an edited text parses or fails cleanly."""
    spec = SPECS[game]
    position = spec.start()
    for _ in range(data.draw(st.integers(0, 40), label="length")):
        legal = position.legal_moves()
        if not legal or position.outcome.is_over:
            break
        position = position.play(data.draw(st.sampled_from(legal)))
    text = position.to_text()
    assert spec.moves_to_text(position.history) == text
    assert spec.parse_position(text).history == position.history
    cut = data.draw(st.integers(0, len(text)), label="cut")
    edited = text[:cut] + data.draw(st.text(alphabet=_NOTATION_CHARS, max_size=4), label="insert") + text[cut:]
    _call(spec.parse_position, edited)
    # illegal continuations: any int played on the finished or current position
    bad = data.draw(st.one_of(st.integers(-3, spec.width * spec.height + 3), st.integers()), label="move")
    _call(position.play, bad)
    _call(spec.move_to_text, bad)
