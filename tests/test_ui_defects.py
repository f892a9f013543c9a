"""One headless test per defect of the real-window walkthrough (issue 15), numbered as there.

Each drives the real frame function (or the pure piece that decides) and fails when the defect
comes back; see the mutation notes in the commit log.
"""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from test_ui_fakes import FakeEngineClient, engine_line, fresh_pygame

from ai.vocab.results import Info
from game.play.actions import ChangeChoice, Command, CycleBotLevel, DialogField, MoveCursor
from game.play.engine_driver import Search
from game.play.engine_events import absorb
from game.play.heat import HeatData, HeatEntry, heat_from_info
from game.play.players import BotSetting
from game.play.session import EvalPoint, Session
from game.play.themes import THEMES, heat_colour
from game.rules import get_game
from game.rules.uttt import board_of
from game.ui import fonts, text
from game.ui.eval_bar import label_of
from game.ui.eval_graph import draw_graph, x_of, y_of
from game.ui.frame import EvalBarState
from game.ui.side_panel import tooltip_rect
from game.ui.status import TurnFacts, progress_of, turn_texts

pytestmark = pytest.mark.timeout(60)


def click(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=button, pos=pos)


def key(k: int, typed: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=typed)


# 1 -------------------------------------------------------------------------------------------------
def _line(
    kind: str, ply_moves: str, session: Session, value: float, children: list[dict[str, Any]], proven: Any = None
) -> None:
    search = Search(1, "bot", session.spec.name, ply_moves, len(session.spec.parse_moves(ply_moves)), 1000, 0.0)
    msg = {
        "type": kind,
        "id": 1,
        "iterations": 1000,
        "value": value,
        "proven": proven,
        "children": children,
        "move": children[0]["move"] if children else None,
    }
    absorb(session, search, engine_line(kind, msg))


def test_1_eval_graph_keeps_one_point_of_view_when_proofs_meet_estimates() -> None:
    """Red Medium (estimates 55% for itself), Yellow Perfect (proves Yellow wins): no 55, 0, 55, 0 zig-zag."""
    s = Session.from_text("connect4", "4444")
    # Yellow (Perfect) to move after 5 moves proves its move 3 wins; Red's next estimates say 55% for Red
    s.play(2)
    _line(
        "bestmove",
        "44443",
        s,
        1.0,
        [{"move": "3", "visits": 10, "value": 1.0, "proven": "win", "score": 9}],
        proven="win",
    )
    s.play(2)
    _line("bestmove", "444433", s, 0.55, [{"move": "1", "visits": 10, "value": 0.55, "proven": None}])
    series = s.eval_series()
    assert series[5] == EvalPoint(0.0, True)  # Yellow to move, proven Yellow win: Red's chance 0
    assert series[6] == EvalPoint(0.0, True)  # after Yellow's proven move: still 0, not Red's 55% estimate
    s.record_eval(6, 0.55)  # a later estimate of the proven position changes nothing
    assert s.eval_at(6) == EvalPoint(0.0, True)


def test_1_exact_points_are_drawn_differently_from_estimates() -> None:
    fresh_pygame()
    theme = THEMES["classic"]
    rect = pygame.Rect(0, 0, 300, 120)
    shots = []
    for exact in (False, True):
        surface = pygame.Surface((300, 120))
        points = (EvalPoint(0.8, exact),) * 3
        draw_graph(surface, rect, theme, points, 0, theme.discs, "Red's winning chance", (-1, -1))
        x, y = round(x_of(rect, 2, 10)), round(y_of(rect, 0.8))
        shots.append(surface.get_at((x + 3, y + 3))[:3])
    assert shots[0] != shots[1]  # a square marks a proof, a small dot an estimate


# 2 -------------------------------------------------------------------------------------------------
def test_2_selector_left_arrow_goes_back_and_right_arrow_forward(made: Any) -> None:
    app, _ = made(mode="vs-bot", bots=[BotSetting("medium"), BotSetting("medium")])
    app.step([])
    selector = next(b for b in app.layout.buttons if b.action == CycleBotLevel(1, 1))
    app.step([click((selector.rect.left + 8, selector.rect.centery))])  # on "‹"
    assert app.settings.bots[1].level == "easy"
    app.step([])
    app.step([click((selector.rect.right - 8, selector.rect.centery))])  # on "›"
    app.step([])
    app.step([click((selector.rect.right - 8, selector.rect.centery))])
    assert app.settings.bots[1].level == "hard"
    app.step([click(selector.rect.center, button=3)])  # a right click goes back too
    assert app.settings.bots[1].level == "medium"


