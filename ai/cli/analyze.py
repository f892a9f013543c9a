"""``python main.py analyze MOVES``: search one position (or one per stdin line with MOVES = ``-``).

The engine's searcher (``ai.search.hybrid``): MCTS, with the exact solver beside it on Connect 4 unless
``--no-exact``. ``exact`` in the output is true when the move is proven optimal.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from ai.vocab import limits
from ai.vocab.results import PROVEN_TEXT, SearchResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "moves", metavar="MOVES", help="position in the game's notation ('' = start); '-' = one per stdin line (JSON)"
    )
    parser.add_argument("--game", default="connect4", help="game name (default connect4)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--time-ms", type=float, default=None, help="time budget per position (default 1000)")
    budget.add_argument("--iterations", type=int, default=None, help="iteration budget per position")
    parser.add_argument("--seed", type=int, default=None, help="random seed (same seed + iterations = same result)")
    parser.add_argument("--threads", type=int, default=0, help="search threads (0 = all cores but one)")
    parser.add_argument("--json", action="store_true", help="one JSON object per position")
    parser.add_argument(
        "--exact",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="Connect 4: run the exact solver beside the search (default on)",
    )


def result_to_json(spec: Any, position: Any, result: SearchResult) -> dict[str, Any]:
    text = spec.move_to_text
    return {
        "position": position.to_text(),
        "best_move": text(result.best_move),
        "value": round(result.value, 4),
        "proven": PROVEN_TEXT[result.proven],
        "exact": bool(result.exact),
        "iterations": result.iterations,
        "elapsed_ms": round(result.elapsed_ms, 1),
        "max_depth": result.max_depth,
        "pv": [text(m) for m in result.pv],
        "children": [
            {
                "move": text(c.move),
                "visits": c.visits,
                "value": round(c.value, 4),
                "proven": PROVEN_TEXT[c.proven],
                "score": c.score,
            }
            for c in result.children
        ],
    }


def _print_table(data: dict[str, Any]) -> None:
    print(
        f"position '{data['position']}'  best move {data['best_move']}  value {data['value']:.3f}"
        + (f" (proven {data['proven']})" if data["proven"] else "")
        + (" exact" if data["exact"] else "")
    )
    print(
        f"{data['iterations']:,} iterations in {data['elapsed_ms']:.0f} ms, depth {data['max_depth']}, "
        f"pv {' '.join(data['pv'])}"
    )
    print(f"{'move':>5} {'visits':>10} {'value':>7}  {'proven':<6} score")
    for c in data["children"]:
        score = "" if c["score"] is None else str(c["score"])
        print(f"{c['move']:>5} {c['visits']:>10,} {c['value']:>7.3f}  {c['proven'] or '':<6} {score}")


def run(args: argparse.Namespace) -> int:
    from ai.search.hybrid import HybridSearcher
    from game.rules import get_game
    from game.rules.errors import GameError

    try:
        spec = get_game(args.game)
    except GameError as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2
    problem = _bad_budget(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    time_ms = 1000.0 if args.time_ms is None and args.iterations is None else args.time_ms
    searcher = HybridSearcher(spec, seed=args.seed, threads=args.threads)
    searcher.warm_up()  # load the compiled code before the clock starts

    def analyze(text: str) -> dict[str, Any]:
        position = spec.parse_position(text)
        if position.outcome.is_over:
            raise GameError(f"the game is over after {text.strip()!r}")
        searcher.clear()
        searcher.set_position(position)
        result = searcher.search(time_ms=time_ms, iterations=args.iterations, exact=args.exact)
        return result_to_json(spec, position, result)

    if args.moves != "-":
        try:
            data = analyze(args.moves)
        except GameError as exc:
            print(f"error: {_one_line(exc)}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(data))
        else:
            _print_table(data)
        return 0
    for text, too_long in limits.bounded_lines(sys.stdin.buffer):
        try:
            if too_long:
                raise GameError(f"line too long (more than {limits.MAX_LINE} characters)")
            data = analyze(text)
        except GameError as exc:
            data = {
                "position": limits.excerpt(text)[1:-1] if too_long else text[: limits.MAX_MOVES_TEXT],
                "error": _one_line(exc),
            }
        print(json.dumps(data), flush=True)  # batch mode always writes JSON lines
    return 0


def _bad_budget(args: argparse.Namespace) -> str | None:
    if args.iterations is not None and not 1 <= args.iterations <= limits.MAX_ITERATIONS:
        return f"--iterations must be between 1 and {limits.MAX_ITERATIONS:,}"
    if args.time_ms is not None and not (args.time_ms > 0 and math.isfinite(args.time_ms)):
        return "--time-ms must be a positive finite number"
    if args.time_ms is not None and args.time_ms > limits.MAX_TIME_MS:
        return f"--time-ms must be at most {limits.MAX_TIME_MS} (one hour)"
    if not 0 <= args.threads <= limits.MAX_THREADS:
        return f"--threads must be between 0 (all cores but one) and {limits.MAX_THREADS}, not {args.threads}"
    if args.moves != "-" and len(args.moves) > limits.MAX_MOVES_TEXT:
        return f"MOVES is too long ({len(args.moves)} characters, at most {limits.MAX_MOVES_TEXT})"
    return None


def _one_line(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text if len(text) <= 200 else text[:200] + "…"
