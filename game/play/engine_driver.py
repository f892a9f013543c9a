"""The app's side of the engine process: one search at a time; its lines come through its command (a cancelled
search's late lines stay in its own command, dropped with it).

The engine adapter: the only play-model module that imports the engine client (``ai.client.engine_client``), so the
client's API is met in one place. No pygame and no waiting: ``poll`` is called once per frame and returns
what arrived, typed (``ai.vocab.results``). The client is anything that satisfies
``ai.client.api.EngineClientProtocol``: ``ai.client.engine_client.EngineClient``, or a fake in tests. The client's
failures are the ``CLIENT_ERRORS`` it may raise; they leave the app running without the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ai.client.api import CLIENT_ERRORS, EngineClientProtocol, Limit
from ai.client.commands import EngineCommand
from ai.client.engine_client import EngineClient
from ai.vocab.results import (
    BestMove,
    EngineAvailable,
    EngineFailed,
    EngineRestarted,
    ErrorReply,
    Info,
    PonderEnd,
    Solution,
)
from game.play.pondering import PonderWant

SearchKind = Literal["bot", "analysis", "solve", "exact"]  # "solve"/"exact" use the solve command
INFO_MS = 100


@dataclass
class Search:
    id: int
    kind: SearchKind
    game: str
    moves: str  # the root position in notation
    ply: int
    time_ms: int  # the search's time budget (see ai.client.api)
    started: float
    last_info: Info | Solution | None = None  # the search's latest line
    finished: bool = False
    exact: bool = True  # the go command's "exact" flag
    level: str | None = None  # the go command's playing level (a bot's search)
    failed: str | None = None  # the engine's error for this search (it will never answer)
    command: EngineCommand | None = None  # the client's command: this search's lines (``ai.client.commands``)

    @property
    def key(self) -> tuple[SearchKind, str, str, int]:
        return (self.kind, self.game, self.moves, self.time_ms)

    @property
    def iterations(self) -> int:
        """Iterations the search reported so far (0 before its first line, and for a solve)."""
        return self.last_info.iterations if isinstance(self.last_info, Info) else 0

    def elapsed_ms(self, now: float) -> float:
        local = max(0.0, (now - self.started) * 1000)  # (a frame's clock may be read before the search began)
        if self.last_info is not None:
            return max(0.0, self.last_info.elapsed_ms, min(local, self.time_ms))
        return local


@dataclass(frozen=True)
class EngineView:
    """What the status line says about the engine itself (from the client's ``EngineStatus``):
    ``state`` is "starting", "preparing", "ready", "restarting", "unavailable", "closed" or "none"
    (no engine at all); ``fraction`` is the real share of compile steps done while preparing, and
    ``first_launch`` says that numba is compiling (not just loading its cache)."""

    state: str
    message: str
    fraction: float | None = None
    first_launch: bool = False
    retry_in_s: float | None = None
    pondering: bool = False  # the bot thinks on the player's time
    building_kernels: bool = False  # a checkout's first launch compiles the kernels for later starts


SearchLine = Info | Solution  # an info, bestmove (an Info) or solution line of the running search


@dataclass(frozen=True)
class EngineEvent:
    """``kind`` "info", "bestmove" or "solution" carries the search's ``line``; "error" (also the engine
    not being available) and "restarted" (also the engine being back) carry a one-line ``text``."""

    kind: Literal["info", "bestmove", "solution", "restarted", "error"]
    search: Search | None
    text: str = ""
    line: SearchLine | None = None


ClientFactory = Callable[..., EngineClientProtocol]  # called with the thread count, or with nothing


def default_client_factory(threads: int | None = None) -> EngineClientProtocol:
    """The real engine client; ``threads`` None lets the engine use all cores but one."""
    return EngineClient(threads=threads)


class EngineDriver:
    def __init__(
        self, client_factory: ClientFactory | None = default_client_factory, threads: int | None = None
    ) -> None:
        self._factory = client_factory
        self.threads = threads  # search threads asked for (None: the engine's default)
        self.client: EngineClientProtocol | None = None
        self.search: Search | None = None
        self.unavailable: str | None = None
        # games whose searches the engine refused (e.g. no search kernel yet): game -> message
        self.refused: dict[str, str] = {}
        self.ponder: PonderWant | None = None  # the ponder asked of the engine and not ended since
        self.ponder_ends: list[PonderEnd] = []  # the engine's ponderend lines (hit or miss), latest last
        self._ponder_command: EngineCommand | None = None  # the client's command of that ponder

    # --- lifetime --------------------------------------------------------------------------
    def start(self) -> bool:
        """Spawn the engine (non-blocking); False with ``unavailable`` set when it cannot be."""
        if self.client is not None:
            return True
        if self.unavailable is not None:
            return False
        if self._factory is None:
            self.unavailable = "no engine"
            return False
        try:
            client = self._factory(self.threads) if self.threads is not None else self._factory()
            client.start()
        except CLIENT_ERRORS as exc:  # the engine cannot be started: play without it
            self.unavailable = f"engine unavailable ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
            return False
        self.client = client
        return True

    def set_threads(self, threads: int | None) -> None:
        """Search threads from the next search on (None: the engine's default), kept across restarts."""
        self.threads = threads
        if self.client is not None and threads is not None:
            try:
                self.client.set_threads(threads)
            except CLIENT_ERRORS:  # a dead engine is restarted with the setting
                pass

    def view(self) -> EngineView:
        if self.client is None:
            return EngineView("none", self.unavailable or "no engine")
        status = self.client.status
        pondering = self.pondering
        progress = status.preparing
        fraction = None if progress is None or not progress.total else progress.done / progress.total
        return EngineView(
            status.state,
            status.message,
            fraction,
            bool(progress is not None and progress.compiling),
            status.retry_in_s,
            pondering,
            bool(status.kernels is not None and status.kernels.running),
        )

    @property
    def is_ready(self) -> bool:
        return self.client is not None and self.client.is_ready

    def close(self) -> None:
        if self.client is not None:
            try:
                self.cancel()
                self.client.close()
            except CLIENT_ERRORS:  # closing must never fail the app
                pass
            self.client = None

    # --- searches --------------------------------------------------------------------------
    def begin(
        self,
        kind: SearchKind,
        game: str,
        moves: str,
        ply: int,
        time_ms: int,
        exact: bool = True,
        level: str | None = None,
    ) -> Search | None:
        """Cancel any running search and start a new one on ``moves`` for ``time_ms``."""
        if not self.start() or self.client is None:
            return None
        self.cancel()
        try:
            self.client.set_position(game, moves)  # ends a ponder (the engine reports a hit or a miss)
            self.ponder = None
            if kind in ("solve", "exact"):
                command = self.client.solve(Limit(time_ms=time_ms))
            else:
                command = self.client.go(Limit(time_ms=time_ms), info_ms=INFO_MS, exact=exact, level=level)
        except CLIENT_ERRORS as exc:
            self.unavailable = f"engine failed ({exc})"
            return None
        self.search = Search(
            command.id, kind, game, moves, ply, time_ms, time.monotonic(), exact=exact, level=level, command=command
        )
        return self.search

    def can_search(self, game: str, kind: SearchKind) -> bool:
        """False once the engine refused this game's searches (go) or solves in this session."""
        return self.unavailable is None and _refusal_key(game, kind) not in self.refused

    # --- thinking on the player's time ---------------------------------------------------------
    @property
    def pondering(self) -> bool:
        return self.ponder is not None and self.client is not None and self.client.pondering

    def keep_ponder(self, want: PonderWant | None) -> None:
        """Start, keep or stop the ponder so that it matches ``want`` (called every frame)."""
        if want == self.ponder and (want is None or self.pondering):
            return
        if want is None or (self.search is not None and not self.search.finished):
            self.stop_ponder()
            return
        if not self.start() or self.client is None or self.client.failed:
            return  # (an engine that is not available gets no ponder; it is asked again once back)
        try:
            self.client.set_position(want.game, want.moves)
            self._ponder_command = self.client.ponder(exact=want.exact)
        except CLIENT_ERRORS:  # a dead engine is restarted; the next frame asks again
            return
        self.ponder = want

    def stop_ponder(self) -> None:
        if self.ponder is None:
            return
        self.ponder = None
        if self.client is not None and self.client.pondering:
            try:
                self.client.stop()
            except CLIENT_ERRORS:
                pass

    def cancel(self) -> None:
        """Stop the running search; its late bestmove goes to its own command, which nobody reads."""
        if self.search is not None and not self.search.finished and self.client is not None:
            try:
                self.client.stop()
            except CLIENT_ERRORS:
                pass
        self.search = None

    def poll(self) -> list[EngineEvent]:
        if self.client is None:
            return []
        try:
            replies = self.client.poll_replies()
        except CLIENT_ERRORS as exc:
            return [EngineEvent("error", None, f"engine: {exc}")]
        # the running search's lines (the replies were handed to their commands by now); not when the engine
        # failed: then the client ended every command with an error that is no refusal of this search
        failed = any(isinstance(reply, EngineFailed) for reply in replies)
        events = [] if failed else self._search_events(self.search)
        ponder = self._ponder_command
        if ponder is not None and ponder.done:  # its ponderend is in ``replies`` too (the pondering record)
            self._ponder_command = None
            ended = ponder.result()
            if isinstance(ended, ErrorReply) and not failed:
                events.append(EngineEvent("error", self.search, ended.message))
        for reply in replies:
            s = self.search
            if isinstance(reply, EngineRestarted):
                events.append(EngineEvent("restarted", None, reply.message))
                if not reply.resumed:
                    self._restart_search()
            elif isinstance(reply, EngineFailed):  # the client keeps retrying in the background
                self.unavailable = f"the bot is not available: {reply.message}"
                events.append(EngineEvent("error", s, reply.message))
                self.search = self.ponder = None
            elif isinstance(reply, EngineAvailable):  # back by itself: searches resume
                self.unavailable = None
                self.refused.clear()
                events.append(EngineEvent("restarted", None, "the engine is back"))
            elif isinstance(reply, ErrorReply) and reply.id is None:  # an error of no command
                events.append(EngineEvent("error", s, reply.message))
            elif isinstance(reply, PonderEnd):
                self.ponder_ends = [*self.ponder_ends[-99:], reply]
        return events

    def _search_events(self, s: Search | None) -> list[EngineEvent]:
        """The running search's new lines (from its command) as events."""
        if s is None or s.command is None:
            return []
        events = []
        for reply in s.command.replies():
            if s.finished:
                break
            if isinstance(reply, ErrorReply):
                s.finished = True  # this search will never answer
                s.failed = reply.message
                self.refused[_refusal_key(s.game, s.kind)] = s.failed
                events.append(EngineEvent("error", s, reply.message))
            elif isinstance(reply, Info | Solution):
                s.last_info = reply
                kind: Literal["info", "bestmove", "solution"] = (
                    "bestmove" if isinstance(reply, BestMove) else "solution" if isinstance(reply, Solution) else "info"
                )
                if kind != "info":
                    s.finished = True
                events.append(EngineEvent(kind, s, line=reply))
        return events

    def _restart_search(self) -> None:
        self.refused.clear()  # a new engine (maybe a new version) gets another chance
        s = self.search
        if s is None or s.finished:
            self.search = None
            return
        self.search = None
        self.begin(s.kind, s.game, s.moves, s.ply, s.time_ms, s.exact, s.level)


def _refusal_key(game: str, kind: str) -> str:
    return f"{game}/{'solve' if kind in ('solve', 'exact') else 'go'}"
