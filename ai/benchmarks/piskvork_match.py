"""Our Gomoku brain against another Piskvork brain (e.g. Rapfi), refereed move by move (a benchmark
command, not a test: the project never needs the other engine).

    python -m ai.benchmarks.piskvork_match --opponent "/tmp/rapfi/pbrain-rapfi --config config.toml" \\
        --cwd /tmp/rapfi --ours-ms 1000 --theirs-ms 1000 --openings 10

15x15 freestyle (five or more wins). Every opening of the book (``--book``) is played twice, ours first with
black and then with white. The referee checks each reply itself: a move that is not a legal empty
cell, an ERROR, no reply or a reply later than the brain's ``timeout_turn`` plus ``--slack-ms`` loses
the game; five or more in a row wins; a full board is a draw. Each brain gets its first position as
``BOARD`` (the opening stones and any reply so far) and then ``TURN``; a command is only sent after the
brain's previous reply was read and ``--settle-ms`` have passed (Rapfi ignores a line sent in the
instant after it printed a move). Prints per game the result, plies and time per move of each side,
the record; at the end the points, plies and time per move of the series (``--records`` writes JSON
lines too).
"""

from __future__ import annotations

import argparse
import json
import queue
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ai.benchmarks.piskvork_manager import ROOT, Brain, five_in_a_row

