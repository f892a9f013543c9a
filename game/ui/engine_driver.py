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
    failed: str | None = None  # the engine's error for this search (it will never answer)

    @property
    def key(self) -> tuple[SearchKind, str, str, int]:
        return (self.kind, self.game, self.moves, self.budget_ms)

    def elapsed_ms(self, now: float) -> float:
        reported = self.last_info.get("elapsed_ms")
        local = (now - self.started) * 1000
        if isinstance(reported, int | float):
            return max(float(reported), min(local, self.budget_ms))
        return local


@dataclass(frozen=True)
class EngineEvent:
    kind: Literal["info", "bestmove", "solution", "restarted", "error"]  # error also covers engine_failed
    search: Search | None
    message: dict[str, Any]


def default_client_factory() -> Any:
    return EngineClient()


class EngineDriver:
    def __init__(self, client_factory: Callable[[], Any] | None = default_client_factory) -> None:
        self._factory = client_factory
        self.client: Any = None
        self.search: Search | None = None
        self.unavailable: str | None = None
        # games whose searches the engine refused (e.g. no search kernel yet): game -> message
        self.refused: dict[str, str] = {}

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
            client = self._factory()
            client.start()
        except Exception as exc:  # any failure means: play without the engine
            self.unavailable = f"engine unavailable ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
            return False
        self.client = client
        return True

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
        self, kind: SearchKind, game: str, moves: str, ply: int, budget_ms: int, exact: bool = True
    ) -> Search | None:
        """Cancel any running search and start a new one on ``moves``."""
        if not self.start():
            return None
        self.cancel()
        try:
            self.client.set_position(game, moves)
            if kind in ("solve", "exact"):
                search_id = self.client.solve(time_ms=budget_ms)
            else:
                search_id = self.client.go(time_ms=budget_ms, info_ms=INFO_MS, exact=exact)
        except Exception as exc:
            self.unavailable = f"engine failed ({exc})"
            return None
        self.search = Search(search_id, kind, game, moves, ply, budget_ms, time.monotonic(), exact=exact)
        return self.search

    def can_search(self, game: str, kind: SearchKind) -> bool:
        """False once the engine refused this game's searches (go) or solves in this session."""
        return self.unavailable is None and _refusal_key(game, kind) not in self.refused

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
            elif kind == "engine_failed":
                self.unavailable = f"engine failed: {msg.get('message', 'it keeps stopping')}"
                events.append(EngineEvent("error", self.search, msg))
                self.search = None
            elif kind == "error":
                s = self.search
                if s is not None and not s.finished and "id" in msg and msg.get("id") == s.id:
                    s.finished = True  # this search will never answer
                    s.failed = str(msg.get("message", "error"))
                    self.refused[_refusal_key(s.game, s.kind)] = s.failed
                    events.append(EngineEvent("error", s, msg))
                elif "id" not in msg or s is None or msg.get("id") == s.id:
                    events.append(EngineEvent("error", s, msg))
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
        self.begin(s.kind, s.game, s.moves, s.ply, s.budget_ms, s.exact)


def _refusal_key(game: str, kind: str) -> str:
    return f"{game}/{'solve' if kind in ('solve', 'exact') else 'go'}"
