"""The app object, and the only module that knows it.

``App.step(events)`` is one frame: events become action values (``input``), ``apply`` carries each
out (the one place that changes the state), ``update`` takes the engine's lines and the clock, then
an immutable ``Frame`` is built, laid out and drawn. Tests drive this real loop with synthetic events.
"""

from __future__ import annotations

import sys
import time

import pygame

from game.play import preferences
from game.play.actions import (
    Action,
    ChangeChoice,
    Command,
    GoTo,
    Hover,
    LoadFile,
    MoveCursor,
    PlayMove,
    ScrollMoves,
    ShowVariation,
    TypeText,
)
from game.play.controller import refusal_text
from game.play.engine_driver import EngineDriver, default_client_factory
from game.play.exact import Verdict
from game.play.game_files import (
    game_json_with_evals,
)
from game.play.heat import HeatData
from game.play.new_game import NewGameChoice
from game.play.players import Mode, is_bot
from game.play.preferences import is_preference, unpauses
from game.play.review_session import ReviewState, prepare_once
from game.play.session import Session
from game.play.settings import Settings, save_settings, write_autosave
from game.play.turns import EngineTurns
from game.play.variations import MoveTree
from game.rules import GameSpec
from game.rules.capabilities import GameCapabilities, capabilities
from game.rules.errors import GameError
from game.ui import cursor as cursors
from game.ui import files, layout, view, window
from game.ui.animation import DropAnimation
from game.ui.app_commands import Commands
from game.ui.app_dialog import NewGameDialog
from game.ui.app_files import FileCommands
from game.ui.app_puzzles import PUZZLE_COMMANDS, Challenge, PuzzleCommands
from game.ui.app_queries import AppQueries
from game.ui.app_review import REVIEW_COMMANDS, ReviewCommands
from game.ui.app_variations import VARIATION_COMMANDS, VariationCommands
from game.ui.eval_bar import eased
from game.ui.frame import Frame, NewGameCard, Overlay
from game.ui.input import InputContext, actions_for
from game.ui.motion import Motion
from game.ui.move_list import follow, scrolled
from game.ui.net_game import NetGame
from game.ui.snapshot import FrameFacts, TimedNotice, build_frame, timed_notice
from game.ui.sounds import Sounds

SWITCH_INTERVAL_S = 0.001  # (Python's default 5 ms: a frame waited up to that for a review's thread, p99 20 ms)


