"""Build ai/opening_book.json: for the first plies of 7x6 Connect 4, the game result and a move
that keeps it, proved by our own solver (weak win/draw/loss searches; slow: minutes per entry).

    python tools/make_opening_book.py [--plies 1] [--positions 41 42 ...] [--tt-bits 24] [--out FILE]

Only positions whose mirror image is not already in the book are searched; the engine mirrors
on lookup. ``python -m ai.benchmarks.verify_book`` re-proves the entries.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.solver import Solver  # noqa: E402
from game import get_game  # noqa: E402
from game.connect4 import Connect4Position  # noqa: E402

RESULTS = {1: "win", 0: "draw", -1: "loss"}


def weak_result(solver: Solver, position: Connect4Position) -> int:
    lo, hi = solver.bounds(position, -1, 1)  # type: ignore[misc]
    if lo >= 1:
        return 1
    if hi <= -1:
        return -1
    return 0


def keeping_move(solver: Solver, position: Connect4Position, result: int) -> int:
    """A column whose resulting position has the opposite result for the opponent."""
    hint = solver.table_move(position)
    order = ([hint] if hint is not None else []) + [c for c in (3, 2, 4, 1, 5, 0, 6) if c != hint]
    for col in order:
        if col in position.legal_moves() and -weak_result(solver, position.play(col)) == result:
            return col
    raise RuntimeError(f"no move keeps the result of {position.to_text()!r}")


def mirror(text: str, width: int = 7) -> str:
    return "".join(str(width + 1 - int(ch)) for ch in text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=1, help="book every position up to this many plies")
    parser.add_argument("--tt-bits", type=int, default=24)
    parser.add_argument("--positions", nargs="*", default=None,
                        help="book exactly these positions (move strings) instead of every position")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "ai" / "opening_book.json"))
    args = parser.parse_args()
    spec = get_game("connect4")
    solver = Solver(tt_bits=args.tt_bits)
    out = Path(args.out)
    book: dict[str, dict[str, str]] = json.loads(out.read_text())["connect4"] if out.exists() else {}
    frontier = [spec.start()]
    if args.positions is not None:
        frontier = [spec.parse_position(text) for text in args.positions]
        args.plies = 0
    for _ply in range(args.plies + 1):
        following = []
        for position in frontier:
            text = position.to_text()
            if text not in book and mirror(text) not in book:
                started = time.perf_counter()
                result = weak_result(solver, position)
                move = keeping_move(solver, position, result)
                book[text] = {"result": RESULTS[result], "move": spec.move_to_text(move)}
                print(f"{text or '(start)'}: {RESULTS[result]}, play {move + 1} "
                      f"({time.perf_counter() - started:.0f} s)", flush=True)
                out.write_text(json.dumps({"connect4": book}, indent=1, sort_keys=True) + "\n")
            following.extend(position.play(c) for c in position.legal_moves())
        frontier = following
    return 0


if __name__ == "__main__":
    sys.exit(main())
