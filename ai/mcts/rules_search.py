"""A plain MCTS over the rules themselves, for the games without a compiled kernel (pure Python).

OpenSpiel's ``MCTSBot`` in spirit: a tree of moves asked of the game's own ``legal_moves`` / ``play`` /
``outcome``, UCT selection, one child added per iteration, uniformly random playouts, and MCTS-Solver proofs
of positions whose result is known (a move that ends the game, a position all of whose moves are proven).
It answers with the compiled search's API and its frozen result types (``ai.vocab.results``), so the engine,
the heatmap and the protocol treat it alike. It is a fallback for small boards (a few thousand iterations a
second), not the engine's strength: a family that needs strength brings a kernel (``ai.mcts.games``).

``searcher_for(spec)`` picks the compiled search when ``ai.mcts.games`` has an adapter for the game, else this.
"""

from __future__ import annotations

import math
import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ai.mcts.layout import DRAW, LOSS, UNKNOWN, WIN
from ai.mcts.search import DEFAULT_C, Searcher, _choose, _stats, check_budget, supports
from ai.vocab.results import MoveStats, SearchResult
from game.rules.base import Position, Status

MAX_PV = 64
_FLIP = {WIN: LOSS, LOSS: WIN, DRAW: DRAW, UNKNOWN: UNKNOWN}
_RESULT = {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}


@dataclass(eq=False)
class _Node:
    """A move and what the search knows of it, for the player who made it (``proven``: a layout code)."""

    move: int
    untried: list[int]
    parent: _Node | None = None
    children: list[_Node] = field(default_factory=list)
    visits: int = 0
    total: float = 0.0
    proven: int = UNKNOWN

    def row(self) -> tuple[int, int, float, int]:
        """(move, visits, total, proof code): the compiled search's root-child row."""
        return self.move, self.visits, self.total, self.proven


def _code_of_end(position: Position, mover: int) -> int:
    """The proof code, for ``mover``, of a finished game."""
    outcome = position.outcome
    if outcome.status is Status.DRAW:
        return DRAW
    return WIN if outcome.winner == mover else LOSS


