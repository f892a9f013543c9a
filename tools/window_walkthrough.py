"""A real-window walkthrough of each game at the default size, driven by clicks and keys under X (Xvfb + xdotool).

Usage: ``python tools/window_walkthrough.py [--display :91] [--out DIR] [--games connect4,tictactoe,...]``
(needs Xvfb, xdotool and ImageMagick's ``import``; it starts its own Xvfb on ``--display`` unless one runs).

For each game the app is launched against the bot (easy) in a fresh config folder at 1120x760, then: two moves
clicked on the board (each answered by the bot), Undo clicked, Save (Ctrl+S), Review (V), the new-game dialog
(N, then Esc), the load card (Ctrl+O) and the saved game clicked in it, Quit (Ctrl+Q). Each step is checked in
the autosave (the moves and the shown move) or the games folder, and screenshotted into ``--out``.

Where to click is read from a headless twin of the app (same size and settings, SDL's dummy driver).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the twin only: the real app gets the X display
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.play.actions import Command  # noqa: E402
from game.play.engine_driver import EngineDriver  # noqa: E402
from game.play.players import BotSetting, Mode  # noqa: E402
from game.play.session import Session  # noqa: E402
from game.play.settings import DEFAULT_WINDOW, Settings  # noqa: E402
from game.ui.app_run import create_app  # noqa: E402
from game.ui.frame import LoadCard  # noqa: E402
from game.ui.overlays import load_card_layout  # noqa: E402

GAMES = ("connect4", "tictactoe", "mnk:6x6:4", "gomoku", "uttt")
FIRST_MOVES = {"connect4": ("4", "3"), "tictactoe": ("b2", "a1"), "mnk:6x6:4": ("c3", "d4"), "gomoku": ("h8", "g7")}
FIRST_MOVES["uttt"] = ("e5", "")  # the second move is any legal one of the board the bot sends us to


def settings_for(game: str) -> Settings:
    return Settings(
        game=game, mode=Mode.VS_BOT, human_player=0, bots=[BotSetting("easy"), BotSetting("easy")], sound=False
    )


class Twin:
    """A headless app of the same size: where its buttons and cells are, the real window's are."""

    def __init__(self, game: str) -> None:
        settings = settings_for(game)
        settings.window = DEFAULT_WINDOW
        self.app = create_app(settings, Session.from_text(game), persist=False, driver=EngineDriver(None))
        self.app.step([])

    def at_position(self, moves: list[int]) -> None:
        self.app.new_game(None, tuple(moves))
        self.app.step([])

    def cell(self, move: int) -> tuple[int, int]:
        area, board = self.app.layout.board_area, self.app.layout.board
        hits = [
            (x, y)
            for y in range(area.top, area.bottom, 3)
            for x in range(area.left, area.right, 3)
            if board.move_at((x, y)) == move
        ]
        if not hits:
            raise LookupError(f"no place on the board plays {move}")
        xs, ys = sorted(h[0] for h in hits), sorted(h[1] for h in hits)
        return xs[len(xs) // 2], ys[len(ys) // 2]

    def button(self, command: Command) -> tuple[int, int]:
        for b in self.app.layout.buttons:
            if b.action is command:
                return b.rect.center
        raise LookupError(f"no button for {command}")


class Window:
    def __init__(self, display: str, out: Path) -> None:
        self.env = dict(os.environ, DISPLAY=display)
        self.env.pop("SDL_VIDEODRIVER", None)
        self.out = out
        self.id = ""
        self.proc: subprocess.Popen[bytes] | None = None

    def x(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20).stdout

    def launch(self, game: str, config: Path) -> None:
        settings = settings_for(game)
        settings.window = DEFAULT_WINDOW
        (config / "settings.json").write_text(settings.to_json())  # (an existing settings file: no greeting card)
        env = dict(self.env, CONNECT4_CONFIG_DIR=str(config), SDL_AUDIODRIVER="dummy")
        log = open(config / "stderr.txt", "wb")  # noqa: SIM115 (kept open while the app runs)
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "main.py")], cwd=ROOT, env=env, stderr=log)
        deadline = time.monotonic() + 60
        while not self.id and time.monotonic() < deadline:
            found = self.x("search", "--onlyvisible", "--pid", str(self.proc.pid)).split()
            self.id = found[0] if found else ""
            time.sleep(0.3)
        if not self.id:
            raise RuntimeError("the app's window did not appear")
        self.x("windowmove", self.id, "0", "0")
        time.sleep(3.0)  # the first frames (the engine starts beside it)

    def click(self, at: tuple[int, int]) -> None:
        self.x("mousemove", "--window", self.id, str(at[0]), str(at[1]))
        time.sleep(0.2)
        self.x("click", "1")
        time.sleep(0.4)

    def key(self, keys: str) -> None:
        self.x("windowfocus", "--sync", self.id)
        self.x("key", keys)
        time.sleep(0.5)

    def shot(self, name: str) -> Path:
        time.sleep(1.2)  # the last disc has landed and the idle frame rate drew it
        path = self.out / f"{name}.png"
        subprocess.run(["import", "-window", "root", str(path)], env=self.env, capture_output=True, timeout=30)
        print(f"    screenshot {path}", flush=True)
        return path

    def geometry(self) -> str:
        return self.x("getwindowgeometry", self.id).strip().splitlines()[-1].strip()

    def quit(self) -> int:
        self.key("ctrl+q")
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -9


