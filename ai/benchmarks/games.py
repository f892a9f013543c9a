"""Play-strength benchmarks of the grid-game kernels (prints figures, asserts nothing).

    python -m ai.benchmarks.games tictactoe [--games 100] [--time-ms 50]
    python -m ai.benchmarks.games gomoku    [--games 20]  [--time-ms 300]
    python -m ai.benchmarks.games uttt      [--games 50]  [--time-ms 1000] [--weak-ms 100]

* ``tictactoe``: bot self-play at ``--time-ms`` per move; every game should be a draw.
* ``gomoku``: the bot against a random player (a random empty cell next to a stone) and against
  a one-ply heuristic player (wins, blocks, else the cell with the best line score), colours
  alternating.
* ``uttt``: the ``--time-ms`` bot against the ``--weak-ms`` bot and against a random player,
  colours alternating.

Each bot is one ``Searcher`` (one thread unless ``--threads``) that keeps its tree between moves.
``--contempt X`` gives the measured bot (not the opponents) draw contempt X (a draw is then worth
0.5 - X to it; the default 0 counts draws 0.5, as the app does).
A running tally is printed after every game (so a cut-short run still reports).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from ai.mcts.search import Searcher
from game.rules import get_game

Player = Callable[[Any], int]  # position -> move


def bot(spec: Any, time_ms: float, seed: int, threads: int, stats: dict[str, float], contempt: float = 0.0) -> Player:
    searcher = Searcher(spec, seed=seed, threads=threads, contempt=contempt)
    searcher.warm_up()

    def choose(pos: Any) -> int:
        searcher.set_position(pos)
        result = searcher.search(time_ms=time_ms)
        stats["moves"] = stats.get("moves", 0) + 1
        stats["iterations"] = stats.get("iterations", 0) + result.iterations
        return result.best_move

    return choose


def random_player(rnd: random.Random, near_only: bool = False) -> Player:
    def choose(pos: Any) -> int:
        legal = pos.legal_moves()
        if near_only and pos.ply:
            near = [m for m in legal if _near(pos, m, 1)]
            legal = near or legal
        move: int = rnd.choice(legal)
        return move

    return choose


def _near(pos: Any, cell: int, radius: int) -> bool:
    w, h = pos.spec.width, pos.spec.height
    x0, y0 = cell % w, cell // w
    for y in range(max(0, y0 - radius), min(h, y0 + radius + 1)):
        for x in range(max(0, x0 - radius), min(w, x0 + radius + 1)):
            if pos.cell(y * w + x) is not None:
                return True
    return False


_DIRS = ((1, 0), (0, 1), (1, 1), (-1, 1))
_WEIGHT = (0, 1, 8, 64, 512, 4096)


def heuristic_player(rnd: random.Random) -> Player:
    """One ply: win if possible, block the opponent's win, else maximise a line score of the
    cell (for each k-window through it without the other colour: 8**stones, own and theirs)."""

    def line_score(pos: Any, cell: int, player: int) -> int:
        spec = pos.spec
        w, h, k = spec.width, spec.height, spec.k
        x0, y0 = cell % w, cell // w
        total = 0
        for dx, dy in _DIRS:
            for start in range(-(k - 1), 1):
                own = 0
                blocked = False
                for i in range(start, start + k):
                    x, y = x0 + i * dx, y0 + i * dy
                    if not (0 <= x < w and 0 <= y < h):
                        blocked = True
                        break
                    who = pos.cell(y * w + x)
                    if who == player:
                        own += 1
                    elif who is not None:
                        blocked = True
                        break
                if not blocked:
                    total += _WEIGHT[min(own + 1, 5)]
        return total

    def choose(pos: Any) -> int:
        me = pos.to_move
        legal = [m for m in pos.legal_moves() if not pos.ply or _near(pos, m, 2)] or list(pos.legal_moves())
        moves: list[int] = legal
        for m in moves:
            if pos.spec.winning_cells(pos.stones(me) | (1 << m)):
                return m
        for m in moves:
            if pos.spec.winning_cells(pos.stones(1 - me) | (1 << m)):
                return m
        scored = [(line_score(pos, m, me) + line_score(pos, m, 1 - me), rnd.random(), m) for m in moves]
        return max(scored)[2]

    return choose


def play_game(spec: Any, players: tuple[Player, Player], start: Any = None) -> Any:
    pos = spec.start() if start is None else start
    while not pos.outcome.is_over:
        pos = pos.play(players[pos.to_move](pos))
    return pos


def match(
    spec: Any,
    games: int,
    make_a: Callable[[int], Player],
    make_b: Callable[[int], Player],
    label: str,
    opening: Callable[[int], Any] | None = None,
) -> tuple[float, int, int, int]:
    """``games`` games of A against B, A first in the even games (from ``opening(g)`` when given, a position
    with the first player to move, else the start). Returns A's score and W/D/L."""
    wins = draws = losses = 0
    start = time.perf_counter()
    for g in range(games):
        a, b = make_a(g), make_b(g)
        a_side = g % 2
        start_pos = None if opening is None else opening(g)
        pos = play_game(spec, (a, b) if a_side == 0 else (b, a), start_pos)
        winner = pos.outcome.winner
        if winner is None:
            draws += 1
        elif winner == a_side:
            wins += 1
        else:
            losses += 1
        score = (wins + 0.5 * draws) / (g + 1)
        where = "" if start_pos is None else f" from {start_pos.to_text()}"
        print(
            f"  {label} game {g + 1}/{games}{where}: "
            f"{'draw' if winner is None else ('win' if winner == a_side else 'loss')}"
            f" in {pos.ply} plies as {'first' if a_side == 0 else 'second'}; tally +{wins} ={draws} -{losses}"
            f" ({100 * score:.1f}%), {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    return (wins + 0.5 * draws) / max(1, games), wins, draws, losses


def _report(label: str, result: tuple[float, int, int, int], stats: dict[str, float]) -> None:
    score, w, d, lost = result
    per_move = stats.get("iterations", 0) / max(1, stats.get("moves", 0))
    print(f"{label}: score {100 * score:.1f}% (+{w} ={d} -{lost}), bot {per_move:.0f} iterations per move", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.games", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["tictactoe", "gomoku", "uttt"])
    parser.add_argument("--games", type=int, default=None, help="games per match (100 / 20 / 50)")
    parser.add_argument("--time-ms", type=float, default=None, help="the bot's time per move (50 / 300 / 1000)")
    parser.add_argument("--weak-ms", type=float, default=100.0, help="uttt: the weaker bot's time per move")
    parser.add_argument("--threads", type=int, default=1, help="search threads per bot")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--contempt", type=float, default=0.0, help="the measured bot's draw contempt (default 0)")
    parser.add_argument("--only", choices=["bot", "random", "heuristic"], default=None, help="run one match only")
    args = parser.parse_args(argv)
    spec = get_game(args.game)
    defaults = {"tictactoe": (100, 50.0), "gomoku": (20, 300.0), "uttt": (50, 1000.0)}[args.game]
    games = args.games or defaults[0]
    time_ms = args.time_ms or defaults[1]
    stats: dict[str, float] = {}

    def strong(g: int) -> Player:
        return bot(spec, time_ms, args.seed * 1000 + 2 * g, args.threads, stats, args.contempt)

    if not 0.0 <= args.contempt < 0.5:
        parser.error(f"--contempt must be in [0, 0.5), not {args.contempt:g}")
    print(
        f"{args.game}: {games} games per match, bot {time_ms:g} ms per move, {args.threads} thread(s)"
        + (f", draw contempt {args.contempt:g}" if args.contempt else ""),
        flush=True,
    )
    if args.game == "tictactoe":
        result = match(
            spec,
            games,
            strong,
            lambda g: bot(spec, time_ms, args.seed * 1000 + 2 * g + 1, args.threads, {}),
            "self-play",
        )
        _report("tic-tac-toe self-play (first bot's score; all draws = 50%)", result, stats)
        print(f"draws: {result[2]}/{games}")
        return 0
    if args.game == "gomoku":
        if args.only in (None, "random"):
            r = match(spec, games, strong, lambda g: random_player(random.Random(g), near_only=True), "vs random")
            _report("gomoku bot vs random (near stones)", r, stats)
        if args.only in (None, "heuristic"):
            stats.clear()
            r = match(spec, games, strong, lambda g: heuristic_player(random.Random(g)), "vs heuristic")
            _report("gomoku bot vs one-ply heuristic", r, stats)
        return 0
    if args.only in (None, "bot"):
        weak = args.weak_ms
        r = match(
            spec,
            games,
            strong,
            lambda g: bot(spec, weak, args.seed * 1000 + 2 * g + 1, args.threads, {}),
            f"vs {weak:g} ms",
        )
        _report(f"uttt {time_ms:g} ms bot vs {weak:g} ms bot", r, stats)
    if args.only in (None, "random"):
        stats.clear()
        r = match(spec, games, strong, lambda g: random_player(random.Random(g)), "vs random")
        _report(f"uttt {time_ms:g} ms bot vs random", r, stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
