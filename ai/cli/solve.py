"""``python main.py solve MOVES``: exact score of a Connect 4 position and of every column.

Scores follow Pascal Pons' convention (see ``ai.solver.core``): the position's score is for the side
to move, each column's score is for the player who plays it. Exit status 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

from ai.vocab import limits
from game.rules.connect4 import as_connect4_spec
from game.rules.errors import GameError
from game.rules.registry import get_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="?", default="", help="columns played from the empty board, e.g. 4453")
    parser.add_argument("--game", default="connect4", help="connect4 (7x6) or connect4:WxH")
    parser.add_argument(
        "--time-ms",
        type=float,
        default=None,
        help="give up after this long (unknown scores; default and at most one hour)",
    )
    parser.add_argument(
        "--threads", type=int, default=0, help="threads scoring the columns side by side (0 = every core, at most 7)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _fail(message: str) -> int:
    line = message.splitlines()[0] if message else "bad input"
    print(f"error: {line if len(line) <= 200 else line[:200] + '…'}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    if len(args.moves) > limits.MAX_MOVES_TEXT:
        return _fail(f"MOVES is too long ({len(args.moves)} characters, at most {limits.MAX_MOVES_TEXT})")
    if args.time_ms is not None and not (0 <= args.time_ms <= limits.MAX_TIME_MS):  # also rejects NaN
        return _fail(f"--time-ms must be a number from 0 to {limits.MAX_TIME_MS} (one hour)")
    if not 0 <= args.threads <= limits.MAX_THREADS:
        return _fail(f"--threads must be between 0 (every core) and {limits.MAX_THREADS}, not {args.threads}")
    try:
        game = get_game(args.game)
        spec = as_connect4_spec(game)
        if spec is None:
            return _fail(f"the solver only plays Connect 4 (connect4 or connect4:WxH), not {game.name}")
        position = spec.parse_position(args.moves)
    except GameError as exc:
        return _fail(str(exc))
    if position.outcome.is_over:
        return _fail(f"position {position.to_text()!r} is already over")

    from ai.solver.core import analyze_columns, default_threads, warm_up

    warm_up()  # load the compiled code before the clock starts
    result = analyze_columns(
        position,
        time_ms=limits.MAX_TIME_MS if args.time_ms is None else args.time_ms,
        threads=args.threads or default_threads(),
    )
    score = result.best_score
    if args.json:
        columns = [{"move": spec.move_to_text(c), "score": s} for c, s in enumerate(result.scores)]
        print(
            json.dumps(
                {
                    "position": position.to_text(),
                    "score": score,
                    "columns": columns,
                    "complete": result.complete,
                    "elapsed_ms": round(result.elapsed_ms, 3),
                }
            )
        )
        return 0
    shown = "unknown" if score is None else str(score)
    print(
        f"position {position.to_text() or '(start)'}: score {shown} for the side to move"
        f"{'' if result.complete else ' (time limit reached)'}"
    )
    marks = [str(s) if s is not None else ("?" if position.can_play(c) else "-") for c, s in enumerate(result.scores)]
    print("columns: " + " ".join(marks) + "   (1.." + str(spec.width) + "; - full, ? unknown)")
    print(f"solved in {result.elapsed_ms:.1f} ms, {result.nodes} nodes")
    return 0
