"""The README's screenshots are of this app (issue 37 #16): ``python tools/screenshots.py`` makes them all, and
this fails when the UI code that draws them changed since (or a PNG is not the one made)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.tools_loader import load_tool

pytestmark = pytest.mark.timeout(30)


def test_the_screenshots_are_not_older_than_the_ui_code_that_draws_them() -> None:
    shots = load_tool("screenshots")
    assert shots.problems() == []


def test_a_change_of_the_drawing_code_makes_them_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shots = load_tool("screenshots")
    for path in shots.ui_files():  # the drawing code, copied as it is
        target = tmp_path / path.relative_to(shots.ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    monkeypatch.setattr(shots, "ROOT", tmp_path)
    assert not any("UI code changed" in p for p in shots.problems())
    board = tmp_path / "game" / "ui" / "board_view.py"
    board.write_text(board.read_text() + "\nLABEL_GAP = 3  # a changed drawing\n")
    assert any("UI code changed" in p for p in shots.problems())


def test_every_readme_screenshot_is_made_by_the_command() -> None:
    shots = load_tool("screenshots")
    readme = (shots.ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"docs/screenshots/([\w.-]+\.png)", readme))
    assert named and named <= set(shots.SCREENSHOTS), named - set(shots.SCREENSHOTS)


def heated_holes(png: Path, moves: str, theme: str = "classic") -> list[int]:
    """The columns whose empty holes are tinted by the heatmap in ``png`` (a Connect 4 shot of ``moves``)."""
    import pygame
    from test_ui_fakes import make_test_app

    from game.play.themes import THEMES
    from game.ui.board_view import Connect4Geometry

    image = pygame.image.load(str(png))
    app, _ = make_test_app("connect4", moves, size=image.get_size(), heatmap=True)
    try:
        app.step([], now=app.now + 0.05)
        g = app.layout.board
        assert isinstance(g, Connect4Geometry)
        hole = THEMES[theme].hole
        pos = app.session.position
        tinted = []
        for col in range(g.width):
            empty = [row for row in range(g.height) if pos.cell(row * g.width + col) is None]
            if not empty:
                continue
            x, y = g.center(col, empty[-1])  # the top hole: never the last move's highlight
            seen = image.get_at((round(x), round(y)))
            if sum(abs(a - b) for a, b in zip(seen[:3], hole, strict=True)) > 40:
                tinted.append(col)
        return tinted
    finally:
        app.close()


def test_the_heatmap_picture_shows_heat() -> None:
    shots = load_tool("screenshots")
    args = shots.SCREENSHOTS["midgame-heatmap.png"]
    assert "--heatmap" in args
    moves = args[args.index("--position") + 1]
    assert heated_holes(shots.SHOTS / "midgame-heatmap.png", moves), "the heatmap screenshot shows no heat"
