"""A blocking face of the engine client (``ai.client.engine_client``) for programs without a frame loop: the
terminal client (``game.text``) and the network bot (``ai.cli.net_bot``). They reach the search only
through the engine process, as the app does (doors one way: client -> engine process -> search).

``search`` sends the position and a ``go`` and waits for the engine's lines (``EngineClient.wait_for_reply``:
blocking until a line comes, in slices that keep the client's heartbeat and restarts working) until its
command (``ai.client.commands``) has its ``bestmove``; ``ponder`` thinks on the opponent's
time and ``end_ponder`` ends it with the opponent's move (a hit or a miss, from the engine's ``ponderend``).
Results come back as ``ai.vocab.results.SearchResult`` with moves as the game's move numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ai.client.api import EngineClientProtocol
from ai.client.commands import EngineCommand
from ai.client.engine_client import EngineClient, Limit, default_command
from ai.vocab.results import (
    PROVEN_VALUE,
    BestMove,
    EngineFailed,
    ErrorReply,
    Info,
    MoveStats,
    PonderEnd,
    Reply,
    SearchResult,
)
from game.rules import GameSpec

START_TIMEOUT_S = 120.0  # a first launch compiles; later ones load numba's cache in about a second
SLACK_S = 300.0  # beyond a search's budget (a game being prepared waits first) before giving up
PONDER_END_TIMEOUT_S = 5.0


class EngineUnavailable(Exception):
    """The engine could not start or search; the message is one line."""


class EngineSession:
    def __init__(
        self, *, threads: int | None = None, seed: int | None = None, client: EngineClientProtocol | None = None
    ) -> None:
        command = default_command() + ([] if seed is None else ["--seed", str(seed)])
        self.client: EngineClientProtocol = client or EngineClient(command, threads=threads)
        self.hits = 0
        self.ponders = 0  # ponders ended by the opponent's move (hit or miss)
        self._ponder: EngineCommand | None = None

    def start(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Launch the engine and wait for its ``ready`` line."""
        self.client.start()
        end = time.monotonic() + timeout_s
        self._take(self.client.poll_replies())
        while not self.client.is_ready:
            left = end - time.monotonic()
            if left <= 0:
                raise EngineUnavailable(f"the engine did not start within {timeout_s:g} s")
            self._wait(left)

    def close(self) -> None:
        self.client.close()

    def search(
        self,
        spec: GameSpec,
        moves: str,
        *,
        time_ms: float,
        exact: bool = False,
        level: str | None = None,
        on_info: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Search ``moves`` (the game's notation) for ``time_ms``; ends a ponder first (see ``end_ponder``).
        A ``level`` (ai/search/levels.py) lets the engine choose the move by that level's rule (and its exactness)."""
        self.client.set_position(spec.name, moves)
        self._ponder = None
        self.last_choice: str | None = None  # the level's rule that chose the move: "best", "book", "sampled"
        search = self.client.go(Limit(time_ms=max(1, round(time_ms))), info_ms=100, exact=exact, level=level)
        end = time.monotonic() + time_ms / 1000 + SLACK_S
        while (left := end - time.monotonic()) > 0:
            self._wait(left)
            for reply in search.replies():
                if isinstance(reply, ErrorReply):
                    raise EngineUnavailable(f"the engine cannot search: {reply.message}")
                if isinstance(reply, BestMove):
                    self.last_choice = reply.choice
                    return to_result(spec, reply)
                if isinstance(reply, Info) and on_info is not None:
                    on_info(to_result(spec, reply))
        raise EngineUnavailable(f"no move from the engine within {time_ms / 1000 + SLACK_S:g} s")

    def ponder(self, spec: GameSpec, moves: str, *, exact: bool = False) -> None:
        """Think about ``moves`` (the opponent to move) until ``end_ponder`` or the next ``search``."""
        self.client.set_position(spec.name, moves)
        self._ponder = self.client.ponder(exact=exact)

    def end_ponder(self, spec: GameSpec, moves: str | None) -> PonderEnd | None:
        """End the ponder with the position that follows (``moves``; None: stop, e.g. after an undo)
        and return the engine's report (counted as a hit or a miss when one move was added)."""
        ponder, self._ponder = self._ponder, None
        if ponder is None:
            return None
        if moves is None:
            self.client.stop()
        else:
            self.client.set_position(spec.name, moves)
        end = time.monotonic() + PONDER_END_TIMEOUT_S
        while not ponder.done and (left := end - time.monotonic()) > 0:
            self._wait(left)
        ended = ponder.result()
        return ended if isinstance(ended, PonderEnd) else None

    def _wait(self, timeout: float) -> None:
        """Read the engine's lines, blocking until one comes (``timeout`` seconds at most)."""
        self._take(self.client.wait_for_reply(timeout))

    def _take(self, replies: list[Reply]) -> None:
        for reply in replies:
            if isinstance(reply, EngineFailed):
                raise EngineUnavailable(reply.message)
            if isinstance(reply, PonderEnd) and reply.played is not None:
                self.ponders += 1
                self.hits += reply.hit


def to_result(spec: GameSpec, reply: Info) -> SearchResult:
    """An ``info``/``bestmove`` line as a search result (moves as the game's move numbers)."""
    children = tuple(
        MoveStats(spec.parse_move(c.move), c.visits, c.value, PROVEN_VALUE.get(c.proven or ""), c.score)
        for c in reply.children
    )
    best = reply.move if isinstance(reply, BestMove) else (reply.pv[0] if reply.pv else None)
    best_move = spec.parse_move(best) if best else max(children, key=lambda c: c.visits).move if children else -1
    return SearchResult(
        best_move,
        reply.value,
        children,
        reply.iterations,
        reply.elapsed_ms,
        reply.max_depth,
        tuple(spec.parse_move(m) for m in reply.pv),
        reply.exact,
        PROVEN_VALUE.get(reply.proven or ""),
    )
