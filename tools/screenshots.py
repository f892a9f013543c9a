"""Regenerate every screenshot in docs/screenshots with one command, and record what they were made from.

    python tools/screenshots.py            # all of them (headless: the app's own renderer, a fresh config each)
    python tools/screenshots.py --check    # exit 1 when a screenshot is older than the UI code that draws it

Each shot is ``main.py <args> --screenshot <png>`` at the size the app opens with (a fresh config folder, so no
saved window size or game leaks in). ``docs/screenshots/manifest.json`` keeps, for the set, the hash of the UI
code that drew them (``ui_hash``) and, for each PNG, its arguments and the hash of its bytes:
tests/test_screenshots.py fails when the UI code changed since (the screenshots are then older than the app)
or when a PNG is not the one the manifest names.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screenshots"
MANIFEST = SHOTS / "manifest.json"
# the code that draws a frame: every module of the desktop app but the network game's (a separate view of
# the same frame) and the start-up plumbing; the themes and the verdict words it shows
NOT_DRAWING = {"net_game.py", "app.py", "cli.py", "display_env.py", "frame_bench.py", "__init__.py"}
ALSO_DRAWING = ("game/play/themes.py", "game/play/exact.py", "game/play/heat.py")

SCREENSHOTS: dict[str, tuple[str, ...]] = {
    "midgame-heatmap.png": ("--position", "4435437172", "--heatmap"),  # past the book: the visits show
    "start.png": ("--new",),
    "won.png": ("--position", "4455667"),
    "connect4-exact.png": ("--position", "443", "--exact", "--mode", "hotseat"),
    "uttt-midgame.png": ("--game", "uttt", "--position", "e5 e4", "--mode", "hotseat"),
    "tictactoe-heatmap.png": ("--game", "tictactoe", "--position", "b2 a1", "--heatmap"),
    "gomoku.png": ("--game", "gomoku", "--position", "h8 h9 i9 g7"),
    # red to move has a VCF: the heading names it, the winning stone is stressed (the engine may compile first)
    "gomoku-vcf.png": (
        *("--game", "gomoku", "--position", "i10 m9 i9 e8 f8 k6 g8 a1 h8 o15"),
        *("--mode", "hotseat", "--heatmap", "--screenshot-wait", "120000"),
    ),
    # red to move has a VCT (h8 is a double open three) and no VCF: "Red wins: VCT in 3"
    "gomoku-vct.png": (
        *("--game", "gomoku", "--position", "h6 a1 h7 c1 f8 a3 g8 o15"),
        *("--mode", "hotseat", "--heatmap", "--screenshot-wait", "120000"),
    ),
    "mnk-6x6-4.png": ("--game", "mnk:6x6:4", "--position", "c3 d4 c4"),
    "colorblind-heatmap.png": ("--position", "4453", "--heatmap", "--theme", "colorblind"),
    "dark-narrow.png": ("--position", "4453", "--exact", "--theme", "dark", "--size", "640x480"),
    "review.png": ("--position", "4413162475756515", "--bot", "hard", "--review"),
}


def ui_files() -> list[Path]:
    drawing = [p for p in sorted((ROOT / "game" / "ui").glob("*.py")) if p.name not in NOT_DRAWING]
    return drawing + [ROOT / rel for rel in ALSO_DRAWING]


def ui_hash() -> str:
    """A hash of the code that draws the screenshots (line endings normalised)."""
    digest = hashlib.sha256()
    for path in ui_files():
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()


def png_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


WITHOUT_ANALYSIS = "taken without the engine's analysis"  # the app's warning: the picture lacks what it shows
ANALYSIS_WAIT_MS = 30000  # the longest wait for the analysis once the engine runs (a shot waits only while it lacks it)
TRIES = 3  # a shot taken before the engine's analysis came is made again (a first launch prepares the engine)


def make(name: str, args: tuple[str, ...]) -> None:
    """One shot; it fails unless the app captured it with the analysis it shows (heatmap, eval, verdicts)."""
    out = SHOTS / name
    for attempt in range(1, TRIES + 1):
        with tempfile.TemporaryDirectory(prefix="connect4-shot-") as config:
            env = dict(os.environ, CONNECT4_CONFIG_DIR=config, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
            wait = () if "--screenshot-wait" in args else ("--screenshot-wait", str(ANALYSIS_WAIT_MS))
            cmd = [sys.executable, str(ROOT / "main.py"), *args, *wait, "--screenshot", str(out)]
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
        if done.returncode != 0 or not out.exists():
            raise SystemExit(f"screenshots: {name} failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}")
        if WITHOUT_ANALYSIS not in done.stderr:
            print(f"{name}: {' '.join(args)}")
            return
        print(f"{name}: try {attempt} lacked the engine's analysis: {done.stderr.strip().splitlines()[-1]}")
    raise SystemExit(f"screenshots: {name} was never captured with the engine's analysis ({TRIES} tries)")


def regenerate(names: list[str]) -> None:
    for name in names:
        make(name, SCREENSHOTS[name])
    write_manifest()


def write_manifest() -> None:
    shots = {name: {"args": list(args), "png_sha256": png_hash(SHOTS / name)} for name, args in SCREENSHOTS.items()}
    MANIFEST.write_text(json.dumps({"ui_hash": ui_hash(), "shots": shots}, indent=2) + "\n", encoding="utf-8")


def problems() -> list[str]:
    """Why the screenshots are not current (empty: they are)."""
    if not MANIFEST.exists():
        return ["no docs/screenshots/manifest.json: run python tools/screenshots.py"]
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    found = []
    if manifest.get("ui_hash") != ui_hash():
        found.append("the UI code changed since the screenshots were made: run python tools/screenshots.py")
    listed = manifest.get("shots", {})
    for name, args in SCREENSHOTS.items():
        entry = listed.get(name)
        path = SHOTS / name
        if entry is None or entry.get("args") != list(args):
            found.append(f"{name} is not in the manifest as made now")
        elif not path.exists() or png_hash(path) != entry.get("png_sha256"):
            found.append(f"{name} is not the PNG the manifest names")
    for path in sorted(SHOTS.glob("*.png")):
        if path.name not in SCREENSHOTS:
            found.append(f"{path.name} is made by no command (add it to tools/screenshots.py or remove it)")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the screenshots are current")
    parser.add_argument("names", nargs="*", help="only these (default: all)")
    args = parser.parse_args(argv)
    if args.check:
        found = problems()
        for problem in found:
            print(f"screenshots: {problem}", file=sys.stderr)
        return 1 if found else 0
    unknown = [n for n in args.names if n not in SCREENSHOTS]
    if unknown:
        print(f"screenshots: error: unknown screenshot {unknown[0]!r}", file=sys.stderr)
        return 2
    regenerate(args.names or list(SCREENSHOTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