SIZE = 15
Stones = tuple[tuple[int, int], ...]  # (x, y) cells
# Openings (x, y from the top-left, black first), each played with both colours. ``BALANCED`` (the default):
# three stones, white to move, that Rapfi (classical, 1 s) rates within 100 of even (its scale: about 200 per
# factor e of the odds), the first 12 of random openings in the central 7x7 (seed 1) that passed
# (``python -m ai.benchmarks.piskvork_openings``). ``CENTRAL``: the first series' short central openings;
# Rapfi rates them -175 to -1016 for white (black far ahead), so both colours mostly win as black there.
BALANCED: tuple[Stones, ...] = (
    ((7, 7), (10, 6), (4, 9)),
    ((7, 7), (6, 7), (9, 4)),
    ((7, 7), (7, 8), (4, 10)),
    ((7, 7), (8, 5), (10, 4)),
    ((7, 7), (6, 7), (10, 5)),
    ((7, 7), (7, 5), (4, 9)),
    ((7, 7), (9, 7), (4, 9)),
    ((7, 7), (5, 6), (9, 4)),
    ((7, 7), (10, 8), (5, 4)),
    ((7, 7), (4, 7), (10, 10)),
    ((7, 7), (4, 8), (9, 4)),
    ((7, 7), (6, 5), (10, 8)),
)
CENTRAL: tuple[Stones, ...] = (
    ((7, 7), (8, 6), (6, 5)),
    ((7, 7), (8, 8), (9, 5)),
    ((7, 7), (7, 6), (5, 5)),
    ((7, 7), (8, 7), (6, 9)),
    ((7, 7), (9, 7), (7, 9)),
    ((7, 7), (8, 6), (9, 9)),
    ((7, 7), (6, 8), (10, 7)),
    ((7, 7), (9, 9), (5, 8)),
    ((7, 7), (7, 9), (9, 6)),
    ((7, 7), (10, 7), (6, 6)),
    ((7, 7), (8, 9), (5, 7)),
    ((7, 7), (6, 5), (9, 8)),
)
# ``WIDE``: ``BALANCED`` and 36 more (the tool with ``--seed 2 --count 36 --ms 500``), 96 games a series: with
# Rapfi given 40 ms (it then uses about 8) ours scores near 20%, where two variants can be told apart.
WIDE: tuple[Stones, ...] = BALANCED + (
    ((7, 7), (7, 8), (6, 4)),
    ((7, 7), (6, 10), (4, 4)),
    ((7, 7), (8, 8), (5, 4)),
    ((7, 7), (9, 4), (5, 10)),
    ((7, 7), (7, 5), (4, 8)),
    ((7, 7), (9, 7), (5, 9)),
    ((7, 7), (8, 6), (4, 5)),
    ((7, 7), (8, 7), (5, 4)),
    ((7, 7), (9, 10), (10, 10)),
    ((7, 7), (7, 5), (10, 9)),
    ((7, 7), (8, 8), (10, 4)),
    ((7, 7), (8, 7), (5, 4)),
    ((7, 7), (6, 8), (10, 8)),
    ((7, 7), (7, 10), (9, 4)),
    ((7, 7), (8, 4), (10, 10)),
    ((7, 7), (8, 6), (10, 9)),
    ((7, 7), (5, 8), (10, 7)),
    ((7, 7), (8, 6), (10, 10)),
    ((7, 7), (7, 10), (9, 4)),
    ((7, 7), (8, 5), (4, 4)),
    ((7, 7), (7, 6), (8, 10)),
    ((7, 7), (9, 7), (5, 9)),
    ((7, 7), (6, 7), (10, 4)),
    ((7, 7), (4, 6), (10, 4)),
    ((7, 7), (6, 8), (10, 4)),
    ((7, 7), (8, 10), (4, 5)),
    ((7, 7), (8, 8), (9, 4)),
    ((7, 7), (9, 8), (5, 5)),
    ((7, 7), (7, 9), (4, 6)),
    ((7, 7), (7, 5), (4, 9)),
    ((7, 7), (6, 10), (4, 4)),
    ((7, 7), (4, 5), (10, 10)),
    ((7, 7), (5, 8), (10, 6)),
    ((7, 7), (7, 5), (9, 10)),
    ((7, 7), (7, 5), (10, 8)),
    ((7, 7), (7, 8), (10, 6)),
)
# ``FRESH``: 32 openings that no fit has seen, none a rotation or reflection of another or of an opening of the
# other books (``--seed 8 --count 32 --ms 500 --radius 4``; the central 7x7 holds few balanced three-stone
# openings: ``WIDE`` has 31 different ones among its 48, and a run there found 8 new of 36). Round 7's first
# fitted evaluation, fitted to games of ``WIDE``, scored 38% there and 25% here
# (docs/history/gomoku-rounds.md, round 7); 64 games.
FRESH: tuple[Stones, ...] = (
    ((7, 7), (8, 8), (10, 11)),
    ((7, 7), (6, 7), (3, 9)),
    ((7, 7), (5, 7), (4, 3)),
    ((7, 7), (9, 8), (5, 9)),
    ((7, 7), (7, 4), (3, 4)),
    ((7, 7), (4, 6), (3, 5)),
    ((7, 7), (11, 6), (8, 11)),
    ((7, 7), (8, 8), (11, 7)),
    ((7, 7), (6, 7), (9, 9)),
    ((7, 7), (10, 6), (6, 11)),
    ((7, 7), (9, 5), (10, 10)),
    ((7, 7), (3, 5), (8, 3)),
    ((7, 7), (3, 6), (11, 8)),
    ((7, 7), (10, 8), (10, 11)),
    ((7, 7), (5, 7), (3, 10)),
    ((7, 7), (5, 7), (7, 3)),
    ((7, 7), (8, 9), (3, 7)),
    ((7, 7), (6, 9), (3, 8)),
    ((7, 7), (9, 10), (11, 10)),
    ((7, 7), (10, 6), (9, 3)),
    ((7, 7), (11, 5), (6, 11)),
    ((7, 7), (6, 6), (11, 6)),
    ((7, 7), (7, 4), (9, 3)),
    ((7, 7), (8, 5), (11, 7)),
    ((7, 7), (8, 7), (5, 3)),
    ((7, 7), (6, 7), (11, 8)),
    ((7, 7), (9, 9), (11, 7)),
    ((7, 7), (10, 8), (3, 10)),
    ((7, 7), (7, 8), (11, 7)),
    ((7, 7), (3, 6), (9, 11)),
    ((7, 7), (8, 7), (3, 7)),
    ((7, 7), (7, 9), (6, 3)),
)
BOOKS = {"balanced": BALANCED, "central": CENTRAL, "wide": WIDE, "fresh": FRESH}


