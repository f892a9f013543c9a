"""The board's labels and panel at every size: the verdict row (one form, one size, never overlapping), the
share row, toasts inside the board area, whole button labels, and the book's exact values shown while bots play
or a pasted game is opened. Each drives the real frame function (or the pure piece that decides)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from test_ui_fakes import fresh_pygame

from game.play.actions import Command
from game.play.exact import LEGEND_VARIANTS, Verdict
from game.play.heat import HeatData, HeatEntry
from game.play.players import Mode
from game.play.themes import THEMES
from game.ui import game_app, text
from game.ui.board_view import Connect4Painter, connect4_geometry, label_room
from game.ui.frame import BoardScene, Notice
from game.ui.layout import MIN_SIZE
from game.ui.notice_place import place_notice
from game.ui.status import draw_notice

pytestmark = pytest.mark.timeout(60)

SIZES = [(1120, 760), (640, 480), (1600, 1000), MIN_SIZE]


def _until_book(app: game_app.App) -> None:
    assert app.turns.book.wait_ready(30), "the opening book was not read"
    app.step([])


def _row_of(drawn: list[text.DrawnText], y: int) -> list[text.DrawnText]:
    return [d for d in drawn if d.rect.top == y and d.label not in LEGEND_VARIANTS]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("heat_on", [False, True])
def test_verdict_row_is_one_form_one_size_and_never_overlaps(made: Any, size: Any, heat_on: Any) -> None:
    app, _ = made("connect4", "443", size=size, exact=True)
    app.step([])
    g = app.layout.board
    verdicts = {
        0: Verdict("loss in 5", "exact", "loss", 5),
        1: Verdict("win in 15", "exact", "win", 15),
        2: Verdict("win in 15", "exact", "win", 15),
        3: Verdict("win in 14", "exact", "win", 14),
        4: Verdict("loss in 10", "exact", "loss", 10),
        5: Verdict("draw", "exact", "draw"),
        6: Verdict("52%", "estimate"),
    }
    heat = HeatData(3, {m: HeatEntry(m, 1 / 7, 0.5) for m in range(7)}, 700) if heat_on else None
    scene = BoardScene(app.session.position, THEMES["classic"], THEMES["classic"].discs, (None, None), 0.0)
    scene = BoardScene(**{**scene.__dict__, "verdicts": verdicts, "heat": heat})
    surface = pygame.Surface(app.screen.get_size())
    with text.recording() as drawn:
        Connect4Painter().draw(surface, scene, g)
    row_y = round(g.labels_top + g.cell * 0.42)  # the verdict row keeps its place with or without the share row
    row = [d for d in drawn if abs(d.rect.top - row_y) <= 1 and d.label not in LEGEND_VARIANTS]
    assert len(row) == 7, [d.shown for d in drawn]
    assert len({d.size for d in row}) == 1, f"mixed sizes at {size}: {[(d.shown, d.size) for d in row]}"
    common = set(range(4))
    for m, d in enumerate(sorted(row, key=lambda d: d.rect.left)):
        common &= {i for i, f in enumerate(verdicts[m].forms()) if f == d.shown}
    assert common, f"mixed forms at {size}: {[d.shown for d in row]}"
    ordered = sorted(row, key=lambda d: d.rect.left)
    for a, b in zip(ordered, ordered[1:], strict=False):
        assert b.rect.left - a.rect.right >= 2, f"{a.shown!r} runs into {b.shown!r} at {size}"
    for d in row:
        assert d.rect.width <= label_room(g) and d.shown == d.label and d.size >= text.MIN_SIZE
    if min(common) >= 2:  # the letters need their legend: in the free row, else as the row's tooltip
        legend = [d for d in drawn if d.label in LEGEND_VARIANTS]
        assert heat_on or legend, "a short-form row without its legend"


@pytest.mark.parametrize("size", SIZES)
def test_toasts_stay_in_the_board_area_wrapped(made: Any, size: Any) -> None:
    app, _ = made("connect4", "44", size=size)
    app.step([])
    long = "Saved to /home/someone/.local/share/connect4/games/connect4-2026-11-27-041200.json (42 moves)"
    fresh_pygame()
    surface = pygame.Surface(app.screen.get_size())
    box = draw_notice(surface, Notice(long, False), place_notice(app.layout, long), THEMES["classic"])
    assert surface.get_rect().contains(box)
    if size[0] >= 640:  # (the 400x300 minimum holds a long notice only over the board's lower edge)
        assert not box.colliderect(app.layout.board.frame), f"the toast covers the board at {size}"
    if app.layout.panel is not None:
        assert not box.colliderect(app.layout.panel.rect), f"the toast covers the panel at {size}"


def test_geometry_at_the_smallest_window_still_has_room_for_letters() -> None:
    g = connect4_geometry(7, 6, pygame.Rect(0, 0, 340, 216))
    fresh_pygame()
    assert text.fits("L", text.MIN_SIZE, label_room(g), True)


@pytest.mark.parametrize("moves", ["4", "445362"])
def test_bot_vs_bot_shows_the_books_exact_values_while_it_plays(made: Any, moves: Any) -> None:
    app, fake = made("connect4", moves, mode=Mode.BOT_VS_BOT, exact=True, eval_bar=True, book=True)
    app.history.paused = False
    app.step([])
    _until_book(app)
    assert app.turns.driver.search is not None and app.turns.driver.search.kind == "bot"  # the bots play on
    verdicts = app.engine.verdicts(app.caps)
    assert verdicts is not None and all(v.kind == "exact" for v in verdicts.values()), verdicts
    assert app.snapshot().eval_bar is not None and app.snapshot().eval_bar.exact
    series = app.session.eval_series()
    assert all(p is not None and p.exact for p in series), series  # the graph's book points are squares


def test_a_pasted_game_gets_its_earlier_points_and_keeps_them_in_the_saved_file(
    made: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import json

    from game.play import game_files
    from game.ui import files

    app, _ = made("connect4", "", exact=True, eval_bar=True, book=True)
    monkeypatch.setattr(files, "paste_text", lambda: "44536")
    app.apply(Command.PASTE)
    app.step([])
    _until_book(app)
    series = app.session.eval_series()
    assert all(series[p] is not None and series[p].exact for p in range(4)), series
    saved = json.loads(game_files.game_json_with_evals(app.session))
    assert {"0", "1", "2", "3"} <= set(saved["evals"]), saved.get("evals")


@pytest.mark.parametrize("size", SIZES[:3])
@pytest.mark.parametrize("mode,paused", [(Mode.BOT_VS_BOT, False), (Mode.BOT_VS_BOT, True), (Mode.VS_BOT, False)])
def test_every_button_label_is_whole_at_the_panels_font_size(made: Any, size: Any, mode: Any, paused: Any) -> None:
    app, _ = made("connect4", "4453", mode=mode, size=size)
    app.history.paused = paused
    app.window.panel_open = True  # the drawer at 640x480
    app.step([])
    labels = {b.label for b in app.layout.buttons}
    with text.recording() as drawn:
        app.step([])
    font = app.layout.panel.font_size
    on_buttons = [d for d in drawn if d.layer in ("panel", "drawer", "top") and d.label in labels]
    assert {d.label for d in on_buttons} >= {"Resume P" if paused else "Pause P"} if mode == Mode.BOT_VS_BOT else True
    for d in on_buttons:
        assert d.shown == d.label, f"{d.label!r} cut to {d.shown!r} at {size}"
        if d.layer in ("panel", "drawer") and d.label not in ("‹", "›"):
            assert d.size == font, f"{d.label!r} drawn at {d.size}px, the panel's buttons at {font}px ({size})"


def test_the_panel_grows_with_the_window(made: Any) -> None:
    from game.ui.layout import compute_layout

    app, _ = made("connect4", "", size=(1120, 760))
    app.step([])
    panels = [compute_layout(size, app.snapshot()).panel for size in ((1120, 760), (1600, 1000))]
    widths = [panel.rect.width for panel in panels if panel is not None]
    assert widths[1] >= widths[0] + 80, widths


def test_proven_points_of_a_long_game_stay_apart() -> None:
    from game.play.session import EvalPoint
    from game.ui.eval_graph import draw_graph

    fresh_pygame()
    theme = THEMES["classic"]
    rect = pygame.Rect(0, 0, 292, 120)
    surface = pygame.Surface(rect.size)
    surface.fill((255, 255, 255))
    points = tuple(EvalPoint(1.0, True) for _ in range(42))
    draw_graph(surface, rect, theme, points, 0, theme.discs, "Red's winning chance", (-1, -1))
    from game.ui.eval_graph import x_of, y_of

    y = round(y_of(rect, 1.0))
    gap_x = round((x_of(rect, 20, 41) + x_of(rect, 21, 41)) / 2)
    assert surface.get_at((gap_x, y + 2))[:3] != tuple(theme.text), "the squares merge into a bar"


def test_a_book_position_shows_the_books_verdicts_under_the_heatmap_not_dashes(made: Any) -> None:
    app, _ = made("connect4", "4453", size=(1120, 760), heatmap=True)
    app.step([])
    g = app.layout.board
    settled = HeatData(4, {m: HeatEntry(m, 0.0, 0.0, "loss", -(15 + m % 2)) for m in range(7)}, 0)
    scene = BoardScene(app.session.position, THEMES["classic"], THEMES["classic"].discs, (None, None), 0.0)
    scene = BoardScene(**{**scene.__dict__, "heat": settled})
    surface = pygame.Surface(app.screen.get_size())
    with text.recording() as drawn:
        Connect4Painter().draw(surface, scene, g)
    shown = [d.shown for d in drawn]
    assert "–" not in shown and any(s.startswith("loss") and any(ch.isdigit() for ch in s) for s in shown), shown


def test_while_the_bots_play_off_the_book_the_row_shows_estimates_not_a_solving_that_never_comes(made: Any) -> None:
    app, _ = made("connect4", "4435437172", mode="bot-vs-bot", exact=True, book=True)  # off the book
    app.history.paused = False
    _until_book(app)
    for _ in range(2):
        app.step([])
    verdicts = app.engine.verdicts(app.caps)
    assert verdicts is not None and {v.kind for v in verdicts.values()} <= {"exact", "estimate"}, verdicts
    app.history.paused = True  # paused: the solver looks at the position, and the row says so meanwhile
    assert {v.kind for v in app.engine.verdicts(app.caps).values()} <= {"exact", "pending"}


def test_a_book_position_has_its_verdicts_in_the_frame_its_move_is_played(made: Any) -> None:
    app, _ = made("connect4", "44354", mode="hotseat", exact=True, book=True)
    _until_book(app)
    app.human_move(2)  # 443543: a book position
    app.step([])
    assert all(v.kind == "exact" for v in app.snapshot().board.verdicts.values())
