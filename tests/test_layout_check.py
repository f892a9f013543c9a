"""Every game's screens at the size the app opens with, 640x480 and 1600x1000 (issue 37, "done when"): every
text a frame draws fits its box, is whole, and no two texts run into each other (``game.ui.layout_check``)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from test_ui_fakes import make_test_app

from game.play.actions import Command
from game.play.game_choices import GAME_CHOICES
from game.play.players import BotSetting
from game.ui import app_run, game_app, layout_check, text, view
from game.ui.board_view import Connect4Painter
from game.ui.grid_view import GridPainter

pytestmark = pytest.mark.timeout(120)

SIZES = [(1120, 760), (640, 480), (1600, 1000)]
POSITIONS = {"connect4": "4453", "tictactoe": "b2 a1", "mnk:6x6:4": "c3 d4", "gomoku": "h8 h9 i9", "uttt": "e5 e4"}


def _screens(app: game_app.App, now: float, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[text.DrawnText]]]:
    """The frames a player meets: the board with its analysis, the menu drawer, help, the dialog, a toast."""
    out = []
    for name, setup in (
        ("board", None),
        ("drawer", Command.PANEL),
        ("help", Command.HELP),
        ("new game", Command.NEW_GAME),
        ("load", Command.LOAD),
    ):
        app.overlay, app.dialog.choice, app.window.panel_open = None, None, False
        if setup is not None:
            app.apply(setup)
        app.notice = None
        if name == "board":
            app.set_notice("Could not load the clipboard: '44h' is not a column: expected a column number from 1 to 7")
        app.step([], now=now)
        monkeypatch.setattr(view, "_GRID", GridPainter())  # no cached layer: its texts are drawn (and checked)
        monkeypatch.setattr(view, "_CONNECT4", Connect4Painter())
        with text.recording() as drawn:
            app.step([], now=now)
        out.append((name, list(drawn)))
    return out


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAME_CHOICES)
@pytest.mark.parametrize("mode", ["hotseat", "bot-vs-bot"])
def test_every_text_fits_and_none_runs_into_another(
    size: Any, game: Any, mode: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = POSITIONS.get(game.split(":")[0] if game.startswith("connect4") else game, "")
    app, _ = make_test_app(
        game,
        moves,
        mode=mode,
        size=size,
        heatmap=True,
        exact=True,
        eval_bar=True,
        bots=[BotSetting("medium"), BotSetting("hard")],
    )
    try:
        app.history.paused = True
        if app.caps.exact_solver:
            cols = app.session.position.legal_moves()
            app.turns.exact_cache.put(app.session.spec.name, app.session.moves_text, {c: 9 - 3 * c for c in cols}, 500)
        now = app.now
        for _ in range(6):  # the fake engine's analysis: the heatmap and its labels
            now += 0.05
            app.step([], now=now)
        bounds = pygame.Rect((0, 0), app.screen.get_size())
        found = []
        for name, drawn in _screens(app, now, monkeypatch):
            assert drawn, name
            found += [f"{name}: {p}" for p in layout_check.problems(drawn, bounds)]
        assert not found, "\n".join(found[:12])
    finally:
        app_run.shutdown(app)


def test_the_check_sees_an_overlap_and_a_cut() -> None:
    pygame.init()
    rect = pygame.Rect(10, 10, 60, 14)
    a = text.DrawnText("win in 15", "win in 15", 14, True, rect, 60.0, "board", 1)
    b = text.DrawnText("win in 14", "win in 14", 14, True, rect.move(50, 0), 60.0, "board", 1)
    cut = text.DrawnText("Resume P", "Resu…", 13, False, rect.move(0, 40), 40.0, "panel", 1)
    found = layout_check.problems([a, b, cut], pygame.Rect(0, 0, 400, 300))
    assert any("runs into" in p for p in found) and any("cut" in p for p in found)
    apart = text.DrawnText("win in 14", "win in 14", 14, True, rect.move(64, 0), 60.0, "board", 1)
    assert layout_check.problems([a, apart], pygame.Rect(0, 0, 400, 300)) == []
