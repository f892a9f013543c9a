"""Connect 4 puzzles from the solver: positions where exactly one move wins, or only one move holds the draw.

``generate(seed, count)`` is reproducible: positions come from seeded random lines (a player that takes an
immediate win and blocks an immediate threat, otherwise plays at random), every column of each candidate is
scored by the solver (opening book below ply 11) with a node limit, never a time limit, and the table cleared
before each candidate, so the same seed and count give the same file on any machine. A candidate is kept when
its scores are all known and:

* ``win``: exactly one column wins (score > 0), and it does not win at once;
* ``draw``: no column wins and exactly one draws (all others lose);

and not every other column loses at once (a forced block is no puzzle). ``depth`` is how deep the proof
goes, in the solver's stones of the mover: for a win, the stones until the win (``win in N``); for a draw, the
stones until the slowest of the refuted moves loses (the hardest wrong move to see through). Grades:
``easy`` up to 3, ``medium`` up to 8, ``hard`` up to 12, ``expert`` beyond.

``tools/make_puzzles.py`` writes the shipped set (``ai/puzzles.json``); ``ai.vocab.puzzle_set`` reads it (the play
model reads the set without this module's solver).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ai.vocab.puzzle_set import FORMAT as FORMAT
from ai.vocab.puzzle_set import PUZZLE_FILE as PUZZLE_FILE
from ai.vocab.puzzle_set import Puzzle as Puzzle
from ai.vocab.puzzle_set import from_json as from_json
from ai.vocab.puzzle_set import load as load
from ai.vocab.puzzle_set import to_json as to_json
from game.rules import get_game
from game.rules.capabilities import capabilities
from game.rules.connect4 import Connect4Position

MIN_PLY, MAX_PLY = 8, 30
MAX_NODES = 400_000  # solver nodes per candidate (all columns): bounded time, and the same on any machine
GRADES = ((3, "easy"), (8, "medium"), (12, "hard"))  # depth up to this -> grade; deeper: "expert"


def stones_to_end(cells: int, ply: int, score: int) -> int:
    """The mover's stones (this one included) until a game scored ``score != 0`` for the mover at ``ply`` ends."""
    mover_wins = score > 0
    parity = ply % 2 if mover_wins else (ply + 1) % 2
    q = cells + 1 - 2 * abs(score)
    if q % 2 != parity:
        q -= 1
    return (q - ply) // 2 + 1 if mover_wins else (q - ply + 1) // 2


def grade_of(depth: int) -> str:
    return next((name for limit, name in GRADES if depth <= limit), "expert")


def judge(position: Connect4Position, scores: tuple[int | None, ...]) -> tuple[str, int, int] | None:
    """(goal, answer column 0-based, depth) when the scored position is a puzzle, else None."""
    known = {c: s for c, s in enumerate(scores) if s is not None}
    if len(known) < 2:
        return None
    cells = position.spec.width * position.spec.height
    best = max(known.values())
    if best > 0:
        winners = [c for c, s in known.items() if s > 0]
        if len(winners) != 1 or position.play(winners[0]).outcome.is_over:
            return None
        goal, answer, depth = "win", winners[0], stones_to_end(cells, position.ply, best)
    elif best == 0:
        holders = [c for c, s in known.items() if s == 0]
        if len(holders) != 1:
            return None
        wrong = [stones_to_end(cells, position.ply, s) for c, s in known.items() if s < 0]
        goal, answer, depth = "draw", holders[0], max(wrong)
    else:
        return None
    others = [s for c, s in known.items() if c != answer]
    if all(s < 0 and stones_to_end(cells, position.ply, s) == 1 for s in others):
        return None  # every other move lets the opponent win at once: a forced block
    return goal, answer, depth


def random_line(rng: random.Random, plies: int) -> Connect4Position | None:
    """A position after ``plies`` moves of a player that wins when it can, blocks when it must, else plays at
    random; None when the game ended first."""
    position: Connect4Position = get_game("connect4").start()  # type: ignore[assignment]
    while position.ply < plies:
        legal = position.legal_moves()
        if any(position.play(c).outcome.is_over for c in legal):
            return None  # a win on the board: the line is over
        opponent_wins = [c for c in legal if _wins_for_opponent(position, c)]
        choices = opponent_wins if len(opponent_wins) == 1 else list(legal)
        position = position.play(rng.choice(choices))
    return None if position.outcome.is_over else position


def _wins_for_opponent(position: Connect4Position, column: int) -> bool:
    """Whether the opponent would win by playing ``column`` now (so the mover must block it)."""
    mover, mask = position.current ^ position.mask, position.mask  # the opponent's stones
    after = mask | (mask + (1 << (column * (position.spec.height + 1))))
    from ai.vocab.opening_book import has_four

    return capabilities(position.spec).classic and has_four(mover | (after ^ mask))


def generate(seed: int, count: int, *, max_nodes: int = MAX_NODES, solver: Any = None) -> Iterator[Puzzle]:
    """``count`` puzzles from ``seed`` (see the module's docstring), as they are found."""
    from ai.solver.core import Solver

    rng = random.Random(seed)
    solver = solver or Solver(threads=1)
    seen: set[str] = set()
    found = 0
    while found < count:
        position = random_line(rng, rng.randint(MIN_PLY, MAX_PLY))
        if position is None:
            continue
        text = position.to_text()
        mirror = "".join(str(8 - int(ch)) for ch in text)
        if text in seen or mirror in seen:
            continue
        seen.add(text)
        solver.clear()
        result = solver.analyze_columns(position, max_nodes=max_nodes)
        if not result.complete:
            continue
        verdict = judge(position, result.scores)
        if verdict is None:
            continue
        goal, answer, depth = verdict
        found += 1
        yield Puzzle(found, text, position.to_move + 1, goal, str(answer + 1), depth, grade_of(depth), result.scores)
