"""The app object: ``App.step(events)`` is one frame (handle events -> update -> draw), so tests
can drive the real loop with synthetic events. ``game.ui.app.run`` creates it."""

from __future__ import annotations

import random
import time
from typing import Any

import pygame

from game import GameSpec
from game.errors import GameError
from game.ui import controller, files
from game.ui.animation import GRAVITY, DropAnimation
from game.ui.board_view import BoardView, make_board_view
from game.ui.engine_driver import EngineDriver, Search
from game.ui.eval_bar import EvalBar
from game.ui.eval_graph import EvalGraph
from game.ui.exact import ExactCache, Verdict, column_verdicts, scores_from_solution
from game.ui.game_choices import game_title
from game.ui.heat import HeatData, heat_from_info
from game.ui.move_list import MoveList
from game.ui.overlays import LoadDialog
from game.ui.players import is_bot
from game.ui.session import Session
from game.ui.settings import Settings, save_settings, write_autosave
from game.ui.side_panel import PanelLayout
from game.ui.sounds import Sounds
from game.ui.themes import THEMES, Color, Theme

NOTICE_SECONDS = 6.0


class App:
    def __init__(
        self,
        screen: pygame.Surface,
        settings: Settings,
        session: Session,
        driver: EngineDriver,
        sounds: Sounds | None = None,
        autosave: bool = True,
    ) -> None:
        self.screen = screen
        self.settings = settings
        self.session = session
        self.driver = driver
        self.sounds = sounds or Sounds(enabled=False)
        self.autosave = autosave
        self.persist = autosave  # False: never write settings (screenshots, smoke test, tests)
        self.view: BoardView = make_board_view(session.spec)
        self.running = True
        self.paused = False
        self.step_requested = False
        self.overlay: str | None = None  # "help" | "load"
        self.load_dialog: LoadDialog | None = None
        self.mouse = (-1, -1)
        self.hover: int | None = None
        self.key_cursor: int | None = None  # keyboard drop column
        self.animation: DropAnimation | None = None
        self._landed_sound = True
        self.pending_move: tuple[str, int, float] | None = None  # (moves text, move, not before)
        self.turn_started = time.monotonic()
        self._turn_key = ""
        self.heat: HeatData | None = None
        self.heat_moves: str | None = None
        self.exact_cache = ExactCache()
        self.placed: tuple[int, float] | None = None  # (cell, when) of the last stone put on a grid
        self.notice: tuple[str, float] | None = None
        self.eval_bar = EvalBar()
        self.eval_graph = EvalGraph()
        self.move_list = MoveList()
        self.panel = PanelLayout(pygame.Rect(0, 0, 0, 0))
        self.panel_open = False  # the side panel on narrow windows
        self.now = time.monotonic()
        self._dirty_game = False
        self.min_bot_delay = controller.MIN_BOT_DELAY
        self.gravity = GRAVITY
        self.analysis_only = False  # bots search but never move (screenshots)
        from game.ui import view

        self._view_mod = view
        self.layout = view.compute_layout(self)
        set_caption(session.spec.name)

    # --- small queries ---------------------------------------------------------------------
    @property
    def theme(self) -> Theme:
        return THEMES.get(self.settings.theme, THEMES["classic"])

    def colour_of(self, player: int) -> Color:
        return self.theme.discs[player ^ int(self.settings.swap_colours)]

    def mark_of(self, player: int) -> int | None:
        return (player ^ int(self.settings.swap_colours)) if self.theme.marks else None

    def player_name(self, player: int) -> str:
        names = getattr(self.view, "player_names", None)  # X and O in tic-tac-toe games
        if names:
            return names[player]
        return self.theme.disc_names[player ^ int(self.settings.swap_colours)]

    def verdicts(self) -> dict[int, Verdict] | None:
        """Exact verdicts (or estimates) per column of the shown position, when Exact is on."""
        s = self.session
        if not (self.settings.exact and controller.exact_available(s)) or s.position.outcome.is_over:
            return None
        heat = self.heat if self.heat is not None and self.heat_moves == s.moves_text else None
        scores = self.exact_cache.get(s.spec.name, s.moves_text)
        return column_verdicts(s.spec, s.cursor, s.position.legal_moves(), scores, heat)

    def exact_budget(self) -> int | None:
        """The solver budget the shown position still needs for its verdicts (None: nothing to ask)."""
        s = self.session
        if not self.driver.can_search(s.spec.name, "exact"):
            return None
        return self.exact_cache.next_budget(s.spec.name, s.moves_text)

    def is_bot(self, player: int) -> bool:
        return is_bot(self.settings.mode, self.settings.human_player, player)

    def human_can_play(self) -> bool:
        pos = self.session.position
        if self.overlay or pos.outcome.is_over:
            return False
        if not self.session.at_end:
            return True  # exploring a side line from an earlier position
        if self.settings.mode == "bot-vs-bot":
            return self.paused
        return not self.is_bot(pos.to_move)

    def set_notice(self, text: str) -> None:
        self.notice = (text.splitlines()[0] if text else "", self.now + NOTICE_SECONDS)

    # --- the frame -------------------------------------------------------------------------
    def step(self, events: list[pygame.event.Event] | None = None, now: float | None = None) -> bool:
        """One frame: handle ``events``, update, draw. Returns False once the app should quit."""
        prev = self.now
        self.now = time.monotonic() if now is None else now
        dt = max(0.0, min(0.1, self.now - prev))
        self.layout = self._view_mod.compute_layout(self)
        for event in events if events is not None else pygame.event.get():
            self.handle(event)
        self.update(dt)
        self._view_mod.draw(self)
        return self.running

    def handle(self, event: pygame.event.Event) -> None:
        from game.ui import input as inp

        inp.handle_event(self, event)

    # --- actions (keys and buttons share these) --------------------------------------------
    def do(self, action: str) -> None:
        from game.ui import actions

        actions.perform(self, action)

    def play_move(self, move: int) -> bool:
        """Play ``move`` at the shown position with a drop animation; False if illegal."""
        before = self.session.position
        try:
            after = self.session.play(move)
        except GameError as exc:
            self.set_notice(controller.refusal_text(before, move) or str(exc))
            return False
        self.driver.cancel()  # whatever it was searching is now the past
        if self.animation is not None:
            self._finish_animation()
        row = self._landing_row(before, move)
        if row is not None:
            top = self.session.spec.height + 0.35
            self.animation = DropAnimation(move, row, before.to_move, top, self.now, self.gravity)
            self._landed_sound = False
        else:  # a grid game: the stone appears where it was put (a short scale-in)
            self.placed = (move, self.now)
            self.sounds.play("drop", 0)
            self._end_sound(after)
        self.pending_move = None
        self._dirty_game = True
        return True

    def _landing_row(self, before: Any, move: int) -> int | None:
        height = getattr(before, "column_height", None)
        return height(move) if height is not None else None

    def _finish_animation(self) -> None:
        if self.animation is not None and not self._landed_sound:
            self.sounds.play("drop", self.animation.row)
        self.animation = None
        self._landed_sound = True

    def _end_sound(self, pos: Any) -> None:
        if pos.outcome.is_over:
            self.sounds.play("win" if pos.outcome.winner is not None else "draw")

    def cancel_search(self) -> None:
        self.driver.cancel()
        self.pending_move = None

    def go_to(self, ply: int) -> None:
        if self.session.go_to(ply):
            self.animation = None
            self.placed = None
            self._landed_sound = True
            self.pending_move = None
            self._dirty_game = True

    def new_game(self, spec: GameSpec | None = None, moves: tuple[int, ...] = (), cursor: int | None = None) -> None:
        new_view = make_board_view(spec or self.session.spec)  # raises ValueError for an unsupported game
        self.cancel_search()
        self.session.load(spec or self.session.spec, moves, cursor)
        self.view = new_view
        self.settings.game = self.session.spec.name
        self.animation = None
        self.placed = None
        self.key_cursor = None
        self.hover = None
        self.layout = self._view_mod.compute_layout(self)  # the new board's geometry at once
        set_caption(self.session.spec.name)
        self.heat = None
        self.paused = False
        self.step_requested = False
        self._dirty_game = True

    def save_settings(self) -> None:
        if not self.persist:
            return
        notice = save_settings(self.settings)
        if notice:
            self.set_notice(notice)

    # --- update ------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        now = self.now
        for event in self.driver.poll():
            self._on_engine(event.kind, event.search, event.message)
        self._schedule_search()
        self._apply_pending(now)
        if self.animation is not None:
            if not self._landed_sound and self.animation.landed(now):
                self.sounds.play("drop", self.animation.row)
                self._landed_sound = True
            if self.animation.done(now):
                self.animation = None
                self._end_sound(self.session.position)
        self.eval_bar.update(self.session.eval_at(self.session.cursor), dt)
        if self.notice and now > self.notice[1]:
            self.notice = None
        if self._dirty_game and self.autosave:
            s = self.session
            notice = write_autosave(files.game_json(s))
            if notice:
                self.set_notice(notice)
        self._dirty_game = False

    def _on_engine(self, kind: str, search: Search | None, msg: dict[str, Any]) -> None:
        if kind == "restarted":
            self.set_notice(f"Engine restarted: {msg.get('message', 'it stopped unexpectedly')}")
            return
        if kind == "error":
            self._on_engine_error(search, msg)
            return
        if search is None:
            return
        consistent = self.session.spec.moves_to_text(self.session.line[: search.ply]) == search.moves
        if not consistent:
            return
        heat = heat_from_info(self.session.spec, search.ply, msg) if kind in ("info", "bestmove") else None
        if heat is not None:  # (a solver's "solution" has scores, not visits)
            self.heat, self.heat_moves = heat, search.moves
        value = msg.get("value")
        searched = msg.get("iterations") or msg.get("proven")  # a result of 0 iterations says nothing
        if isinstance(value, int | float) and searched:
            self.session.record_eval(search.ply, float(value))
        if kind == "solution" and search.kind == "exact":
            scores = scores_from_solution(self.session.spec, msg)
            self.exact_cache.put(search.game, search.moves, scores, search.budget_ms)
            return
        if kind == "solution" and search.kind == "solve":
            move = controller.best_scored_move(self.session, msg)
            self.pending_move = (search.moves, move, self.turn_started + self.min_bot_delay)
            return
        if kind == "bestmove" and search.kind == "bot":
            try:
                move = self.session.spec.parse_move(str(msg.get("move")))
            except GameError:
                self.set_notice(f"Engine sent a bad move {msg.get('move')!r}")
                return
            self.pending_move = (search.moves, move, self.turn_started + self.min_bot_delay)

    def _on_engine_error(self, search: Search | None, msg: dict[str, Any]) -> None:
        text = str(msg.get("message", "error"))
        if search is None or search.failed is None:
            self.set_notice(f"Engine: {text}")
        elif search.kind == "exact":
            self.set_notice(f"No exact verdicts: {text}")
        elif search.kind in ("bot", "solve"):
            self.set_notice(f"The engine cannot search {search.game} ({text}); the bot plays random moves")
        else:
            self.set_notice(f"No analysis for {search.game}: {text}")

    def _schedule_search(self) -> None:
        s = self.session
        key = f"{s.spec.name}/{s.moves_text}/{s.at_end}"
        if key != self._turn_key:
            self._turn_key = key
            self.turn_started = self.now
        want = controller.wanted_search(self.settings, s, self.paused, self.step_requested, self.exact_budget(),
                                        self.analysis_only)
        current = self.driver.search
        if want is None:
            if current is not None:
                self.cancel_search()
            return
        kind, budget = want
        if kind == "bot" and budget == 0:  # the Random level needs no engine
            if current is not None:
                self.cancel_search()
            self._random_move(self.min_bot_delay * 1.4)
            return
        exact = self.settings.bots[s.position.to_move].difficulty.exact if kind == "bot" else True
        if not self.driver.can_search(s.spec.name, kind):  # type: ignore[arg-type]
            if current is not None and not current.finished:
                self.driver.cancel()
            if kind in ("bot", "solve"):
                self._random_move(self.min_bot_delay)
            return
        if current is not None and current.key == (kind, s.spec.name, s.moves_text, budget):
            return
        if self.pending_move is not None and self.pending_move[0] == s.moves_text and kind in ("bot", "solve"):
            return  # the move is known; waiting for the animation
        self.driver.begin(kind, s.spec.name, s.moves_text, s.cursor, budget, exact)  # type: ignore[arg-type]
        if self.driver.unavailable and kind in ("bot", "solve"):
            self.set_notice(f"{self.driver.unavailable}: bots play random moves")

    def _random_move(self, delay: float) -> None:
        s = self.session
        if self.pending_move is None or self.pending_move[0] != s.moves_text:
            move = random.choice(s.position.legal_moves())
            self.pending_move = (s.moves_text, move, self.turn_started + delay)

    def _apply_pending(self, now: float) -> None:
        p = self.pending_move
        if p is None:
            return
        s = self.session
        if p[0] != s.moves_text or not s.at_end or not controller.bot_to_move(self.settings, s):
            self.pending_move = None
            return
        if self.settings.mode == "bot-vs-bot" and self.paused and not self.step_requested:
            return
        if now < p[2] or (self.animation is not None and not self.animation.done(now)):
            return
        self.pending_move = None
        if self.driver.search is not None and self.driver.search.finished:
            self.driver.search = None
        if self.play_move(p[1]):
            self.step_requested = False

    # --- shutdown -----------------------------------------------------------------------------
    def close(self) -> None:
        self.cancel_search()
        self.driver.close()
        self.settings.window = self.screen.get_size()
        self.save_settings()
        self.sounds.close()



def set_caption(game: str) -> None:
    title = game_title(game)
    pygame.display.set_caption(title if game == "connect4" else f"{title} · Connect 4 MCTS")