class App(AppQueries, ReviewCommands, VariationCommands, PuzzleCommands, NewGameDialog, FileCommands, Commands):
    def __init__(
        self,
        screen: pygame.Surface,
        settings: Settings,
        session: Session,
        driver: EngineDriver,
        sounds: Sounds | None = None,
        persist: bool = True,
        first_launch: bool = False,
    ) -> None:
        self.screen = screen
        self.settings = settings
        self.session = session
        self.sounds = sounds or Sounds(enabled=False)
        self.motion = Motion(self.sounds)
        self.persist = persist  # False: never write settings or the autosave (screenshots, smoke test, tests)
        self.caps: GameCapabilities = capabilities(session.spec)
        settings.game = session.spec.name
        self.running = True
        self.paused = False
        self.step_requested = False
        self.overlay: Overlay | None = None
        self.choice: NewGameChoice | None = None  # the new-game dialog's choices while it is open
        self.mouse = (-1, -1)
        self.hover: int | None = None
        self.key_cursor: int | None = None
        self.turns = EngineTurns(driver, time.monotonic())
        self.notice: TimedNotice | None = None
        self.eval_shown: float | None = None
        self.move_scroll = 0
        self.panel_open = False
        self.now = time.monotonic()
        self.last_input = self.now  # when the last event came (mouse, keys, window)
        self._dirty_game = False
        self.analysis_only = False  # bots search but never move (screenshots)
        self.net: NetGame | None = None  # a network game (game.ui.net_game)
        self.continue_asked: tuple[str, int] | None = None  # Continue pressed once here (it asks before dropping)
        self.pending_paste: str | None = None  # a Connect 4 position pasted over another game, opened on Start
        self.reviewing = ReviewState()  # the game's review, hints (game/play/review_session.py)
        self.tree = MoveTree(session.spec, session.line)  # the variations (game/ui/app_variations.py)
        self.variations_folded = False  # the move list shows only the "+n" marks of the variations (F)
        self.challenge: Challenge | None = None  # a puzzle or a mistake to find a better move for
        self.mode_before_puzzle: Mode | None = None
        if persist:
            prepare_once(session.spec)
        if first_launch:
            self.open_new_game_dialog(first_launch=True)
        self.layout = layout.compute_layout(screen.get_size(), self.snapshot())
        set_caption(self.caps)

    # --- small queries ---------------------------------------------------------------------
    @property
    def animation(self) -> DropAnimation | None:
        return self.motion.animation

    def is_bot(self, player: int) -> bool:
        return is_bot(self.settings.mode, self.settings.human_player, player)

    def human_can_play(self) -> bool:
        pos = self.session.position
        if self.overlay is not None or pos.outcome.is_over:
            return False
        if self.net is not None:
            return self.net.may_move(self.session)  # our turn at the latest position, connected
        if not self.session.at_end:
            return True  # exploring a side line from an earlier position
        if self.settings.mode == "bot-vs-bot":
            return self.paused
        return not self.is_bot(pos.to_move)

    def verdicts(self) -> dict[int, Verdict] | None:
        """Exact verdicts (or estimates) per column of the shown position, when Exact is on."""
        if not (self.settings.exact and self.caps.exact_solver):
            return None
        pos, held = self.session.position, self.paused and self.settings.mode == "bot-vs-bot"
        bots_turn = self.session.at_end and self.is_bot(pos.to_move) and not held and not self.analysis_only
        return self.turns.verdicts(self.session, solving=not bots_turn)  # (no solver looks while a bot plays)

    def exact_budget(self) -> int | None:
        return self.turns.exact_budget(self.session)

    def shown_heat(self, any_setting: bool = False) -> HeatData | None:
        if not (any_setting or self.settings.heatmap):
            return None
        return self.turns.heat_for(self.session, self.settings.exact)

    def set_notice(self, text: str, error: bool = False, about_position: bool = False) -> None:
        self.notice = timed_notice(text, self.now, error, self.session.moves_text if about_position else None)

    # --- the frame -------------------------------------------------------------------------
    def step(self, events: list[pygame.event.Event] | None = None, now: float | None = None) -> bool:
        """One frame: handle ``events``, update, draw. Returns False once the app should quit."""
        prev = self.now
        self.now = time.monotonic() if now is None else now
        dt = max(0.0, min(0.1, self.now - prev))
        ctx = self.input_context()
        events = pygame.event.get() if events is None else events
        if events:
            self.last_input = self.now
        for event in events:
            for action in actions_for(event, self.layout, ctx):
                self.apply(action)
            ctx = self.input_context()
        self.update(dt)
        frame = self.snapshot()
        self.layout = layout.compute_layout(self.screen.get_size(), frame)
        view.draw(self.screen, frame, self.layout)
        return self.running

    def frame_rate(self) -> int:
        """Frames a second to draw at: all of them while a disc drops or just after the player acted, fewer when
        the picture barely changes, so that the engine (often searching meanwhile) gets the CPU. Redrawing an
        idle 1600x1000 window 60 times a second took half a core of this 2-core machine."""
        smooth = self.motion.moving(self.now) or self.now - self.last_input < window.SMOOTH_SECONDS
        return window.FPS if smooth else window.IDLE_FPS

    def input_context(self) -> InputContext:
        s = self.session
        return InputContext(
            self.overlay,
            self.caps.gravity,
            s.at_end and self.human_can_play(),
            self.settings.mode == "bot-vs-bot" and s.at_end,
            len(s.line),
            self.move_scroll,
            max(10, len(s.line)),
            self.choice is not None and self.choice.typing,
            self.panel_open and self.layout.narrow,
            self.variation_inserts(),
        )

    # --- actions: the one place that changes the state -------------------------------------
    def apply(self, action: Action) -> None:
        sess = self.session
        if is_preference(action):
            problem = preferences.change(self.settings, action, self.caps.exact_solver, self.net is not None)
            if problem is not None:
                self.set_notice(problem, error=True)
            self.sounds.enabled, self.paused = self.settings.sound, self.paused and not unpauses(action)
            self.save_settings()
            return
        match action:
            case Hover(pixel, move):
                self.mouse, self.hover = pixel, move
                if move is not None:
                    self.key_cursor = None
            case PlayMove(move):
                self.human_move(move)
            case GoTo(ply):
                self.go_to(ply)
            case MoveCursor(dx, dy):
                pos = sess.position
                if self.caps.gravity:
                    self.key_cursor = cursors.next_column(
                        pos.legal_moves(), self.caps.width, self.key_cursor, self.hover, dx
                    )
                else:
                    self.key_cursor = cursors.next_cell(
                        pos.legal_moves(), self.caps.width, self.caps.height, self.key_cursor, self.hover, dx, dy
                    )
            case ScrollMoves(rows):
                moves_rect = self.layout.panel.moves_rect if self.layout.panel is not None else None
                self.move_scroll = scrolled(
                    self.move_scroll, rows, len(sess.line), moves_rect, self.variation_inserts()
                )
            case ShowVariation(index):
                self.show_variation(index)
            case ChangeChoice(field, direction):
                if self.choice is not None:
                    self.choice = self.choice.changed(field, direction)
                    self._show_dialog(isinstance(self.overlay, NewGameCard) and self.overlay.first_launch)
            case TypeText(typed) if self.choice is not None and self.choice.typing:
                self.choice = self.choice.typed(typed)
                self._show_dialog(isinstance(self.overlay, NewGameCard) and self.overlay.first_launch)
            case LoadFile(path):
                self.overlay = None
                self.load(path=path)
            case Command():
                self._command(action)

    def _command(self, c: Command) -> None:
        if self.choice is not None and self.choice.typing and c in (Command.PASTE, Command.ERASE):
            self.choice = self.choice.typed(files.paste_text() or "") if c is Command.PASTE else self.choice.erased()
            self._show_dialog(isinstance(self.overlay, NewGameCard) and self.overlay.first_launch)
        elif self.net is not None and self.net.command(self, c):
            return
        elif c in REVIEW_COMMANDS:
            self.review_command(c)
        elif c in VARIATION_COMMANDS:
            self.variation_command(c)
        elif c in PUZZLE_COMMANDS:
            self.puzzle_command(c)
        else:
            self.command(c)

    # --- the game ----------------------------------------------------------------------------
    def human_move(self, move: int) -> None:
        """This app's player plays ``move`` (sent to the server in a network game)."""
        before = self.session.moves_text
        if self.human_can_play() and self.net is None and move in self.session.position.legal_moves():
            self.judge_challenge(move)
        if self.human_can_play() and self.play_move(move) and self.net is not None:
            self.net.sent_move(before, move)

    def play_move(self, move: int) -> bool:
        """Play ``move`` at the shown position with a drop animation; False (and a notice) if illegal."""
        before = self.session.position
        branching = self.branch_move(move)
        try:
            after = self.session.play(move)
        except GameError as exc:
            self.set_notice(refusal_text(self.caps, before, move) or str(exc), error=True, about_position=True)
            return False
        if branching:  # the line played before stays in the tree (game/ui/app_variations.py)
            self.after_branch(tuple(self.session.line[: self.session.cursor]))
        self.turns.cancel()  # whatever it was searching is now the past
        self.motion.start(self.caps, before, after, move, self.now)
        if self.caps.local_boards:
            self.key_cursor = None  # the next board to play in changed: the cursor restarts there
        self._dirty_game = True
        return True

    def cancel_search(self) -> None:
        self.turns.cancel()

    def go_to(self, ply: int) -> None:
        if self.session.go_to(ply):
            self.motion.stop()
            self.turns.pending_move = None
            self._dirty_game = True

    def new_game(self, spec: GameSpec | None = None, moves: tuple[int, ...] = (), cursor: int | None = None) -> None:
        spec = spec or self.session.spec
        caps = capabilities(spec)  # raises ValueError for a game the app cannot show
        self.turns.forget()
        self.reviewing.forget()
        self.end_challenge()
        self.session.load(spec, moves, cursor)
        self.reset_tree()
        if self.persist:  # the book and the solver load in the background: a review's first marks come soon
            prepare_once(spec)
        self.caps = caps
        self.settings.game = spec.name
        self.motion.stop()
        self.key_cursor, self.hover = None, None
        self.eval_shown, self.move_scroll = None, 0
        self.paused = self.settings.mode == "bot-vs-bot" and bool(moves)
        self.step_requested = False
        self._dirty_game = True
        set_caption(caps)

    def save_settings(self) -> None:
        if self.persist:
            notice = save_settings(self.settings)
            if notice:
                self.set_notice(notice, error=True)

    # --- update ------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        now = self.now
        if self.net is not None:
            self.net.update(self)
        for text, error in self.turns.poll(self.session):
            self.set_notice(text, error)
        choosing = isinstance(self.overlay, NewGameCard)  # the modal new-game dialog: no bot moves behind it
        if not choosing:
            notice = self.turns.schedule(
                self.settings, self.session, self.caps, self.paused, self.step_requested, self.analysis_only, now
            )
            if notice is not None:
                self.set_notice(*notice)
        held = choosing or (self.settings.mode == "bot-vs-bot" and self.paused and not self.step_requested)
        animating = self.motion.moving(now)
        move = self.turns.due_move(self.settings, self.session, held, now, animating)
        if move is not None and self.play_move(move):
            self.step_requested = False
        self.turns.book.fill(self.session, self.turns.exact_cache)  # the new position's book facts, this frame
        self.motion.tick(now, self.session.position)
        point = self.session.eval_at(self.session.cursor)
        target = point.value if point is not None else None
        self.eval_shown = (
            target
            if self.eval_shown is None or (point is not None and point.exact)
            else eased(self.eval_shown, target, dt)
        )
        self.update_review()
        if self.notice is not None and not self.notice.live(now, self.session.moves_text):
            self.notice = None
        panel = self.layout.panel
        self.move_scroll = follow(
            self.move_scroll,
            self.session.cursor,
            len(self.session.line),
            panel.moves_rect if panel is not None else None,
            self.variation_inserts(),
        )
        if self._dirty_game:
            self.sync_tree()
        if self._dirty_game and self.persist:
            self.autosave()
        self._dirty_game = False

    def autosave(self) -> None:
        """Keep the game, the shown move and the eval graph's points for the next launch."""
        problem = write_autosave(self.saved_text(game_json_with_evals(self.session, with_cursor=True)))
        if problem:
            self.set_notice(problem, error=True)

    # --- the snapshot --------------------------------------------------------------------------
    def snapshot(self) -> Frame:
        """The frame to draw: an immutable picture of the state (see ``snapshot.build_frame``)."""
        s, sess = self.settings, self.session
        can_play = self.human_can_play()
        hidden = self.evaluations_hidden()
        held = s.mode == "bot-vs-bot" and self.paused and not self.step_requested
        frame = build_frame(
            FrameFacts(
                now=self.now,
                settings=s,
                session=sess,
                caps=self.caps,
                theme=self.theme,
                names=self.names(),
                colours=(self.colour_of(0), self.colour_of(1)),
                can_play=can_play,
                hover=self.hover,
                key_cursor=self.key_cursor,
                animation=self.motion.animation,
                placed=self.motion.placed,
                heat=None if hidden else self.shown_heat(),
                verdicts=None if hidden else self.verdicts(),
                eval_shown=self.eval_shown,
                paused=self.paused,
                held=held,
                analysis_only=self.analysis_only,
                planned=self.turns.planned(sess),
                engine_ready=self.turns.driver.is_ready,
                engine=self.turns.driver.view(),
                search=self.turns.driver.search,
                notice=self.notice.notice if self.notice is not None else None,
                overlay=self.overlay,
                mouse=self.mouse,
                panel_open=self.panel_open,
                move_scroll=self.move_scroll,
                solving_left=self.turns.solving_left(sess) if s.exact and self.caps.exact_solver else None,
                sound_available=self.sounds.available,
            )
        )
        frame = self.variation_frame(self.challenge_frame(self.review_frame(frame)))
        return frame if self.net is None else self.net.decorate(frame, self.names())

    # --- shutdown -----------------------------------------------------------------------------
    def close(self) -> None:
        if self.net is not None:
            self.net.close()  # the seat (and the hosted game) is kept for a relaunch
        self.cancel_search()
        self.reviewing.stop()
        self.end_challenge()  # (the mode chosen before a puzzle is what the settings keep)
        self.turns.driver.close()
        if self.persist:  # what was on screen comes back (also a game opened with --position and left untouched)
            self.autosave()
        self.settings.window = self.screen.get_size()
        self.save_settings()
        self.sounds.close()


