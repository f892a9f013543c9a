"""The app object. ``App.step(events)`` is one frame: events become action values (``input``), ``apply`` carries
each out, ``update`` takes the engine's lines, the network's events and the clock, then an immutable ``Frame`` is
built, laid out and drawn. Tests drive this real loop with synthetic events.

The app composes handlers that own their state (``History``, ``EngineHandler``, ``WindowCommands``,
``NewGameDialog``, ``FileCommands``, ``Review``, ``Puzzles``, ``Variations``, the network game ``NetGame``): a
command is routed to its handler by a table (``App.routes``), and each handler answers with effects
(``game.ui.effects``) that ``App.carry_out`` applies in order, the one style in which they all talk back."""

from __future__ import annotations

import time
from pathlib import Path

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
from game.play.engine_driver import EngineDriver
from game.play.game_files import game_json_with_evals, restore_evals
from game.play.players import Mode, is_bot
from game.play.preferences import is_preference, unpauses
from game.play.review_session import prepare_once
from game.play.session import Session
from game.play.settings import Settings, save_settings, write_autosave
from game.play.themes import Color, Theme
from game.rules import GameSpec
from game.rules.capabilities import GameCapabilities, capabilities
from game.rules.errors import GameError
from game.ui import effects as fx
from game.ui import layout, view, window
from game.ui.animation import DropAnimation
from game.ui.app_commands import History, WindowCommands
from game.ui.app_dialog import NewGameDialog, theme_of
from game.ui.app_engine import EngineHandler
from game.ui.app_files import FileCommands
from game.ui.app_puzzles import Puzzles
from game.ui.app_review import Review
from game.ui.app_variations import Variations
from game.ui.eval_bar import eased
from game.ui.frame import Frame, NewGameCard, Overlay
from game.ui.input import InputContext, actions_for
from game.ui.motion import Motion
from game.ui.move_list import follow, scrolled
from game.ui.net_game import NetGame
from game.ui.snapshot import FrameFacts, TimedNotice, build_frame, timed_notice
from game.ui.sounds import Sounds


