"""``python main.py piskvork``: our Gomoku engine under the Piskvork / Gomocup protocol (stdin/stdout).

Commands (one per line, answered on stdout): ``START N`` (``OK`` for boards 5-19, else ``ERROR``),
``RECTSTART W,H``, ``RESTART``, ``BEGIN``, ``TURN x,y``, ``BOARD`` ... ``DONE``, ``TAKEBACK x,y``,
``INFO key value`` (``timeout_turn``, ``timeout_match``, ``time_left``, ``max_memory``, ``rule``),
``ABOUT``, ``END``. ``x`` is the column and ``y`` the row from the top, both 0-based.

Rules: freestyle (five or more in a row wins) is played. ``INFO rule`` with "exactly five" (1),
renju (4) or caro (8) is refused with an ``ERROR`` line, and so is every move request until a
freestyle rule is set again; "continuous game" (2) only concerns the manager and is accepted.

Time: each move gets ``min(timeout_turn, time_left / MOVES_LEFT_SHARE)`` less a safety margin
(5% and 25 ms kept back; ``timeout_turn`` 0 means "as fast as possible"); the clock starts when the command is read.
On a busy machine the reply can still come later than aimed (the process waits for a CPU): the
largest such overshoot of the last few moves is kept back from the next budgets as well.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from ai.vocab.limits import MAX_LINE, MAX_NODES_RANGE
from game.rules.errors import GameError
from game.rules.mnk import MnkSpec

K = 5
MIN_SIDE, MAX_SIDE = 5, 19
MARGIN_MS = 25  # kept back from every budget (plus MARGIN_SHARE of it): reply, re-rooting, the manager's timing
MARGIN_SHARE = 0.05
MIN_BUDGET_MS = 5
MOVES_LEFT_SHARE = 20  # a move may use time_left / this
OVERSHOOT_MOVES = 8  # the overshoots remembered (a busy spell passes: older ones are forgotten)
MAX_OVERSHOOT_SHARE = 0.5  # never keep back more than this share of a budget for them
PROVEN = " (proven: a forced line was found)"  # in the MESSAGE after a move
UNSUPPORTED_RULES = {1: "exactly five", 4: "renju", 8: "caro"}
NODE_BYTES = 29  # ai.mcts.tree.NODE_BYTES
MEMORY_SHARE = 0.6  # of max_memory for the tree (the rest: the process, numba, the solver)
MACHINE_SHARE = 0.5  # at most this share of the machine's memory, whatever max_memory says
ABOUT = 'name="connect4-mcts gomoku", version="1.0", author="connect4-mcts team", country="-"'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, default=1, help="search threads (default 1, as Gomocup expects)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the search")


@dataclass(frozen=True)
class Reply:
    """One line for the manager."""

    text: str


@dataclass
class Settings:
    timeout_turn_ms: int = 30_000
    timeout_match_ms: int = 0  # 0: no match limit
    time_left_ms: int | None = None
    max_memory: int = 0  # bytes, 0: no limit
    rule: int = 0


class Brain:
    def __init__(self, threads: int = 1, seed: int | None = None) -> None:
        self.threads = threads
        self.seed = seed
        self.settings = Settings()
        self.spec: MnkSpec | None = None
        self.position: Any = None
        self.searcher: Any = None
        self.board_lines: list[tuple[int, int]] | None = None  # collecting BOARD ... DONE
        self.overshoots_ms: collections.deque[float] = collections.deque(maxlen=OVERSHOOT_MOVES)

    # -- commands -------------------------------------------------------------------------------------
    def handle(self, line: str, received: float) -> list[Reply]:
        """The replies to one manager line (``received`` = perf_counter when it was read)."""
        text = line.strip()
        if not text:
            return []
        if self.board_lines is not None:
            return self._board_line(text, received)
        command, _, rest = text.partition(" ")
        command = command.upper()
        try:
            if command == "START":
                return [self._start(rest.strip(), rest.strip())]
            if command == "RECTSTART":
                width, _, height = rest.partition(",")
                return [self._start(width.strip(), height.strip())]
            if command == "INFO":
                return self._info(rest)
            if command == "ABOUT":
                return [Reply(ABOUT)]
            if command == "END":
                raise SystemExit(0)
            if self.spec is None:
                return [Reply(f"ERROR {command} before START")]
            if command == "RESTART":
                self.position = self.spec.start()
                return [Reply("OK")]
            if command == "BEGIN":
                if self.position.ply:  # BEGIN is the first move of a game: not a second stone
                    return [Reply("ERROR BEGIN on a board that is not empty (RESTART first)")]
                return self._move(received)
            if command == "TURN":
                refused = self._refused_rule()
                if refused:  # the stone is not taken either: the manager must set a rule we play first
                    return [Reply(f"ERROR {refused}")]
                self.position = self.position.play(self._cell(rest))
                return self._move(received)
            if command == "TAKEBACK":
                return [self._takeback(self._cell(rest))]
            if command == "BOARD":
                self.board_lines = []
                return []
        except (GameError, ValueError) as exc:
            return [Reply(f"ERROR {str(exc).splitlines()[0]}")]
        return [Reply(f"UNKNOWN command {command}")]

    def _start(self, width: str, height: str) -> Reply:
        if not (width.isdigit() and height.isdigit()):
            return Reply("ERROR START needs a board size, e.g. START 15")
        w, h = int(width), int(height)
        if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
            return Reply(f"ERROR unsupported board size {w}x{h}: {MIN_SIDE}-{MAX_SIDE} per side")
        from ai.mcts import Searcher

        self.spec = MnkSpec(w, h, K)
        self.position = self.spec.start()
        max_nodes = node_budget(self.settings.max_memory)
        if self.searcher is not None:
            self.searcher.close()
        try:
            self.searcher = Searcher(self.spec, seed=self.seed, threads=self.threads, max_nodes=max_nodes)
        except (MemoryError, OSError):  # the machine cannot give that much after all: the default tree
            self.searcher = Searcher(self.spec, seed=self.seed, threads=self.threads)
        self.searcher.warm_up()
        return Reply("OK")

    def _info(self, rest: str) -> list[Reply]:
        key, _, value = rest.strip().partition(" ")
        key = key.lower()
        number = int(value) if value.strip().lstrip("-").isdigit() else None
        if key == "timeout_turn" and number is not None:
            self.settings.timeout_turn_ms = max(0, number)
        elif key == "timeout_match" and number is not None:
            self.settings.timeout_match_ms = max(0, number)
        elif key == "time_left" and number is not None:
            self.settings.time_left_ms = number
        elif key == "max_memory" and number is not None:
            self.settings.max_memory = max(0, number)
        elif key == "rule" and number is not None:
            self.settings.rule = number
            refused = self._refused_rule()
            if refused:
                return [Reply(f"ERROR {refused}")]
        return []  # other INFO keys (game_type, evaluate, folder) need no answer

    def _refused_rule(self) -> str | None:
        names = [name for bit, name in UNSUPPORTED_RULES.items() if self.settings.rule & bit]
        if names:
            return f"rule {self.settings.rule} ({', '.join(names)}) is not supported: freestyle only"
        return None

    def _cell(self, text: str) -> int:
        assert self.spec is not None
        parts = [p.strip() for p in text.split(",")]
        if len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
            raise ValueError(f"expected x,y, got {text.strip()!r}")
        x, y = int(parts[0]), int(parts[1])
        if not (0 <= x < self.spec.width and 0 <= y < self.spec.height):
            raise ValueError(f"{x},{y} is off the {self.spec.width}x{self.spec.height} board")
        return (self.spec.height - 1 - y) * self.spec.width + x

    def _xy(self, cell: int) -> str:
        assert self.spec is not None
        row, col = divmod(cell, self.spec.width)
        return f"{col},{self.spec.height - 1 - row}"

    def _takeback(self, cell: int) -> Reply:
        history = list(self.position.history)
        if cell not in history:
            return Reply(f"ERROR {self._xy(cell)} is empty")
        history.remove(cell)
        self.position = self._replay(history)
        return Reply("OK")

    def _replay(self, moves: list[int]) -> Any:
        assert self.spec is not None
        position = self.spec.start()
        for move in moves:
            position = position.play(move)
        return position

    def _board_line(self, text: str, received: float) -> list[Reply]:
        assert self.board_lines is not None
        if text.upper() == "DONE":
            lines, self.board_lines = self.board_lines, None
            try:
                self.position = self._board_position(lines)
            except (GameError, ValueError) as exc:
                return [Reply(f"ERROR {str(exc).splitlines()[0]}")]
            return self._move(received)
        parts = text.split(",")
        try:
            cell = self._cell(text)
            owner = int(parts[2])
        except (ValueError, IndexError):
            return [Reply(f"ERROR bad BOARD line {text!r}: expected x,y,field")]
        self.board_lines.append((cell, owner))
        return []

    def _board_position(self, lines: list[tuple[int, int]]) -> Any:
        """Stones in BOARD order: 1 ours, 2 the opponent's (3: a continuous game's, counted as the
        opponent's). We are to move, so the opponent has as many stones as we do, or one more."""
        own = [cell for cell, owner in lines if owner == 1]
        theirs = [cell for cell, owner in lines if owner != 1]
        if len(theirs) not in (len(own), len(own) + 1):
            raise ValueError(f"BOARD has {len(own)} of our stones and {len(theirs)} of theirs: not our turn")
        first, second = (theirs, own) if len(theirs) > len(own) else (own, theirs)
        moves = [m for pair in zip(first, second + [-1], strict=False) for m in pair if m != -1]
        return self._replay(moves)

    # -- thinking -------------------------------------------------------------------------------------
    def budget_ms(self) -> float:
        s = self.settings
        turn = float(s.timeout_turn_ms) if s.timeout_turn_ms > 0 else float(MIN_BUDGET_MS + MARGIN_MS)
        if s.timeout_match_ms > 0:
            left = s.time_left_ms if s.time_left_ms is not None else s.timeout_match_ms
            turn = min(turn, max(0.0, left) / MOVES_LEFT_SHARE)
        budget = turn * (1 - MARGIN_SHARE) - MARGIN_MS
        late = min(max(self.overshoots_ms, default=0.0), budget * MAX_OVERSHOOT_SHARE)
        return max(MIN_BUDGET_MS, budget - max(0.0, late))

    def _move(self, received: float) -> list[Reply]:
        refused = self._refused_rule()
        if refused:
            return [Reply(f"ERROR {refused}")]
        if self.position.outcome.is_over:
            return [Reply("ERROR the game is over")]
        budget = self.budget_ms()
        self.searcher.set_position(self.position)  # re-rooting the kept tree takes time too: count it
        spent = (time.perf_counter() - received) * 1000
        result = self.searcher.search(time_ms=max(1.0, budget - spent))
        self.position = self.position.play(result.best_move)
        used = (time.perf_counter() - received) * 1000
        self.overshoots_ms.append(used - budget)
        return [
            Reply(
                f"MESSAGE win chance {result.value:.0%}{PROVEN if result.proven is not None else ''}, "
                f"{result.iterations} iterations, {used:.0f} ms"
            ),
            Reply(self._xy(result.best_move)),
        ]


