"""A stand-in for ``ai.client.engine_client.EngineClient`` (held to ``ai.client.api.EngineClientProtocol`` by mypy) and
helpers to build a headless app."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ai.client.api import EngineClientProtocol, Limit
from ai.client.commands import CommandRouter, EngineCommand
from ai.client.status import EngineStatus
from ai.vocab import wire
from ai.vocab.results import Info, Reply, Solution
from game.play.book_facts import BookFacts
from game.play.engine_driver import EngineDriver
from game.play.players import Mode
from game.play.session import Session
from game.play.settings import Settings
from game.rules import get_game
from game.ui import fonts
from game.ui.app_run import create_app
from game.ui.game_app import App


class FakeEngineClient:
    """Answers every ``go`` with info lines and, after ``polls_to_finish`` polls, a bestmove.

    The best move is the first legal move, unless ``prefer`` names one. ``stop`` behaves like the
    real engine: the stopped search still answers with a (stale) bestmove on the next poll.
    """

    def __init__(
        self,
        polls_to_finish: int = 3,
        prefer: list[int] | None = None,
        refuse: tuple[str, ...] = (),
        unanswered: tuple[str, ...] = (),
    ) -> None:
        self.polls_to_finish = polls_to_finish
        self.unanswered = unanswered  # positions whose ``solve`` never answers (a long solve, still running)
        self.prefer = prefer or []
        self.refuse = refuse  # games whose ``go`` gets an error line (like a game without a search kernel)
        self.started = False
        self.closed = False
        self.position: tuple[str, str] = ("connect4", "")
        self.searches: list[dict[str, Any]] = []
        self.stops = 0
        self._next_id = 0
        self._active: dict[str, Any] | None = None
        self._late: list[dict[str, Any]] = []
        self.ponders: list[dict[str, Any]] = []  # every ponder asked for, with what ended it ("ended_by")
        self._ponder: dict[str, Any] | None = None
        self._commands = CommandRouter(pump=self.wait_for_reply)  # like the real client: replies go to commands

    def start(self) -> None:
        self.started = True

    @property
    def is_ready(self) -> bool:
        return self.started

    @property
    def failed(self) -> bool:
        return False

    @property
    def status(self) -> EngineStatus:
        return EngineStatus("ready" if self.is_ready else "starting", "")

    def set_threads(self, threads: int) -> None:
        pass

    def set_position(self, game: str, moves: str) -> None:
        self._end_ponder("position", (game, moves))
        self.position = (game, moves)

    def ponder(self, *, exact: bool = True) -> EngineCommand:
        """Like the engine: ponders the current position until the next command (a ``ponderend`` then)."""
        self._end_ponder("ponder")
        self._next_id += 1
        game, moves = self.position
        self._ponder = {"id": self._next_id, "game": game, "moves": moves, "exact": exact, "ended_by": None}
        self.ponders.append(self._ponder)
        return self._commands.open(self._next_id, "ponder")

    @property
    def pondering(self) -> bool:
        return self._ponder is not None

    def _end_ponder(self, by: str, position: tuple[str, str] | None = None) -> None:
        p, self._ponder = self._ponder, None
        if p is None:
            return
        p["ended_by"] = by
        game, moves = position or self.position
        played = (
            moves[-1]
            if game == p["game"] and len(moves) == len(p["moves"]) + 1 and moves.startswith(p["moves"])
            else None
        )
        predicted = self._best({"pos": get_game(p["game"]).parse_position(p["moves"])})
        predicted_text = get_game(p["game"]).move_to_text(predicted)
        self._late.append(
            {
                "type": "ponderend",
                "id": p["id"],
                "predicted": predicted_text,
                "played": played,
                "hit": played == predicted_text,
                "iterations": 100,
                "elapsed_ms": 10.0,
                "kept_visits": 50 if played == predicted_text else 0,
            }
        )

    def go(self, limit: Limit, *, info_ms: int = 100, exact: bool = True, level: str | None = None) -> EngineCommand:
        time_ms = limit.time_ms
        self._end_ponder("go")
        self._next_id += 1
        game, moves = self.position
        spec = get_game(game)
        pos = spec.parse_position(moves)
        self.searches.append(
            {"id": self._next_id, "game": game, "moves": moves, "time_ms": time_ms, "exact": exact, "level": level}
        )
        if game in self.refuse:
            self._late.append(
                {
                    "type": "error",
                    "id": self._next_id,
                    "message": f"search failed: ValueError: the MCTS search has no kernel for {game!r}",
                }
            )
            return self._commands.open(self._next_id, "go")
        self._active = {"id": self._next_id, "pos": pos, "spec": spec, "polls": 0, "time_ms": time_ms}
        return self._commands.open(self._next_id, "go")

    def solve(self, limit: Limit) -> EngineCommand:
        """Scores every legal column: the preferred one +5, the others -1 (answers on the next poll)."""
        time_ms = limit.time_ms
        self._end_ponder("solve")
        self._next_id += 1
        game, moves = self.position
        spec = get_game(game)
        pos = spec.parse_position(moves)
        best = self._best({"pos": pos})
        children = [{"move": spec.move_to_text(m), "score": 5 if m == best else -1} for m in pos.legal_moves()]
        if moves not in self.unanswered:
            self._late.append(
                {
                    "type": "solution",
                    "id": self._next_id,
                    "score": 5,
                    "children": children,
                    "complete": True,
                    "elapsed_ms": 1,
                }
            )
        self.searches.append({"id": self._next_id, "moves": moves, "solve_ms": time_ms})
        return self._commands.open(self._next_id, "solve")

    def stop(self) -> None:
        self._end_ponder("stop")
        if self._active is not None:
            self.stops += 1
            self._late.append(self._bestmove(self._active))
            self._active = None

    def _best(self, active: dict[str, Any]) -> int:
        legal = active["pos"].legal_moves()
        return next((m for m in self.prefer if m in legal), legal[0])

    def _children(self, active: dict[str, Any]) -> list[dict[str, Any]]:
        spec, best = active["spec"], self._best(active)
        n = 10 * (active["polls"] + 1)
        return [
            {
                "move": spec.move_to_text(m),
                "visits": n * (5 if m == best else 1),
                "value": 0.6 if m == best else 0.4,
                "proven": None,
                "score": None,
            }
            for m in active["pos"].legal_moves()
        ]

    def _info(self, active: dict[str, Any], kind: str = "info") -> dict[str, Any]:
        children = self._children(active)
        return {
            "type": kind,
            "id": active["id"],
            "iterations": sum(c["visits"] for c in children),
            "elapsed_ms": 100 * active["polls"],
            "value": 0.55,
            "max_depth": 3,
            "pv": [],
            "children": children,
            "exact": False,
            "proven": None,
        }

    def _bestmove(self, active: dict[str, Any]) -> dict[str, Any]:
        msg = self._info(active, "bestmove")
        msg["move"] = active["spec"].move_to_text(self._best(active))
        return msg

    def poll(self) -> list[dict[str, Any]]:
        out, self._late = self._late, []
        active = self._active
        if active is not None:
            active["polls"] += 1
            if active["polls"] >= self.polls_to_finish:
                out.append(self._bestmove(active))
                self._active = None
            else:
                out.append(self._info(active))
        return out

    def poll_replies(self) -> list[Reply]:
        replies = [wire.decode(line) for line in self.poll()]
        for reply in replies:
            self._commands.route(reply)
        return replies

    def wait_for_reply(self, timeout: float) -> list[Reply]:
        """One poll: the fake's lines come one step per poll, with no time to wait for."""
        return self.poll_replies()

    def close(self) -> None:
        self.closed = True


