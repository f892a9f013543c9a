"""``python main.py serve``: the game server (docs/network-protocol.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import signal
import socket
import sqlite3
import sys
import threading

from game.net.descriptors import raise_open_file_limit
from game.net.file_lock import GamesFileInUse, lock_games_file
from game.net.room import DEFAULT_GRACE_S
from game.net.server import GameServer, Limits, fd_capped, timing_summary, tune_collector
from game.net.store import GameStore, default_db_path

DAY_S = 86400.0  # the longest grace, per-move limit
MAX_COUNT = 1_000_000  # the most connections, games


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="connect4", help="game of the public games (default connect4)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer)")
    parser.add_argument("--port", type=int, default=4242, help="TCP port (default 4242; 0 = any free port)")
    parser.add_argument("--db", default=None, help="SQLite file of the games (default: in the user data dir)")
    parser.add_argument(
        "--grace-s", type=float, default=DEFAULT_GRACE_S, help="how long a dropped player keeps its seat (default 60)"
    )
    parser.add_argument("--max-games", type=int, default=Limits.max_games, help="games at once (default 1000)")
    parser.add_argument(
        "--max-per-address", type=int, default=Limits.max_per_address, help="connections from one address (default 32)"
    )
    parser.add_argument(
        "--max-games-per-address",
        type=int,
        default=Limits.max_games_per_address,
        help="games in progress with a player from one address (default 16)",
    )
    parser.add_argument(
        "--max-connections", type=int, default=Limits.max_connections, help="connections at once (default 4000)"
    )
    parser.add_argument(
        "--idle-s",
        type=float,
        default=Limits.idle_s,
        help="close a connection silent this long when it must move (default 600)",
    )
    parser.add_argument(
        "--prune-days",
        type=float,
        default=None,
        metavar="DAYS",
        help="delete finished games older than this, at start and every hour (default: keep them all)",
    )
    parser.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="stop when standard input closes (the app that started this server quit)",
    )


def _shared_address(host: str) -> str:
    """The address other computers use when listening on every interface: the address of the interface
    that routes out (a UDP socket's connect sends nothing), else this machine's name lookup (which on
    many systems answers a loopback address, useless to another computer)."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
        address = str(probe.getsockname()[0])
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return host


async def _main(args: argparse.Namespace, limits: Limits) -> int:
    path = args.db or default_db_path()
    try:
        lock = lock_games_file(path)  # one server per file: a second one would overwrite told moves
    except GamesFileInUse as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot use the games database {path}: {exc}", file=sys.stderr)
        return 1
    try:
        store = GameStore(path)
        server = GameServer(args.game, store, limits)
        restored = server.restore()
    except (sqlite3.Error, OSError) as exc:
        print(f"error: cannot use the games database {path}: {exc}", file=sys.stderr)
        return 1
    if store.damaged:
        names = "; ".join(f"{game_id} ({reason})" for game_id, reason in store.damaged[:10])
        more = f"; and {len(store.damaged) - 10} more" if len(store.damaged) > 10 else ""
        print(
            f"warning: {len(store.damaged)} damaged game(s) in {path} not restored, kept aside (over = -1): "
            f"{names}{more}",
            file=sys.stderr,
        )
    if args.prune_days is not None:
        _prune(store, args.prune_days)
    tune_collector()
    try:
        host, port = await server.start(args.host, args.port)
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(
        f"serving {server.default_game} on {host}:{port}  (share: {_shared_address(host)}:{port}; "
        f"{restored} unfinished game(s) restored from {store.path})",
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    if args.exit_with_parent:
        threading.Thread(target=_stop_at_end_of_input, args=(loop, stop), daemon=True).start()
    serving = asyncio.create_task(server.serve_forever())
    await stop.wait()
    serving.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await serving
    store.close()
    if lock is not None:
        lock.release()
    print(f"server stopped; unfinished games are kept; {timing_summary(server)}", flush=True)
    return 0


def _prune(store: GameStore, days: float) -> None:
    """Delete the games finished more than ``days`` ago, now and every hour."""
    pruned = store.prune(days)
    if pruned:
        print(f"pruned {pruned} game(s) finished more than {days:g} day(s) ago", file=sys.stderr, flush=True)
    with contextlib.suppress(RuntimeError):
        asyncio.get_running_loop().call_later(3600, _prune, store, days)


def _stop_at_end_of_input(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    with contextlib.suppress(OSError, ValueError):
        while sys.stdin.buffer.read(4096):
            pass
    with contextlib.suppress(RuntimeError):  # the loop already ended
        loop.call_soon_threadsafe(stop.set)


def run(args: argparse.Namespace) -> int:
    from game.rules.errors import GameError
    from game.rules.registry import get_game

    try:
        get_game(args.game)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print("error: --port must be 0-65535", file=sys.stderr)
        return 2
    bounds = {
        "--grace-s": (args.grace_s, DAY_S),
        "--idle-s": (args.idle_s, DAY_S),
        "--max-games": (args.max_games, MAX_COUNT),
        "--max-per-address": (args.max_per_address, MAX_COUNT),
        "--max-connections": (args.max_connections, MAX_COUNT),
        "--max-games-per-address": (args.max_games_per_address, MAX_COUNT),
        "--prune-days": (36500 if args.prune_days is None else args.prune_days, 36500),
    }
    for option, (value, high) in bounds.items():
        if not (math.isfinite(value) and 0 < value <= high):
            print(f"error: {option} must be a number above 0 and at most {high:g}", file=sys.stderr)
            return 2
    open_files = raise_open_file_limit()
    limits = Limits(
        max_per_address=args.max_per_address,
        max_connections=args.max_connections,
        max_games=args.max_games,
        max_games_per_address=args.max_games_per_address,
        idle_s=args.idle_s,
        grace_s=args.grace_s,
    )
    capped = fd_capped(limits, open_files)
    if capped.max_connections < limits.max_connections:
        print(
            f"note: at most {capped.max_connections} connections (the open-file limit is {open_files})",
            file=sys.stderr,
        )
    return asyncio.run(_main(args, capped))