def autosave(config: Path) -> dict[str, object]:
    for path in config.rglob("*.json"):
        if path.name != "settings.json" and "games" not in path.parts:
            try:
                data = json.loads(path.read_text())
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and "moves" in data:
                return data
    return {}


def wait_for(what: str, check: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.3)
    raise RuntimeError(f"timed out waiting for {what}")


def walk(game: str, display: str, out: Path) -> list[str]:
    print(f"  {game}", flush=True)
    twin, win = Twin(game), Window(display, out)
    spec = twin.app.session.spec
    done: list[str] = []
    with tempfile.TemporaryDirectory(prefix="walk-") as tmp:
        config = Path(tmp)
        win.launch(game, config)
        name = game.replace(":", "-")
        done.append(f"window {win.geometry()}")
        win.shot(f"{name}-1-start")

        def moves() -> list[int]:
            text = str(autosave(config).get("moves", ""))
            return list(spec.parse_position(text).history) if text else []

        first = spec.parse_move(FIRST_MOVES[game][0])
        win.click(twin.cell(first))
        wait_for("the first move and the bot's answer", lambda: len(moves()) >= 2)
        played = moves()
        twin.at_position(played)
        second_text = FIRST_MOVES[game][1]
        legal = spec.parse_position(spec.moves_to_text(played)).legal_moves()
        second = spec.parse_move(second_text) if second_text else None
        second = second if second in legal else legal[0]
        win.click(twin.cell(second))
        wait_for("the second move and the bot's answer", lambda: len(moves()) >= 4)
        line = moves()
        done.append(f"played {spec.moves_to_text(line)} by clicks (2 human, 2 bot)")
        win.shot(f"{name}-2-played")

        win.click(twin.button(Command.UNDO))
        wait_for("undo", lambda: autosave(config).get("cursor") == 2)
        done.append(f"undo: cursor {autosave(config).get('cursor')} of {len(moves())} moves")
        win.shot(f"{name}-3-undo")
        win.key("End")  # back to the latest move (the game continues from there)
        wait_for("the latest move shown", lambda: autosave(config).get("cursor") in (None, len(line)))

        win.key("ctrl+s")
        wait_for("the saved game", lambda: any((config / "games").glob("*.json")))
        saved = next((config / "games").glob("*.json"))
        done.append(f"saved {saved.name}")
        win.shot(f"{name}-4-saved")

        win.key("v")
        time.sleep(4.0)  # the review's first marks
        win.shot(f"{name}-5-review")
        done.append("review started (V)")

        win.key("n")
        time.sleep(0.8)
        win.shot(f"{name}-6-dialog")
        win.key("Escape")
        time.sleep(0.8)
        done.append("new-game dialog opened (N) and closed (Esc)")

        win.key("ctrl+o")
        time.sleep(0.8)
        win.shot(f"{name}-7-load-card")
        card = load_card_layout(DEFAULT_WINDOW, LoadCard((saved,), saved.parent, (saved.name,)))
        win.click(card.buttons[0].rect.center)
        wait_for("the loaded game", lambda: moves() == line)
        done.append(f"loaded it back from the load card: {spec.moves_to_text(moves())}")
        win.shot(f"{name}-8-loaded")

        code = win.quit()
        done.append(f"quit (Ctrl+Q): exit status {code}")
        problems = (config / "stderr.txt").read_text(errors="replace")
        if "Traceback" in problems:
            raise RuntimeError(f"{game}: the app wrote a traceback:\n{problems}")
    twin.app.close()
    for line_done in done:
        print(f"    {line_done}", flush=True)
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--display", default=":91")
    parser.add_argument("--out", default="/tmp/walkthrough")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    xvfb = None
    lock = Path(f"/tmp/.X{args.display.lstrip(':')}-lock")
    if not lock.exists():
        xvfb = subprocess.Popen(["Xvfb", args.display, "-screen", "0", "1280x900x24", "-nolisten", "tcp"])
        wait_for("Xvfb", lock.exists, 20)
    try:
        for game in args.games.split(","):
            walk(game, args.display, out)
    finally:
        if xvfb is not None:
            xvfb.terminate()
    print("walkthrough: every step checked")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