class App:
    """The frame's state (the card shown, the notice, the drop animation, the eval bar, the move list's scroll)
    and the handlers it composes (see the module's docstring)."""

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
        self.overlay: Overlay | None = None
        self.notice: TimedNotice | None = None
        self.eval_shown: float | None = None
        self.move_scroll = 0
        self.now = time.monotonic()
        self.last_input = self.now  # when the last event came (mouse, keys, window)
        self._dirty_game = False
        self.net: NetGame | None = None  # a network game (game.ui.net_game): also a handler, asked first
        # the handlers, each owning its state (game/ui/effects.py says how they talk back)
        self.history = History(settings, session)
        self.engine = EngineHandler(settings, session, self.history, driver, self.now)
        self.turns = self.engine.turns  # (the engine's turns, as the tests and the headless runs look at them)
        self.dialog = NewGameDialog(settings)
        self.review = Review(
            settings, session, lambda: self.caps, self.names, self.snapshot, lambda: self.puzzles.challenge
        )
        self.variations = Variations(session, self.review.reviewing, self.review.evaluations_hidden)
        self.puzzles = Puzzles(settings, session, self.review.reviewing, self.variations, self.names)
        self.files = FileCommands(session, self.variations.saved_text)
        self.window = WindowCommands(lambda: self.overlay)  # (the pointer, the drawer, running)
        handlers: tuple[fx.Handler, ...] = (self.history, self.engine, self.window, self.dialog, self.files)
        handlers += (self.review, self.puzzles, self.variations)
        self.routes: dict[Command, fx.Handler] = {c: h for h in handlers for c in h.COMMANDS}
        if persist:
            prepare_once(session.spec)
        if first_launch:
            self.carry_out(self.dialog.open(first_launch=True))
        self.layout = layout.compute_layout(screen.get_size(), self.snapshot())
        window.set_caption(self.caps)

    # --- small queries ---------------------------------------------------------------------
    @property
    def animation(self) -> DropAnimation | None:
        return self.motion.animation

    @property
    def theme(self) -> Theme:
        return theme_of(self.settings)

    def colour_of(self, player: int) -> Color:
        return self.theme.discs[player ^ int(self.settings.swap_colours)]

    def player_name(self, player: int) -> str:
        names = self.caps.player_names
        return names[player] if names is not None else self.theme.disc_names[player ^ int(self.settings.swap_colours)]

    def names(self) -> tuple[str, str]:
        return self.player_name(0), self.player_name(1)

    def human_can_play(self) -> bool:
        pos = self.session.position
        if self.overlay is not None or pos.outcome.is_over:
            return False
        if self.puzzles.open:  # a layer over the game: only its challenge's position takes a move (judged)
            return self.puzzles.answer_awaited()
        if self.net is not None:
            return self.net.may_move(self.session)  # our turn at the latest position, connected
        if not self.session.at_end:
            return True  # exploring a side line from an earlier position
        if self.settings.mode == Mode.BOT_VS_BOT:
            return self.history.paused
        return not is_bot(self.settings.mode, self.settings.human_player, pos.to_move)

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
        return self.window.running

    def frame_rate(self) -> int:
        """Frames a second: all of them while a disc drops or just after the player acted, fewer when the picture
        barely changes, so that the engine gets the CPU (an idle 1600x1000 window at 60 took half a core)."""
        smooth = self.motion.moving(self.now) or self.now - self.last_input < window.SMOOTH_SECONDS
        return window.FPS if smooth else window.IDLE_FPS

    def input_context(self) -> InputContext:
        s = self.session
        return InputContext(
            self.overlay,
            self.caps.gravity,
            s.at_end and self.human_can_play(),
            self.settings.mode == Mode.BOT_VS_BOT and s.at_end,
            len(s.line),
            self.move_scroll,
            max(10, len(s.line)),
            self.dialog.typing,
            self.window.panel_open and self.layout.narrow,
            self.variations.inserts(),
            self.puzzles.open,
        )

    # --- actions: the one place that changes the state -------------------------------------
    def apply(self, action: Action) -> None:
        if is_preference(action):
            problem = preferences.change(self.settings, action, self.caps.exact_solver, self.net is not None)
            if problem is not None:
                self.set_notice(problem, error=True)
            self.sounds.enabled = self.settings.sound
            self.history.paused = self.history.paused and not unpauses(action)
            self.save_settings()
            return
        match action:
            case Hover(pixel, move):
                self.window.hovered(pixel, move)
            case PlayMove(move):
                self.human_move(move)
            case GoTo(ply):
                self.go_to(ply)
            case MoveCursor(dx, dy):
                self.window.move_cursor(dx, dy, self.session.position.legal_moves(), self.caps)
            case ScrollMoves(rows):
                moves_rect = self.layout.panel.moves_rect if self.layout.panel is not None else None
                inserts = self.variations.inserts()
                self.move_scroll = scrolled(self.move_scroll, rows, len(self.session.line), moves_rect, inserts)
            case ShowVariation(index):
                self.carry_out(self.variations.show(index))
            case ChangeChoice(field, direction):
                self.carry_out(self.dialog.change(field, direction))
            case TypeText(typed):
                self.carry_out(self.dialog.type_text(typed))
            case LoadFile(path):
                self.overlay = None
                self.carry_out(self.files.load(path=path))
            case Command():
                self.carry_out(self.route(action))

    def route(self, c: Command) -> fx.Effects:
        """A command goes to its handler: first to the dialog's text field and the network game, which take the
        few commands that mean something else while they are on, then by the routing table."""
        taken = self.dialog.take(c)
        if taken is None:
            taken = self.puzzles.refusal(c, self.net is not None)  # what would change the game inside a layer
        if taken is None and self.net is not None:
            taken = self.net.take(c)
        if taken is None:
            handler = self.routes.get(c)  # (a network game's own commands mean nothing without one)
            taken = handler.handle(c) if handler is not None else []
        return taken

    # --- effects: what the handlers ask, carried out in order ------------------------------
    def carry_out(self, effects: fx.Effects) -> None:
        for effect in effects:
            self._carry_out(effect)

    def _carry_out(self, effect: fx.Effect) -> None:  # noqa: C901 (one line per kind of effect)
        match effect:
            case fx.Notice(text, error, about_position):
                self.set_notice(text, error, about_position)
            case fx.ShowPly(ply, continuation):
                self.go_to(ply)
                if continuation is not None:
                    self.session.set_continuation(continuation)
            case fx.PlayOnBoard(move):
                self.play_move(move)
            case fx.BotMove(move):
                if self.play_move(move):
                    self.history.step_requested = False
            case fx.HumanMove(move):
                self.human_move(move)
            case fx.StartGame(spec, moves, cursor):
                self.new_game(spec, moves, cursor)
            case fx.OpenGame(game):
                self.new_game(game.spec, game.moves, game.cursor)
                restore_evals(self.session, game.evals)
                self.carry_out(self.variations.loaded_text(game.text))
                self.history.paused = self.settings.mode == Mode.BOT_VS_BOT
            case fx.LayerShown():
                self.shown_game_changed()
            case fx.LoadText(text):
                self.load(text=text)
            case fx.OfferSwitch(text):
                self.carry_out(self.dialog.offer_switch(text))
            case fx.ShowOverlay(overlay):
                self.overlay = overlay
            case fx.Connect():
                self.net = NetGame.start(effect)
            case fx.LeaveNetwork() if self.net is not None:
                net, self.net = self.net, None
                self.carry_out(net.leave())
            case fx.RememberSeat(server, token):
                self.settings.net_server, self.settings.net_token = server, token
                self.save_settings()
            case fx.SetThreads(threads):
                self.turns.driver.set_threads(threads)
            case fx.CancelSearch():
                self.turns.cancel()
            case fx.SaveSettings():
                self.save_settings()
            case fx.GameChanged():
                self._dirty_game = True

    # --- the game ----------------------------------------------------------------------------
    def human_move(self, move: int) -> None:
        """This app's player plays ``move`` (sent to the server in a network game)."""
        before = self.session.moves_text
        if self.puzzles.open and self.net is None:  # judged, never played: the game stays as it was
            self.carry_out(self.puzzles.take_move(move, self.now))
            return
        if self.human_can_play() and self.play_move(move) and self.net is not None:
            self.net.sent_move(before, move)

    def play_move(self, move: int) -> bool:
        """Play ``move`` at the shown position with a drop animation; False (and a notice) if illegal."""
        before = self.session.position
        branching = self.variations.branch_move(move)
        try:
            after = self.session.play(move)
        except GameError as exc:
            self.set_notice(refusal_text(self.caps, before, move) or str(exc), error=True, about_position=True)
            return False
        if branching:  # the line played before stays in the tree (game/ui/app_variations.py)
            self.carry_out(self.variations.after_branch(tuple(self.session.line[: self.session.cursor])))
        self.turns.cancel()  # whatever it was searching is now the past
        self.motion.start(self.caps, before, after, move, self.now)
        if self.caps.local_boards:
            self.window.key_cursor = None  # the next board to play in changed: the cursor restarts there
        self._dirty_game = True
        return True

    def shown_game_changed(self) -> None:
        """Another game is on the board (a new one, a layer's, the kept one again): its capabilities, nothing moving."""
        self.caps = capabilities(self.session.spec)
        self.turns.cancel()
        self.motion.stop()
        self.window.key_cursor, self.window.hover = None, None
        self.eval_shown = None
        self._dirty_game = True
        window.set_caption(self.caps)

    def go_to(self, ply: int) -> None:
        if self.session.go_to(ply):
            self.motion.stop()
            self.turns.pending_move = None
            self._dirty_game = True

    def load(self, text: str | None = None, path: Path | None = None) -> None:
        """Open a saved game or a position (see ``FileCommands.load``)."""
        self.carry_out(self.files.load(text=text, path=path))

    def new_game(self, spec: GameSpec | None = None, moves: tuple[int, ...] = (), cursor: int | None = None) -> None:
        spec = spec or self.session.spec
        capabilities(spec)  # raises ValueError for a game the app cannot show (before anything changes)
        self.turns.forget()
        self.review.reviewing.forget()
        self.puzzles.forget()
        self.session.load(spec, moves, cursor)
        self.carry_out(self.variations.reset_tree())
        if self.persist:  # the book and the solver load in the background: a review's first marks come soon
            prepare_once(spec)
        self.settings.game = spec.name
        self.move_scroll = 0
        self.history.started(moves)
        self.shown_game_changed()

    def save_settings(self) -> None:
        if self.persist:
            notice = save_settings(self.settings)
            if notice:
                self.set_notice(notice, error=True)

    # --- update ------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        now, sess = self.now, self.session
        if self.net is not None:
            for effects in self.net.update(sess, self.player_name):
                self.carry_out(effects)
        # the modal new-game dialog, or a layer over the game (Learn, a puzzle): no bot moves behind it
        choosing = isinstance(self.overlay, NewGameCard) or self.puzzles.open
        self.carry_out(self.engine.update(self.caps, choosing, self.motion.moving(now), now))
        self.turns.book.fill(sess, self.turns.exact_cache)  # the new position's book facts, this frame
        self.motion.tick(now, sess.position)
        point = sess.eval_at(sess.cursor)
        target = point.value if point is not None else None
        shown = self.eval_shown
        self.eval_shown = target if shown is None or (point is not None and point.exact) else eased(shown, target, dt)
        self.carry_out(self.review.update(now))
        if self.notice is not None and not self.notice.live(now, sess.moves_text):
            self.notice = None
        panel = self.layout.panel
        moves_rect = panel.moves_rect if panel is not None else None
        self.move_scroll = follow(self.move_scroll, sess.cursor, len(sess.line), moves_rect, self.variations.inserts())
        if self._dirty_game:
            self.variations.sync_tree()
        if self._dirty_game and self.persist:
            self.autosave()
        self._dirty_game = False

    def autosave(self) -> None:
        """Keep the game, the shown move and the eval graph's points for the next launch (never a layer's)."""
        if self.puzzles.open:  # (the game under a layer was saved before it opened)
            return
        problem = write_autosave(self.variations.saved_text(game_json_with_evals(self.session, with_cursor=True)))
        if problem:
            self.set_notice(problem, error=True)

    # --- the snapshot --------------------------------------------------------------------------
    def snapshot(self) -> Frame:
        """The frame to draw: an immutable picture of the state (see ``snapshot.build_frame``)."""
        s, sess = self.settings, self.session
        hidden = self.review.evaluations_hidden()
        frame = build_frame(
            FrameFacts(
                now=self.now,
                settings=s,
                session=sess,
                caps=self.caps,
                theme=self.theme,
                names=self.names(),
                colours=(self.colour_of(0), self.colour_of(1)),
                can_play=self.human_can_play(),
                hover=self.window.hover,
                key_cursor=self.window.key_cursor,
                animation=self.motion.animation,
                placed=self.motion.placed,
                heat=None if hidden else self.engine.heat(),
                verdicts=None if hidden else self.engine.verdicts(self.caps),
                eval_shown=self.eval_shown,
                paused=self.history.paused,
                held=self.history.held,
                analysis_only=self.engine.analysis_only,
                planned=self.turns.planned(sess),
                engine_ready=self.turns.driver.is_ready,
                engine=self.turns.driver.view(),
                search=self.turns.driver.search,
                notice=self.notice.notice if self.notice is not None else None,
                overlay=self.overlay,
                mouse=self.window.mouse,
                panel_open=self.window.panel_open,
                move_scroll=self.move_scroll,
                solving_left=self.turns.solving_left(sess) if s.exact and self.caps.exact_solver else None,
                sound_available=self.sounds.available,
            )
        )
        frame = self.variations.frame(self.puzzles.frame(self.review.frame(frame, self.now)))
        return frame if self.net is None else self.net.decorate(frame, self.names())

    # --- shutdown -----------------------------------------------------------------------------
    def close(self) -> None:
        if self.net is not None:
            self.net.close()  # the seat (and the hosted game) is kept for a relaunch
        self.turns.cancel()
        self.review.reviewing.stop()
        self.carry_out(self.puzzles.leave())  # the game under a layer is what the autosave keeps
        self.turns.driver.close()
        if self.persist:  # what was on screen comes back (also a game opened with --position and left untouched)
            self.autosave()
        self.settings.window = self.screen.get_size()
        self.save_settings()
        self.sounds.close()
