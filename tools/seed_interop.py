"""Check interop with the seed protocol's published programs (``../shared/seed-protocol``), both ways.

    python tools/seed_interop.py [--seed-dir ../shared/seed-protocol] [--uct-s 0.2] [--strength-games 0]

Installs the seed programs (their own ``install.sh``) into a temporary venv, then plays whole games:

1. two seed UCT clients (``board-play.py GAME jrb.mcts.uct``) on our server (``main.py serve``), at
   Connect 4 and at Ultimate TTT (their ``t3``);
2. our bot (``main.py bot``, no flag) against a seed UCT client on the seed's server
   (``board-serve.py``), at both games.

``--strength-games N`` then plays N Connect 4 games of our bot, given 1/5 of the UCT's time per move
(``--strength-uct-s``, default 1 s; the bot does not ponder), against the seed's UCT on the seed's
server, and prints the bot's score. Exit status 0 when every game of 1-2 ended with a result on both
sides, 1 otherwise, 2 when the seed programs are not there. Every process is bounded in time.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED_GAMES = {"connect4": "connect_four", "uttt": "t3"}
GAME_TIMEOUT_S = 300.0
ENDED = re.compile(r"Winner: Player \d|Stalemate|Draw\.")  # the boards' closing words


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONUNBUFFERED="1")


def install(seed_dir: Path, into: Path) -> Path:
    run = subprocess.run(["bash", str(seed_dir / "install.sh"), str(into)], capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise SystemExit(f"error: installing the seed programs failed: {run.stderr.strip().splitlines()[-1:]}")
    return into / "bin"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    """Whether something listens on 127.0.0.1:port, read from /proc (a probe connection would take a
    seat on the seed's server)."""
    wanted = f":{port:04X}"
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        if any(row.split()[1].endswith(wanted) and row.split()[3] == "0A" for row in rows):
            return True
    return False


def wait_listening(port: int, proc: subprocess.Popen[str], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if listening(port):
            return
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode}) before listening")
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout:g} s")


def finish(procs: list[subprocess.Popen[str]], timeout: float) -> list[str]:
    """Wait for ``procs`` (killed at ``timeout``); their outputs (stdout + stderr, which go to files:
    a pipe nobody reads while waiting for another process would fill up and stop a chatty client)."""
    end = time.monotonic() + timeout
    outs = []
    for proc in procs:
        try:
            proc.wait(timeout=max(0.1, end - time.monotonic()))
            note = ""
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            note = f"\n(killed after {timeout:g} s)"
        log = _LOGS.pop(proc.pid)
        outs.append(log.read_text(errors="replace") + note)
    return outs


_LOGS: dict[int, Path] = {}


def spawn(command: list[str], log: Path) -> subprocess.Popen[str]:
    """Start ``command`` with its output (both streams) into ``log``."""
    with log.open("w") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=_env()
        )
    _LOGS[proc.pid] = log
    return proc


def uct_client(bin_dir: Path, game: str, port: int, seconds: float, log: Path) -> subprocess.Popen[str]:
    command = [str(bin_dir / "board-play.py"), SEED_GAMES[game], "jrb.mcts.uct", "127.0.0.1", str(port)]
    return spawn([*command, "-e", f"time={seconds}"], log)


