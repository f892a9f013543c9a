"""Issue 39 item 8: ``play --text`` gets ``hint`` and ``review``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(120)
def test_hint_and_review_in_the_terminal(tmp_path: Path) -> None:
    env = dict(os.environ, CONNECT4_CONFIG_DIR=str(tmp_path), COLUMNS="100")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "play", "--text", "--mode", "hotseat", "--new"],
        input="4\n4\nhint\n1\nreview\nquit\n",
        capture_output=True,
        text=True,
        timeout=110,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert "hint: 4: win in 20" in proc.stdout  # the book: after 44, only column 4 wins
    assert "  3. 1?? blunder  (played 1: loss in 18; best 4: win in 20)" in proc.stdout
    assert "player 2: 1 moves, accuracy 100.0" in proc.stdout