# 3 -------------------------------------------------------------------------------------------------
def test_3_side_and_first_mover_choices_wait_for_a_new_game_and_the_bot_keeps_its_level(made: Any) -> None:
    app, client = made(mode="vs-bot", bots=[BotSetting("hard"), BotSetting("easy")])  # the bot (Yellow): Easy
    app.play_move(3)
    now = app.now
    for _ in range(120):
        now += 1 / 60
        app.step([], now=now)
    line = list(app.session.line)
    assert len(line) == 2  # the bot answered
    app.step([key(pygame.K_n, "n")])
    for field in (DialogField.STARTER, DialogField.COLOUR):
        app.apply(ChangeChoice(field, 1))
    app.apply(ChangeChoice(DialogField.MODE, 1))  # cycling through Bot vs Bot starts nothing
    app.apply(ChangeChoice(DialogField.MODE, -1))
    searches = len(client.searches)
    for _ in range(20):
        now += 1 / 60
        app.step([], now=now)
    assert app.session.line == line and app.settings.human_player == 0 and app.settings.mode == "vs-bot"
    assert len(client.searches) == searches  # nothing moved on the board behind the dialog
    app.apply(Command.START)
    assert app.session.line == [] and app.settings.human_player == 1  # the bot starts the new game
    assert app.settings.bots[0].level == "easy"  # ... at the level it had
    assert app.colour_of(1) == THEMES["classic"].discs[1]  # you play the colour you chose (Yellow), second


def info_line(fields: dict[str, Any]) -> Info:
    line = engine_line("info", fields)
    assert isinstance(line, Info)
    return line


# 4 -------------------------------------------------------------------------------------------------
def test_4_heatmap_stresses_what_the_proofs_say_and_the_move_the_bot_plays() -> None:
    spec = get_game("connect4")
    msg = {
        "iterations": 100,
        "children": [
            {"move": "3", "visits": 77, "value": 0.6, "proven": "loss", "score": -4},
            {"move": "4", "visits": 8, "value": 0.5, "proven": "draw", "score": 0},
            {"move": "5", "visits": 15, "value": 0.4, "proven": "loss", "score": -9},
        ],
    }
    heat = heat_from_info(spec, 5, info_line(msg))
    assert heat is not None
    assert heat.best == 3  # column 4, the only draw, though the loss in column 3 has 77% of the visits
    assert heat.emphasis(3) == 1.0 and heat.emphasis(2) == 0.0
    scored = HeatData(0, {2: HeatEntry(2, 0.95, 0.6), 3: HeatEntry(3, 0.05, 0.5)}).with_scores({2: -3, 3: 1})
    assert scored.best == 3  # a solver's win outranks the visits
    session = Session.from_text("connect4", "4444")
    search = Search(1, "bot", "connect4", "4444", 4, 5000, 0.0)
    exact_play = {
        "type": "bestmove",
        "id": 1,
        "move": "3",
        "exact": True,
        "iterations": 900,
        "value": 0.5,
        "children": [{"move": "3", "visits": 20, "value": 0.5}, {"move": "5", "visits": 880, "value": 0.6}],
    }
    got = absorb(session, search, engine_line("bestmove", exact_play))
    assert got.move == 2 and got.heat is not None and got.heat.best == 2  # the move the bot plays, not the visits
    won = HeatData(0, {5: HeatEntry(5, 0.01, 1.0, "win"), 6: HeatEntry(6, 0.99, 0.4)})
    assert won.best == 5 and won.emphasis(6) <= 0.5 < won.emphasis(5)  # 99% of the visits, yet not stressed


