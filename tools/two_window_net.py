"""Two app windows play Connect 4 over loopback, driven by real clicks and keys under X (Xvfb + xdotool).

Usage: ``python tools/two_window_net.py [--size 1600x1000] [--out /work/shots21]`` (needs Xvfb, xdotool and
ImageMagick's ``import``; it starts its own Xvfb unless ``--display`` names a running one).

Window A hosts through the new-game dialog (Mode: Network game, Network: Host a game, Start: it starts
its server and shows the address); window B joins (Network: Join a game, the address typed into the
field, Start). They play a whole game with clicks on the columns. Mid-game B is killed with SIGKILL and
launched again (it comes back to its seat by itself), then A's server is SIGKILLed (A starts it again and
both clients reconnect). Every step is checked in the server's SQLite file (the moves kept, the result)
and screenshotted into ``--out``. Each app has its own config folder; the games file is a temporary one.

Where to click is read from a headless twin of the app (same window size, same settings, SDL's dummy
driver): the dialog's rows and the board's columns are where the real window draws them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the twin only: the real apps get the X display
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game.play.actions import ChangeChoice, Command, DialogField  # noqa: E402
from game.play.engine_driver import EngineDriver  # noqa: E402
from game.play.session import Session  # noqa: E402
from game.play.settings import Settings  # noqa: E402
from game.ui.app_run import create_app  # noqa: E402
from game.ui.game_app import App  # noqa: E402

GAME = (3, 3, 2, 2, 1, 1, 0)  # columns 4 4 3 3 2 2 1: the first player wins
KILL_CLIENT_AFTER, KILL_SERVER_AFTER = 3, 5  # moves played before each fault


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Twin:
    """A headless app of the same size: where its buttons and columns are, the real window's are."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.app: App = create_app(
            Settings(window=size, sound=False), Session.from_text("connect4"), persist=False, driver=EngineDriver(None)
        )
        self.app.step([])

    def button(self, action: object) -> tuple[int, int]:
        self.app.step([])
        for b in self.app.layout.buttons:
            same_row = (
                isinstance(action, ChangeChoice)
                and isinstance(b.action, ChangeChoice)
                and b.action.field is action.field
            )
            if b.action == action or same_row:
                return (b.rect.right - 30, b.rect.centery) if isinstance(action, ChangeChoice) else b.rect.center
        raise LookupError(f"no button for {action}")

    def has(self, action: object) -> bool:
        self.app.overlay = None
        self.app.step([])
        return any(b.action == action for b in self.app.layout.buttons)

    def open_dialog(self) -> tuple[int, int]:
        self.app.overlay = None
        self.app.step([])
        where = self.button(Command.NEW_GAME)
        self.app.apply(Command.NEW_GAME)
        return where

    def card_region(self) -> tuple[int, int, int, int]:
        """Where the dialog is drawn (it opens or closes there)."""
        self.app.apply(Command.NEW_GAME)
        self.app.step([])
        card = self.app.layout.card
        assert card is not None
        return (card.rect.left + 20, card.rect.top + 10, card.rect.width - 40, 40)

    def column(self, column: int) -> tuple[int, int]:
        self.app.overlay = None
        self.app.step([])
        area = self.app.layout.board_area
        y = area.centery
        xs = [x for x in range(area.left, area.right) if self.app.layout.board.move_at((x, y)) == column]
        return (xs[len(xs) // 2], y)


class Desktop:
    def __init__(self, display: str, out: Path) -> None:
        self.env = dict(os.environ, DISPLAY=display)
        self.env.pop("SDL_VIDEODRIVER", None)
        self.out = out
        self.shots: list[Path] = []

    def x(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20).stdout

    def window_of(self, pid: int, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.x("search", "--onlyvisible", "--pid", str(pid)).split()
            if found:
                return found[0]
            time.sleep(0.2)
        raise RuntimeError(f"no window for process {pid}")

    def click(self, window: str, at: tuple[int, int]) -> None:
        self.x("mousemove", "--window", window, str(at[0]), str(at[1]))
        time.sleep(0.15)
        self.x("click", "1")
        time.sleep(0.25)

    def crop(self, window: str, rect: tuple[int, int, int, int], path: Path) -> None:
        x, y, w, h = rect
        subprocess.run(
            ["import", "-window", window, "-crop", f"{w}x{h}+{x}+{y}", "+repage", str(path)],
            env=self.env,
            capture_output=True,
            timeout=30,
        )

    def click_until_changed(self, window: str, at: tuple[int, int], region: tuple[int, int, int, int]) -> None:
        """Click, and click again (at most 3 times) while ``region`` of the window stays the same: a window
        still starting (or a loaded machine) may miss the first click."""
        with tempfile.TemporaryDirectory() as tmp:
            before, after = Path(tmp) / "before.png", Path(tmp) / "after.png"
            self.crop(window, region, before)
            for _ in range(3):
                self.click(window, at)
                deadline = time.monotonic() + 4.0
                while time.monotonic() < deadline:
                    self.crop(window, region, after)
                    diff = subprocess.run(
                        ["compare", "-metric", "AE", str(before), str(after), "null:"],
                        env=self.env,
                        capture_output=True,
                        text=True,
                    )
                    if diff.returncode == 1:
                        return
                    time.sleep(0.3)
        raise RuntimeError(f"the window did not answer a click at {at}")

    def type(self, window: str, text: str) -> None:
        self.x("windowfocus", "--sync", window)
        self.x("type", "--delay", "60", text)

    def shot(self, window: str, name: str) -> None:
        path = self.out / f"{name}.png"
        subprocess.run(["import", "-window", window, str(path)], env=self.env, capture_output=True, timeout=30)
        self.shots.append(path)
        print(f"  screenshot {path}", flush=True)


class Player:
    def __init__(self, name: str, desk: Desktop, env: dict[str, str], config: Path, place: tuple[int, int]) -> None:
        self.name, self.desk, self.env, self.config, self.place = name, desk, env, config, place
        self.size = json.loads((config / "settings.json").read_text())["window"]
        self.proc: subprocess.Popen[bytes] | None = None
        self.window = ""

    def launch(self) -> None:
        env = dict(self.desk.env, **self.env, CONNECT4_CONFIG_DIR=str(self.config), SDL_AUDIODRIVER="dummy")
        with open(self.config / f"stderr-{time.time():.0f}.txt", "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, str(ROOT / "main.py")],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        self.window = self.desk.window_of(self.proc.pid)
        time.sleep(4.0)  # the first frames (the engine starts beside it)
        for _ in range(10):  # placed and sized (below the saved minimum too); a window still mapping may ignore it
            self.desk.x("windowmove", self.window, str(self.place[0]), str(self.place[1]))
            self.desk.x("windowsize", self.window, str(self.size[0]), str(self.size[1]))
            time.sleep(0.5)
            if f"Geometry: {self.size[0]}x{self.size[1]}" in self.desk.x("getwindowgeometry", self.window):
                break
        else:
            raise RuntimeError(f"window {self.name} could not be sized {self.size}")
        time.sleep(1.0)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def token(self) -> str:
        data = json.loads((self.config / "settings.json").read_text())
        return str(data.get("net_token", ""))

    def server_pid(self) -> int | None:
        """The hosted server: the child process running ``main.py serve``."""
        assert self.proc is not None
        for child in subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout.split():
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            if b"serve" in cmdline:
                return int(child)
        return None


def stored_game(db: Path) -> tuple[list[int], list[str], dict[str, object] | None] | None:
    if not db.exists():
        return None
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        row = conn.execute("SELECT moves, tokens, result FROM games ORDER BY rowid DESC LIMIT 1").fetchone()
    if row is None:
        return None
    return json.loads(row[0]), json.loads(row[1]), None if row[2] is None else json.loads(row[2])


def wait_for(what: str, check: Callable[[], bool], timeout: float = 60.0) -> float:
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.2)
    return time.monotonic() - start


def run(size: tuple[int, int], out: Path, display: str, paste: bool = False) -> int:
    out.mkdir(parents=True, exist_ok=True)
    tag = f"{size[0]}x{size[1]}"
    work = Path(tempfile.mkdtemp(prefix="two-window-"))
    db, port = work / "games.sqlite3", free_port()
    desk = Desktop(display, out)
    twin = Twin(size)
    players = []
    for name, place in (("A", (0, 0)), ("B", (size[0] + 20, 0))):
        config = work / name
        config.mkdir()
        (config / "settings.json").write_text(json.dumps({"window": list(size), "sound": False}))
        players.append(
            Player(name, desk, {"CONNECT4_SERVER_DB": str(db), "CONNECT4_HOST_PORT": str(port)}, config, place)
        )
    host, guest = players
    try:
        host.launch()
        guest.launch()
        print(f"[{tag}] A hosts through the dialog", flush=True)
        card = twin.card_region()
        desk.click_until_changed(host.window, twin.open_dialog(), card)
        for _ in range(2):  # Human vs Bot -> Bot vs Bot -> Network game
            desk.click(host.window, twin.button(ChangeChoice(DialogField.MODE, 1)))
        desk.shot(host.window, f"{tag}-01-host-dialog")
        desk.click_until_changed(host.window, twin.button(Command.START), card)
        wait_for("A's server", lambda: _listening(port), 30)
        time.sleep(1.0)
        desk.shot(host.window, f"{tag}-02-host-waiting")
        print(f"[{tag}] B joins 127.0.0.1:{port}/game (the room A's status bar shows)", flush=True)
        desk.click_until_changed(guest.window, twin.open_dialog(), card)
        for _ in range(2):
            desk.click(guest.window, twin.button(ChangeChoice(DialogField.MODE, 1)))
        desk.click(guest.window, twin.button(ChangeChoice(DialogField.NET_ROLE, 1)))  # Host -> Join
        desk.click(guest.window, twin.button(ChangeChoice(DialogField.ADDRESS, 0)))
        if paste:  # the address through the clipboard: Ctrl+V in the field
            subprocess.run(
                ["xclip", "-selection", "clipboard"], input=f"127.0.0.1:{port}/game".encode(), env=desk.env, timeout=10
            )
            desk.x("windowfocus", "--sync", guest.window)
            desk.x("key", "ctrl+v")
        else:
            desk.type(guest.window, f"127.0.0.1:{port}/game")
        time.sleep(0.5)
        desk.shot(guest.window, f"{tag}-03-join-dialog")
        desk.click_until_changed(guest.window, twin.button(Command.START), card)
        wait_for("the game to start (both seat tokens)", lambda: bool(host.token() and guest.token()), 30)
        time.sleep(1.5)
        desk.shot(host.window, f"{tag}-04-host-started")
        desk.shot(guest.window, f"{tag}-05-guest-started")
        seat_of, mover = first_move_seats(desk, twin, [host, guest], GAME[0], lambda: stored_game(db))
        print(f"[{tag}] seats: A {seat_of['A']}, B {seat_of['B']}; move 1: {mover.name} clicked column {GAME[0] + 1}")
        time.sleep(0.8)  # the disc falls in both windows
        for ply, column in enumerate(GAME):
            if ply == 0:
                continue  # played by first_move_seats
            if ply == 2 and twin.has(Command.PANEL):  # a narrow window: the panel (resign, draw) behind Menu
                desk.click(host.window, twin.button(Command.PANEL))
                time.sleep(0.8)
                desk.shot(host.window, f"{tag}-05b-host-menu")
                desk.click(host.window, twin.button(Command.PANEL))
            if ply == KILL_CLIENT_AFTER:
                _kill_and_relaunch(guest, host, desk, tag)
            if ply == KILL_SERVER_AFTER:
                _kill_server(host, guest, desk, port, tag)
            mover = host if seat_of[host.name] == ply % 2 + 1 else guest
            taken = 0.0
            for attempt in range(3):  # a missed click is clicked again (out of turn it would change nothing)
                desk.click(mover.window, twin.column(column))
                try:
                    taken += wait_for(f"move {ply + 1} in the server's file", _stored_at_least(db, ply + 1), 10)
                    break
                except RuntimeError:
                    if attempt == 2:
                        raise
                    taken += 10
            print(
                f"[{tag}] move {ply + 1}: {mover.name} clicked column {column + 1}, stored after {taken:.2f} s",
                flush=True,
            )
            time.sleep(0.8)  # the disc falls in both windows
        moves, _, result = stored_game(db)  # type: ignore[misc]
        time.sleep(1.5)
        desk.shot(host.window, f"{tag}-12-host-end")
        desk.shot(guest.window, f"{tag}-13-guest-end")
        ok = moves == list(GAME) and result is not None and result.get("reason") == "rules"
        print(
            f"[{tag}] stored moves {''.join(str(m + 1) for m in moves)}, result {result}: "
            f"{'every move kept' if ok else 'WRONG'}",
            flush=True,
        )
        return 0 if ok else 1
    finally:
        for p in players:
            p.kill()
        shutil.rmtree(work, ignore_errors=True)


StoredRow = tuple[list[int], list[str], dict[str, object] | None]


def first_move_seats(
    desk: Desktop, twin: Twin, players: list[Player], column: int, row: Callable[[], StoredRow | None]
) -> tuple[dict[str, int], Player]:
    """Play a game's first move and learn the seats: the server stores a game (``row``: its stored moves,
    tokens and result, None before) at its first move, so the player whose click stored it moves first;
    the stored tokens then give both seats. Returns the seats and who moved."""
    for attempt in range(8):  # a click out of turn changes nothing
        mover = players[attempt % 2]
        desk.click(mover.window, twin.column(column))
        try:
            wait_for("the first move in the server's file", lambda: len((row() or ([], [], None))[0]) >= 1, 4)
            break
        except RuntimeError:
            continue
    else:
        raise RuntimeError("neither player could make the first move")
    stored = row()
    assert stored is not None
    tokens = stored[1]
    wait_for("the seat tokens in the settings", lambda: all(p.token() in tokens for p in players), 20)
    return {p.name: tokens.index(p.token()) + 1 for p in players}, mover


def _stored_at_least(db: Path, moves: int) -> Callable[[], bool]:
    return lambda: len((stored_game(db) or ([], [], None))[0]) >= moves


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), 0.5).close()
        return True
    except OSError:
        return False


def _kill_and_relaunch(guest: Player, host: Player, desk: Desktop, tag: str) -> None:
    print(f"[{tag}] SIGKILL B mid-game, then launch it again", flush=True)
    guest.kill()
    time.sleep(1.0)
    desk.shot(host.window, f"{tag}-06-host-opponent-gone")
    guest.launch()
    time.sleep(2.0)
    desk.shot(guest.window, f"{tag}-07-guest-relaunched")
    desk.shot(host.window, f"{tag}-08-host-opponent-back")


def _kill_server(host: Player, guest: Player, desk: Desktop, port: int, tag: str) -> None:
    pid = host.server_pid()
    if pid is None:
        raise RuntimeError("A's server process not found")
    print(f"[{tag}] SIGKILL the server (pid {pid})", flush=True)
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.4)
    desk.shot(guest.window, f"{tag}-09-guest-reconnecting")
    back = wait_for("the server to come back", lambda: host.server_pid() not in (None, pid) and _listening(port), 30)
    print(f"[{tag}] the server is back after {back:.1f} s", flush=True)
    time.sleep(3.0)  # both clients' backoff
    desk.shot(host.window, f"{tag}-10-host-resumed")
    desk.shot(guest.window, f"{tag}-11-guest-resumed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1600x1000", help="window size WxH (default 1600x1000)")
    parser.add_argument("--out", type=Path, default=Path("/work/shots21"))
    parser.add_argument(
        "--paste", action="store_true", help="B pastes the address (xclip, Ctrl+V) instead of typing it"
    )
    parser.add_argument("--display", default=None, help="a running X display (default: start Xvfb :71)")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x"))
    needed = ("xdotool", "import", "Xvfb", *(("xclip",) if args.paste else ()))
    missing = [tool for tool in needed if shutil.which(tool) is None]
    if missing:
        print(f"error: missing {', '.join(missing)} (apt-get install -y xvfb xdotool imagemagick)", file=sys.stderr)
        return 2
    xvfb = None
    display = args.display
    if display is None:
        display = ":71"
        xvfb = subprocess.Popen(
            ["Xvfb", display, "-screen", "0", f"{2 * size[0] + 40}x{size[1] + 40}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)
    try:
        return run((size[0], size[1]), args.out, display, args.paste)
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(10)


if __name__ == "__main__":
    sys.exit(main())
