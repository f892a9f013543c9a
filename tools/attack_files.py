"""Repeat the hostile-file attack of issue 17 (items 3-8) on the real app under X (Xvfb), each on a fresh HOME.

Usage: ``DISPLAY=:17 python tools/attack_files.py [--out DIR]`` (needs xdotool, xclip, ImageMagick's
``import``). Prints one line per attack with its outcome and measured times, and saves a screenshot
of each window in ``--out``. Not a test: a manual check whose figures go into docs/reliability.md.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = Path(".config/connect4-mcts")
GAMES = Path("Documents/Connect4 games")


def fresh_home() -> Path:
    return Path(tempfile.mkdtemp(prefix="c4home-"))


def launch(home: Path | bytes, *args: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("CONNECT4_CONFIG_DIR", None)
    env_b = {k.encode(): v.encode() for k, v in env.items()}
    env_b[b"HOME"] = home if isinstance(home, bytes) else os.fsencode(home)
    return subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--mute", *args],
        cwd=ROOT,
        env=env_b,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def window_of(proc: subprocess.Popen[bytes], timeout: float = 30.0) -> tuple[str | None, float]:
    start = time.monotonic()
    while time.monotonic() - start < timeout and proc.poll() is None:
        found = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--pid", str(proc.pid)], capture_output=True, text=True
        ).stdout.split()
        if found:
            return found[0], time.monotonic() - start
        time.sleep(0.05)
    return None, time.monotonic() - start


def keys(window: str, *combo: str) -> None:
    subprocess.run(["xdotool", "windowactivate", "--sync", window], capture_output=True)
    for key in combo:
        subprocess.run(["xdotool", "key", "--window", window, key], capture_output=True)


def shot(window: str, path: Path) -> None:
    try:
        subprocess.run(["import", "-window", window, str(path)], capture_output=True, timeout=30)
    except subprocess.TimeoutExpired:
        pass


def responsive(window: str, limit: float = 30.0) -> float:
    """Seconds until the app's frame loop shows the help card for F1 (compared screenshots), then
    closes it again; inf when it did not within ``limit`` (a frozen loop draws nothing)."""
    with tempfile.TemporaryDirectory() as tmp:
        before, after = Path(tmp) / "before.png", Path(tmp) / "after.png"
        shot(window, before)
        start = time.monotonic()
        keys(window, "F1")
        answered = float("inf")
        while time.monotonic() - start < limit:
            shot(window, after)
            same = subprocess.run(
                ["compare", "-metric", "AE", str(before), str(after), "null:"], capture_output=True, text=True
            )
            if same.returncode == 1:  # the images differ
                answered = time.monotonic() - start
                break
            time.sleep(0.05)
        keys(window, "Escape")
    return answered


def terminate(proc: subprocess.Popen[bytes]) -> tuple[float, str]:
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return 60.0, "(killed after 60 s)"
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    notes = [line for line in err.splitlines() if line.startswith("connect4:")]
    return time.monotonic() - start, " | ".join(notes)


def run_case(
    name: str, out: Path, home: Path | bytes, args: tuple[str, ...] = (), action: Callable[[str], None] | None = None
) -> None:
    t0 = time.monotonic()
    proc = launch(home, *args)
    window, opened = window_of(proc)
    if window is None:
        if proc.poll() is None:  # running without a window we can find: stop it and say so
            proc.kill()
        code = proc.wait(timeout=60)
        err = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
        print(f"{name}: no window; exit {code} after {time.monotonic() - t0:.2f} s; stderr: {err[-300:]}")
        return
    time.sleep(1.0)
    if action is not None:
        action(window)
    shot(window, out / f"{name}.png")
    react = responsive(window)
    alive = proc.poll() is None
    took, notes = terminate(proc)
    print(
        f"{name}: window after {opened:.2f} s; alive={alive}; F1 help card drawn after {react:.2f} s; "
        f"SIGTERM exit {took:.2f} s; {notes}"
    )


def write(home: Path, rel: Path, data: bytes) -> Path:
    path = home / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def full_disk_case(out: Path) -> None:
    """HOME on a 256 kB tmpfs filled to the brim (needs root for ``mount``; skipped otherwise)."""
    home = fresh_home()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(home)], capture_output=True).returncode:
        print("full-disk-home: skipped (cannot mount a tmpfs)")
        return
    try:
        (home / ".cache").mkdir()
        with open(home / "filler", "wb") as fh:
            try:
                fh.write(b"\0" * (1 << 20))
            except OSError:
                pass
        run_case("full-disk-home", out, home, ("--mode", "hotseat"))
    finally:
        subprocess.run(["umount", str(home)], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.mkdtemp(prefix="attack-files-")))
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    game = '{"game": "connect4", "moves": "%s"}'

    run_case("baseline-clean-home", out, fresh_home(), ("--mode", "hotseat"))
    for name in ("autosave.json", "settings.json"):
        home = fresh_home()
        (home / CONFIG).mkdir(parents=True)
        os.mkfifo(home / CONFIG / name)
        run_case(f"fifo-{name}", out, home, ("--mode", "hotseat"))
    home = fresh_home()
    os.mkfifo(home / "game.fifo")
    run_case("fifo---load", out, home, ("--load", str(home / "game.fifo")))

    home = fresh_home()
    write(home, CONFIG / "autosave.json", (game % ("4" * 50_000)).encode())
    run_case("autosave-50000-moves", out, home, ("--mode", "hotseat"))

    home = fresh_home()
    big = "1234567" * 15_000

    owners: list[subprocess.Popen[bytes]] = []

    def paste(window: str) -> None:
        owner = subprocess.Popen(
            ["xclip", "-selection", "clipboard", "-loops", "2"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        owner.communicate(big.encode(), timeout=10)  # xclip forks a child that serves the selection
        owners.append(owner)
        keys(window, "ctrl+v")
        time.sleep(1.0)

    run_case("paste-100kB", out, home, ("--mode", "hotseat"), paste)

    home = fresh_home()
    write(home, GAMES / "long.c4game.json", (game % ("1234567" * 3000)).encode())
    write(home, GAMES / os.fsdecode(b"\xff\xfe.json"), b"4453")

    def load_dialog(window: str) -> None:
        keys(window, "ctrl+o")
        time.sleep(0.5)
        shot(window, out / "load-dialog-open.png")
        geometry = subprocess.run(["xdotool", "getwindowgeometry", window], capture_output=True, text=True).stdout
        print("   load dialog geometry:", " ".join(geometry.split()[3:]))
        for row_y in (375, 405):  # the two rows of the dialog in a 1120x760 window: click each, time the next frame
            keys(window, "ctrl+o")
            time.sleep(0.3)
            subprocess.run(
                ["xdotool", "mousemove", "--window", window, "560", str(row_y), "click", "1"], capture_output=True
            )
            print(f"   clicked row at y={row_y}: F1 help card drawn {responsive(window):.2f} s later")
            shot(window, out / f"load-dialog-clicked-{row_y}.png")

    run_case("load-dialog-20kB-and-xff-name", out, home, ("--mode", "hotseat"), load_dialog)

    odd_home = os.fsencode(tempfile.mkdtemp(prefix="c4home-")) + b"/h\xff\xfe"
    os.makedirs(odd_home)
    os.makedirs(odd_home + b"/.config/connect4-mcts")
    with open(odd_home + b"/.config/connect4-mcts/autosave.json", "wb") as fh:
        fh.write(b"\x00garbage")
    run_case("non-utf8-home", out, odd_home, ("--mode", "hotseat"), lambda window: keys(window, "ctrl+o"))

    for label, data in (
        ("bom", b"\xef\xbb\xbf" + (game % "4453").encode()),
        ("illegal-after-6", (game % "4444444").encode()),
        ("unknown-game", b'{"game": "chess", "moves": "e4"}'),
    ):
        home = fresh_home()
        write(home, CONFIG / "autosave.json", data)
        run_case(f"autosave-{label}", out, home, ("--mode", "hotseat"))
        kept = sorted(p.name for p in (home / CONFIG).glob("autosave.json.bad-*"))
        same = [(home / CONFIG / k).read_bytes() == data for k in kept]
        print(f"   kept aside: {kept} (byte-identical: {same})")

    home = fresh_home()
    a = launch(home, "--mode", "hotseat", "--position", "1122")
    wa, _ = window_of(a)
    b = launch(home, "--mode", "hotseat", "--position", "7766")
    wb, _ = window_of(b)
    for window, col in ((wa, "3"), (wb, "5")):
        if window:
            keys(window, col)
    time.sleep(1.0)
    terminate(a)
    terminate(b)
    saved = {p.name: json.loads(p.read_text())["moves"] for p in sorted((home / CONFIG).glob("autosave*.json"))}
    print(f"two-instances: autosaves after both quit: {saved}")
    c = launch(home, "--mode", "hotseat")
    wc, _ = window_of(c)
    time.sleep(1.0)
    if wc:
        shot(wc, out / "two-instances-relaunch.png")
    print(f"   relaunch: {terminate(c)[1]}")
    full_disk_case(out)
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
