"""The app's side of the engine process: one search at a time, stale lines dropped by id.

The engine adapter: the only UI module that imports the engine client (``ai.client``), so the client's
API is met in one place. No pygame and no waiting: ``poll`` is called once per frame and returns what
arrived. The client is ``ai.client.EngineClient`` (or any object with the same methods, e.g. a fake
in tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ai.client import EngineClient
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
    budget_ms: int
    started: float
    last_info: dict[str, Any] = field(default_factory=dict)
    finished: bool = False
    exact: bool = True  # the go command's "exact" flag
    level: str | None = None  # the go command's playing level (a bot's search)
    failed: str | None = None  # the engine's error for this search (it will never answer)

    @property
    def key(self) -> tuple[SearchKind, str, str, int]:
        return (self.kind, self.game, self.moves, self.budget_ms)

    def elapsed_ms(self, now: float) -> float:
        reported = self.last_info.get("elapsed_ms")
        local = max(0.0, (now - self.started) * 1000)  # (a frame's clock may be read before the search began)
        if isinstance(reported, int | float):
            return max(0.0, float(reported), min(local, self.budget_ms))
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


@dataclass(frozen=True)
class EngineEvent:
    kind: Literal["info", "bestmove", "solution", "restarted", "error"]  # error also covers engine_failed;
    # restarted also covers engine_available
    search: Search | None
    message: dict[str, Any]


def default_client_factory(threads: int | None = None) -> Any:
    """The real engine client; ``threads`` None lets the engine use all cores but one."""
    return EngineClient(threads=threads)


class EngineDriver:
    def __init__(
        self, client_factory: Callable[..., Any] | None = default_client_factory, threads: int | None = None
    ) -> None:
        self._factory = client_factory
        self.threads = threads  # search threads asked for (None: the engine's default)
        self.client: Any = None
        self.search: Search | None = None
        self.unavailable: str | None = None
        # games whose searches the engine refused (e.g. no search kernel yet): game -> message
        self.refused: dict[str, str] = {}
        self.ponder: PonderWant | None = None  # the ponder asked of the engine and not ended since
        self.ponder_ends: list[dict[str, Any]] = []  # the engine's ponderend lines (hit or miss), latest last

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
        except Exception as exc:  # any failure means: play without the engine
            self.unavailable = f"engine unavailable ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
            return False
        self.client = client
        return True

    def set_threads(self, threads: int | None) -> None:
        """Search threads from the next search on (None: the engine's default), kept across restarts."""
        self.threads = threads
        if self.client is not None and threads is not None and hasattr(self.client, "set_threads"):
            try:
                self.client.set_threads(threads)
            except Exception:  # a dead engine is restarted with the setting
                pass

    def view(self) -> EngineView:
        if self.client is None:
            return EngineView("none", self.unavailable or "no engine")
        status = getattr(self.client, "status", None)
        pondering = self.pondering
        if status is None:  # a minimal client (tests): ready or starting
            return EngineView("ready" if self.is_ready else "starting", "", pondering=pondering)
        progress = status.preparing
        fraction = None if progress is None or not progress.total else progress.done / progress.total
        return EngineView(
            status.state,
            status.message,
            fraction,
            bool(progress is not None and progress.compiling),
            status.retry_in_s,
            pondering,
        )

    @property
    def is_ready(self) -> bool:
        try:
            return bool(self.client is not None and self.client.is_ready)
        except Exception:
            return False

    def close(self) -> None:
        if self.client is not None:
            try:
                self.cancel()
                self.client.close()
            except Exception:  # closing must never fail the app
                pass
            self.client = None

    # --- searches --------------------------------------------------------------------------
    def begin(
        self,
        kind: SearchKind,
        game: str,
        moves: str,
        ply: int,
        budget_ms: int,
        exact: bool = True,
        level: str | None = None,
    ) -> Search | None:
        """Cancel any running search and start a new one on ``moves``."""
        if not self.start():
            return None
        self.cancel()
        try:
            self.client.set_position(game, moves)  # ends a ponder (the engine reports a hit or a miss)
            self.ponder = None
            if kind in ("solve", "exact"):
                search_id = self.client.solve(time_ms=budget_ms)
            else:
                search_id = self.client.go(time_ms=budget_ms, info_ms=INFO_MS, exact=exact, level=level)
        except Exception as exc:
            self.unavailable = f"engine failed ({exc})"
            return None
        self.search = Search(search_id, kind, game, moves, ply, budget_ms, time.monotonic(), exact=exact, level=level)
        return self.search

    def can_search(self, game: str, kind: SearchKind) -> bool:
        """False once the engine refused this game's searches (go) or solves in this session."""
        return self.unavailable is None and _refusal_key(game, kind) not in self.refused

    # --- thinking on the player's time ---------------------------------------------------------
    @property
    def pondering(self) -> bool:
        return self.ponder is not None and bool(getattr(self.client, "pondering", True))

    def keep_ponder(self, want: PonderWant | None) -> None:
        """Start, keep or stop the ponder so that it matches ``want`` (called every frame)."""
        if want == self.ponder and (want is None or self.pondering):
            return
        if want is None or (self.search is not None and not self.search.finished):
            self.stop_ponder()
            return
        if not self.start() or not hasattr(self.client, "ponder") or getattr(self.client, "failed", False):
            return  # (an engine that is not available gets no ponder; it is asked again once back)
        try:
            self.client.set_position(want.game, want.moves)
            self.client.ponder(exact=want.exact)
        except Exception:  # a dead engine is restarted; the next frame asks again
            return
        self.ponder = want

    def stop_ponder(self) -> None:
        if self.ponder is None:
            return
        self.ponder = None
        if self.client is not None and getattr(self.client, "pondering", True):
            try:
                self.client.stop()
            except Exception:
                pass

    def cancel(self) -> None:
        """Stop the running search; its late bestmove is ignored by id."""
        if self.search is not None and not self.search.finished and self.client is not None:
            try:
                self.client.stop()
            except Exception:
                pass
        self.search = None

    def poll(self) -> list[EngineEvent]:
        if self.client is None:
            return []
        try:
            messages = self.client.poll()
        except Exception as exc:
            return [EngineEvent("error", None, {"message": f"engine: {exc}"})]
        events = []
        for msg in messages:
            if not isinstance(msg, dict):
                continue
            kind = msg.get("type")
            if kind == "engine_restarted":
                events.append(EngineEvent("restarted", None, msg))
                if "resumed" not in str(msg.get("message", "")):
                    self._restart_search()
            elif kind == "engine_failed":  # the client keeps retrying in the background
                self.unavailable = f"the bot is not available: {msg.get('message', 'the engine keeps stopping')}"
                events.append(EngineEvent("error", self.search, msg))
                self.search = self.ponder = None
            elif kind == "engine_available":  # back by itself: searches resume
                self.unavailable = None
                self.refused.clear()
                events.append(EngineEvent("restarted", None, {"message": "the engine is back"}))
            elif kind == "error":
                s = self.search
                if s is not None and not s.finished and "id" in msg and msg.get("id") == s.id:
                    s.finished = True  # this search will never answer
                    s.failed = str(msg.get("message", "error"))
                    self.refused[_refusal_key(s.game, s.kind)] = s.failed
                    events.append(EngineEvent("error", s, msg))
                elif "id" not in msg or s is None or msg.get("id") == s.id:
                    events.append(EngineEvent("error", s, msg))
            elif kind == "ponderend":
                self.ponder_ends = [*self.ponder_ends[-99:], msg]
            elif kind in ("info", "bestmove", "solution"):
                s = self.search
                if s is None or s.finished or msg.get("id") != s.id:
                    continue  # a stale line of a cancelled search
                s.last_info = msg
                if kind in ("bestmove", "solution"):
                    s.finished = True
                events.append(EngineEvent(kind, s, msg))
        return events

    def _restart_search(self) -> None:
        self.refused.clear()  # a new engine (maybe a new version) gets another chance
        s = self.search
        if s is None or s.finished:
            self.search = None
            return
        self.search = None
        self.begin(s.kind, s.game, s.moves, s.ply, s.budget_ms, s.exact, s.level)


def _refusal_key(game: str, kind: str) -> str:
    return f"{game}/{'solve' if kind in ('solve', 'exact') else 'go'}"
