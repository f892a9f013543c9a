"""Pascal Pons' benchmark files parse as legal, unfinished Connect 4 positions.

The files live in ``shared/connect4-positions`` beside the clone (or in ``$CONNECT4_POSITIONS_DIR``).
A missing directory is a failure, not a skip: CI runs with ``shared/`` in place.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game import Status, get_game

FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
PLY_RANGES = {  # stones already played, from the README of the files
    "Test_L3_R1": (29, 41),
    "Test_L2_R1": (15, 28),
    "Test_L2_R2": (15, 27),
    "Test_L1_R1": (4, 14),
    "Test_L1_R2": (4, 14),
    "Test_L1_R3": (1, 13),
}


def positions_dir() -> Path:
    candidates = [Path(__file__).resolve().parents[2] / "shared" / "connect4-positions"]
    if os.environ.get("CONNECT4_POSITIONS_DIR"):
        candidates.append(Path(os.environ["CONNECT4_POSITIONS_DIR"]))
    for path in candidates:
        if all((path / name).is_file() for name in FILES):
            return path
    pytest.fail(
        "Pons' Test_L*_R* files not found in "
        + " or ".join(str(p) for p in candidates)
        + ": put shared/connect4-positions beside the clone or set CONNECT4_POSITIONS_DIR"
    )


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
