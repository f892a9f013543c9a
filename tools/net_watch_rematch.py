"""Three app windows over loopback under X (Xvfb + xdotool): a game with a clock, a spectator, a rematch.

Usage: ``python tools/net_watch_rematch.py [--size 1120x760] [--out /work/shots/netapp] [--display :62]``
(needs Xvfb, xdotool and ImageMagick's ``import``; it starts its own Xvfb unless ``--display`` names a
running one).

Window A hosts through the new-game dialog with a 1-minute clock (Mode: Network game, Clock: 1 min per
player); window B joins with the address A shows (``127.0.0.1:PORT/1min``); they play three moves by
clicks; window C watches (Network: Watch a game, the same address); A and B play the game out; B offers
a rematch with the panel's button, A accepts it, and the rematch (colours swapped) starts in all three
windows. After two moves of the rematch nobody moves: the mover's flag falls (about a minute). Every
step is checked in the server's SQLite file and screenshotted into ``--out``.

Where to click comes from a headless twin of the app at the same size (``two_window_net.Twin``); the
panel's rematch button is found in the twin's layout of a finished network game.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from two_window_net import Desktop, Player, Twin, _listening, first_move_seats, free_port, wait_for  # noqa: E402

from game.play.actions import ChangeChoice, Command, DialogField  # noqa: E402
from game.ui import layout  # noqa: E402
from game.ui.frame import NetPanel  # noqa: E402

GAME = (3, 3, 2, 2, 1, 1, 0)  # columns 4 4 3 3 2 2 1: the first player wins
REMATCH_MOVES = (3, 4)
CLOCK_STEPS = 1  # No clock -> 1 min per player
WATCH_AFTER = 3  # moves played before C starts watching


def games(db: Path) -> list[tuple[list[int], list[str], dict[str, object] | None]]:
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT moves, tokens, result FROM games ORDER BY rowid").fetchall()
    return [(json.loads(m), json.loads(t), None if r is None else json.loads(r)) for m, t, r in rows]


def rematch_button(twin: Twin) -> tuple[int, int]:
    """Where a finished network game's Rematch button is drawn (the twin's frame made into one)."""
    twin.app.overlay = None
    twin.app.step([])
    frame = twin.app.snapshot()
    net = NetPanel(0, False, "Offer draw", False, rematch_label="Rematch", can_rematch=True)
    frame = replace(frame, panel=replace(frame.panel, network=net, ponder=None, bot_vs_bot=False))
    found = layout.compute_layout(twin.app.screen.get_size(), frame)
    return next(b.rect.center for b in found.buttons if b.action is Command.REMATCH)


def open_network_dialog(desk: Desktop, twin: Twin, window: str) -> None:
    card = twin.card_region()
    desk.click_until_changed(window, twin.open_dialog(), card)
    for _ in range(2):  # Human vs Bot -> Bot vs Bot -> Network game
        desk.click(window, twin.button(ChangeChoice(DialogField.MODE, 1)))


def _seats(desk: Desktop, twin: Twin, db: Path, players: list[Player], column: int, game_no: int) -> dict[str, int]:
    """Game ``game_no``'s first move, played by whoever moves first; the seats it tells."""

    def row() -> tuple[list[int], list[str], dict[str, object] | None] | None:
        stored = games(db)
        return stored[game_no] if len(stored) > game_no else None

    seats: tuple[dict[str, int], Player] = first_move_seats(desk, twin, players, column, row)
    seat_of, mover = seats
    print(f"  game {game_no + 1} move 1: {mover.name} clicked column {column + 1}", flush=True)
    return seat_of


