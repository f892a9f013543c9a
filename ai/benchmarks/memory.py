"""Memory of the engine process: one long search against the node cap, then many games in a row.

    python -m ai.benchmarks.memory [--search-seconds 60] [--games 100] [--move-ms 20] [--max-nodes N]
                                   [--per-game-seconds 10]

Both phases talk to a real engine subprocess (``main.py engine``) over the protocol and read its
memory from ``/proc/<pid>/status`` (``VmRSS`` now, ``VmHWM`` peak), so Linux only.

1. Search: one ``go`` of ``--search-seconds`` on the start position. Prints the RSS before and
   the peak, against the node pool's cap (nodes x bytes per node, see ``ai.mcts.tree``).
2. Every game: one engine process searches each game of ``EVERY_GAME`` for ``--per-game-seconds``
   in turn (the app's game picker offers them all); prints the RSS after each. One node budget
   per process: the total must stay within the cap (plus slack), not grow by a cap per game.
3. Games: ``--games`` bot-vs-bot games, every move a ``position`` + ``go`` in the same (fresh)
   engine process, like the app's bot-vs-bot mode. Prints the RSS every 10 games and the growth:
   the highest RSS of the last ``--warmup-games`` games minus that of the first ones.

Prints figures, and a final verdict line; exit status 1 when the peak exceeds the cap (plus
slack) or the growth exceeds ``--max-growth-mb``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ai.benchmarks.engine_pipe import EnginePipe as Engine
from ai.vocab.commands import Go, Position

ROOT = Path(__file__).resolve().parents[2]
MB = 1024 * 1024


def status_kb(pid: int, field: str) -> int | None:
    """A ``VmRSS``/``VmHWM`` figure (kB) of process ``pid``, or None when /proc is not there."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def mb(kb: int | None) -> str:
    return "n/a" if kb is None else f"{kb / 1024:.1f} MB"


def node_cap(max_nodes: int | None) -> tuple[int, float]:
    """(nodes, MB) of the engine's node pools: the cap is split over the search threads."""
    from ai.mcts.tree import DEFAULT_MAX_NODES, NODE_BYTES

    nodes = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    return nodes, nodes * NODE_BYTES / MB


def growth_against_cap(
    before_kb: int | None, peak_kb: int | None, max_nodes: int | None, slack_mb: float
) -> tuple[int, float, float, bool]:
    """(cap nodes, cap MB, MB grown from ``before_kb`` to ``peak_kb``, whether that stays within the cap + slack)."""
    nodes, cap_mb = node_cap(max_nodes)
    grown_mb = ((peak_kb or 0) - (before_kb or 0)) / 1024
    return nodes, cap_mb, grown_mb, peak_kb is not None and before_kb is not None and grown_mb <= cap_mb + slack_mb


def search_phase(seconds: float, engine_args: list[str], max_nodes: int | None, slack_mb: float) -> bool:
    engine = Engine(*engine_args)
    try:
        before = status_kb(engine.pid, "VmRSS")
        samples: list[int] = []

        def sample(_message: dict[str, Any]) -> None:
            rss = status_kb(engine.pid, "VmRSS")
            if rss is not None:
                samples.append(rss)

        engine.send(Position("connect4"))
        started = time.monotonic()
        engine.send(Go("long", seconds * 1000, info_ms=500, exact=False, early_stop=False))
        best = engine.until("bestmove", "long", timeout=seconds + 600, on_message=sample)
        wall = time.monotonic() - started
        peak = status_kb(engine.pid, "VmHWM")
    finally:
        engine.close()
    nodes, cap_mb, grown_mb, ok = growth_against_cap(before, peak, max_nodes, slack_mb)
    print(
        f"search: {seconds:g} s on the start position ({wall:.1f} s wall): {best.get('iterations', 0):,} iterations, "
        f"max depth {best.get('max_depth')}, best move {best.get('move')}"
    )
    print(
        f"search: RSS before {mb(before)}, last sample {mb(samples[-1] if samples else None)}, "
        f"peak (VmHWM) {mb(peak)}; grew {grown_mb:.1f} MB against a node cap of {nodes:,} nodes = {cap_mb:.1f} MB "
        f"(+{slack_mb:g} MB slack): {'within the cap' if ok else 'OVER THE CAP'}"
    )
    return ok


EVERY_GAME = ("connect4", "connect4:8x7", "tictactoe", "mnk:6x6:4", "mnk:9x9:5", "gomoku", "uttt")


def every_game_phase(seconds: float, engine_args: list[str], max_nodes: int | None, slack_mb: float) -> bool:
    """Peak RSS over the loaded baseline must stay within one node budget plus ``slack_mb``."""
    engine = Engine(*engine_args)
    try:
        at_start = status_kb(engine.pid, "VmRSS")
        for game in EVERY_GAME:  # load every game's compiled code (and the solver) first: the baseline
            engine.send(Position(game))
            engine.send(Go(f"warm {game}", iterations=50))
            engine.until("bestmove", f"warm {game}", timeout=600)
        before = status_kb(engine.pid, "VmRSS")
        print(
            f"every game: RSS at start {mb(at_start)}, with every game's code loaded {mb(before)}; "
            f"{seconds:g} s of search per game",
            flush=True,
        )
        for game in EVERY_GAME:
            engine.send(Position(game))
            engine.send(Go(game, seconds * 1000, info_ms=1000, exact=False, early_stop=False))
            best = engine.until("bestmove", game, timeout=seconds + 600)  # the first one may compile
            print(
                f"every game: after {game:<12} RSS {mb(status_kb(engine.pid, 'VmRSS'))} "
                f"({best.get('iterations', 0):,} iterations)",
                flush=True,
            )
        after = status_kb(engine.pid, "VmRSS")
        peak = status_kb(engine.pid, "VmHWM")
    finally:
        engine.close()
    nodes, cap_mb, grown_mb, ok = growth_against_cap(before, peak, max_nodes, slack_mb)
    print(
        f"every game: RSS after all {len(EVERY_GAME)} games {mb(after)}, peak {mb(peak)} (+{grown_mb:.1f} MB), "
        f"against one node budget of {cap_mb:.1f} MB (+{slack_mb:g} MB slack): "
        f"{'within one budget' if ok else 'OVER ONE BUDGET'}"
    )
    return ok