def create_app(
    settings: Settings,
    session: Session,
    persist: bool = True,
    driver: EngineDriver | None = None,
    first_launch: bool = False,
    notices: list[str] | None = None,
) -> App:
    screen = window.open_window(settings.window)
    sys.setswitchinterval(SWITCH_INTERVAL_S)  # a background thread (a review, a hint) gives the GIL back sooner
    sounds = Sounds(enabled=settings.sound)
    driver = driver or EngineDriver(default_client_factory, threads=settings.search_threads or None)
    app = App(screen, settings, session, driver, sounds, persist, first_launch)
    app.net = NetGame.resume(settings) if persist else None  # an unfinished network game: back to it
    for notice in notices or []:
        app.set_notice(notice, error=True)
    app.turns.driver.start()
    return app


def main_loop(app: App) -> int:
    clock = pygame.time.Clock()
    try:
        while app.step():
            app.screen = pygame.display.get_surface() or app.screen
            pygame.display.flip()
            clock.tick(app.frame_rate())
    except KeyboardInterrupt:
        pass
    finally:
        shutdown(app)
    return 0


def shutdown(app: App) -> None:
    try:
        app.close()
    finally:
        window.close_window()


def set_caption(caps: GameCapabilities) -> None:
    pygame.display.set_caption(caps.title if caps.name == "connect4" else f"{caps.title} · Connect 4 MCTS")
