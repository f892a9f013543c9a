"""One test per defect of the walkthrough at the opening size, 640x480 and 1600x1000 (issue 37), numbered as
there. Each drives the real frame function (or the pure piece that decides) and failed before its fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from test_ui_fakes import fresh_pygame, make_test_app

from ai.client.api import Limit
from ai.client.commands import EngineCommand
from game.play.actions import Command
from game.play.engine_driver import Search
from game.play.exact import LEGEND_VARIANTS, Verdict
from game.play.heat import HeatData, HeatEntry
from game.play.players import Mode
from game.play.themes import THEMES
from game.ui import app_run, game_app, text
from game.ui.board_view import Connect4Painter, connect4_geometry, label_room
from game.ui.frame import BoardScene, Notice
from game.ui.layout import MIN_SIZE
from game.ui.notice_place import place_notice
from game.ui.status import draw_notice, progress_of

pytestmark = pytest.mark.timeout(60)

SIZES = [(1120, 760), (640, 480), (1600, 1000), MIN_SIZE]


# 1 -------------------------------------------------------------------------------------------------
def _row_of(drawn: list[text.DrawnText], y: int) -> list[text.DrawnText]:
    return [d for d in drawn if d.rect.top == y and d.label not in LEGEND_VARIANTS]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("heat_on", [False, True])
def test_1_verdict_row_is_one_form_one_size_and_never_overlaps(made: Any, size: Any, heat_on: Any) -> None:
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


# 8 -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_8_toasts_stay_in_the_board_area_wrapped(made: Any, size: Any) -> None:
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


# 11 ------------------------------------------------------------------------------------------------
def test_11_no_negative_time_when_the_frame_clock_is_older_than_the_search() -> None:
    search = Search(1, "bot", "connect4", "", 0, 3000, started=100.0)
    assert search.elapsed_ms(99.96) == 0.0  # the frame's "now" was read just before the search began
    shown = progress_of("bot", search.elapsed_ms(99.96) / 1000, 3.0, 0, True, True, (0, 0, 0))
    assert not any("-" in label for label in shown.label), shown.label
    assert not any("-0.0" in label for label in progress_of("bot", -0.04, 3.0, 0, True, True, (0, 0, 0)).label)


def test_1_geometry_at_the_smallest_window_still_has_room_for_letters() -> None:
    g = connect4_geometry(7, 6, pygame.Rect(0, 0, 340, 216))
    fresh_pygame()
    assert text.fits("L", text.MIN_SIZE, label_room(g), True)


# 2 -------------------------------------------------------------------------------------------------
def _until_book(app: game_app.App) -> None:
    assert app.turns.book.wait_ready(30), "the opening book was not read"
    app.step([])


@pytest.mark.parametrize("moves", ["4", "445362"])
def test_2_bot_vs_bot_shows_the_books_exact_values_while_it_plays(made: Any, moves: Any) -> None:
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


# 4 -------------------------------------------------------------------------------------------------
def test_4_a_pasted_game_gets_its_earlier_points_and_keeps_them_in_the_saved_file(
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


# 9 -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES[:3])
@pytest.mark.parametrize("mode,paused", [(Mode.BOT_VS_BOT, False), (Mode.BOT_VS_BOT, True), (Mode.VS_BOT, False)])
def test_9_every_button_label_is_whole_at_the_panels_font_size(made: Any, size: Any, mode: Any, paused: Any) -> None:
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


def test_9_the_panel_grows_with_the_window(made: Any) -> None:
    from game.ui.layout import compute_layout

    app, _ = made("connect4", "", size=(1120, 760))
    app.step([])
    panels = [compute_layout(size, app.snapshot()).panel for size in ((1120, 760), (1600, 1000))]
    widths = [panel.rect.width for panel in panels if panel is not None]
    assert widths[1] >= widths[0] + 80, widths


# 13 ------------------------------------------------------------------------------------------------
def test_13_who_starts_keeps_its_colour_when_the_mode_changes() -> None:
    from game.play.actions import DialogField
    from game.play.new_game import NewGameChoice, choice_rows
    from game.play.players import BotSetting

    names = ("Red", "Yellow")
    levels = (BotSetting("medium"), BotSetting("medium"))
    choice = NewGameChoice(
        "connect4", Mode.VS_BOT, colour=1, first=1, levels=levels, threads=0
    )  # you Yellow, bot starts
    assert dict((r.field, r.value) for r in choice_rows(choice, names))[DialogField.STARTER] == "The bot"
    for _ in range(len((Mode.HOTSEAT, Mode.VS_BOT, Mode.BOT_VS_BOT, "network"))):
        choice = choice.changed(DialogField.MODE, 1)
        assert choice.starting_colour == 0, choice  # Red (the bot's colour) starts in every mode
        starter = dict((r.field, r.value) for r in choice_rows(choice, names))[DialogField.STARTER]
        if choice.mode == Mode.BOT_VS_BOT:
            assert starter == "Red"
    assert choice.mode == Mode.VS_BOT and choice.first == 1


# 15 ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("first_launch", [True, False])
def test_15_bot_vs_bot_waits_for_start_behind_the_new_game_dialog(made: Any, first_launch: Any) -> None:
    app, fake = made("connect4", "", mode=Mode.BOT_VS_BOT)
    app.history.paused = False
    app.turns.pending_move = ("", 3, 0.0)  # even a move decided before the dialog opened waits
    app.carry_out(app.dialog.open(first_launch=first_launch))
    now = app.now
    for _ in range(30):
        now += 0.05
        app.step([], now=now)
    assert app.session.line == [] and not fake.searches
    assert "Start" in app.snapshot().status.texts[0]
    app.apply(Command.START)
    for _ in range(30):
        now += 0.05
        app.step([], now=now)
    assert app.session.line, "the bots play once Start is pressed"


# 5 -------------------------------------------------------------------------------------------------
def _click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)


def test_5_the_menu_drawer_closes_on_esc_and_on_a_click_beside_it_which_is_no_move(made: Any) -> None:
    app, _ = made("connect4", "", mode=Mode.HOTSEAT, size=(640, 480))
    app.step([])
    menu = next(b for b in app.layout.buttons if b.label.startswith("Menu"))
    app.step([_click(menu.rect.center)])
    assert app.window.panel_open and app.layout.panel is not None
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")])
    assert not app.window.panel_open
    app.step([_click(menu.rect.center)])
    app.step([])
    board = app.layout.board
    column = board.rect.left + board.cell // 2  # the first column, left of the drawer
    assert app.layout.panel is not None and column < app.layout.panel.rect.left
    app.step([_click((column, board.rect.centery))])
    assert not app.window.panel_open and app.session.line == [], "the click beside the drawer played a move"
    app.step([_click((column, board.rect.centery))])
    assert app.session.line == [0]  # with the drawer closed a click plays


# 6 -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("moves,mode", [("4453", Mode.VS_BOT), ("57167231176", Mode.HOTSEAT)])
def test_6_a_game_opened_with_a_position_is_autosaved_on_closing_without_a_move(moves: Any, mode: Any) -> None:
    from game.play.settings import load_autosave, write_autosave

    write_autosave('{"game": "connect4", "moves": "1234"}\n')  # an older game
    app, _ = make_test_app("connect4", moves, mode=mode, persist=True)
    app.step([])
    app_run.shutdown(app)  # Ctrl+Q without moving
    saved, _ = load_autosave()
    assert saved is not None and "".join(str(m + 1) for m in saved[1]) == moves


# 14 ------------------------------------------------------------------------------------------------
def test_14_pasting_a_connect4_position_over_another_game_switches_after_start(
    made: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.ui import files

    app, _ = made("uttt", "e5", mode=Mode.HOTSEAT)
    monkeypatch.setattr(files, "paste_text", lambda: "44536")
    app.apply(Command.PASTE)
    app.step([])
    assert app.session.spec.name == "uttt" and app.overlay is not None  # asked first, nothing lost yet
    assert app.notice is not None and not app.notice.notice.error
    app.apply(Command.CLOSE)  # Esc keeps the game
    assert app.session.spec.name == "uttt" and app.session.moves_text
    app.apply(Command.PASTE)
    app.apply(Command.START)
    app.step([])
    assert app.session.spec.name == "connect4" and app.session.moves_text == "44536"


# 10 ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fraction,first", [(None, False), (None, True), (0.5, True)])
def test_10_while_the_engine_prepares_the_status_says_so_from_the_click_on(
    made: Any, monkeypatch: pytest.MonkeyPatch, fraction: Any, first: Any
) -> Any:
    from test_ui_fakes import FakeEngineClient

    from game.play.engine_driver import EngineView

    class Compiling(FakeEngineClient):  # type: ignore[misc]  # the fake is imported untyped
        """Its searches wait (silent) while it compiles."""

        def poll(self) -> Any:
            out: list[dict[str, Any]] = self._late
            self._late: list[dict[str, Any]] = []
            return out

    app, _ = made("connect4", "", mode=Mode.VS_BOT, client=Compiling())
    monkeypatch.setattr(app.turns.driver, "view", lambda: EngineView("preparing", "", fraction, first))
    app.step([])
    app.human_move(3)  # the first move: the bot's turn starts, the engine still compiles
    now = app.now
    for _ in range(5):
        now += 0.3
        app.step([], now=now)
    status = app.snapshot().status
    assert "waits for the engine" in status.texts[0] and "thinking" not in status.texts[0], status.texts
    assert status.progress is not None and "preparing the engine" in status.progress.label[0]
    assert " / " not in status.progress.label[0]  # not the search's clock
    assert status.progress.fraction == fraction
    if fraction is not None:
        assert f"{round(fraction * 100)}%" in status.progress.label[0]
    if first:
        assert "first launch only" in status.progress.label[0]


# 7 -------------------------------------------------------------------------------------------------
def test_7_exact_keeps_solving_in_the_background_says_so_and_can_be_stopped(made: Any) -> Any:
    from test_ui_fakes import FakeEngineClient

    from game.play.exact import EXACT_TIME_MS

    class HardSolver(FakeEngineClient):  # type: ignore[misc]  # the fake is imported untyped
        """Its solver settles columns 3 and 4 only (a hard position under load)."""

        def solve(self, limit: Limit) -> EngineCommand:
            command: EngineCommand = super().solve(limit)
            for line in self._late:
                if line.get("type") == "solution":
                    for child in line["children"]:
                        child["score"] = child["score"] if child["move"] in ("4", "5") else None
            return command

    app, fake = made("connect4", "57167231176", mode=Mode.HOTSEAT, exact=True, client=HardSolver())
    now = app.now

    def run(frames: int) -> None:
        nonlocal now
        for _ in range(frames):
            now += 0.05
            app.step([], now=now)

    def solves() -> list[int]:
        return [s["solve_ms"] for s in fake.searches if s.get("moves") == "57167231176" and "solve_ms" in s]

    run(40)
    assert solves()[: len(EXACT_TIME_MS)] == list(EXACT_TIME_MS)
    assert len(solves()) > len(EXACT_TIME_MS), "it gave up after the listed looks"
    verdicts = app.engine.verdicts(app.caps)
    assert verdicts is not None
    assert {v.kind for m, v in verdicts.items() if m not in (3, 4)} == {"pending"}  # no bare percentage meanwhile
    status = app.snapshot().status
    assert "solving 5 more columns in the background" in status.texts[0] and status.stop_solving
    stop = next(b for b in app.layout.buttons if b.action is Command.STOP_SOLVING)
    app.step([_click(stop.rect.center)], now=now)
    asked = len(solves())
    run(40)
    assert len(solves()) == asked, "it went on after Stop"
    assert not app.snapshot().status.stop_solving
    assert all(v.kind in ("exact", "estimate") for v in app.engine.verdicts(app.caps).values())


# Polish ----------------------------------------------------------------------------------------------
def test_polish_after_the_game_ends_pause_and_think_are_off(made: Any) -> None:
    app, _ = made("connect4", "4455667", mode=Mode.BOT_VS_BOT)
    app.step([])
    buttons = {b.label: b for b in app.layout.buttons}
    pause = buttons.get("Pause P") or buttons.get("Resume P")
    assert pause is not None and not pause.enabled


def test_polish_think_is_off_once_the_game_is_over(made: Any) -> None:
    app2, _ = made("connect4", "4455667", mode=Mode.VS_BOT, bots=[BotSettingPerfect(), BotSettingPerfect()])
    app2.step([])
    think = next(b for b in app2.layout.buttons if b.label == "Think")
    assert not think.active and not think.enabled


def BotSettingPerfect() -> Any:  # noqa: N802 - a small factory for the test above
    from game.play.players import BotSetting

    return BotSetting("perfect")


def test_polish_no_ghost_disc_while_a_disc_falls(made: Any) -> None:
    app, _ = made("connect4", "", mode=Mode.HOTSEAT)
    app.step([])
    app.human_move(3)
    app.window.hover = 2
    frame = app.snapshot()
    assert app.motion.moving(app.now) and frame.board.preview_player is None


def test_polish_proven_points_of_a_long_game_stay_apart() -> None:
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


def test_polish_without_an_audio_device_the_sound_button_says_so(made: Any) -> None:
    app, _ = made("connect4", "")
    app.sounds.available = False
    app.step([])
    labels = {b.label: b for b in app.layout.buttons}
    assert "Sound M" not in labels and not labels["No audio"].enabled


def test_polish_every_move_loses_is_not_said_at_the_players_every_turn() -> None:
    from game.play.engine_driver import EngineView  # noqa: F401 - (the frame facts' engine view)
    from game.play.session import Session
    from game.play.settings import Settings
    from game.ui.snapshot import FrameFacts, build_frame

    fresh_pygame()
    lost = HeatData(1, {m: HeatEntry(m, 1 / 7, 0.0, "loss") for m in range(7)}, 100)
    session = Session.from_text("connect4", "4")
    facts: dict[str, Any] = dict(
        now=0.0, settings=Settings(mode=Mode.HOTSEAT), session=session, caps=None, theme=THEMES["classic"],
        names=("Red", "Yellow"), colours=THEMES["classic"].discs, can_play=True, hover=None, key_cursor=None,
        animation=None, placed=None, heat=lost, verdicts=None, eval_shown=None, paused=False, held=False,
        analysis_only=False, planned=None, engine_ready=True, search=None, notice=None, overlay=None,
        mouse=(-1, -1), panel_open=False, move_scroll=0,
    )  # fmt: skip
    from game.rules.capabilities import capabilities

    facts["caps"] = capabilities(session.spec)
    assert "every move loses" not in build_frame(FrameFacts(**facts)).status.texts[0]
    session.go_to(0)
    session.go_to(1)
    session.play(3)
    session.go_to(1)  # looking back at an earlier position: the analysis view says it
    facts["heat"] = HeatData(1, lost.entries, 100)
    assert "every move loses" in build_frame(FrameFacts(**facts)).status.texts[0]


def test_polish_the_top_level_is_not_called_perfect_where_no_solver_exists(made: Any) -> None:
    from game.play.players import BotSetting

    app, _ = made("gomoku", "", mode=Mode.VS_BOT, bots=[BotSetting("perfect"), BotSetting("perfect")])
    app.step([])
    assert "Perfect" not in app.snapshot().subtitle and "Strongest" in app.snapshot().subtitle
    assert all(b.label != "Perfect" for b in app.layout.buttons)
    app.apply(Command.NEW_GAME)
    assert all("Perfect" not in row.value for row in app.overlay.rows)


def test_polish_the_load_card_names_the_game_its_moves_and_the_date(
    made: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from game.ui import app_files

    monkeypatch.setattr(app_files, "games_dir", lambda: tmp_path)
    app, _ = made("connect4", "44536")
    app.apply(Command.SAVE)
    app.apply(Command.LOAD)
    app.step([])
    rows = [b.label for b in app.layout.buttons if b.label != "Close"]
    assert len(rows) == 1 and rows[0].startswith("Connect 4 · 5 moves (44536) · 20"), rows


def test_polish_the_custom_levels_time_is_set_in_the_dialog() -> None:
    from game.play.actions import DialogField
    from game.play.new_game import NewGameChoice
    from game.play.players import CUSTOM_STEPS_MS, BotSetting

    choice = NewGameChoice("connect4", Mode.VS_BOT, 0, 0, (BotSetting("perfect"), BotSetting("perfect")), 0)
    choice = choice.changed(DialogField.LEVEL, 1)
    assert choice.levels[0] == BotSetting("custom", CUSTOM_STEPS_MS[0])
    for step in CUSTOM_STEPS_MS[1:4]:
        choice = choice.changed(DialogField.LEVEL, 1)
        assert choice.levels[0] == BotSetting("custom", step)
    choice = choice.changed(DialogField.LEVEL, -1)
    assert choice.levels[0].custom_ms == CUSTOM_STEPS_MS[2]


def test_polish_a_book_position_shows_the_books_verdicts_under_the_heatmap_not_dashes(made: Any) -> None:
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


def test_2_while_the_bots_play_off_the_book_the_row_shows_estimates_not_a_solving_that_never_comes(made: Any) -> None:
    app, _ = made("connect4", "4435437172", mode="bot-vs-bot", exact=True, book=True)  # off the book
    app.history.paused = False
    _until_book(app)
    for _ in range(2):
        app.step([])
    verdicts = app.engine.verdicts(app.caps)
    assert verdicts is not None and {v.kind for v in verdicts.values()} <= {"exact", "estimate"}, verdicts
    app.history.paused = True  # paused: the solver looks at the position, and the row says so meanwhile
    assert {v.kind for v in app.engine.verdicts(app.caps).values()} <= {"exact", "pending"}


def test_2_a_book_position_has_its_verdicts_in_the_frame_its_move_is_played(made: Any) -> None:
    app, _ = made("connect4", "44354", mode="hotseat", exact=True, book=True)
    _until_book(app)
    app.human_move(2)  # 443543: a book position
    app.step([])
    assert all(v.kind == "exact" for v in app.snapshot().board.verdicts.values())