# 5, 10, 12 -------------------------------------------------------------------------------------------
SIZES = [(1120, 760), (640, 480), (400, 300), (1600, 500), (1600, 1000), (900, 600)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game,moves", [("connect4", "34334"), ("gomoku", "h8 h9"), ("uttt", "e5")])
def test_5_10_12_all_text_fits_is_whole_and_readable(
    made: Any, monkeypatch: pytest.MonkeyPatch, size: Any, game: Any, moves: Any
) -> Any:
    drawn: list[tuple[str, int, pygame.Rect, float | None, pygame.Rect, bool]] = []
    blits: list[tuple[str, int]] = []
    real_draw, real_blit = text.draw, fonts.blit_text

    def blit(
        surface: Any, label: Any, size_: Any, colour: Any, pos: Any, anchor: Any = "topleft", bold: Any = False
    ) -> Any:
        blits.append((label, size_))
        return real_blit(surface, label, size_, colour, pos, anchor, bold)

    def recording(
        surface: Any,
        label: Any,
        size_: Any,
        colour: Any,
        pos: Any,
        anchor: Any = "topleft",
        bold: Any = False,
        width: Any = None,
        min_size: Any = 10,
    ) -> Any:
        rect = real_draw(surface, label, size_, colour, pos, anchor, bold, width, min_size)
        shown, px = blits[-1]  # what really reached the screen
        drawn.append((label, px, rect, width, surface.get_rect(), shown != label))
        return rect

    monkeypatch.setattr(fonts, "blit_text", blit)

    monkeypatch.setattr(text, "draw", recording)
    app, _ = made(
        game,
        moves,
        mode="vs-bot",
        size=size,
        heatmap=True,
        exact=True,
        eval_bar=True,
        theme="colorblind",
        bots=[BotSetting("custom", 2000), BotSetting("custom", 2000)],
    )
    app.turns.exact_cache.put(app.session.spec.name, app.session.moves_text, {c: -14 + c for c in range(7)}, 1500)
    now = app.now
    for _ in range(4):
        now += 0.05
        app.step([], now=now)
    app.set_notice("'h' is not a column: expected a column number from 1 to 7 or a list of them", error=True)
    for overlay in (None, Command.PANEL, Command.HELP, Command.NEW_GAME):
        app.overlay = app.dialog.choice = None
        if overlay is not None:
            app.apply(overlay)
        app.step([], now=now)
    assert drawn
    for label, px, rect, width, bounds, cut in drawn:
        assert bounds.contains(rect), f"{label!r} ({px}px) leaves its surface at {size}: {rect}"
        if width is not None:
            assert rect.width <= width + 1, f"{label!r} wider than its room at {size}"
        assert px >= text.MIN_SIZE, f"{label!r} at {px}px"
        assert not cut, f"{label!r} was cut at {size}"


def test_12_eval_bar_label_says_whether_it_is_proven() -> None:
    assert label_of(EvalBarState(0.52, True, False)) == "≈52"
    assert label_of(EvalBarState(1.0, True, True)) == "win"
    assert label_of(EvalBarState(0.5, True, True)) == "draw"


def test_12_heat_colours_are_saturated_and_colour_blind_safe() -> None:
    for theme in THEMES.values():
        for t in (0.25, 0.5, 0.75):
            tint = heat_colour(theme, t)
            assert max(tint) - min(tint) > 60, f"{theme.key}: the heat ramp is grey at {t}: {tint}"
    cb = THEMES["colorblind"]
    hot = heat_colour(cb, 1.0)
    for disc in cb.discs:
        assert sum(abs(a - b) for a, b in zip(hot, disc, strict=True)) > 150  # hot cells never look like a player
    for colour in (cb.win_text, cb.loss_text):  # neither red nor green
        r, g, b = colour
        assert not (r > 150 and g < 100 and b < 100) and not (g > 150 and r < 100 and b < 100)


# 6 -------------------------------------------------------------------------------------------------
class SlowStartClient(FakeEngineClient):  # type: ignore[misc]  # the fake is imported untyped
    @property
    def is_ready(self) -> bool:
        return False

    def poll(self) -> Any:
        return []


def test_6_startup_progress_is_indeterminate_until_the_engine_answers(made: Any) -> None:
    app, _ = made(mode="vs-bot", heatmap=True)
    app.turns.driver.client = SlowStartClient()
    app.turns.driver.cancel()
    app.step([], now=app.now + 0.1)
    later = app.now + 20
    app.step([], now=later)
    progress = app.snapshot().status.progress
    assert progress is not None and progress.fraction is None  # no made-up fraction that fills and sits
    assert "starting the engine" in progress.label[0]


# 7 -------------------------------------------------------------------------------------------------
def test_7_uttt_cursor_starts_in_the_board_to_play_and_enter_plays(made: Any) -> None:
    app, _ = made("uttt", "a1", mode="hotseat")
    app.step([])
    pos = app.session.position
    allowed = pos.allowed_boards()
    assert len(allowed) == 1
    elsewhere = next(c for c in range(81) if board_of(c) != allowed[0] and pos.cell(c) is None)
    app.step(
        [
            pygame.event.Event(
                pygame.MOUSEMOTION, pos=app.layout.board.cell_rect(elsewhere).center, rel=(0, 0), buttons=(0, 0, 0)
            )
        ]
    )
    app.step([key(pygame.K_RIGHT)])
    assert app.window.key_cursor is not None and board_of(app.window.key_cursor) == allowed[0]
    for k in (pygame.K_RIGHT, pygame.K_UP, pygame.K_RIGHT, pygame.K_DOWN):
        app.step([key(k)])
        assert board_of(app.window.key_cursor) == allowed[0] and app.window.key_cursor in pos.legal_moves()
    target = app.window.key_cursor
    rect = app.layout.board.cell_rect(target)
    ring = app.screen.get_at((rect.left + 3, rect.centery))[:3]
    assert ring in ((255, 255, 255), (20, 20, 24))  # white on dark: seen on the blue board
    app.step([key(pygame.K_RETURN)])
    assert app.session.line[-1] == target


# 8 -------------------------------------------------------------------------------------------------
def test_8_lost_and_featureless_positions_mark_no_best_move() -> None:
    lost = HeatData(3, {m: HeatEntry(m, 1 / 3, 0.0, "loss") for m in (0, 1, 2)})
    assert lost.best is None and all(lost.emphasis(m) == 0 for m in (0, 1, 2))
    flat = HeatData(3, {m: HeatEntry(m, 0.0, 0.5) for m in range(20)})
    assert flat.uniform and flat.best is None and flat.emphasis(0) == 0.0
    drawn = HeatData(3, {m: HeatEntry(m, 0.1 + m / 100, 0.5, "draw") for m in range(7)})  # tic-tac-toe, all draw
    assert drawn.uniform and drawn.best is None and drawn.common_outcome == "draw"


def test_8_a_position_where_every_move_draws_says_so_and_labels_no_cell(made: Any) -> None:
    app, _ = made("tictactoe", "b2 a1", mode="hotseat", heatmap=True)
    app.turns.heat = HeatData(2, {m: HeatEntry(m, 0.1 + m / 100, 0.5, "draw") for m in (1, 2, 3, 5, 6, 7, 8)})
    app.turns.heat_moves = app.session.moves_text
    assert "every move draws" in app.snapshot().status.texts[0]


# 9 -------------------------------------------------------------------------------------------------
def test_9_notices_are_whole_coloured_by_kind_and_expire(made: Any) -> None:
    app, _ = made("tictactoe", "b2", mode="hotseat")
    app.step([])
    centre = app.layout.board.cell_rect(4).center
    app.step([click(centre)])  # b2 is taken
    notice = app.notice
    assert notice is not None and notice.notice.error and "taken" in notice.notice.text
    app.step([])
    error_ink = app.screen.copy()
    app.play_move(0)
    app.step([])
    assert app.notice is None  # a notice about a position goes with the position
    app.set_notice("Copied position b2 a1")
    app.step([], now=app.now + 1)
    assert app.notice is not None and not app.notice.notice.error
    assert (
        error_ink.get_at(app.layout.body.midbottom)[:3] != app.screen.get_at(app.layout.body.midbottom)[:3]
        or THEMES["classic"].error != THEMES["classic"].text
    )
    app.step([], now=app.now + 7)
    assert app.notice is None  # success notices expire


def test_9_status_says_what_the_bot_plays_and_hides_zero_iterations() -> None:
    facts = TurnFacts(("Red", "Yellow"), False, None, 1, True, 3, 3, True, True, False, False, False, "4", True, 7)
    assert turn_texts(facts)[0] == "Yellow plays 4"
    progress = progress_of("analysis", 0.6, 20, 0, True, True, (0, 0, 0))
    assert all("0 iterations" not in label for label in progress.label)
    compiling = progress_of("bot", 4.0, 1.0, 0, True, False, (0, 0, 0))  # ready, but no line for 4 s of 1 s
    assert compiling.fraction is None and "preparing" in compiling.label[0]


# 11 ------------------------------------------------------------------------------------------------
def test_11_board_keeps_its_place_when_overlays_are_toggled(made: Any) -> None:
    app, _ = made(mode="vs-bot", bots=[BotSetting("medium"), BotSetting("medium")])
    app.step([])
    board, panel_rows = app.layout.board, [b.rect for b in app.layout.buttons if b.action is Command.UNDO]
    for toggle in (Command.HEATMAP, Command.EXACT, Command.EVAL):
        app.apply(toggle)
        app.step([])
        assert app.layout.board == board, f"the board moved when {toggle} was toggled"
    app.settings.bots[1] = BotSetting("custom", 2000)
    app.step([])
    assert [b.rect for b in app.layout.buttons if b.action is Command.UNDO] == panel_rows  # Custom adds no row


@pytest.mark.parametrize("game", ["tictactoe", "gomoku", "uttt"])
def test_11_result_banner_stays_off_the_board(made: Any, game: Any) -> None:
    moves = {
        "tictactoe": "a1 b1 a2 b2 a3",
        "gomoku": "a1 b1 a2 b2 a3 b3 a4 b4 a5",
        "uttt": "d4 c3 i7 i2 h6 e7 d1 b3 f8 g5 a5 c6 i9 h8 d5 b4 d2 a6 a9 a7 c2 i6 g7 b1 f3 h9 d7 a2 a4 "
        "b2 f5 i5 h5 f6 g9 b8 e6 d9 c7 g3 b7 e1 e2 d6 c8 i4 h3 e9 e8 f4 h2 e5 a8 b6",
    }[game]
    app, _ = made(game, moves)
    app.step([])
    assert app.session.position.outcome.is_over
    frame = app.snapshot()
    assert frame.banner is not None
    cx, cy = app.layout.banner_center
    assert cy < app.layout.board.frame.top  # above the board's frame, not across it


@pytest.mark.parametrize("size", [(900, 600), (640, 480), (1120, 760)])
def test_11_moves_and_graph_are_shown_down_to_640x480(made: Any, size: Any) -> None:
    app, _ = made(size=size, mode="vs-bot")
    if app.layout.panel is None:
        app.apply(Command.PANEL)
    app.step([])
    panel = app.layout.panel
    assert panel is not None and panel.graph_rect is not None and panel.moves_rect is not None
    heading = next(r for label, r in panel.headings if label.startswith("PLAYERS"))
    for hovered in (b for b in panel.buttons if b.tooltip and b.action is not None):
        tip = tooltip_rect(hovered, 120, app.screen.get_rect())
        assert not tip.colliderect(heading) and tip.top >= hovered.rect.bottom  # below its button, off the heading


def test_11_cursor_line_never_crosses_the_empty_graph_caption() -> None:
    fresh_pygame()
    theme = THEMES["classic"]
    surface = pygame.Surface((300, 120))
    rect = pygame.Rect(0, 0, 300, 120)
    draw_graph(surface, rect, theme, (None,), 0, theme.discs, "Red's winning chance", (-1, -1))
    x = round(x_of(rect, 0, 10))
    column = {surface.get_at((x, y))[:3] for y in range(30, 110)}
    assert theme.accent not in column


def test_3_cycling_levels_in_the_panel_keeps_the_game(made: Any) -> None:
    app, _ = made(mode="vs-bot")
    app.play_move(3)
    app.step([])
    app.apply(CycleBotLevel(1, 1))
    app.apply(MoveCursor(1))
    assert app.session.line[0] == 3 and app.settings.human_player == 0


def test_12_eval_bar_keeps_its_last_value_unlabelled_while_a_new_position_is_looked_at(made: Any) -> None:
    app, _ = made(mode="hotseat", eval_bar=True)
    app.step([])
    first = app.snapshot().eval_bar
    assert first is not None and not first.seen  # nothing known: an empty bar, not a 50/50 split
    app.session.record_eval(0, 0.7)
    app.step([], now=app.now + 0.02)
    before = app.session.eval_at(0)
    assert before is not None
    app.play_move(3)
    app.step([], now=app.now + 0.02)
    state = app.snapshot().eval_bar
    assert state is not None and state.seen and not state.known
    assert state.shown == pytest.approx(before.value, abs=0.05)  # the last value stays, without a label