def run(size: tuple[int, int], out: Path, display: str) -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="net-watch-"))
    db, port = work / "games.sqlite3", free_port()
    desk = Desktop(display, out)
    twin = Twin(size)
    players = []
    for i, name in enumerate("ABC"):
        config = work / name
        config.mkdir()
        (config / "settings.json").write_text(json.dumps({"window": list(size), "sound": False}))
        env = {"CONNECT4_SERVER_DB": str(db), "CONNECT4_HOST_PORT": str(port)}
        players.append(Player(name, desk, env, config, (i * (size[0] + 20), 0)))
    host, guest, watcher = players
    address = f"127.0.0.1:{port}/1min"
    try:
        for p in players:
            p.launch()
        print("A hosts with a 1-minute clock", flush=True)
        open_network_dialog(desk, twin, host.window)
        for _ in range(CLOCK_STEPS):
            desk.click(host.window, twin.button(ChangeChoice(DialogField.CLOCK, 1)))
        desk.shot(host.window, "01-host-dialog-clock")
        desk.click_until_changed(host.window, twin.button(Command.START), twin.card_region())
        wait_for("A's server", lambda: _listening(port), 30)
        time.sleep(1.5)
        desk.shot(host.window, "02-host-waiting")
        print(f"B joins {address}", flush=True)
        open_network_dialog(desk, twin, guest.window)
        desk.click(guest.window, twin.button(ChangeChoice(DialogField.NET_ROLE, 1)))  # Host -> Join
        desk.click(guest.window, twin.button(ChangeChoice(DialogField.ADDRESS, 0)))
        desk.type(guest.window, address)
        time.sleep(0.5)
        desk.shot(guest.window, "03-join-dialog")
        desk.click_until_changed(guest.window, twin.button(Command.START), twin.card_region())
        pair = [host, guest]
        wait_for("the game to start (both seat tokens)", lambda: all(p.token() for p in pair), 30)
        time.sleep(3.0)  # the first player's clock runs
        desk.shot(host.window, "04-host-clock-running")
        seat_of = _seats(desk, twin, db, pair, GAME[0], 0)
        print(f"seats: A {seat_of['A']}, B {seat_of['B']}", flush=True)
        _play_from(desk, twin, db, seat_of, pair, 1, GAME[1:WATCH_AFTER])
        print(f"C watches {address}", flush=True)
        open_network_dialog(desk, twin, watcher.window)
        for _ in range(2):  # Host a game -> Join a game -> Watch a game (a click on the row steps forward)
            desk.click(watcher.window, twin.button(ChangeChoice(DialogField.NET_ROLE, 1)))
        desk.click(watcher.window, twin.button(ChangeChoice(DialogField.ADDRESS, 0)))
        desk.type(watcher.window, address)
        time.sleep(0.5)
        desk.shot(watcher.window, "05-watch-dialog")
        desk.click_until_changed(watcher.window, twin.button(Command.START), twin.card_region())
        time.sleep(2.5)
        desk.shot(watcher.window, "06-watcher-sees-the-game")
        desk.shot(guest.window, "07-guest-mid-game")
        _play_from(desk, twin, db, seat_of, pair, WATCH_AFTER, GAME[WATCH_AFTER:])
        wait_for("the result", lambda: games(db)[0][2] is not None, 10)
        time.sleep(2.0)
        for p, name in ((host, "08-host-end"), (guest, "09-guest-end"), (watcher, "10-watcher-end")):
            desk.shot(p.window, name)
        result = games(db)[0][2]
        print(f"game 1: moves {''.join(str(m + 1) for m in games(db)[0][0])}, result {result}", flush=True)
        print("B offers a rematch, A accepts", flush=True)
        desk.click(guest.window, rematch_button(twin))
        time.sleep(1.5)
        desk.shot(guest.window, "11-guest-rematch-offered")
        desk.shot(host.window, "12-host-rematch-offer")
        desk.click(host.window, rematch_button(twin))
        time.sleep(2.0)  # the rematch starts (the server stores it at its first move)
        seat_again = _seats(desk, twin, db, pair, REMATCH_MOVES[0], 1)
        swapped = all(seat_again[n] == 3 - seat_of[n] for n in seat_of)
        print(f"rematch seats: A {seat_again['A']}, B {seat_again['B']} (colours swapped: {swapped})", flush=True)
        _play_from(desk, twin, db, seat_again, pair, 1, REMATCH_MOVES[1:], game_no=1)
        time.sleep(2.0)
        for p, name in ((host, "13-host-rematch"), (guest, "14-guest-rematch"), (watcher, "15-watcher-rematch")):
            desk.shot(p.window, name)
        print("nobody moves: waiting for the flag to fall", flush=True)
        time.sleep(2.0)
        desk.shot(host.window, "16-host-clock-low")
        waited = wait_for("the flag", lambda: games(db)[1][2] is not None, 90)
        time.sleep(1.5)
        for p, name in ((host, "17-host-flag"), (guest, "18-guest-flag"), (watcher, "19-watcher-flag")):
            desk.shot(p.window, name)
        second = games(db)[1][2]
        print(f"game 2: result {second} after {waited:.0f} s more", flush=True)
        ok = (
            games(db)[0][0] == list(GAME)
            and result is not None
            and swapped
            and games(db)[1][0] == list(REMATCH_MOVES)
            and second is not None
            and second.get("reason") == "time"
        )
        print("every step checked" if ok else "WRONG", flush=True)
        return 0 if ok else 1
    finally:
        for p in players:
            p.kill()
        shutil.rmtree(work, ignore_errors=True)


def _play_from(
    desk: Desktop,
    twin: Twin,
    db: Path,
    seat_of: dict[str, int],
    players: list[Player],
    start: int,
    moves: tuple[int, ...],
    game_no: int = 0,
) -> None:
    for i, column in enumerate(moves):
        ply = start + i
        mover = next(p for p in players if seat_of[p.name] == ply % 2 + 1)
        taken = 0.0
        for attempt in range(3):  # a missed click is clicked again (out of turn it changes nothing)
            desk.click(mover.window, twin.column(column))
            try:
                taken += wait_for(f"move {ply + 1}", lambda n=ply + 1: len(games(db)[game_no][0]) >= n, 10)
                break
            except RuntimeError:
                if attempt == 2:
                    raise
                taken += 10
        print(
            f"  game {game_no + 1} move {ply + 1}: {mover.name} clicked column {column + 1} ({taken:.2f} s)", flush=True
        )
        time.sleep(0.8)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1120x760", help="window size WxH (default 1120x760, the app's default)")
    parser.add_argument("--out", type=Path, default=Path("/work/shots/netapp"))
    parser.add_argument("--display", default=None, help="a running X display (default: start Xvfb :62)")
    args = parser.parse_args()
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"error: --size must be WxH, not {args.size!r}", file=sys.stderr)
        return 2
    missing = [tool for tool in ("xdotool", "import", "Xvfb") if shutil.which(tool) is None]
    if missing:
        print(f"error: missing {', '.join(missing)} (apt-get install -y xvfb xdotool imagemagick)", file=sys.stderr)
        return 2
    xvfb = None
    display = args.display
    if display is None:
        display = ":62"
        xvfb = subprocess.Popen(
            ["Xvfb", display, "-screen", "0", f"{3 * width + 60}x{height + 40}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)
    try:
        return run((width, height), args.out, display)
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(5)


if __name__ == "__main__":
    sys.exit(main())
