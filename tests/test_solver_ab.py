"""The old-against-new solver benchmark loads the old solver whole: its kernel and its board together."""

from __future__ import annotations

import sys
from pathlib import Path

from ai.benchmarks.solver_ab import load_baseline


def test_the_baseline_solver_uses_its_own_board_and_kernel(tmp_path: Path) -> None:
    """A board whose near-table shift follows the new kernel's NEAR_BITS, given to the old kernel, read wrong
    entries (a wrong score at 37313333717124171162542 when only the new NEAR_BITS changed)."""
    try:
        baseline = load_baseline("HEAD", tmp_path)
        assert baseline.kernel.__name__ == "baseline_solver_kernel"
        assert baseline.KernelBoard.__module__ == "baseline_solver_board"
        board_module = sys.modules["baseline_solver_board"]
        assert board_module.kernel is baseline.kernel
    finally:
        for name in ("baseline_solver", "baseline_solver_board", "baseline_solver_kernel"):
            sys.modules.pop(name, None)
        if str(tmp_path) in sys.path:
            sys.path.remove(str(tmp_path))
