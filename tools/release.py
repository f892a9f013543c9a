"""Build every release artefact with one command: ``.venv/bin/python tools/release.py [--skip-onefile]``.

Into ``dist/release/``:
- ``connect4-<version>-<platform>`` (the one-file executable) and ``pbrain-mcts`` beside it (a launcher);
- ``connect4-<version>-<platform>.tar.gz``: the one-folder build (``connect4/``, with ``pbrain-mcts``, the same
  program under the name Gomocup managers start, a hard link to ``connect4`` on POSIX);
- on Linux with ``dpkg-deb``: ``connect4_<version>_<arch>.deb``: the folder under ``/opt/connect4``,
  ``connect4`` and ``pbrain-mcts`` on the PATH (links in ``/usr/bin``), a ``.desktop`` entry with the
  icon, the third-party notices and licences (``/usr/share/doc/connect4``).
PyInstaller runs in ``build/release-venv`` (``tools/release_python.py``): the runtime requirements with numpy
built without BLAS, which the game never calls (a third of the folder less). Each artefact carries
THIRD_PARTY_NOTICES.md and ``licenses/``; the specs build the compiled kernels first when ``build/kernels`` has
none for these sources (numba and a C compiler). Prints each artefact's size.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.version import describe_source  # noqa: E402
from tools.release_python import blas_of, release_python  # noqa: E402

OUT = ROOT / "dist" / "release"
PACKAGE = "connect4"
INSTALL_DIR = "/opt/connect4"
DESKTOP = """[Desktop Entry]
Type=Application
Name=Connect 4 MCTS
GenericName=Board game
Comment=Connect 4, tic-tac-toe, Gomoku and Ultimate TTT against a Monte Carlo Tree Search AI
Exec=connect4
Icon=connect4
Terminal=false
Categories=Game;BoardGame;
"""


def run(*command: str) -> None:
    print("$ " + " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True)


def pyinstaller(python: Path, spec: str) -> None:
    run(str(python), "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", spec)


def link_twin(folder: Path) -> None:
    """POSIX: ``pbrain-mcts``, a byte-identical twin of ``connect4`` (connect4.spec), becomes a hard link to it, so
    the folder, its tarball and the .deb hold its 5 MB once. (A symbolic link would not do: the bootloader gives
    the program the name it resolves, so it would start the app; a hard link keeps the name it was started by.)"""
    suffix = ".exe" if sys.platform == "win32" else ""
    app, twin = folder / f"connect4{suffix}", folder / f"pbrain-mcts{suffix}"
    if os.name != "posix" or not twin.exists() or app.read_bytes() != twin.read_bytes():
        return
    twin.unlink()
    os.link(app, twin)


def platform_tag() -> str:
    return f"{sys.platform.replace('win32', 'windows')}-{platform.machine().lower()}"


def deb_arch() -> str:
    done = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def tarball(folder: Path, target: Path) -> Path:
    """The one-folder build as ``target`` (links kept as links)."""
    with tarfile.open(target, "w:gz") as tar:
        tar.add(folder, arcname=folder.name)
    return target


def debian_package(folder: Path, version: str, target: Path) -> Path:
    """A .deb of the one-folder build (see the module docstring); built with dpkg-deb --root-owner-group."""
    stage = ROOT / "build" / "deb"
    shutil.rmtree(stage, ignore_errors=True)
    app = stage / INSTALL_DIR.lstrip("/")
    app.parent.mkdir(parents=True)
    subprocess.run(["cp", "-a", str(folder), str(app)], check=True)  # (links and hard links kept)
    (stage / "usr" / "bin").mkdir(parents=True)
    for name in ("connect4", "pbrain-mcts"):
        os.symlink(f"{INSTALL_DIR}/{name}", stage / "usr" / "bin" / name)
    applications = stage / "usr" / "share" / "applications"
    applications.mkdir(parents=True)
    (applications / "connect4.desktop").write_text(DESKTOP, encoding="utf-8")
    icons = stage / "usr" / "share" / "icons" / "hicolor" / "256x256" / "apps"
    icons.mkdir(parents=True)
    shutil.copyfile(ROOT / "assets" / "icon.png", icons / "connect4.png")
    doc = stage / "usr" / "share" / "doc" / PACKAGE
    doc.mkdir(parents=True)
    shutil.copyfile(ROOT / "assets" / "THIRD_PARTY_NOTICES.md", doc / "THIRD_PARTY_NOTICES.md")
    shutil.copytree(ROOT / "build" / "licenses", doc / "licenses")
    (doc / "copyright").write_text(
        "Connect 4 MCTS. The third-party software it bundles and its licences: THIRD_PARTY_NOTICES.md and\n"
        "licenses/ in this folder (also under /opt/connect4/_internal).\n",
        encoding="utf-8",
    )
    control = stage / "DEBIAN"
    control.mkdir()
    size_kb = sum(p.stat().st_size for p in stage.rglob("*") if p.is_file() and not p.is_symlink()) // 1024
    (control / "control").write_text(
        f"Package: {PACKAGE}\nVersion: {version}\nArchitecture: {deb_arch()}\nMaintainer: Connect 4 MCTS developers\n"
        f"Installed-Size: {size_kb}\nSection: games\nPriority: optional\nDepends: libc6\n"
        "Description: Connect 4 and other board games against a Monte Carlo Tree Search AI\n"
        " A desktop app (pygame-ce) with an MCTS engine whose search kernels are compiled ahead of time;\n"
        " includes pbrain-mcts, the Gomoku engine for Gomocup managers.\n",
        encoding="utf-8",
    )
    run("dpkg-deb", "--root-owner-group", "--build", str(stage), str(target))
    return target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="release", description=__doc__.splitlines()[0])
    parser.add_argument("--skip-onefile", action="store_true", help="only the folder, its tarball and the .deb")
    parser.add_argument(
        "--with-blas", action="store_true", help="bundle the registry's numpy (with OpenBLAS, 28 MB more) as it is"
    )
    args = parser.parse_args(argv)
    python = release_python(with_blas=args.with_blas)
    print(f"bundling {python} (numpy BLAS: {blas_of(python)})", flush=True)
    info = describe_source(ROOT)
    version = info["version"]
    print(f"release {version} (commit {info['commit']})")
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    artefacts: list[Path] = []
    pyinstaller(python, "connect4.spec")
    folder = ROOT / "dist" / "connect4"
    link_twin(folder)
    artefacts.append(tarball(folder, OUT / f"connect4-{version}-{platform_tag()}.tar.gz"))
    if not args.skip_onefile:
        pyinstaller(python, "connect4-onefile.spec")
        suffix = ".exe" if sys.platform == "win32" else ""
        onefile = OUT / f"connect4-{version}-{platform_tag()}{suffix}"
        shutil.copy2(ROOT / "dist" / f"connect4-onefile{suffix}", onefile)
        artefacts.append(onefile)
        launcher = ROOT / "dist" / "pbrain-mcts"
        if launcher.exists():
            text = launcher.read_text(encoding="utf-8").replace("connect4-onefile", onefile.name)
            (OUT / "pbrain-mcts").write_text(text, encoding="utf-8")
            os.chmod(OUT / "pbrain-mcts", 0o755)
    if sys.platform.startswith("linux") and shutil.which("dpkg-deb"):
        artefacts.append(debian_package(folder, version, OUT / f"{PACKAGE}_{version}_{deb_arch()}.deb"))
    for path in artefacts:
        print(f"artefact: {path.relative_to(ROOT)} {path.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
