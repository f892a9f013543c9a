"""Build the review benchmark's games: whole games between the playing levels, seeded.

    python -m ai.benchmarks.review_games [--seed 39] [--out ai/benchmarks/data/review_games.jsonl]

One game per pair of ``PAIRS`` (first, second), each level with its own seeded choices (``LevelPlayer``, the
engine's rule for a level), plus the 42-ply draws of ``DRAW_OPENINGS``: after the opening, both sides play the
exact best move (book, then solver; ties: centre first), so the game should fill the board (a draw).
One JSON line per game: ``{"first", "second", "moves", "winner"}`` (winner 1 or 2, 0 for a draw).
``python -m ai.benchmarks.review_speed`` reviews them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ai.benchmarks.level_games import LevelPlayer, play_game

PAIRS = (
    ("beginner", "easy"),
    ("easy", "medium"),
    ("medium", "easy"),
    ("medium", "beginner"),
    ("easy", "easy"),
    ("medium", "medium"),
    ("hard", "medium"),
    ("easy", "hard"),
)
DRAW_OPENINGS = ("3", "5")  # a first stone in column 3 or 5 is a draw with best play: a full-board game
DEFAULT_OUT = Path(__file__).parent / "data" / "review_games.jsonl"
MOVE_TIME_MS = 60_000.0  # the levels' caps end their searches; this only guards a stuck search


def perfect_game(opening: str) -> tuple[str, int]:
    """Both sides play the exact best move (centre first among equals) from ``opening`` to the end."""
    from ai.solver.core import Solver, default_threads
    from ai.vocab.opening_book import CENTRE_FIRST, load
    from game.rules import get_game

    book, solver = load(), Solver(threads=default_threads())
    position = get_game("connect4").parse_position(opening)
    while not position.outcome.is_over:
        scores = book.column_scores(position) or solver.analyze_columns(position).scores  # type: ignore[arg-type]
        best = max(s for s in scores if s is not None)
        position = position.play(next(c for c in CENTRE_FIRST if scores[c] == best))
    winner = position.outcome.winner
    return str(position.to_text()), 0 if winner is None else winner + 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    lines = []
    for i, (first, second) in enumerate(PAIRS):
        players = (
            LevelPlayer(first, args.seed * 1000 + 2 * i, MOVE_TIME_MS),
            LevelPlayer(second, args.seed * 1000 + 2 * i + 1, MOVE_TIME_MS),
        )
        try:
            game = play_game(*players)
        finally:
            for player in players:
                player.close()
        winner = 0 if game.winner is None else game.winner + 1
        line = {"first": first, "second": second, "moves": game.moves, "winner": winner}
        print(json.dumps(line), flush=True)
        lines.append(json.dumps(line))
    for opening in DRAW_OPENINGS:
        moves, winner = perfect_game(opening)
        line = {"first": "perfect", "second": "perfect", "opening": opening, "moves": moves, "winner": winner}
        print(json.dumps(line), flush=True)
        lines.append(json.dumps(line))
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} games to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
