"""Figures of issue 51's attacks on ``main.py serve`` (docs/reliability.md), on 127.0.0.1; the clients and
the server come from ``tools/net_attack.py``.

    python tools/net_siege.py second                          # a second server on a games file in use
    python tools/net_siege.py rooms [--addresses 32]          # waiting rooms held by pings, then a newcomer
    python tools/net_siege.py spectators [--spectators 900]   # non-reading spectators of a 19x19 room
    python tools/net_siege.py burst [--clients 1000]          # seed clients connecting in the same instant

Each run starts its own server on a free port and temporary database, prints one figure line (with the
load average of the machine) and stops the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.net_attack import ROOT, Client, relays, rss_mb, serve  # noqa: E402


def load() -> str:
    return "load " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def source(n: int) -> str:
    """The ``n``-th client address on loopback (127.0.1.1, 127.0.1.2 ...)."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def connect(port: int, address: str, small_buffer: bool = False) -> socket.socket:
    sock = socket.socket()
    if small_buffer:  # a client that reads nothing: the kernel holds little for it
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(30)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def first_line(sock: socket.socket) -> bytes:
    data = b""
    while b"\n" not in data:
        chunk = sock.recv(1)
        if not chunk:
            break
        data += chunk
    return data


def run_second(args: argparse.Namespace, db: Path) -> None:
    proc, _ = serve(db)
    try:
        second = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "serve", "--port", "0", "--db", str(db)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        print(f"second server on the same file: exit {second.returncode}: {second.stderr.strip()}  ({load()})")
    finally:
        proc.kill()
        proc.wait(10)


def run_rooms(args: argparse.Namespace, db: Path) -> None:
    proc, port = serve(db)
    stop = threading.Event()
    held: list[socket.socket] = []
    declined = 0
    try:
        for a in range(args.addresses):
            for n in range(32):  # the connection limit of an address
                sock = connect(port, source(a))
                first_line(sock)
                sock.sendall(json.dumps({"type": "hello", "room": f"hold-{a}-{n}"}).encode() + b"\r\n")
                answer = first_line(sock)
                if b'"decline"' in answer:
                    declined += 1
                    sock.close()
                else:
                    held.append(sock)

        def ping() -> None:
            while not stop.wait(2.0):
                for sock in held:
                    try:
                        sock.sendall(b'{"type": "ping"}\r\n')
                        sock.recv(65536)
                    except OSError:
                        pass

        threading.Thread(target=ping, daemon=True).start()
        time.sleep(args.seconds)  # the rooms are held by their pings meanwhile
        newcomer = Client(port, room="newcomer")
        other = Client(port, room="newcomer")
        seated = newcomer.until("welcome").get("message") == "player" and other.until("welcome")
        print(
            f"{args.addresses} addresses x 32 connections opening rooms, pinged every 2 s for {args.seconds:g} s: "
            f"{len(held)} rooms held, {declined} declined (16 per address); a new player "
            f"{'seated' if seated else 'NOT seated'}  ({load()})"
        )
    finally:
        stop.set()
        for sock in held:
            sock.close()
        proc.kill()
        proc.wait(10)


