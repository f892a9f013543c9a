"""Compile the search kernels ahead of time into one extension module (numba.pycc and a C compiler).

    .venv/bin/python tools/build_kernels.py [--out DIR] [--verbose]

Default destination: the user cache dir, where a source checkout finds it (``CONNECT4_KERNELS=auto``);
the bundle build (tools/release.py) ships it. See ai/engine/kernels_build.py.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai.engine.kernels_build import build_env  # noqa: E402


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="connect4-kernels-jit-") as cache:
        env = dict(build_env(), NUMBA_CACHE_DIR=cache)  # a cold JIT: see build_env
        return subprocess.call([sys.executable, "-m", "ai.engine.kernels_build", *argv], env=env, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
