"""The game's flow in the app: who starts, the new-game dialog before Bot vs Bot, the menu drawer, the autosave of
an opened position, pasting across games, the engine's preparation and background solving said in the status,
and the end of a game (pause and think off). Each drives the real frame function (or the pure piece that decides)."""

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
from game.play.heat import HeatData, HeatEntry
from game.play.players import Mode
from game.play.themes import THEMES
from game.ui import app_run
from game.ui.layout import MIN_SIZE
from game.ui.status import progress_of

pytestmark = pytest.mark.timeout(60)

SIZES = [(1120, 760), (640, 480), (1600, 1000), MIN_SIZE]


def test_no_negative_time_when_the_frame_clock_is_older_than_the_search() -> None:
    search = Search(1, "bot", "connect4", "", 0, 3000, started=100.0)
    assert search.elapsed_ms(99.96) == 0.0  # the frame's "now" was read just before the search began
    shown = progress_of("bot", search.elapsed_ms(99.96) / 1000, 3.0, 0, True, True, (0, 0, 0))
    assert not any("-" in label for label in shown.label), shown.label
    assert not any("-0.0" in label for label in progress_of("bot", -0.04, 3.0, 0, True, True, (0, 0, 0)).label)


def test_who_starts_keeps_its_colour_when_the_mode_changes() -> None:
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


@pytest.mark.parametrize("first_launch", [True, False])
def test_bot_vs_bot_waits_for_start_behind_the_new_game_dialog(made: Any, first_launch: Any) -> None:
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


def _click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)


def test_the_menu_drawer_closes_on_esc_and_on_a_click_beside_it_which_is_no_move(made: Any) -> None:
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


@pytest.mark.parametrize("moves,mode", [("4453", Mode.VS_BOT), ("57167231176", Mode.HOTSEAT)])
def test_a_game_opened_with_a_position_is_autosaved_on_closing_without_a_move(moves: Any, mode: Any) -> None:
    from game.play.settings import load_autosave, write_autosave

    write_autosave('{"game": "connect4", "moves": "1234"}\n')  # an older game
    app, _ = make_test_app("connect4", moves, mode=mode, persist=True)
    app.step([])
    app_run.shutdown(app)  # Ctrl+Q without moving
    saved, _ = load_autosave()
    assert saved is not None and "".join(str(m + 1) for m in saved[1]) == moves


def test_pasting_a_connect4_position_over_another_game_switches_after_start(
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


@pytest.mark.parametrize("fraction,first", [(None, False), (None, True), (0.5, True)])
def test_while_the_engine_prepares_the_status_says_so_from_the_click_on(
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


def test_the_status_bar_says_when_a_first_launch_compiles_the_search_code_for_later(
    made: Any, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """The engine reports its background build (a source checkout's first launch): the status bar keeps the
    turn's words and adds the build beside them while nothing searches; a search shows its own progress."""
    from game.play.engine_driver import EngineView

    app, _ = made("connect4", "", mode=Mode.VS_BOT)
    building = EngineView("ready", "ready", building_kernels=True)
    monkeypatch.setattr(app.turns.driver, "view", lambda: building)
    app.step([])
    status = app.snapshot().status
    assert status.texts[0].startswith("Your move"), status.texts
    assert status.progress is not None and "compiling the search code once" in status.progress.label[0]
    from game.ui.status import engine_progress

    assert engine_progress(building, (0, 0, 0), searching=True) is None  # a search: its own clock, not the build
    monkeypatch.setattr(app.turns.driver, "view", lambda: EngineView("ready", "ready"))
    app.step([])
    status = app.snapshot().status
    assert status.progress is None or "compiling" not in status.progress.label[0]


def test_exact_keeps_solving_in_the_background_says_so_and_can_be_stopped(made: Any) -> Any:
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
def test_after_the_game_ends_pause_and_think_are_off(made: Any) -> None:
    app, _ = made("connect4", "4455667", mode=Mode.BOT_VS_BOT)
    app.step([])
    buttons = {b.label: b for b in app.layout.buttons}
    pause = buttons.get("Pause P") or buttons.get("Resume P")
    assert pause is not None and not pause.enabled


def test_think_is_off_once_the_game_is_over(made: Any) -> None:
    app2, _ = made("connect4", "4455667", mode=Mode.VS_BOT, bots=[BotSettingPerfect(), BotSettingPerfect()])
    app2.step([])
    think = next(b for b in app2.layout.buttons if b.label == "Think")
    assert not think.active and not think.enabled


def BotSettingPerfect() -> Any:  # noqa: N802 - a small factory for the test above
    from game.play.players import BotSetting

    return BotSetting("perfect")


def test_no_ghost_disc_while_a_disc_falls(made: Any) -> None:
    app, _ = made("connect4", "", mode=Mode.HOTSEAT)
    app.step([])
    app.human_move(3)
    app.window.hover = 2
    frame = app.snapshot()
    assert app.motion.moving(app.now) and frame.board.preview_player is None


def test_without_an_audio_device_the_sound_button_says_so(made: Any) -> None:
    app, _ = made("connect4", "")
    app.sounds.available = False
    app.step([])
    labels = {b.label: b for b in app.layout.buttons}
    assert "Sound M" not in labels and not labels["No audio"].enabled


def test_every_move_loses_is_not_said_at_the_players_every_turn() -> None:
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


def test_the_top_level_is_not_called_perfect_where_no_solver_exists(made: Any) -> None:
    from game.play.players import BotSetting

    app, _ = made("gomoku", "", mode=Mode.VS_BOT, bots=[BotSetting("perfect"), BotSetting("perfect")])
    app.step([])
    assert "Perfect" not in app.snapshot().subtitle and "Strongest" in app.snapshot().subtitle
    assert all(b.label != "Perfect" for b in app.layout.buttons)
    app.apply(Command.NEW_GAME)
    assert all("Perfect" not in row.value for row in app.overlay.rows)


def test_the_load_card_names_the_game_its_moves_and_the_date(
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


def test_the_custom_levels_time_is_set_in_the_dialog() -> None:
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