def two_ucts_on_our_server(bin_dir: Path, game: str, seconds: float, work: Path) -> bool:
    port = free_port()
    command = [sys.executable, str(ROOT / "main.py"), "serve", "--game", game, "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--db", str(work / f"{game}.sqlite3")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()  # "serving ..."
        started = time.monotonic()
        clients = [uct_client(bin_dir, game, port, seconds, work / f"uct-{game}-{n}.log") for n in range(2)]
        outs = finish(clients, GAME_TIMEOUT_S)
    finally:
        server.terminate()
        server_out, server_err = server.communicate(timeout=10)
    ends = [ENDED.search(out) for out in outs]
    ok = all(ends) and ends[0][0] == ends[1][0]  # type: ignore[index]
    result = ends[0][0] if ends[0] else "no result"
    print(
        f"two seed UCT clients on our server, {game}: {'ok' if ok else 'FAILED'} ({result}; "
        f"{time.monotonic() - started:.1f} s)"
    )
    if not ok:
        for out in outs:
            lines = out.strip().splitlines()
            print("  | " + "\n  | ".join(lines[:3] + ["..."] + lines[-30:]))
        print("  server: " + (server_out + server_err).strip()[-2000:])
    return ok


def bot_on_seed_server(bin_dir: Path, game: str, uct_s: float, bot_ms: float, ponder: bool, work: Path) -> str | None:
    """One game of our bot (no flag) against the seed UCT on the seed's server: "won" / "lost" /
    "draw", or None when the game did not end properly."""
    port = free_port()
    server = subprocess.Popen(
        [str(bin_dir / "board-serve.py"), SEED_GAMES[game], "127.0.0.1", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        env=_env(),
    )
    try:
        wait_listening(port, server)
        command = [sys.executable, str(ROOT / "main.py"), "bot", "--game", game, "--connect", f"127.0.0.1:{port}"]
        bot = spawn(
            [*command, "--time-ms", f"{bot_ms:g}", "--ponder" if ponder else "--no-ponder", "--quiet"],
            work / "bot.log",
        )
        uct = uct_client(bin_dir, game, port, uct_s, work / "uct.log")
        bot_out, uct_out = finish([bot, uct], GAME_TIMEOUT_S)
    finally:
        server.kill()
        server.wait(10)
    match = re.search(r"game over after (\d+) moves: we (won|lost)|game over after (\d+) moves: draw", bot_out)
    if bot.returncode != 0 or match is None or not ENDED.search(uct_out):
        print("  | " + "\n  | ".join((bot_out + uct_out).strip().splitlines()[-10:]))
        return None
    outcome = match[2] or "draw"
    if outcome != "won":
        print("  bot: " + next(line for line in bot_out.splitlines() if "game over" in line))
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed-dir", type=Path, default=ROOT.parent / "shared" / "seed-protocol")
    parser.add_argument("--venv", type=Path, default=None, help="seed programs already installed here")
    parser.add_argument("--uct-s", type=float, default=0.2, help="the UCT's seconds per move in the checks")
    parser.add_argument("--bot-ms", type=float, default=200.0, help="our bot's time per move in the checks")
    parser.add_argument("--strength-games", type=int, default=0, help="Connect 4 games vs the UCT (default 0)")
    parser.add_argument("--strength-uct-s", type=float, default=1.0, help="the UCT's seconds per move there")
    parser.add_argument("--strength-game", choices=sorted(SEED_GAMES), default="connect4")
    parser.add_argument("--only", choices=("ours", "theirs"), default=None, help="run only one direction")
    args = parser.parse_args(argv)
    for value in (args.uct_s, args.bot_ms, args.strength_uct_s):
        if not 0 < value < 3600:
            print("error: times must be positive and under an hour", file=sys.stderr)
            return 2
    if not 0 <= args.strength_games <= 1000:
        print("error: --strength-games must be 0-1000", file=sys.stderr)
        return 2
    if args.venv is None and not (args.seed_dir / "install.sh").is_file():
        print(f"error: no seed programs at {args.seed_dir}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="seed-interop-") as tmp:
        work = Path(tmp)
        bin_dir = args.venv / "bin" if args.venv else install(args.seed_dir, work / "seed")
        print(f"seed programs: {bin_dir}", flush=True)
        ok = True
        for game in SEED_GAMES if args.only != "theirs" else ():
            ok &= two_ucts_on_our_server(bin_dir, game, args.uct_s, work)
        for game in SEED_GAMES if args.only != "ours" else ():
            started = time.monotonic()
            outcome = bot_on_seed_server(bin_dir, game, args.uct_s, args.bot_ms, ponder=True, work=work)
            ok &= outcome is not None
            print(
                f"our bot (no flag) vs the seed UCT on the seed's server, {game}: "
                f"{'ok, we ' + outcome if outcome else 'FAILED'} ({time.monotonic() - started:.1f} s)",
                flush=True,
            )
        if args.strength_games:
            bot_ms = args.strength_uct_s * 1000 / 5
            tally: dict[str, int] = {}
            for n in range(args.strength_games):
                outcome = bot_on_seed_server(
                    bin_dir, args.strength_game, args.strength_uct_s, bot_ms, ponder=False, work=work
                )
                tally[outcome or "failed"] = tally.get(outcome or "failed", 0) + 1
                print(f"  strength game {n + 1}: {outcome or 'failed'}", flush=True)
            won = tally.get("won", 0)
            print(
                f"strength, {args.strength_game}: our bot at {bot_ms:g} ms/move (no ponder) vs the seed UCT at "
                f"{args.strength_uct_s:g} s/move: won {won} of {args.strength_games} "
                f"({100 * won / args.strength_games:.0f}%); {tally}"
            )
        print("seed interop: " + ("ok" if ok else "FAILED"))
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
