"""Load and fault benchmark of the game server (a benchmark command, not a test).

``python -m game.net.bench --games 500``: starts ``main.py serve`` (pinned to one core), plays that
many Connect 4 games at once with scripted clients (random legal moves, a think time each) on
loopback, and prints the move relay latency (from the mover's client writing its action to the
opponent's client reading the update, both in this process) p50/p99, the server's CPU time and
peak RSS, and the machine's load average before and after.

Where the time goes: the server writes, for every move, when it read the line and when it wrote
the updates (``CONNECT4_SERVER_TRACE``, system-wide monotonic clock), so each relay splits into
send -> server read (the kernel and the server's wait for the CPU), read -> committed -> written
(the server's work), written -> opponent's read (the kernel and this client process's wait).

``--fault``: SIGKILLs the server mid-games, restarts it on the same port and database, lets every
client reconnect with its seat token, and counts the games resumed with every move kept.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TRACE_VARIABLE = "CONNECT4_SERVER_TRACE"  # game.net.server.TRACE_VARIABLE
SEGMENTS = ("send -> server read", "server read -> committed -> written", "written -> opponent read")


def start_server(db: Path, port: int, connections: int, trace: Path, pin: bool) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--max-per-address",
            str(connections + 10),
            "--max-connections",
            str(connections + 10),
            "--max-games",
            str(connections),
            "--max-games-per-address",
            str(connections),
            "--grace-s",
            "120",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1", **{TRACE_VARIABLE: str(trace)}),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r":(\d+)\s", line)
    if not match:
        raise SystemExit(f"server did not start: {line!r}")
    if pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(proc.pid, {0})  # the server on one core, the clients (this process) on the others
        os.sched_setaffinity(0, set(range(1, os.cpu_count() or 2)) or {0})
    return proc, int(match[1])


def proc_usage(pid: int) -> tuple[float, int]:
    """(CPU seconds, peak RSS in kB) of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    hwm = re.search(r"VmHWM:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
    return cpu, int(hwm[1]) if hwm else 0


class Player:
    """One scripted client of one game (an extended client in room ``room``)."""

    def __init__(self, bench: Bench, room: str, rng: random.Random) -> None:
        self.bench = bench
        self.room = room
        self.rng = rng
        self.token: str | None = None
        self.seat = 0
        self.seen = ""  # the moves of the last update received
        self.done = False
        self.resumed_ok: bool | None = None
        self.mismatch = ""

    async def run(self) -> None:
        while not self.done:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.bench.port)
            except OSError:
                await asyncio.sleep(0.2)
                continue
            hello = {"type": "hello", "token": self.token} if self.token else {"type": "hello", "room": self.room}
            writer.write(json.dumps(hello).encode() + b"\r\n")
            try:
                await self._read(reader, writer)
            except (OSError, ValueError):
                pass
            writer.close()
            if not self.done:
                await asyncio.sleep(0.2 + self.rng.random() * 0.3)

    async def _read(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        resumed = self.token is not None
        while True:
            raw = await reader.readline()
            now = time.monotonic()
            if not raw:
                return
            message = json.loads(raw)
            kind = message["type"]
            if kind == "welcome":
                self.token = message["token"]
                self.seat = message["seat"]
            elif kind == "decline":
                self.bench.declined += 1
                self.done = True
                return
            elif kind == "update":
                moves = message.get("moves", "")
                if resumed:
                    resumed = False
                    self.resumed_ok = moves.startswith(self.seen)
                    if not self.resumed_ok:
                        self.mismatch = f"{self.room} seat {self.seat}: had seen {self.seen!r}, resumed at {moves!r}"
                self.seen = moves
                last = message.get("last_action")
                if last and last["player"] != self.seat:
                    sent = self.bench.sent_at.pop((self.room, last["sequence"]), None)
                    if sent is not None:
                        self.bench.relays.append((self.room, last["sequence"], sent, now))
                if "winners" in message:
                    self.done = True
                    self.bench.finished += 1
                    return
                if message["state"]["player"] == self.seat:
                    asyncio.get_running_loop().create_task(self._move(writer, message["state"], len(moves)))

    async def _move(self, writer: asyncio.StreamWriter, state: dict[str, Any], ply: int) -> None:
        await asyncio.sleep(self.rng.uniform(*self.bench.think_s))
        heights = [0] * 7
        for piece in state["pieces"]:
            heights[piece["column"]] += 1
        column = self.rng.choice([c for c in range(7) if heights[c] < 6])
        line = json.dumps({"type": "action", "message": {"column": column}}).encode() + b"\r\n"
        if not writer.is_closing():
            self.bench.sent_at[(self.room, ply + 1)] = time.monotonic()
            writer.write(line)


class Bench:
    def __init__(self, args: argparse.Namespace, port: int) -> None:
        self.port = port
        self.think_s = (args.think_ms[0] / 1000, args.think_ms[1] / 1000)
        self.relays: list[Relay] = []
        self.sent_at: dict[tuple[str, int], float] = {}
        self.finished = 0
        self.declined = 0
        rng = random.Random(args.seed)
        self.players = [
            Player(self, f"bench{i}", random.Random(rng.random())) for i in range(args.games) for _ in range(2)
        ]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def cpu_wait_s(pid: int | str) -> float:
    """Seconds the process's main thread has spent runnable but waiting for a CPU (Linux schedstat)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return float("nan")


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def read_trace(path: Path) -> dict[tuple[str, int], tuple[float, float]]:
    """(room, move number) -> (server read, server written), from the server's trace file."""
    trace = {}
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            room, ply, read, written = line.split("\t")
            trace[(room, int(ply))] = (float(read), float(written))
    except (OSError, ValueError):
        pass
    return trace


Relay = tuple[str, int, float, float]  # room, move number, sent, received (time.monotonic)


def print_breakdown(relays: list[Relay], trace: dict[tuple[str, int], tuple[float, float]]) -> None:
    """Each relay split at the server's read and write: p50/p99 of each part, and their means over
    the slowest 1% of relays (what the tail is made of)."""
    parts = []
    for room, ply, sent, received in relays:
        server = trace.get((room, ply))
        if server is not None:
            parts.append((received - sent, server[0] - sent, server[1] - server[0], received - server[1]))
    if not parts:
        print("breakdown: no server trace")
        return
    print(f"where the time goes ({len(parts)} relays matched with the server's trace), ms p50 / p99:")
    for i, name in enumerate(SEGMENTS, start=1):
        values = [p[i] * 1000 for p in parts]
        print(f"  {name:<38} {percentile(values, 0.5):7.2f} / {percentile(values, 0.99):7.2f}")
    tail = sorted(parts, reverse=True)[: max(1, len(parts) // 100)]
    means = ", ".join(
        f"{name} {sum(p[i] for p in tail) / len(tail) * 1000:.1f}" for i, name in enumerate(SEGMENTS, start=1)
    )
    print(f"  slowest 1% ({len(tail)} relays, mean {sum(p[0] for p in tail) / len(tail) * 1000:.1f} ms): {means}")


async def _run(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="netbench-"))
    db, trace = folder / "games.db", folder / "trace.tsv"
    connections = args.games * 2
    load_before = load_average()
    server, port = start_server(db, 0, connections, trace, args.pin)
    bench = Bench(args, port)
    gc.collect()  # the clients measure: keep their collector's pauses short too (as the server does)
    gc.freeze()
    gc.set_threshold(5_000, 20, 50)
    cpu0, _ = proc_usage(server.pid)
    waits0 = cpu_wait_s(server.pid), cpu_wait_s("self")
    start = time.perf_counter()
    tasks = []
    for i, player in enumerate(bench.players):  # connect at a ramp (args.ramp connections per 0.1 s)
        tasks.append(asyncio.create_task(player.run()))
        if i % args.ramp == args.ramp - 1:
            await asyncio.sleep(0.1)
    killed_at = None
    finished_before = 0
    if args.fault:
        await asyncio.sleep(args.kill_after_s)
        killed_at = time.perf_counter() - start
        cpu_before_kill, _ = proc_usage(server.pid)
        server.send_signal(signal.SIGKILL)
        server.wait()
        finished_before = bench.finished // 2
        bench.sent_at.clear()  # moves sent across the restart are not relay latency
        server, _ = start_server(db, port, connections, trace, args.pin)
    done, pending = await asyncio.wait(tasks, timeout=args.timeout_s)
    elapsed = time.perf_counter() - start
    cpu1, rss = proc_usage(server.pid)
    waits = cpu_wait_s(server.pid) - (waits0[0] if not args.fault else 0.0), cpu_wait_s("self") - waits0[1]
    for task in pending:
        task.cancel()
    server.send_signal(signal.SIGTERM)
    tail, _ = server.communicate(timeout=10)
    print("server: " + tail.strip().splitlines()[-1].split("; ", 2)[-1] if tail.strip() else "server: (no summary)")
    ms = [(received - sent) * 1000 for _, _, sent, received in bench.relays]
    print(
        f"{args.games} games, {connections} connections, {len(ms)} moves relayed in {elapsed:.1f} s "
        f"(think {args.think_ms[0]}-{args.think_ms[1]} ms); finished {bench.finished // 2}, "
        f"declined {bench.declined}"
    )
    print(f"load average (1, 5, 15 min) before {load_before}, after {load_average()} on {os.cpu_count()} cores")
    if ms:
        print(
            f"relay latency (mover's send -> opponent's read) p50 {statistics.median(ms):.2f} ms, "
            f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
        )
        print_breakdown(bench.relays, read_trace(trace))
    cpu = (cpu1 - cpu0) if not args.fault else cpu1
    print(
        f"server (one core): CPU {cpu:.2f} s ({100 * cpu / elapsed:.0f}% of one core"
        f"{' after the restart' if args.fault else ''}), peak RSS {rss / 1024:.1f} MiB"
    )
    print(
        f"time spent ready to run but waiting for a CPU (other programs on the machine): server "
        f"{waits[0]:.2f} s, the clients' process {waits[1]:.2f} s"
    )
    if args.fault:
        resumed = [p for p in bench.players if p.resumed_ok is not None]
        games = {p.room for p in resumed}
        kept = {p.room for p in resumed if p.resumed_ok} - {p.room for p in resumed if not p.resumed_ok}
        print(
            f"fault: SIGKILL at {killed_at:.1f} s (server CPU {cpu_before_kill:.2f} s before); "
            f"{finished_before} games had ended before; games resumed with every move kept: "
            f"{len(kept)}/{len(games)}; games finished in all: {bench.finished // 2}/{args.games}"
        )
        for example in [p.mismatch for p in resumed if p.mismatch][:3]:
            print(f"  not kept: {example}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.net.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games at once (2 connections each; default 500)")
    parser.add_argument(
        "--think-ms",
        type=int,
        nargs=2,
        default=(200, 1000),
        metavar=("MIN", "MAX"),
        help="each client's think time per move (default 200 1000)",
    )
    parser.add_argument("--timeout-s", type=float, default=120.0, help="stop after this long (default 120)")
    parser.add_argument("--fault", action="store_true", help="SIGKILL the server mid-games and restart it")
    parser.add_argument("--kill-after-s", type=float, default=5.0, help="with --fault: when to kill (default 5)")
    parser.add_argument("--ramp", type=int, default=50, help="connections opened per 0.1 s (default 50)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-pin",
        dest="pin",
        action="store_false",
        help="let the scheduler place the server and the clients (default: server on core 0, "
        "clients on the others); the server is one thread either way",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 2000:
        parser.error("--games must be 1-2000")
    return asyncio.run(_run(args))


if __name__ == "__main__":
    sys.exit(main())