@dataclass
class Game:
    opening: int
    ours_black: bool
    start: Stones = ()  # the opening's stones
    moves: list[tuple[int, int]] = field(default_factory=list)  # after the opening
    seconds: list[float] = field(default_factory=list)  # wall time of each move in ``moves``
    winner: str = ""  # "ours", "theirs" or "draw"
    reason: str = ""
    messages: list[str] = field(default_factory=list)  # our brain's MESSAGE lines

    @property
    def points(self) -> float:
        return {"ours": 1.0, "draw": 0.5}.get(self.winner, 0.0)


class Side:
    """A brain plus what the referee needs: its timeout and whether it has seen the board yet."""

    def __init__(self, command: list[str], cwd: str | None, turn_ms: int, settle_ms: int) -> None:
        self.brain = Brain(command, cwd=cwd)
        self.turn_ms = turn_ms
        self.settle = settle_ms / 1000.0
        self.last_reply = 0.0
        self.started = False

    def ask(self, lines: list[str], timeout: float) -> tuple[str, float]:
        wait = self.last_reply + self.settle - time.perf_counter()
        if wait > 0:
            time.sleep(wait)  # sleep-ok: the opponent engine drops lines sent right after its move
        try:
            reply, seconds = self.brain.ask(*lines, timeout=timeout)
        except queue.Empty:
            reply, seconds = "(no reply)", timeout
        self.last_reply = time.perf_counter()
        return reply, seconds

    def setup(self) -> None:
        reply, _ = self.ask(["START 15"], timeout=120)
        if reply != "OK":
            raise RuntimeError(f"the brain answered {reply!r} to START 15")
        self.brain.send(
            "INFO rule 0",
            f"INFO timeout_turn {self.turn_ms}",
            "INFO timeout_match 100000000",
            "INFO time_left 100000000",
        )


def _move_lines(side: Side, stones: list[tuple[int, int]], first_player: int) -> list[str]:
    """The command for ``side`` (player ``first_player``'s colour alternates): BOARD the first time."""
    if side.started:
        x, y = stones[-1]
        return [f"TURN {x},{y}"]
    side.started = True
    me = len(stones) % 2  # the colour to move: 0 black, 1 white
    lines = ["BOARD"]
    for i, (x, y) in enumerate(stones):
        lines.append(f"{x},{y},{1 if i % 2 == me else 2}")
    return [*lines, "DONE"]


def parse_move(reply: str) -> tuple[int, int] | None:
    parts = reply.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def play(args: argparse.Namespace, opening: int, ours_black: bool) -> Game:
    game = Game(opening, ours_black, BOOKS[args.book][opening])
    ours = Side([sys.executable, str(args.ours_root / "main.py"), "piskvork", *args.ours_args], None, args.ours_ms, 0)
    theirs = Side(shlex.split(args.opponent), args.cwd, args.theirs_ms, args.settle_ms)
    sides = (ours, theirs) if ours_black else (theirs, ours)  # index: colour
    stones = list(game.start)
    colours: list[set[tuple[int, int]]] = [set(stones[0::2]), set(stones[1::2])]
    try:
        for s in sides:
            s.setup()
        while True:
            colour = len(stones) % 2
            side = sides[colour]
            name = "ours" if side is ours else "theirs"
            other = "theirs" if side is ours else "ours"
            limit = side.turn_ms / 1000.0 + args.slack_ms / 1000.0
            reply, seconds = side.ask(_move_lines(side, stones, 0), timeout=limit + 5.0)
            if side is ours and ours.brain.messages:
                game.messages.append(ours.brain.messages[-1])
            move = parse_move(reply)
            if move is None or not (0 <= move[0] < SIZE and 0 <= move[1] < SIZE) or move in stones:
                game.winner, game.reason = other, f"{name} replied {reply!r}"
                return game
            game.moves.append(move)
            game.seconds.append(seconds)
            if seconds > limit:
                game.winner, game.reason = other, f"{name} late ({seconds * 1000:.0f} ms)"
                return game
            stones.append(move)
            colours[colour].add(move)
            if five_in_a_row(colours[colour], move):
                game.winner, game.reason = name, "five"
                return game
            if len(stones) == SIZE * SIZE:
                game.winner, game.reason = "draw", "full board"
                return game
    finally:
        for s in sides:
            s.brain.close()


