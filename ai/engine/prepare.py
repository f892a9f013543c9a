"""The engine's background preparation of compiled code: the current game first, then the others.

One daemon thread calls ``ai.engine.warmup.prepare`` game by game and reports every step; ``prefer``
moves a game to the front (the game of the latest ``position`` or ``prepare`` command), and a
search waits for its game with ``wait_for`` (which a stop request ends). The engine's command
loop never waits for it, so ``isready`` is answered at once while numba compiles.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ai.vocab.results import ErrorReply, Preparing, Reply
from game.rules import get_game
from game.rules.base import GameSpec
from game.rules.errors import GameError

BACKGROUND_GAMES = ("connect4", "tictactoe", "mnk:6x6:4", "gomoku", "uttt")


class Preparer:
    def __init__(self, report: Callable[[Reply], None], games: tuple[str, ...] = BACKGROUND_GAMES) -> None:
        self._report = report
        self._queue: list[str] = []
        for name in games:
            try:
                self._queue.append(get_game(name).name)
            except GameError:
                continue
        self._done: set[str] = set()
        self._failed: dict[str, str] = {}
        self._current: str | None = None
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="prepare", daemon=True)
        self._thread.start()

    def prefer(self, spec: GameSpec) -> None:
        """Prepare ``spec``'s game next (after the step running now)."""
        with self._changed:
            if spec.name in self._queue:
                self._queue.remove(spec.name)
            if spec.name not in self._done and spec.name != self._current:
                self._queue.insert(0, spec.name)
            self._changed.notify_all()

    def is_prepared(self, spec: GameSpec, exact: bool = True) -> bool:
        """True once a search of ``spec`` compiles nothing more; a search that is not ``exact`` needs
        only the game's MCTS code, which is ready before the solver's (see ``ai.engine.warmup``)."""
        from ai.engine import warmup

        with self._changed:
            return spec.name in self._done or (not exact and warmup.prepared(spec, exact=False))

    def wait_for(self, spec: GameSpec, stop: threading.Event, exact: bool = True) -> str | None:
        """Block until ``spec``'s game is prepared for the search (None), it failed (the reason) or
        ``stop`` is set ("stopped"). Starts nothing by itself: call ``prefer`` first."""
        while not self.is_prepared(spec, exact):
            with self._changed:
                if spec.name in self._failed:
                    return self._failed[spec.name]
                if stop.is_set():
                    return "stopped"
                self._changed.wait(0.02)
        return None

    def _next(self) -> str:
        with self._changed:
            if not self._queue and self._done:  # every game ready: a checkout's first launch builds its kernels
                from ai.engine import first_build

                first_build.start(self._report)
            while not self._queue:
                self._changed.wait()
            self._current = self._queue.pop(0)
            return self._current

    def _run(self) -> None:
        from ai.engine import warmup

        while True:
            name = self._next()
            try:
                warmup.prepare(name, lambda p: self._report(Preparing(p.game, p.done, p.total, p.label, p.compiling)))
            except Exception as exc:  # noqa: BLE001 - a game that cannot compile must not stop the others
                words = str(exc).splitlines()[0][:200] if str(exc) else ""
                reason = f"cannot prepare {name}: {type(exc).__name__}: {words}"
                with self._changed:
                    self._failed[name] = reason
                    self._current = None
                    self._changed.notify_all()
                self._report(ErrorReply(reason))  # one line; the engine carries on with the other games
                continue
            with self._changed:
                self._done.add(name)
                self._current = None
                self._changed.notify_all()
