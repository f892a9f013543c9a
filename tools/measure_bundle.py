"""Measure a built executable: its size, what it contains, engine ready, first frame, each game's first bot move.

    .venv/bin/python tools/measure_bundle.py [EXE] [--json]      (default dist/connect4/connect4)

EXE is the one-folder build's ``connect4`` (its whole folder is measured), the one-file executable, or an
installed ``connect4`` on the PATH (a link into the folder). Prints figures; exits 1 if the listing holds
numba or llvmlite, if the program does not run its kernels compiled ahead of time, or if the engine does
not start. Every launch uses a fresh HOME and a neutral working directory (a player's first start).
Launch to first frame: ``EXE --screenshot PNG --screenshot-wait 0`` under the dummy SDL drivers; the clock
stops when the PNG appears, which the app writes right after rendering its first frame. First bot move:
``position`` + ``go`` (200 ms) on a freshly started engine per game, from launch to ``bestmove``.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai.client.proc_probe import children  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
from measure_cold_start import quit_engine  # noqa: E402

WARM_RUNS = 3
GAMES = ("connect4", "tictactoe", "mnk:9x9:5", "gomoku", "uttt")
FORBIDDEN = re.compile(r"(^|[/\\.])(numba|llvmlite|libllvmlite)([/\\._-]|$)", re.IGNORECASE)
MB, MIB = 1e6, float(1 << 20)


def listing(exe: Path) -> tuple[int, list[str]]:
    """(bytes on disk, names of everything inside) of a one-folder build (its folder) or a one-file one."""
    folder = exe.parent
    if (folder / "_internal").is_dir():
        names, size, seen = [], 0, set()
        for path in folder.rglob("*"):
            if path.is_file() and not path.is_symlink():
                info = path.stat()
                if (info.st_dev, info.st_ino) not in seen:  # a hard link (pbrain-mcts) takes its bytes once
                    seen.add((info.st_dev, info.st_ino))
                    size += info.st_size
                names.append(str(path.relative_to(folder)))
        return size, names
    from PyInstaller.archive.readers import CArchiveReader

    archive = CArchiveReader(str(exe))
    names = list(archive.toc)
    for name in list(archive.toc):
        if name.startswith("PYZ") or name.endswith(".pyz"):
            try:
                names += list(archive.open_embedded_archive(name).toc)
            except Exception:  # noqa: BLE001 - a listing is best effort; the file size stays right
                pass
    return exe.stat().st_size, names


def engine_ready_s(exe: Path, env: dict[str, str], cwd: str) -> tuple[float, dict[str, object], str]:
    """Seconds from launch to the engine's ready line, the line, and the engine's stderr."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    assert proc.stdout is not None and proc.stdin is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    _, err = proc.communicate(b'{"cmd": "quit"}\n', timeout=60)
    try:
        message = json.loads(line)
    except ValueError:
        message = {"type": "none", "raw": line[:200].decode(errors="replace")}
    return elapsed, message, err.decode(errors="replace")


