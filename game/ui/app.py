"""Entry point of the desktop app: ``add_arguments(parser)`` and ``run(args) -> int``.

SDL reads its headless switches when the window opens, so importing pygame here is safe.
"""

from __future__ import annotations

import argparse
import sys

from game.play.limits import MAX_BENCH_SECONDS, check_range
from game.play.players import DIFFICULTY_KEYS, MODE_SPELLINGS
from game.play.settings import THEME_KEYS
from game.ui.cli import run_app
from game.ui.frame_bench import run_bench


def add_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("app")
    g.add_argument("--mode", choices=MODE_SPELLINGS, help="hotseat, vs-bot (default) or bot-vs-bot (also: bot, botbot)")
    g.add_argument("--human", choices=("first", "second"), help="in vs-bot: whether you move first or second")
    g.add_argument("--bot", choices=DIFFICULTY_KEYS, help="difficulty of every bot")
    g.add_argument("--bot-time", type=int, metavar="MS", help="custom bot budget in milliseconds (sets --bot custom)")
    g.add_argument("--theme", choices=THEME_KEYS, help="colour theme")
    g.add_argument("--heatmap", action="store_true", help="show the visit heatmap")
    g.add_argument("--exact", action="store_true", help="Connect 4: exact verdicts under the columns")
    g.add_argument("--no-eval", action="store_true", help="hide the eval bar")
    g.add_argument("--mute", action="store_true", help="no sound")
    g.add_argument("--size", metavar="WxH", help="window size, e.g. 1280x800")
    g.add_argument("--load", metavar="FILE", help="open a saved game file")
    g.add_argument("--new", action="store_true", help="ignore the autosaved game")
    g.add_argument("--review", action="store_true", help="review the game on opening (the V key)")
    g.add_argument("--screenshot", metavar="PATH", help="render the view to a PNG and exit (works headless)")
    g.add_argument(
        "--screenshot-wait",
        type=int,
        metavar="MS",
        help="longest wait for the engine's analysis before the shot (default 3000)",
    )
    g.add_argument("--smoke", action="store_true", help="headless self-test: a short bot-vs-bot game, then exit")
    g.add_argument(
        "--frame-bench",
        type=float,
        metavar="SECONDS",
        help="print frame times while the engine thinks for SECONDS (headless unless --bench-window)",
    )
    g.add_argument("--bench-window", action="store_true", help="--frame-bench in a real window")


MIN_BENCH_SECONDS = 0.1


def run(args: argparse.Namespace) -> int:
    if getattr(args, "frame_bench", None) is not None:
        problem = check_range("--frame-bench", args.frame_bench, MIN_BENCH_SECONDS, MAX_BENCH_SECONDS)
        if problem:
            print(f"connect4: error: {problem}", file=sys.stderr)
            return 2
        return run_bench(args.frame_bench, args.bench_window, args.size or "1280x800")
    return run_app(args)
