"""The engine's first launch on a fresh HOME (cold numba cache), then a warm one, through the app's client.

    python -m ai.benchmarks.first_launch [--game connect4] [--move-ms 1000]

Each launch starts an ``EngineClient`` and at once asks for a bot move (``go`` of ``--move-ms``),
as the app does when the bot moves first, and prints: the engine's first line (``ready``), the
game prepared (its last ``preparing`` step), the first ``bestmove``, and whether it compiled.
The HOME (and so the cache) is a fresh temporary directory, used twice: cold, then warm.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

from ai.client.engine_client import EngineClient, Limit
from ai.vocab.results import BestMove, Preparing, Ready


def launch(game: str, move_ms: int) -> dict[str, float | bool | None]:
    started = time.monotonic()
    client = EngineClient()
    client.start()
    client.set_position(game, "")
    client.go(Limit(time_ms=move_ms), info_ms=100)
    seen: dict[str, float | bool | None] = {"ready_s": None, "prepared_s": None, "bestmove_s": None, "compiled": False}
    try:
        while seen["bestmove_s"] is None and time.monotonic() - started < 900:
            for reply in client.poll_replies():
                now = time.monotonic() - started
                if isinstance(reply, Ready):
                    seen["ready_s"] = now
                elif isinstance(reply, Preparing) and reply.game == game:
                    seen["compiled"] = bool(seen["compiled"]) or reply.compiling
                    if reply.finished and seen["prepared_s"] is None:
                        seen["prepared_s"] = now
                elif isinstance(reply, BestMove):
                    seen["bestmove_s"] = now
            time.sleep(0.016)  # sleep-ok: the app's frame loop polls once a frame, as measured
    finally:
        client.close()
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.benchmarks.first_launch", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--move-ms", type=int, default=1000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="first-launch-") as home:
        os.environ.update(HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"))
        os.environ.pop("NUMBA_CACHE_DIR", None)
        for label in ("cold (fresh HOME)", "warm (same HOME)"):
            r = launch(args.game, args.move_ms)

            def s(key: str, r: dict[str, float | bool | None] = r) -> str:
                value = r[key]
                return "never" if value is None else f"{value:.2f} s"

            print(
                f"{label:<18}: ready {s('ready_s')}, {args.game} prepared {s('prepared_s')}, first bot move "
                f"({args.move_ms} ms search) {s('bestmove_s')}; compiled: {r['compiled']}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