class RulesSearcher:
    """UCT over the rules (see the module's docstring). Not re-entrant; ``stop()`` from any thread."""

    def __init__(
        self,
        spec: Any,
        *,
        seed: int | None = None,
        exploration: float = DEFAULT_C,
        max_nodes: int | None = None,
        threads: int = 1,
        playout: int | None = None,
        expand: int | None = None,
        contempt: float = 0.0,
    ) -> None:
        if not (exploration >= 0 and math.isfinite(exploration)):
            raise ValueError(f"exploration must be a finite number >= 0, not {exploration!r}")
        self.spec = spec
        self.exploration = float(exploration)
        self.threads = 1  # one tree in the calling thread (the rules are Python: threads would not help)
        self.seed = secrets.randbits(63) if seed is None else int(seed)
        self.max_nodes = 200_000 if max_nodes is None else max(1024, int(max_nodes))
        self.contempt = 0.0
        self._rng = random.Random(self.seed)
        self._stop = threading.Event()
        self._nodes = 0
        self._max_depth = 0
        self._position: Position = spec.start()
        self._root = self._new_root()

    # -- the Searcher API -------------------------------------------------------------------
    @property
    def position(self) -> Any:  # (as the compiled Searcher's: the spec's own position class)
        return self._position

    @property
    def root_visits(self) -> int:
        return self._root.visits

    @property
    def nodes_used(self) -> int:
        return self._nodes

    @property
    def pool_full(self) -> bool:
        return self._nodes >= self.max_nodes

    def set_position(self, position: Position) -> None:
        if position.spec != self.spec:
            raise ValueError(f"position of {position.spec.name!r} given to a {self.spec.name!r} searcher")
        self._position = position
        self._root = self._new_root()

    def stop(self) -> None:
        self._stop.set()

    def clear(self) -> None:
        self._rng = random.Random(self.seed)
        self._root = self._new_root()

    def forget(self) -> None:
        self._root = self._new_root()

    def close(self) -> None:
        """Nothing to release (no threads, no compiled code)."""

    def warm_up(self) -> None:
        """Nothing to compile."""

    def mark_root_proofs(self, proofs: dict[int, int]) -> None:
        codes = {1: WIN, 0: DRAW, -1: LOSS}
        for child in self._root.children:
            if child.move in proofs and child.proven == UNKNOWN:
                child.proven = codes[proofs[child.move]]
        self._prove(self._root)

    def search(
        self,
        *,
        time_ms: float | None = None,
        iterations: int | None = None,
        on_info: Callable[[SearchResult], None] | None = None,
        info_ms: float = 100,
        early_stop: bool = True,
        stop_event: threading.Event | None = None,
    ) -> SearchResult:
        """Search the current position within the budget (see ``ai.mcts.Searcher.search``); it ends early when
        the root is proven."""
        check_budget(time_ms, iterations)
        if self._position.outcome.is_over:
            raise ValueError("the game is over: there is nothing to search")
        self._stop.clear()
        start = time.perf_counter()
        deadline = None if time_ms is None else start + time_ms / 1000.0
        next_info = start + info_ms / 1000.0
        done = 0
        while True:
            self._iterate()
            done += 1
            now = time.perf_counter()
            if (
                self._root.proven != UNKNOWN
                or (iterations is not None and done >= iterations)
                or (deadline is not None and now >= deadline)
                or self._stop.is_set()
                or (stop_event is not None and stop_event.is_set())
            ):
                break
            if on_info is not None and now >= next_info:
                on_info(self._result(done, start))
                next_info = now + info_ms / 1000.0
        return self._result(done, start)

    # -- the tree ---------------------------------------------------------------------------
    def _new_root(self) -> _Node:
        self._nodes = 1
        self._max_depth = 0
        root = _Node(-1, self._shuffled(self._position))
        if self._position.outcome.is_over:
            root.untried = []
        return root

    def _shuffled(self, position: Position) -> list[int]:
        moves = list(position.legal_moves())
        self._rng.shuffle(moves)
        return moves

    def _iterate(self) -> None:
        node, position, depth = self._root, self._position, 0
        while node.proven == UNKNOWN and not node.untried and node.children:
            node = self._select(node)
            position = position.play(node.move)
            depth += 1
        if node.proven == UNKNOWN and node.untried and self._nodes < self.max_nodes:
            mover = position.to_move
            move = node.untried.pop()
            position = position.play(move)
            child = _Node(move, [] if position.outcome.is_over else self._shuffled(position), node)
            if position.outcome.is_over:
                child.proven = _code_of_end(position, mover)
            node.children.append(child)
            self._nodes += 1
            node, depth = child, depth + 1
        self._max_depth = max(self._max_depth, depth)
        # the result for the player who made ``node``'s move (the root: for the side not to move)
        proven = node.proven != UNKNOWN
        result = _RESULT[node.proven] if proven else self._playout(position, 1 - position.to_move)
        self._back_up(node, result)
        if node.proven != UNKNOWN and node.parent is not None:
            self._prove(node.parent)

    def _select(self, node: _Node) -> _Node:
        """UCT among the children not proven lost for their mover (all of them when every one is)."""
        open_children = [c for c in node.children if c.proven != LOSS] or node.children
        log_n = math.log(max(1, node.visits))
        best, best_score = open_children[0], -math.inf
        for child in open_children:
            if child.visits == 0:
                return child
            score = child.total / child.visits + self.exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _playout(self, position: Position, mover: int) -> float:
        """A uniformly random game to its end: 1 / 0.5 / 0 for ``mover``."""
        while not position.outcome.is_over:
            moves = position.legal_moves()
            position = position.play(moves[self._rng.randrange(len(moves))])
        return _RESULT[_code_of_end(position, mover)]

    @staticmethod
    def _back_up(node: _Node | None, result: float) -> None:
        while node is not None:
            node.visits += 1
            node.total += result
            result = 1.0 - result
            node = node.parent

    @staticmethod
    def _prove(node: _Node | None) -> None:
        """MCTS-Solver: a node is lost for its mover when a reply wins, else settled once every reply is."""
        while node is not None and node.proven == UNKNOWN:
            codes = [c.proven for c in node.children]
            if WIN in codes:
                node.proven = LOSS
            elif not node.untried and codes and UNKNOWN not in codes:
                node.proven = _FLIP[max(codes, key=lambda code: _RESULT[code])]
            else:
                return
            node = node.parent

    # -- results ----------------------------------------------------------------------------
    def _result(self, iterations: int, start: float) -> SearchResult:
        elapsed = (time.perf_counter() - start) * 1000.0
        # every legal move has a row (the heatmap's numbers): the moves not tried yet with no visits
        rows = [c.row() for c in self._root.children] + [(m, 0, 0.0, UNKNOWN) for m in self._root.untried]
        best = _choose(rows)
        if best is None:
            legal = self._position.legal_moves()
            return SearchResult(legal[0], 0.5, tuple(MoveStats(m, 0, 0.5) for m in legal), iterations, elapsed, 0, ())
        codes = [row[3] for row in rows]
        proven: int | None = None
        if WIN in codes:
            proven = 1
        elif UNKNOWN not in codes:
            proven = max({WIN: 1, DRAW: 0, LOSS: -1}[code] for code in codes)
        best_stats = _stats(best)
        return SearchResult(
            best_move=best[0],
            value={1: 1.0, 0: 0.5, -1: 0.0}[proven] if proven is not None else best_stats.value,
            children=tuple(_stats(row) for row in sorted(rows)),
            iterations=iterations,
            elapsed_ms=elapsed,
            max_depth=self._max_depth,
            pv=self._pv(),
            proven=proven,
        )

    def _pv(self) -> tuple[int, ...]:
        node, pv = self._root, list[int]()
        while node.children and len(pv) < MAX_PV:
            best = _choose([c.row() for c in node.children])
            if best is None or (best[1] == 0 and best[3] == UNKNOWN):
                break
            node = next(c for c in node.children if c.move == best[0])
            pv.append(node.move)
        return tuple(pv)


def searcher_for(spec: Any, **options: Any) -> Searcher | RulesSearcher:
    """The compiled search when a kernel plays ``spec``'s game (``ai.mcts.games``), else the rules-based one."""
    return Searcher(spec, **options) if supports(spec) else RulesSearcher(spec, **options)