def node_budget(max_memory: int) -> int | None:
    """The tree's nodes for ``max_memory`` bytes (0: no limit, None), capped at what the machine has."""
    if max_memory <= 0:
        return None
    nodes = int(max_memory * MEMORY_SHARE) // NODE_BYTES
    return max(100_000, min(nodes, machine_nodes(), MAX_NODES_RANGE[1]))


def machine_nodes() -> int:
    """The most nodes that fit in ``MACHINE_SHARE`` of this machine's memory (a large guess if unknown)."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system
        return MAX_NODES_RANGE[1] // 8
    return int(memory * MACHINE_SHARE) // NODE_BYTES


def read_lines(stdin: IO[str]) -> Iterator[str]:
    """The manager's lines; a line longer than ``MAX_LINE`` characters is read to its end in pieces
    (never held whole) and given as ``TOO_LONG``."""
    while True:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) <= MAX_LINE or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):
            line = stdin.readline(MAX_LINE)
        yield TOO_LONG


TOO_LONG = "\0too long"  # no manager line holds a NUL


def serve(brain: Brain, stdin: IO[str], stdout: IO[str]) -> int:
    for line in read_lines(stdin):
        received = time.perf_counter()
        if line is TOO_LONG:
            stdout.write(f"ERROR line too long (more than {MAX_LINE} characters)\n")
            stdout.flush()
            continue
        try:
            replies = brain.handle(line, received)
        except SystemExit:
            return 0
        for reply in replies:
            stdout.write(reply.text + "\n")
        stdout.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    if args.threads < 1:
        print("error: --threads must be at least 1", file=sys.stderr)
        return 2
    brain = Brain(threads=args.threads, seed=args.seed)
    try:
        return serve(brain, sys.stdin, sys.stdout)
    finally:
        if brain.searcher is not None:
            brain.searcher.close()