def summary(games: list[Game], label: str) -> str:
    points = sum(g.points for g in games)
    plies = [len(g.start) + len(g.moves) for g in games]
    ours_t = [t for g in games for i, t in enumerate(g.seconds) if (i % 2 == 0) == _ours_first(g)]
    theirs_t = [t for g in games for i, t in enumerate(g.seconds) if (i % 2 == 0) != _ours_first(g)]
    return (
        f"{label}: {len(games)} games, ours {points:g} points ({points / max(1, len(games)):.0%}); "
        f"W-D-L {sum(g.winner == 'ours' for g in games)}-{sum(g.winner == 'draw' for g in games)}-"
        f"{sum(g.winner == 'theirs' for g in games)}; plies mean {statistics.mean(plies):.1f} "
        f"(min {min(plies)}, max {max(plies)}); ms per move ours mean {_ms(ours_t)} max {_ms(ours_t, True)}, "
        f"theirs mean {_ms(theirs_t)} max {_ms(theirs_t, True)}"
    )


def _ours_first(g: Game) -> bool:
    """True if ours made the first move after the opening (the opening has 3 stones: white moves)."""
    white_to_move = len(g.start) % 2 == 1
    return g.ours_black != white_to_move


def _ms(times: list[float], worst: bool = False) -> str:
    if not times:
        return "-"
    return f"{(max(times) if worst else statistics.mean(times)) * 1000:.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.piskvork_match", description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", required=True, help="the other brain's command line")
    parser.add_argument("--cwd", default=None, help="the other brain's working directory")
    parser.add_argument("--ours-ms", type=int, default=1000, help="our timeout_turn (ms)")
    parser.add_argument("--theirs-ms", type=int, default=1000, help="the opponent's timeout_turn (ms)")
    parser.add_argument("--book", choices=sorted(BOOKS), default="balanced", help="the opening set (see BOOKS)")
    parser.add_argument("--openings", type=int, default=None, help="openings played, both colours each (all)")
    parser.add_argument("--first-opening", type=int, default=0, help="index of the first opening")
    parser.add_argument("--slack-ms", type=int, default=150, help="lateness tolerated over timeout_turn (ms)")
    parser.add_argument("--settle-ms", type=int, default=30, help="pause before a line to the opponent (ms)")
    parser.add_argument("--records", type=Path, default=None, help="append each game as a JSON line here")
    parser.add_argument("--ours-root", type=Path, default=ROOT, help="the checkout whose main.py plays ours")
    parser.add_argument("--ours-args", nargs="*", default=[], help="extra arguments for main.py piskvork")
    args = parser.parse_args(argv)
    book = BOOKS[args.book]
    if args.openings is None:
        args.openings = len(book) - max(0, args.first_opening)
    if not args.openings >= 1 or args.first_opening + args.openings > len(book) or args.first_opening < 0:
        parser.error(f"openings must lie within 0 .. {len(book) - 1}")
    games: list[Game] = []
    label = f"ours {args.ours_ms} ms vs theirs {args.theirs_ms} ms, {args.book} openings"
    for o in range(args.first_opening, args.first_opening + args.openings):
        for ours_black in (True, False):
            g = play(args, o, ours_black)
            games.append(g)
            record = " ".join(f"{x},{y}" for x, y in (*g.start, *g.moves))
            print(
                f"opening {o} ours {'black' if ours_black else 'white'}: {g.winner} ({g.reason}), "
                f"{len(g.start) + len(g.moves)} plies; {record}",
                flush=True,
            )
            if g.messages:
                print(f"  our last messages: {' | '.join(m.removeprefix('MESSAGE ') for m in g.messages[-3:])}")
            if args.records is not None:
                with args.records.open("a") as f:
                    f.write(json.dumps({**g.__dict__, "label": label}) + "\n")
    print(summary(games, label), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