def first_move_s(exe: Path, env: dict[str, str], cwd: str, game: str) -> float:
    """Seconds from launching the engine to its first ``bestmove`` in ``game`` (a 200 ms search)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
        text=True,
    )
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdin.write(json.dumps({"cmd": "position", "game": game, "moves": ""}) + "\n")
    proc.stdin.write(json.dumps({"cmd": "go", "time_ms": 200, "id": 1}) + "\n")
    proc.stdin.flush()
    try:
        for line in proc.stdout:
            kind = json.loads(line).get("type")
            if kind == "bestmove":
                return time.perf_counter() - start
            if kind == "error":
                raise RuntimeError(f"engine error in {game}: {line.strip()}")
        raise RuntimeError(f"the engine exited before its first move in {game}")
    finally:
        quit_engine(proc)


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.decode(errors="replace").partition("=") for item in raw.split(b"\0") if item)
    return {key: value for key, _, value in pairs}


def engine_ready_in_app_s(exe: Path, env: dict[str, str], cwd: str) -> list[float] | None:
    """One-file build, Linux: seconds to the ready line of engines started the way the app starts its engine:
    ``EXE engine`` launched by a running instance with that instance's environment, so its bootloader runs
    Python in the folder the instance unpacked instead of unpacking again. None where /proc cannot show the
    instance's environment."""
    host = subprocess.Popen(
        [str(exe), "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    try:
        assert host.stdout is not None
        host.stdout.readline()  # ready: unpacked, Python running in the bootloader's child
        python = children(host.pid)
        if not python:
            return None
        inherited = _environ(python[0])
        if "_PYI_APPLICATION_HOME_DIR" not in inherited:
            return None
        return [engine_ready_s(exe, inherited, cwd)[0] for _ in range(WARM_RUNS)]
    except OSError:
        return None
    finally:
        quit_engine(host)


def first_frame_s(exe: Path, env: dict[str, str], cwd: str, run: int) -> tuple[float, int]:
    shot = Path(cwd) / f"first-frame-{run}.png"
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "--screenshot", str(shot), "--screenshot-wait", "0", "--new"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )
    while not shot.exists() and proc.poll() is None and time.perf_counter() - start < 60:
        time.sleep(0.005)
    elapsed = time.perf_counter() - start
    code = proc.wait(timeout=60)
    return elapsed, code


def measure(exe: Path) -> tuple[int, dict[str, object]]:
    size, names = listing(exe.resolve())
    kind = "one-folder" if (exe.resolve().parent / "_internal").is_dir() else "one-file"
    report: dict[str, object] = {"exe": str(exe), "kind": kind, "bytes": size}
    print(f"{kind} {exe}: {size / MB:.1f} MB ({size / MIB:.1f} MiB), {len(names)} files listed")
    # the licence texts (licenses/numba-LICENSE: numba's runtime is compiled into the kernels) are not code
    forbidden = sorted(n for n in names if FORBIDDEN.search(n) and "licenses" not in Path(n).parts)
    if forbidden:
        print(f"the bundle holds numba or llvmlite: {forbidden[:10]}", file=sys.stderr)
        return 1, report
    blas = sorted(n for n in names if "openblas" in n.lower() and "licenses" not in Path(n).parts)
    print("listing: no numba, no llvmlite; " + (f"numpy's OpenBLAS: {blas[0]}" if blas else "numpy without BLAS"))
    with tempfile.TemporaryDirectory(prefix="connect4-measure-") as tmp:
        env = dict(os.environ, HOME=str(Path(tmp) / "home"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        for name in ("CONNECT4_KERNELS", "CONNECT4_KERNELS_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME"):
            env.pop(name, None)
        version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env, cwd=tmp, timeout=60)
        print(version.stdout.strip())
        if "compiled ahead of time" not in version.stdout:
            print(f"the kernels do not run compiled ahead of time:\n{version.stderr[-2000:]}", file=sys.stderr)
            return 1, report
        cold, message, err = engine_ready_s(exe, env, tmp)
        if message.get("type") != "ready":
            print(f"engine did not get ready: {message}\n{err[-2000:]}", file=sys.stderr)
            return 1, report
        warm = [engine_ready_s(exe, env, tmp)[0] for _ in range(WARM_RUNS)]
        print(
            f"engine ready: first start {cold:.2f} s, then median {statistics.median(warm):.2f} s of {warm_list(warm)}"
            + (" (a one-file build started on its own: it unpacks itself first)" if kind == "one-file" else "")
        )
        in_app = engine_ready_in_app_s(exe, env, tmp) if kind == "one-file" else None
        if in_app:
            print(
                f"engine ready as the app starts it (in the folder the app unpacked): median "
                f"{statistics.median(in_app):.2f} s of {warm_list(in_app)}"
            )
            report["engine_ready_in_app_s"] = statistics.median(in_app)
        frames = [first_frame_s(exe, env, tmp, run) for run in range(WARM_RUNS)]
        frame = statistics.median(t for t, _ in frames)
        codes = sorted({code for _, code in frames})
        print(
            f"launch to first frame: median {frame:.2f} s of {warm_list([t for t, _ in frames])} (exit codes {codes})"
        )
        moves = {game: first_move_s(exe, env, tmp, game) for game in GAMES}
        print(
            "first bot move (launch to bestmove, 200 ms search): "
            + ", ".join(f"{g} {s:.2f} s" for g, s in moves.items())
        )
        report.update(engine_ready_s=cold, engine_ready_warm_s=statistics.median(warm), first_frame_s=frame)
        report["first_move_s"] = moves
    return 0, report


def warm_list(values: list[float]) -> list[float]:
    return [round(v, 2) for v in values]


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    exe = Path(args[0]) if args else ROOT / "dist" / "connect4" / "connect4"
    if not exe.exists():
        print(f"measure_bundle: {exe} does not exist; build it first (python tools/release.py)", file=sys.stderr)
        return 2
    code, report = measure(exe.absolute())
    if as_json:
        print(json.dumps(report))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