def play_game(engine: Engine, spec: Any, move_ms: int, game_number: int) -> int:
    """One bot-vs-bot game, both sides searched by ``engine``; returns the number of moves."""
    position = spec.start()
    while not position.outcome.is_over:
        search_id = f"g{game_number}m{position.ply}"
        engine.send(Position(spec.name, position.to_text()))
        engine.send(Go(search_id, move_ms, info_ms=100))
        best = engine.until("bestmove", search_id, timeout=600)  # the first one may wait for compiled code
        position = position.play(spec.parse_move(best["move"]))
    return int(position.ply)


def games_phase(games: int, move_ms: int, game: str, engine_args: list[str], warmup: int, max_growth_mb: float) -> bool:
    from game.rules import get_game

    spec = get_game(game)
    engine = Engine(*engine_args)
    pid = engine.pid
    rss: list[int] = []
    moves = 0
    started = time.monotonic()
    try:
        print(
            f"games: {games} bot-vs-bot {spec.name} games at {move_ms} ms a move in engine process {pid}; "
            f"RSS at start {mb(status_kb(pid, 'VmRSS'))}"
        )
        for number in range(1, games + 1):
            moves += play_game(engine, spec, move_ms, number)
            rss.append(status_kb(pid, "VmRSS") or 0)
            if number % 10 == 0 or number == games:
                print(
                    f"games: after game {number:>4}: RSS {mb(rss[-1])} ({moves} moves, "
                    f"{time.monotonic() - started:.0f} s)",
                    flush=True,
                )
        peak = status_kb(pid, "VmHWM")
        same_process = engine.proc.poll() is None and engine.pid == pid
    finally:
        engine.close()
    # RSS swings with the size of the tree kept at that moment, so compare the highest RSS of the
    # first `warmup` games with the highest of the last `warmup` games.
    window = min(warmup, len(rss))
    first, last = max(rss[:window], default=0), max(rss[-window:], default=0)
    growth = (last - first) / 1024
    ok = same_process and growth <= max_growth_mb
    print(
        f"games: highest RSS in games 1-{window} {mb(first)}, "
        f"in games {len(rss) - window + 1}-{len(rss)} {mb(last)}, "
        f"lowest {mb(min(rss, default=None))}, peak (VmHWM) {mb(peak)}; growth {growth:+.1f} MB "
        f"(bound {max_growth_mb:g} MB): {'ok' if ok else 'TOO MUCH GROWTH'}"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.memory", description=__doc__.splitlines()[0])
    parser.add_argument("--search-seconds", type=float, default=60.0, help="length of the long search (0 = skip)")
    parser.add_argument(
        "--per-game-seconds", type=float, default=10.0, help="search time per game in the every-game phase (0 = skip)"
    )
    parser.add_argument("--games", type=int, default=100, help="bot-vs-bot games in one engine process (0 = skip)")
    parser.add_argument("--move-ms", type=int, default=20, help="search time per move in the games")
    parser.add_argument("--game", default="connect4", help="game of the games phase")
    parser.add_argument("--max-nodes", type=int, default=None, help="pass --max-nodes to the engine")
    parser.add_argument("--threads", type=int, default=1, help="pass --threads to the engine")
    parser.add_argument("--warmup-games", type=int, default=10, help="size of the first/last windows compared")
    parser.add_argument("--max-growth-mb", type=float, default=16.0, help="allowed RSS growth over the games")
    parser.add_argument("--slack-mb", type=float, default=64.0, help="allowed search growth beyond the node cap")
    parser.add_argument(
        "--game-slack-mb",
        type=float,
        default=32.0,
        help="allowed growth beyond one node budget over the every-game phase",
    )
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("error: this benchmark reads /proc/<pid>/status (Linux only)", file=sys.stderr)
        return 2
    if args.search_seconds < 0 or args.games < 0 or args.move_ms < 1 or args.warmup_games < 1:
        print("error: --search-seconds and --games must be >= 0, --move-ms and --warmup-games >= 1", file=sys.stderr)
        return 2
    engine_args = ["--threads", str(args.threads)]
    if args.max_nodes is not None:
        engine_args += ["--max-nodes", str(args.max_nodes)]
    ok = True
    try:
        if args.search_seconds > 0:
            ok &= search_phase(args.search_seconds, engine_args, args.max_nodes, args.slack_mb)
        if args.per_game_seconds > 0:
            ok &= every_game_phase(args.per_game_seconds, engine_args, args.max_nodes, args.game_slack_mb)
        if args.games > 0:
            ok &= games_phase(args.games, args.move_ms, args.game, engine_args, args.warmup_games, args.max_growth_mb)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print("memory: ok" if ok else "memory: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
