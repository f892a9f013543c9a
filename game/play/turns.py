"""The engine's side of the turns, without pygame and without the app object: which search runs,
what its lines mean (heat, exact scores, proofs, the bot's move), and when a decided move is due.

``EngineTurns`` owns the engine adapter (``EngineDriver``); the app calls ``poll``, ``schedule`` and
``due_move`` once per frame with the facts they need and shows the notices they return.
"""

from __future__ import annotations

import itertools
import random

from ai.vocab.results import PovValue, Solution
from game.play.book_facts import BookFacts
from game.play.controller import MIN_BOT_DELAY, bot_to_move, wanted_search
from game.play.engine_driver import EngineDriver, EngineEvent, Search, SearchKind
from game.play.engine_events import absorb
from game.play.exact import EXACT_TIME_MS, ExactCache, Verdict, by_elimination, column_verdicts, scores_from_solution
from game.play.heat import HeatData
from game.play.pondering import wanted_ponder
from game.play.session import Session
from game.play.settings import Settings
from game.rules.capabilities import GameCapabilities

SCREENSHOT_ITERATIONS = 20000  # a heatmap this well searched is worth a screenshot
AHEAD_MAX_MS = EXACT_TIME_MS[1]  # the solver's looks ahead at the next positions stop at this budget
Notice = tuple[str, bool]  # (text, is an error)


