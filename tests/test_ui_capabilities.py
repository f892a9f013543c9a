"""One capability record per game, asked instead of probing positions."""

from __future__ import annotations

import pytest

from game.play.game_choices import GAME_CHOICES
from game.rules import get_game
from game.rules.capabilities import capabilities

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize("name", [*GAME_CHOICES, "connect4:4x4", "mnk:7x7:5", "mnk:19x19:6"])
def test_every_game_has_a_record_with_a_plain_title(name: str) -> None:
    spec = get_game(name)
    caps = capabilities(spec)
    assert caps.name == spec.name and (caps.width, caps.height) == (spec.width, spec.height)
    assert ":" not in caps.title and "m,n,k" not in caps.title and caps.title[0].isupper()
    assert caps.gravity == caps.exact_solver == caps.name.startswith("connect4")  # today: Connect 4 boards
    assert caps.local_boards == (caps.name == "uttt")
    start = spec.start()
    if caps.gravity:  # a move is a column: every column of the empty board is legal
        assert start.legal_moves() == tuple(range(caps.width))
    else:  # a move is a cell
        assert max(start.legal_moves()) < caps.cells


def test_titles_players_know() -> None:
    assert capabilities(get_game("mnk:6x6:4")).title == "Four in a row 6x6"
    assert capabilities(get_game("tictactoe")).player_names == ("X", "O")
    assert capabilities(get_game("gomoku")).player_names is None  # stones in the theme's colours


def test_an_unknown_rule_set_is_refused() -> None:
    class Other:
        name = "chess"
        family = "chess"  # a family no floor has an entry for

    with pytest.raises(ValueError, match="chess"):
        capabilities(Other())  # type: ignore[arg-type]
