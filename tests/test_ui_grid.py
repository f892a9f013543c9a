"""The grid games in the app (tic-tac-toe, m,n,k, Gomoku, Ultimate TTT) and the game picker,
driven headless through the real frame function with synthetic events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from test_ui_fakes import FakeEngineClient

from game.play.actions import ChangeChoice, Command, DialogField
from game.play.engine_driver import EngineDriver
from game.play.game_choices import GAME_CHOICES
from game.play.players import BotSetting, Mode
from game.play.session import Session
from game.play.settings import Settings
from game.rules.uttt import board_of
from game.ui import files
from game.ui.app_run import create_app, shutdown
from game.ui.board_view import Connect4Geometry
from game.ui.grid_view import GridGeometry
from tests.waiting import wait_until

pytestmark = pytest.mark.timeout(180)


def make_app(
    game: str, moves: str = "", mode: str = Mode.HOTSEAT, client: FakeEngineClient | None = None, **kw: Any
) -> Any:
    settings = Settings(mode=Mode.parse(mode), window=(1000, 700), sound=False, eval_bar=False, **kw)
    client = client or FakeEngineClient()
    app = create_app(settings, Session.from_text(game, moves), persist=False, driver=EngineDriver(lambda: client))
    app.turns.min_bot_delay = 0.0
    return app, client


@pytest.fixture
def apps() -> Any:
    made = []

    def factory(*args: Any, **kw: Any) -> Any:
        app, client = make_app(*args, **kw)
        made.append(app)
        return app, client

    yield factory
    for app in made:
        shutdown(app)


def key(k: int, text: str = "", mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text)


def click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)


def cell_centre(app: Any, text: str) -> tuple[int, int]:
    centre: tuple[int, int] = app.layout.board.cell_rect(app.session.spec.parse_move(text)).center
    return centre


def run_for(app: Any, seconds: float, fps: int = 60) -> None:
    now = app.now
    for _ in range(int(seconds * fps)):
        now += 1 / fps
        app.step([], now=now)


def test_clicking_cells_in_tictactoe_plays_them(apps: Any) -> None:
    app, _ = apps("tictactoe")
    app.step([])
    assert isinstance(app.layout.board, GridGeometry)
    app.step([click(cell_centre(app, "b2"))])
    app.step([click(cell_centre(app, "a1"))])
    assert app.session.moves_text == "b2 a1"
    assert app.session.position.cell(4) == 0 and app.session.position.cell(0) == 1
    app.step([click(cell_centre(app, "b2"))])  # taken: refused with a notice
    assert app.session.moves_text == "b2 a1"
    assert app.notice is not None and "taken" in app.notice.notice.text
    assert app.layout.board.move_at((app.layout.board.rect.left - 5, app.layout.board.rect.top - 5)) is None


def test_hovering_a_cell_previews_it_and_the_mouse_maps_back_to_cells(apps: Any) -> None:
    app, _ = apps("mnk:6x6:4")
    app.step([])
    for text in ("a1", "f6", "c4"):
        centre = cell_centre(app, text)
        app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0))])
        assert app.window.hover == app.session.spec.parse_move(text)


def test_uttt_refuses_a_cell_outside_the_allowed_board(apps: Any) -> None:
    app, _ = apps("uttt", "e5")  # the reply must be in the centre board d4-f6
    app.step([])
    assert app.session.position.allowed_boards() == (4,)
    app.step([click(cell_centre(app, "a1"))])
    assert app.session.moves_text == "e5"
    assert app.notice is not None and "board d4-f6" in app.notice.notice.text
    app.step([click(cell_centre(app, "d4"))])
    assert app.session.moves_text == "e5 d4"
    assert app.session.position.allowed_boards() == (0,)  # d4 is local cell 0: the next move goes to a1-c3


def test_uttt_board_geometry_matches_the_rules(apps: Any) -> None:
    app, _ = apps("uttt")
    app.step([])
    view = app.layout.board
    for board in range(9):
        area = view.board_rect(board)
        cells = {view.move_at(area.inflate(-4, -4).topleft), view.move_at(area.inflate(-4, -4).bottomright)}
        assert {board_of(c) for c in cells} == {board}


def test_keyboard_cursor_moves_and_plays(apps: Any) -> None:
    app, _ = apps("tictactoe")
    app.step([key(pygame.K_RIGHT)])  # the first press shows the cursor on the centre cell
    assert app.window.key_cursor == 4
    app.step([key(pygame.K_RIGHT), key(pygame.K_UP)])
    assert app.window.key_cursor == app.session.spec.parse_move("c3")
    app.step([key(pygame.K_RETURN)])
    assert app.session.moves_text == "c3"
    app.step([key(pygame.K_LEFT), key(pygame.K_LEFT), key(pygame.K_DOWN), key(pygame.K_SPACE)])
    assert app.session.moves_text == "c3 a2"
    app.step([key(pygame.K_u, "u")])
    assert app.session.cursor == 1


def choose_game(app: Any, name: str) -> None:
    """Open the new-game dialog (N), step its game row to ``name`` with clicks on "›", press Start."""
    app.step([key(pygame.K_n, "n")])
    app.step([])
    for _ in GAME_CHOICES:
        if app.dialog.choice.game == name:
            break
        row = next(b for b in app.layout.buttons if b.action == ChangeChoice(DialogField.GAME, 1))
        app.step([click((row.rect.right - 6, row.rect.centery))])
    start = next(b for b in app.layout.buttons if b.action is Command.START)
    app.step([click(start.rect.center)])
    app.step([])


def test_the_new_game_dialog_switches_games(apps: Any) -> None:
    app, _ = apps("connect4", "44")
    app.step([])
    choose_game(app, "connect4:8x7")
    assert app.session.spec.name == GAME_CHOICES[1] == "connect4:8x7"
    assert isinstance(app.layout.board, Connect4Geometry) and app.layout.board.width == 8
    assert app.session.line == [] and app.settings.game == "connect4:8x7"
    choose_game(app, "uttt")
    assert isinstance(app.layout.board, GridGeometry) and app.caps.local_boards
    app.step([click(cell_centre(app, "e5"))])
    assert app.session.moves_text == "e5"
    choose_game(app, "connect4")
    assert app.session.spec.name == "connect4" and isinstance(app.layout.board, Connect4Geometry)


def test_every_game_of_the_dialog_opens_and_draws(apps: Any) -> None:
    app, _ = apps("connect4")
    seen = []
    for name in GAME_CHOICES:
        choose_game(app, name)
        seen.append(app.session.spec.name)
        assert app.screen.get_rect().contains(app.layout.board.frame)
    assert seen == list(GAME_CHOICES)


def test_grid_game_save_load_copy_paste_round_trip(apps: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _ = apps("uttt", "e5 d4 a1 c2 g5")
    path = files.save_game(app.session, tmp_path)
    app.new_game()
    assert app.session.line == []
    app.load(path=path)
    assert app.session.spec.name == "uttt" and app.session.moves_text == "e5 d4 a1 c2 g5"
    copied: list[str] = []

    def copy_text(text: str) -> bool:
        copied.append(text)
        return True

    monkeypatch.setattr(files, "copy_text", copy_text)
    app.step([key(pygame.K_c, "", pygame.KMOD_CTRL)])
    assert copied == ["uttt: e5 d4 a1 c2 g5"]
    choose_game(app, "gomoku")
    monkeypatch.setattr(files, "paste_text", lambda: copied[0])
    app.step([key(pygame.K_v, "", pygame.KMOD_CTRL)])
    assert app.session.spec.name == "uttt" and app.session.moves_text == "e5 d4 a1 c2 g5"
    monkeypatch.setattr(files, "paste_text", lambda: "b2 a1")  # a bare position is the current game's
    choose_game(app, "tictactoe")
    app.step([key(pygame.K_v, "", pygame.KMOD_CTRL)])
    assert app.session.spec.name == "tictactoe" and app.session.line == [4, 0]


def test_a_won_game_highlights_and_stops_play(apps: Any) -> None:
    app, _ = apps("tictactoe", "a1 b1 a2 b2")
    app.step([click(cell_centre(app, "a3"))])
    outcome = app.session.position.outcome
    assert outcome.winner == 0 and set(outcome.line) == {0, 3, 6}
    run_for(app, 0.5)
    app.step([click(cell_centre(app, "c3"))])
    assert app.session.moves_text == "a1 b1 a2 b2 a3"  # nothing is played after the end


def test_bot_plays_random_moves_when_the_engine_has_no_search_for_the_game(apps: Any) -> None:
    app, client = apps("tictactoe", mode=Mode.VS_BOT, client=FakeEngineClient(refuse=("tictactoe",)))
    app.step([click(cell_centre(app, "b2"))])
    run_for(app, 1.0)
    assert len(app.session.line) == 2  # the bot answered anyway
    assert app.turns.driver.refused and any(s["game"] == "tictactoe" for s in client.searches)
    searches = len(client.searches)
    app.step(
        [
            click(
                cell_centre(
                    app,
                    next(c for c in ("a1", "c1", "a3", "c3") if app.session.spec.parse_move(c) not in app.session.line),
                )
            )
        ]
    )
    run_for(app, 1.0)
    assert len(app.session.line) == 4
    assert len(client.searches) == searches  # a refused game is not asked again


def test_a_grid_bot_game_with_the_fake_engine(apps: Any) -> None:
    app, client = apps("mnk:6x6:4", mode=Mode.BOT_VS_BOT, client=FakeEngineClient(polls_to_finish=2), heatmap=True)
    for _ in range(40):
        run_for(app, 0.2)
        if app.session.final_position.outcome.is_over:
            break
    assert app.session.final_position.outcome.is_over
    assert len(client.searches) >= len(app.session.line) // 2


def test_the_heatmap_tints_grid_cells(apps: Any) -> None:
    app, client = apps(
        "gomoku", "h8", mode=Mode.HOTSEAT, client=FakeEngineClient(polls_to_finish=10_000, prefer=[0]), heatmap=True
    )
    run_for(app, 0.2)
    assert app.turns.heat is not None and app.turns.heat.best == 0
    before = app.screen.get_at(app.layout.board.cell_rect(0).center)
    app.settings.heatmap = False
    app.step([])
    after = app.screen.get_at(app.layout.board.cell_rect(0).center)
    assert before != after  # the most visited cell was tinted


def test_autosave_restores_the_right_game() -> None:
    from game.play.savefile import game_to_json
    from game.play.settings import save_settings, write_autosave
    from game.ui.cli import prepare

    spec = Session.from_text("uttt", "e5 d4").spec
    assert write_autosave(game_to_json(spec, [40, 30])) is None
    assert save_settings(Settings(game="uttt")) is None

    class Args:
        game = position = load = None
        new = False

    settings, session, notices = prepare(Args(), headless=False)  # type: ignore[arg-type]  # the options it reads
    assert session.spec.name == "uttt" and session.moves_text == "e5 d4" and settings.game == "uttt"


def test_grid_pieces_appear_with_a_short_scale_in_not_a_drop(apps: Any) -> None:
    from game.ui.grid_view import PLACE_SECONDS

    app, _ = apps("tictactoe")
    app.step([])
    start = app.now
    app.step([click(cell_centre(app, "c1"))], now=start)
    assert app.animation is None and app.motion.placed is not None and app.motion.placed[0] == 2
    rect = app.layout.board.cell_rect(2)
    probe = (rect.centerx + round(rect.width * 0.27), rect.centery + round(rect.height * 0.27))  # near a stroke end
    app.step([], now=start + PLACE_SECONDS * 0.05)
    early = app.screen.get_at(probe)
    app.step([], now=start + PLACE_SECONDS * 3)
    late = app.screen.get_at(probe)
    assert early != late  # the X was still small at first, full size later


@pytest.mark.slow
def test_tictactoe_against_the_real_engine_shows_cell_heat_and_the_bot_answers() -> Any:
    settings = Settings(
        mode=Mode.VS_BOT, window=(1000, 700), sound=False, heatmap=True, bots=[BotSetting("hard"), BotSetting("hard")]
    )
    app = create_app(settings, Session.from_text("tictactoe"), persist=False)
    app.turns.min_bot_delay = 0.0
    try:
        app.step([])
        app.step([click(cell_centre(app, "b2"))])

        def answered() -> bool:
            assert not app.turns.driver.refused and app.turns.driver.unavailable is None, app.turns.driver.refused
            app.step()
            return (
                len(app.session.line) >= 2
                and app.turns.heat is not None
                and app.turns.heat_moves == app.session.moves_text
            )

        wait_until(answered, 120, "an answer from the engine")  # the first search of a game may compile its kernel
        assert app.session.line[1] in (0, 2, 6, 8)  # the only replies to the centre that do not lose
        assert app.turns.heat is not None
        assert set(app.turns.heat.entries) == set(app.session.position.legal_moves())
    finally:
        shutdown(app)
