"""The shape the code keeps: every Python module (tests and tools included) under the line cap, and no
function outside the compiled kernels wider than the complexity ceiling. A module or function that outgrows
them is split by what it does, not raised past the limit."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULE_CAP = 450  # lines
COMPLEXITY_CEILING = 25  # decision points + 1 (McCabe), for functions numba does not compile


def tracked_python_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode == 0 and listed.stdout.strip():
        return [ROOT / name for name in listed.stdout.split()]
    return sorted(p for p in ROOT.rglob("*.py") if ".venv" not in p.parts and "build" not in p.parts)


def is_kernel_module(source: str) -> bool:
    """A module of compiled kernels (numba's ``@jit`` functions): its loops are the search, kept in one piece."""
    return "@jit" in source


class _Decisions(ast.NodeVisitor):
    """Counts the branch points of one function body, not descending into nested functions (they count apart)."""

    def __init__(self) -> None:
        self.count = 0

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.match_case)):
            self.count += 1
        elif isinstance(node, ast.BoolOp):
            self.count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            self.count += 1 + len(node.ifs)
        super().generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        pass  # a nested function is measured on its own

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        pass

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        pass


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    counter = _Decisions()
    for statement in function.body:
        counter.visit(statement)
    return counter.count + 1


def function_complexities(source: str) -> list[tuple[str, int, int]]:
    """(name, line, complexity) of every function and method of a module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, node.lineno, complexity(node)))
    return found


def test_every_module_is_under_the_line_cap() -> None:
    too_long = []
    for path in tracked_python_files():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MODULE_CAP:
            too_long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert too_long == [], f"modules over {MODULE_CAP} lines (split them by concern): {too_long}"


def test_no_function_outside_the_kernels_is_over_the_complexity_ceiling() -> None:
    too_wide = []
    for path in tracked_python_files():
        source = path.read_text(encoding="utf-8")
        if is_kernel_module(source):
            continue
        for name, line, value in function_complexities(source):
            if value > COMPLEXITY_CEILING:
                too_wide.append(f"{path.relative_to(ROOT)}:{line} {name} ({value})")
    assert too_wide == [], f"functions over complexity {COMPLEXITY_CEILING}: {too_wide}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f():\n    return 1\n", 1),
        ("def f(a):\n    if a:\n        return 1\n    return 2\n", 2),
        ("def f(a, b):\n    if a and b or a:\n        pass\n    for x in a:\n        pass\n", 5),
        (
            "def f(a):\n    try:\n        pass\n    except ValueError:\n        pass\n    return [x for x in a if x]\n",
            4,
        ),
        ("def f(a):\n    def g():\n        if a:\n            pass\n    return g\n", 1),
    ],
)
def test_the_complexity_measure_counts_branch_points(source: str, expected: int) -> None:
    assert function_complexities(source)[0][2] == expected
