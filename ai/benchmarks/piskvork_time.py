"""Time use of ``main.py piskvork`` against ``INFO timeout_turn`` (a benchmark command, not a test).

``python -m ai.benchmarks.piskvork_time --turn-ms 100 500 1000 --games 2``: two brains play each
other on 15x15 (freestyle); for every move the manager measures the wall time from sending
BEGIN/TURN to the reply, and the brain reports its own. Prints, per ``timeout_turn``, the moves,
the mean / p95 / max wall time as a share of ``timeout_turn`` and the moves over it.
"""

from __future__ import annotations

import argparse
import re
import statistics

from ai.benchmarks.piskvork_manager import Brain, five_in_a_row, parse_xy

MAX_MOVES = 225


def own_ms(brain: Brain) -> float:
    """The time the brain reports for its last move (its MESSAGE line)."""
    match = re.search(r"(\d+) ms$", brain.messages[-1]) if brain.messages else None
    return float(match[1]) if match else float("nan")


def play_game(turn_ms: int, match_ms: int, own: list[float], left_at_end: list[int]) -> tuple[list[float], str]:
    """One game between two brains; the wall seconds of every move and the result (``own``: the
    brains' own ms per move; ``left_at_end``: each brain's match time left, as the manager counts it)."""
    brains = [Brain(), Brain()]
    times: list[float] = []
    stones: list[set[tuple[int, int]]] = [set(), set()]
    left = [match_ms, match_ms]
    try:
        for b in brains:
            assert b.ask("START 15", timeout=120)[0] == "OK"
            b.send(f"INFO timeout_turn {turn_ms}", f"INFO timeout_match {match_ms}", f"INFO time_left {match_ms}")
        reply, seconds = brains[0].ask("BEGIN")
        side = 0
        for _ in range(MAX_MOVES):
            times.append(seconds)
            own.append(own_ms(brains[side]))
            left[side] -= int(seconds * 1000)
            move = parse_xy(reply)
            stones[side].add(move)
            if five_in_a_row(stones[side], move):
                return times, f"player {side + 1} wins"
            if len(stones[0]) + len(stones[1]) == MAX_MOVES:
                return times, "draw (full board)"
            side = 1 - side
            if match_ms:
                brains[side].send(f"INFO time_left {left[side]}")
            reply, seconds = brains[side].ask(f"TURN {move[0]},{move[1]}")
            if reply.startswith("ERROR"):
                return times, f"error: {reply}"
        return times, "unfinished"
    finally:
        left_at_end.extend(left if match_ms else [])
        for b in brains:
            b.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.piskvork_time", description=__doc__.splitlines()[0])
    parser.add_argument("--turn-ms", type=int, nargs="+", default=[100, 1000], help="timeout_turn values (ms)")
    parser.add_argument("--match-ms", type=int, default=0, help="timeout_match (ms, 0 = none)")
    parser.add_argument("--games", type=int, default=1, help="games per timeout_turn (default 1)")
    args = parser.parse_args(argv)
    for turn_ms in args.turn_ms:
        times: list[float] = []
        own: list[float] = []
        left_at_end: list[int] = []
        results = []
        for _ in range(args.games):
            game_times, result = play_game(turn_ms, args.match_ms, own, left_at_end)
            times += game_times
            results.append(result)
        shares = sorted(t * 1000 / turn_ms for t in times)
        p95 = shares[min(len(shares) - 1, int(0.95 * len(shares)))]
        over = sum(1 for s in shares if s > 1.0)
        print(
            f"timeout_turn {turn_ms} ms: {len(times)} moves; wall time per move mean {statistics.mean(shares):.0%}, "
            f"p95 {p95:.0%}, max {shares[-1]:.0%} of timeout_turn; over it: {over}; games: {', '.join(results)}"
        )
        inside = sorted(ms / turn_ms for ms in own)
        print(
            f"  as the brain measures it (command read -> reply written): p95 "
            f"{inside[min(len(inside) - 1, int(0.95 * len(inside)))]:.0%}, max {inside[-1]:.0%}, "
            f"over: {sum(1 for s in inside if s > 1.0)}"
        )
        if left_at_end:
            print(
                f"  timeout_match {args.match_ms} ms: match time left at the end (manager's count) least "
                f"{min(left_at_end)} ms, most {max(left_at_end)} ms; ran out: {sum(v < 0 for v in left_at_end)}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
