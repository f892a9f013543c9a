"""Pascal Pons' benchmark files parse as legal, unfinished Connect 4 positions.

The files are shipped in ``tests/data/connect4-positions`` (see its README); a missing file is a failure.
"""

from __future__ import annotations

import pytest

from game.rules import Status, get_game
from tests.positions import FILES, positions_dir

PLY_RANGES = {  # stones already played, from the README of the files
    "Test_L3_R1": (29, 41),
    "Test_L2_R1": (15, 28),
    "Test_L2_R2": (15, 27),
    "Test_L1_R1": (4, 14),
    "Test_L1_R2": (4, 14),
    "Test_L1_R3": (1, 13),
}


@pytest.mark.parametrize("name", FILES)
def test_every_line_is_a_legal_unfinished_position(name: str) -> None:
    spec = get_game("connect4")
    lines = (positions_dir() / name).read_text().splitlines()
    assert len(lines) == 1000
    low, high = PLY_RANGES[name]
    for number, line in enumerate(lines, 1):
        where = f"{name}:{number}: {line!r}"
        moves_text, score_text = line.split()
        score = int(score_text)
        assert -21 <= score <= 21, where
        pos = spec.start()
        for move in spec.parse_moves(moves_text):
            assert not pos.outcome.is_over, f"{where}: a prefix is already over"
            pos = pos.play(move)
        assert not pos.outcome.is_over, f"{where}: the game is already over"
        assert pos == spec.parse_position(moves_text)
        assert low <= pos.ply <= high, where
        # The README says the side to move never has an immediate win in these files.
        for move in pos.legal_moves():
            assert pos.play(move).outcome.status is not Status.WIN, f"{where}: column {move + 1} wins at once"
