"""Figures of the hostile-client attacks on ``main.py serve`` (docs/reliability.md), on 127.0.0.1.

    python tools/net_attack.py flood --flooders 1 [--relays 120]   # relay of an unrelated game
    python tools/net_attack.py locked [--seconds 20]               # RSS while commits fail, a flooder on
    python tools/net_attack.py drops [--cycles 1000]               # open a room, drop it, again and again

Every run starts its own server on a free port and temporary database and stops it at the end.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def serve(db: Path, *args: str) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, str(ROOT / "main.py"), "serve", "--port", "0", "--db", str(db), *args]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    match = re.search(r"127\.0\.0\.1:(\d+)", proc.stdout.readline())
    if match is None:
        proc.kill()
        raise SystemExit("the server did not start")
    return proc, int(match[1])


class Client:
    def __init__(self, port: int, **hello: Any) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.lines = self.sock.makefile("rb")
        self.receive()  # the announcing player line
        self.sock.sendall(json.dumps({"type": "hello", **hello}).encode() + b"\r\n")

    def receive(self) -> dict[str, Any]:
        line = self.lines.readline()
        if not line:
            raise ConnectionError("closed")
        return json.loads(line)  # type: ignore[no-any-return]

    def until(self, kind: str) -> dict[str, Any]:
        while (message := self.receive())["type"] != kind:
            pass
        return message

    def close(self) -> None:
        self.sock.close()


def room_pair(port: int, room: str) -> dict[int, Client]:
    clients = [Client(port, room=room) for _ in range(2)]
    seats = {client.until("welcome")["seat"]: client for client in clients}
    for client in clients:
        client.until("update")
    return seats


def flooder(port: int, room: str, stop: threading.Event) -> None:
    """An extended client that sends pings as fast as the server takes them, and reads the pongs."""
    pair = room_pair(port, room)
    sock = pair[2].sock
    threading.Thread(target=_drain, args=(sock, stop), daemon=True).start()
    batch = b'{"type": "ping"}\r\n' * 500
    while not stop.is_set():
        try:
            sock.sendall(batch)
        except OSError:
            return


def _drain(sock: socket.socket, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            if not sock.recv(1 << 16):
                return
        except OSError:
            return


def relays(port: int, count: int) -> list[float]:
    """Play games in rooms, each move sent at once: seconds from a move's send to the opponent's update."""
    out: list[float] = []
    game = 0
    while len(out) < count:
        seats = room_pair(port, f"measured{game}")
        game += 1
        heights, mover = [0] * 7, 1
        while len(out) < count:
            column = min(range(7), key=lambda c: (heights[c] >= 6, (c * 5 + sum(heights)) % 7))
            heights[column] += 1
            sent = time.perf_counter()
            seats[mover].sock.sendall(json.dumps({"type": "action", "message": {"column": column}}).encode() + b"\r\n")
            update = seats[3 - mover].until("update")
            out.append(time.perf_counter() - sent)
            seats[mover].until("update")
            if "winners" in update:
                break
            mover = 3 - mover
        for client in seats.values():
            client.close()
    return out


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def run_flood(args: argparse.Namespace, db: Path) -> None:
    proc, port = serve(db)
    stop = threading.Event()
    try:
        for n in range(args.flooders):
            threading.Thread(target=flooder, args=(port, f"flood{n}", stop), daemon=True).start()
        time.sleep(1.0)  # the flooders are at it
        times = sorted(relays(port, args.relays))
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1000
        print(
            f"{args.flooders} ping flooder(s): relay of an unrelated game over {len(times)} moves: "
            f"p50 {statistics.median(times) * 1000:.2f} ms, p99 {p99:.2f} ms, max {times[-1] * 1000:.2f} ms"
        )
    finally:
        stop.set()
        proc.kill()
        proc.wait(10)


def run_locked(args: argparse.Namespace, db: Path) -> None:
    proc, port = serve(db)
    stop = threading.Event()
    try:
        busy = room_pair(port, "busy")
        locker = sqlite3.connect(db, isolation_level=None, timeout=0)
        locker.execute("BEGIN EXCLUSIVE")  # another program holds the file: every commit fails
        busy[1].sock.sendall(b'{"type": "action", "message": {"column": 3}}\r\n')  # waits for its commit
        threading.Thread(target=flooder, args=(port, "flood", stop), daemon=True).start()
        quiet = room_pair(port, "quiet")
        start_rss, peak = rss_mb(proc.pid), 0.0
        end = time.monotonic() + args.seconds
        pongs = 0
        while time.monotonic() < end:
            quiet[1].sock.sendall(b'{"type": "ping"}\r\n')
            quiet[1].until("pong")
            pongs += 1
            peak = max(peak, rss_mb(proc.pid))
            time.sleep(0.5)
        locker.execute("ROLLBACK")
        update = busy[2].until("update")
        print(
            f"commits failing for {args.seconds:g} s with a ping flooder: server RSS {start_rss:.0f} MB -> "
            f"peak {peak:.0f} MB; another game's pings answered {pongs} of {pongs}; the held move told "
            f"once the file was free: {update.get('moves')!r}"
        )
    finally:
        stop.set()
        proc.kill()
        proc.wait(10)


def run_drops(args: argparse.Namespace, db: Path) -> None:
    proc, port = serve(db)
    try:
        started = time.monotonic()
        declined = 0
        for n in range(args.cycles):
            clients = [Client(port, room=f"drop{n}") for _ in range(2)]
            for client in clients:  # both seated, the game started; then both drop
                try:
                    while (message := client.receive())["type"] not in ("update", "decline"):
                        pass
                    declined += message["type"] == "decline"
                except ConnectionError:
                    declined += 1
            for client in clients:
                client.close()
        elapsed = time.monotonic() - started
        pair = room_pair(port, "after")  # a new game still starts at once
        for client in pair.values():
            client.close()
        rows = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
        print(
            f"{args.cycles} rooms opened and dropped from one address in {elapsed:.1f} s ({declined} declined); "
            f"then a new game started at once; rows in the games file: {rows}"
        )
    finally:
        proc.kill()
        proc.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("attack", choices=("flood", "locked", "drops"))
    parser.add_argument("--flooders", type=int, default=1)
    parser.add_argument("--relays", type=int, default=120)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--cycles", type=int, default=1000)
    args = parser.parse_args(argv)
    if not (0 <= args.flooders <= 64 and 1 <= args.relays <= 10_000 and 0 < args.seconds <= 600):
        print("error: --flooders 0-64, --relays 1-10000, --seconds up to 600", file=sys.stderr)
        return 2
    if not 1 <= args.cycles <= 100_000:
        print("error: --cycles 1-100000", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="net-attack-") as tmp:
        db = Path(tmp) / "games.sqlite3"
        {"flood": run_flood, "locked": run_locked, "drops": run_drops}[args.attack](args, db)
    return 0


if __name__ == "__main__":
    sys.exit(main())