def run_spectators(args: argparse.Namespace, db: Path) -> None:
    proc, port = serve(db, "--max-games-per-address", "1000")
    watchers: list[socket.socket] = []
    try:
        players = [Client(port, game="mnk:19x19:5", room="big") for _ in range(2)]
        seats = {client.until("welcome")["seat"]: client for client in players}
        for client in players:
            client.until("update")
        start_rss = rss_mb(proc.pid)
        for n in range(args.spectators):
            sock = connect(port, source(n // 30), small_buffer=True)
            first_line(sock)
            sock.sendall(b'{"type": "hello", "room": "big", "spectate": true}\r\n')
            watchers.append(sock)  # never read again
        cells = list(range(19 * 19))
        random.Random(1).shuffle(cells)
        peak, mover, moves = rss_mb(proc.pid), 1, 0
        done = threading.Event()
        measured: list[float] = []

        def measure() -> None:
            measured.extend(relays(port, args.relays))
            done.set()

        threading.Thread(target=measure, daemon=True).start()
        for cell in cells:
            action = {"row": cell // 19, "column": cell % 19}
            seats[mover].sock.sendall(json.dumps({"type": "action", "message": action}).encode() + b"\r\n")
            update = seats[mover].until("update")
            moves += 1
            peak = max(peak, rss_mb(proc.pid))
            if "winners" in update or (done.is_set() and moves >= args.moves):
                break
            mover = 3 - mover
        done.wait(120)
        times = sorted(measured)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1000 if times else float("nan")
        print(
            f"{args.spectators} non-reading spectators of a 19x19 room, {moves} moves: server RSS "
            f"{start_rss:.0f} -> peak {peak:.0f} MB; another game's relay over {len(times)} moves p99 "
            f"{p99:.2f} ms  ({load()})"
        )
    finally:
        for sock in watchers:
            sock.close()
        proc.kill()
        proc.wait(10)


async def seed_player(port: int, rng: random.Random, out: dict[str, int]) -> None:
    """A seed-protocol client: no hello; a random legal column after 150-450 ms of thought."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        out["refused"] += 1
        return
    seat, heights, got_first = None, [0] * 7, False
    try:
        while True:
            line = await asyncio.wait_for(reader.readline(), 240)
            if not line:
                break
            if not got_first:
                got_first = True
                out["first"] += 1
            message: dict[str, Any] = json.loads(line)
            if message["type"] == "player":
                seat = message["message"]
            elif message["type"] == "update":
                heights = [0] * 7
                for piece in message["state"]["pieces"]:
                    heights[piece["column"]] += 1
                if "winners" in message:
                    out["finished"] += 1
                    break
                if message["state"]["player"] == seat:
                    await asyncio.sleep(rng.uniform(0.15, 0.45))
                    column = rng.choice([c for c in range(7) if heights[c] < 6])
                    writer.write(json.dumps({"type": "action", "message": {"column": column}}).encode() + b"\r\n")
            elif message["type"] == "decline":
                out["declined"] += 1
                break
    except (TimeoutError, OSError, ValueError):
        pass
    finally:
        writer.close()


async def burst(port: int, clients: int) -> dict[str, int]:
    out = {"first": 0, "finished": 0, "declined": 0, "refused": 0}
    rng = random.Random(7)
    await asyncio.gather(*(seed_player(port, random.Random(rng.random()), out) for _ in range(clients)))
    return out


def run_burst(args: argparse.Namespace, db: Path) -> None:
    proc, port = serve(db, "--max-per-address", "4000", "--max-games-per-address", "4000")
    try:
        started = time.monotonic()
        out = asyncio.run(burst(port, args.clients))
        print(
            f"{args.clients} seed clients connecting at once: {out['first']} got a first line, "
            f"{out['finished']} finished a game, {out['declined']} declined, {out['refused']} refused, "
            f"in {time.monotonic() - started:.0f} s  ({load()})"
        )
    finally:
        proc.kill()
        proc.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("attack", choices=("second", "rooms", "spectators", "burst"))
    parser.add_argument("--addresses", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--spectators", type=int, default=900)
    parser.add_argument("--moves", type=int, default=200, help="spectators: at least this many moves")
    parser.add_argument("--relays", type=int, default=200)
    parser.add_argument("--clients", type=int, default=1000)
    args = parser.parse_args(argv)
    if not (1 <= args.addresses <= 125 and 1 <= args.spectators <= 3000 and 2 <= args.clients <= 4000):
        print("error: --addresses 1-125, --spectators 1-3000, --clients 2-4000", file=sys.stderr)
        return 2
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="net-siege-") as tmp:
        db = Path(tmp) / "games.sqlite3"
        {"second": run_second, "rooms": run_rooms, "spectators": run_spectators, "burst": run_burst}[args.attack](
            args, db
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