def engine_line(kind: str, fields: dict[str, Any]) -> Info | Solution:
    """An engine line (``info``, ``bestmove`` or ``solution``) from the fields a test cares about, the others
    defaulted, read through the wire module as the client reads the engine's lines."""
    children = [
        {"visits": 0, "value": 0.5, "proven": None, "score": None, **c} if kind != "solution" else c
        for c in fields.get("children", [])
    ]
    if kind == "solution":
        base: dict[str, Any] = {"id": 1, "score": None, "complete": True, "elapsed_ms": 0.0}
    else:
        base = {"id": 1, "iterations": 0, "elapsed_ms": 0.0, "value": 0.5, "max_depth": 0, "pv": [], "exact": False}
        base["proven"] = None
    line = wire.decode({**base, **fields, "children": children, "type": kind})
    assert isinstance(line, Info | Solution)
    return line


if TYPE_CHECKING:  # the fake is held to the interface the real client satisfies
    _fake_check: EngineClientProtocol = FakeEngineClient()


def make_test_app(
    game: str = "connect4",
    moves: str = "",
    mode: str = Mode.HOTSEAT,
    client: FakeEngineClient | None = None,
    size: tuple[int, int] = (1000, 700),
    persist: bool = False,
    book: bool = False,
    **settings_kw: Any,
) -> tuple[App, FakeEngineClient]:
    """A headless app on the fake engine (``persist``: it writes its settings and autosave, as the real app;
    ``book``: the app reads the opening book itself, as the real app, instead of leaving every answer to the
    fake engine)."""
    settings_kw.setdefault("eval_bar", False)
    settings = Settings(mode=Mode.parse(mode), window=size, sound=False, **settings_kw)
    fake = client or FakeEngineClient()
    app = create_app(settings, Session.from_text(game, moves), persist=persist, driver=EngineDriver(lambda: fake))
    app.turns.min_bot_delay = 0.0
    if not book:
        app.turns.book = BookFacts(enabled=False)
    return app, fake


def fresh_pygame() -> None:
    """pygame initialised and the font cache emptied (a test that draws text from a clean start)."""
    pygame.init()
    fonts.reset()
