"""Every game family (``game.rules.base.GameFamily``) has an entry on every floor that treats the games
differently: a new family that misses one fails here, not in front of a player."""

from __future__ import annotations

import pytest

from ai.mcts.games import adapter_for
from game.net.states import action_to_move, move_to_action, state_of
from game.rules import get_game
from game.rules.base import GameFamily, GameSpec
from game.rules.capabilities import RECORDS, capabilities
from game.rules.landing import LANDING, last_cell
from game.text.render import DRAWERS, render

pytestmark = pytest.mark.timeout(60)

# one game of each family (the names every path accepts)
SAMPLES = {GameFamily.CONNECT4: "connect4:6x5", GameFamily.MNK: "gomoku", GameFamily.UTTT: "uttt"}


def spec_of(family: GameFamily) -> GameSpec:
    spec = get_game(SAMPLES[family])
    assert spec.family is family
    return spec


def test_every_family_has_a_sample_and_every_name_a_family() -> None:
    assert set(SAMPLES) == set(GameFamily)
    for name in ("connect4", "connect4:8x7", "tictactoe", "mnk:6x6:4", "gomoku", "uttt"):
        assert get_game(name).family in GameFamily


@pytest.mark.parametrize("table", [RECORDS, DRAWERS, LANDING], ids=["capabilities", "text render", "landing"])
def test_the_family_tables_cover_every_family(table: dict[GameFamily, object]) -> None:
    assert set(table) == set(GameFamily)


@pytest.mark.parametrize("family", list(GameFamily))
def test_each_floor_handles_each_family(family: GameFamily) -> None:
    spec = spec_of(family)
    position = spec.start().play(spec.start().legal_moves()[0])
    assert capabilities(spec).name == spec.name
    assert render(position).plain.strip()
    state = state_of(position)  # the network states (their own table; edited elsewhere)
    assert isinstance(state, dict)
    move = position.legal_moves()[0]
    assert action_to_move(spec, move_to_action(spec, move)) == move
    assert adapter_for(spec) is not None  # the search kernels (their own table)
    landed = last_cell(position)
    assert landed is not None and position.cell(landed) == 0  # the first player's piece, where it lies


def test_a_connect4_disc_lands_on_top_of_its_column() -> None:
    position = get_game("connect4").parse_position("444")  # three discs in column 4 (index 3)
    assert last_cell(position) == 2 * 7 + 3
    assert last_cell(get_game("gomoku").start()) is None