class EngineTurns:
    def __init__(self, driver: EngineDriver, now: float) -> None:
        self.driver = driver
        self.pending_move: tuple[str, int, float] | None = None  # (moves text, move, not before)
        self.turn_started = now
        self._turn_key = ""
        self.heat: HeatData | None = None
        self.heat_moves: str | None = None
        self.exact_cache = ExactCache()
        self.min_bot_delay = MIN_BOT_DELAY
        self._finished_key: tuple[str, str, str, int] | None = None  # the last search that ran to its end
        self.book = BookFacts()  # the opening book's facts about the line, in every mode

    def cancel(self) -> None:
        self.driver.cancel()
        self.pending_move = None

    def forget(self) -> None:
        """A new game: nothing searched so far applies."""
        self.cancel()
        self.heat = self.heat_moves = None
        self._finished_key = None
        self.book.forget()

    def exact_budget(self, session: Session) -> int | None:
        if not self.driver.can_search(session.spec.name, "exact"):
            return None
        return self.exact_cache.next_budget(session.spec.name, session.moves_text)

    def solving_left(self, session: Session) -> int | None:
        """Columns of the shown position the solver is still working on after its first looks, else None."""
        if not self.driver.can_search(session.spec.name, "exact") or session.position.outcome.is_over:
            return None
        return self.exact_cache.in_background(session.spec.name, session.moves_text)

    def stop_solving(self, session: Session) -> None:
        """The player stops the background looks at the shown position."""
        self.exact_cache.stop(session.spec.name, session.moves_text)
        search = self.driver.search
        if search is not None and search.kind == "exact" and search.moves == session.moves_text:
            self.cancel()

    def heat_for(self, session: Session, exact: bool) -> HeatData | None:
        """The heat of the shown position (with the solver's known scores), if any."""
        if self.heat is None or self.heat_moves != session.moves_text or session.position.outcome.is_over:
            return None
        scores = self.exact_cache.get(session.spec.name, session.moves_text)  # (known facts, whatever the toggle)
        return self.heat.with_scores(scores)

    def verdicts(self, session: Session, solving: bool = True) -> dict[int, Verdict] | None:
        """A verdict per legal column of the shown position: the solver's, else "solving…" while the solver
        will look at it (``solving``: not while a bot's search has the engine), else the search's estimate."""
        if session.position.outcome.is_over:
            return None
        scores = self.exact_cache.get(session.spec.name, session.moves_text)
        heat = self.heat_for(session, exact=True)
        verdicts = column_verdicts(
            session.spec,
            session.cursor,
            session.position.legal_moves(),
            scores,
            heat,
            pending=solving and self.exact_budget(session) is not None,
        )
        proven = session.eval_at(session.cursor)
        if proven is None or not proven.exact:
            return verdicts
        mine = PovValue(proven.value, 0).for_player(session.position.to_move)
        return by_elimination(verdicts, {1.0: "win", 0.5: "draw", 0.0: "loss"}.get(mine))

    def bot_iterations(self) -> int | None:
        """Iterations of the bot's running search (None when no bot is searching)."""
        search = self.driver.search
        if search is None or search.kind != "bot" or search.finished:
            return None
        return search.iterations

    # --- each frame ----------------------------------------------------------------------------
    def poll(self, session: Session) -> list[Notice]:
        self.book.fill(session, self.exact_cache)
        notices = []
        for event in self.driver.poll():
            notice = self._on_engine(session, event)
            if notice is not None:
                notices.append(notice)
        return notices

    def _on_engine(self, session: Session, event: EngineEvent) -> Notice | None:
        search, line = event.search, event.line
        if event.kind == "restarted":
            return f"Engine restarted: {event.text or 'it stopped unexpectedly'}", True
        if event.kind == "error":
            text = event.text or "error"
            if search is None or search.failed is None:
                return f"Engine: {text}", True
            if search.kind == "exact":
                return f"No exact verdicts: {text}", True
            if search.kind in ("bot", "solve"):
                return f"The engine cannot search this game ({text}); the bot plays random moves", True
            return f"No analysis for this game: {text}", True
        if search is None or line is None:
            return None
        if isinstance(line, Solution) and search.kind == "exact" and search.game == session.spec.name:
            # exact scores are facts about the searched position, shown now or later (a look ahead)
            self.exact_cache.put(search.game, search.moves, scores_from_solution(session.spec, line), search.time_ms)
        got = absorb(session, search, line)
        if got.heat is not None:
            self.heat, self.heat_moves = got.heat, search.moves
        if got.move is not None and search.kind in ("bot", "solve"):
            self.pending_move = (search.moves, got.move, self.turn_started + self.min_bot_delay)
        return (got.problem, True) if got.problem is not None else None

    def schedule(
        self,
        settings: Settings,
        session: Session,
        caps: GameCapabilities,
        paused: bool,
        step: bool,
        analysis_only: bool,
        now: float,
    ) -> Notice | None:
        """Start, keep or stop the search the shown position needs, then the ponder (thinking on the
        player's time once that search is done): any change of position or setting ends it here."""
        notice = self._schedule_search(settings, session, caps, paused, step, analysis_only, now)
        search = self.driver.search
        busy = (
            analysis_only
            or (search is not None and not search.finished)
            or not self.driver.can_search(session.spec.name, "bot")
        )
        self.driver.keep_ponder(wanted_ponder(settings, session, busy))
        return notice

    def _schedule_search(
        self,
        settings: Settings,
        session: Session,
        caps: GameCapabilities,
        paused: bool,
        step: bool,
        analysis_only: bool,
        now: float,
    ) -> Notice | None:
        s = session
        key = f"{s.spec.name}/{s.moves_text}/{s.at_end}"
        if key != self._turn_key:
            self._turn_key, self.turn_started = key, now
        want = wanted_search(settings, s, paused, step, self.exact_budget(s), analysis_only, caps.exact_solver)
        current = self.driver.search
        if current is not None and current.finished and current.moves == s.moves_text:
            self._finished_key = current.key  # (a look ahead is not the shown position's search)
        served = want is None or (
            want[0] == "analysis"  # (a bot's turn is served by its move; an exact look while the cache asks for one)
            and (want[0], s.spec.name, s.moves_text, want[1]) == self._finished_key
        )
        if served and not analysis_only and self._use_idle_engine(settings, s, caps, want, current):
            return None
        if want is None:
            if current is not None:
                self.cancel()
            return None
        self._start_wanted(settings, s, want, current)
        return None

    def _use_idle_engine(
        self,
        settings: Settings,
        s: Session,
        caps: GameCapabilities,
        want: tuple[SearchKind, int] | None,
        current: Search | None,
    ) -> bool:
        """The shown position has what it needs: look ahead (or back) with the solver. True when that (or the
        finished search itself) settles this frame."""
        ahead = self._look_ahead(settings, s, caps)
        if ahead is not None:
            moves, ply, budget = ahead
            if current is None or current.key != ("exact", s.spec.name, moves, budget):
                self.driver.begin("exact", s.spec.name, moves, ply, budget)
            return True
        if want is not None:  # done, and nothing (more) to look ahead at
            if current is not None and not current.finished and current.moves != s.moves_text:
                self.cancel()  # a look ahead no longer wanted (exact verdicts turned off, say)
            return True
        return False

    def _start_wanted(
        self, settings: Settings, s: Session, want: tuple[SearchKind, int], current: Search | None
    ) -> None:
        """Start the search the shown position wants, unless it runs already or its move is known."""
        kind, budget = want
        if kind == "bot" and budget == 0:  # the Random level needs no engine
            if current is not None:
                self.cancel()
            self._random_move(s, self.min_bot_delay * 1.4)
            return
        level = settings.bots[s.position.to_move].difficulty if kind == "bot" else None
        exact = level.exact if level is not None else True
        if not self.driver.can_search(s.spec.name, kind):
            if current is not None and not current.finished:
                self.driver.cancel()
            if self.driver.unavailable is not None:  # the bot waits (never a silent random move); retried
                return
            if kind in ("bot", "solve"):  # this engine cannot search the game: said in a notice
                self._random_move(s, self.min_bot_delay)
            return
        same = current is not None and current.key == (kind, s.spec.name, s.moves_text, budget)
        if same and not (kind == "exact" and current is not None and current.finished):  # (the next look: same budget)
            return
        if self.pending_move is not None and self.pending_move[0] == s.moves_text and kind in ("bot", "solve"):
            return  # the move is known; waiting for the animation
        self.driver.begin(
            kind, s.spec.name, s.moves_text, s.cursor, budget, exact, level.engine_level if level is not None else None
        )

    def _look_ahead(self, settings: Settings, session: Session, caps: GameCapabilities) -> tuple[str, int, int] | None:
        """(moves, ply, budget) of the position to solve next while the engine has nothing else to do, or None
        (not while the bot thinks on the player's time: it gets the engine).

        With exact verdicts on, the positions one move on (centre first) get the solver's first looks, so that
        the verdicts are there as soon as the move is played. Then, with exact verdicts or the eval bar on, the
        earlier positions of the line that the eval graph has no point for (a restored or loaded game) get
        the same looks, nearest first: their solved scores become the graph's proven points."""
        pos = session.position
        game = session.spec.name
        if not (caps.exact_solver and self.driver.can_search(game, "exact") and (settings.exact or settings.eval_bar)):
            return None
        if pos.outcome.is_over or wanted_ponder(settings, session, False) is not None:
            return None
        centre = (session.spec.width - 1) / 2
        shown = session.line[: session.cursor]
        columns = sorted(pos.legal_moves(), key=lambda m: abs(m - centre))
        ahead = (
            (shown + [move], session.cursor + 1)
            for move in columns
            if settings.exact and not pos.play(move).outcome.is_over
        )
        back = ((session.line[:ply], ply) for ply in range(session.cursor - 1, -1, -1) if session.eval_at(ply) is None)
        for line, ply in itertools.chain(ahead, back):  # (asked every frame: stops at the first one to solve)
            moves = session.spec.moves_to_text(line)
            budget = self.exact_cache.next_budget(game, moves)
            if budget is not None and budget <= AHEAD_MAX_MS:
                return moves, ply, budget
        return None

    def _random_move(self, session: Session, delay: float) -> None:
        if self.pending_move is None or self.pending_move[0] != session.moves_text:
            move = random.choice(session.position.legal_moves())
            self.pending_move = (session.moves_text, move, self.turn_started + delay)

    def due_move(self, settings: Settings, session: Session, held: bool, now: float, animating: bool) -> int | None:
        """The bot's decided move once it is due (``held``: a paused bot-vs-bot game), else None."""
        p = self.pending_move
        if p is None:
            return None
        if p[0] != session.moves_text or not session.at_end or not bot_to_move(settings, session):
            self.pending_move = None
            return None
        if held or now < p[2] or animating:
            return None
        self.pending_move = None
        if self.driver.search is not None and self.driver.search.finished:
            self.driver.search = None
        return p[1]

    def planned(self, session: Session) -> str | None:
        """The move the bot has decided on and will play (in notation), if any."""
        if self.pending_move is not None and self.pending_move[0] == session.moves_text:
            return session.spec.move_to_text(self.pending_move[1])
        return None

    # --- what a screenshot waits for -------------------------------------------------------------
    def missing_analysis(self, settings: Settings, session: Session, caps: GameCapabilities) -> list[str]:
        s = session
        if s.position.outcome.is_over:
            return []
        missing = []
        search = self.driver.search
        heat = self.heat if self.heat_moves == s.moves_text else None
        enough = heat is not None and (
            heat.iterations >= SCREENSHOT_ITERATIONS
            or (search is not None and search.finished and search.moves == s.moves_text)
        )
        if settings.heatmap and not enough:
            missing.append("heatmap")
        if settings.eval_bar and s.eval_at(s.cursor) is None:
            missing.append("eval")
        if (
            settings.exact
            and caps.exact_solver
            and self.exact_budget(s) is not None
            and not self.exact_cache.first_looks_done(s.spec.name, s.moves_text)
        ):
            missing.append("exact verdicts")
        return missing

    def problem(self, game: str) -> str | None:
        if self.driver.unavailable:
            return self.driver.unavailable
        refused = self.driver.refused.get(f"{game}/go")
        return f"the engine cannot search {game}: {refused}" if refused else None
