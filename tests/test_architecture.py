"""The layers are kept by structure: import-linter's contracts (``.importlinter``) pass on the tree, and
each bad import below, added to a scratch copy of the tree, breaks them. The rules import the standard
library only."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "game" / "rules"

# (module file, the bad import added to it, the contract that must break)
PROBES: list[tuple[str, str, str]] = [
    ("game/ui/side_panel.py", "import ai.client.engine_client", "The desktop app never imports the engine package"),
    ("game/play/turns.py", "import ai.client.engine_client", "The engine client is imported by one adapter"),
    ("game/play/heat.py", "import ai.client.transport", "Only the engine client spawns the engine process"),
    ("game/play/engine_driver.py", "import ai.client.process", "The engine client's process record"),
    ("game/rules/connect4.py", "import game.net.server", "The layers"),
    ("game/rules/connect4.py", "import rich", "The rules import no third-party package"),
    ("game/rules/connect4.py", "import numpy", "The rules import no third-party package"),
    ("ai/solver/core.py", "import game.net.client", "The network client is used by"),
    ("ai/solver/core.py", "import game.net.session", "The network client is used by"),
    ("ai/cli/net_bot.py", "import socket", "No client of the game server opens a socket"),
    ("game/text/net_play.py", "import socket", "No client of the game server opens a socket"),
    ("game/net/server.py", "import game.play.session", "The layers"),
    ("game/play/session.py", "import pygame", "Only the desktop app (game.ui) imports pygame"),
    ("game/text/play.py", "import game.ui.frame", "The layers"),
    ("ai/mcts/search.py", "import numba", "Only the engine's compile helper"),
    ("game/rules/base.py", "import game.play.settings", "The layers"),
    # the engine's own floors (contract ai-floors): one probe per wall, each pointing up or across
    ("ai/vocab/limits.py", "import ai.jit", "The engine's floors"),
    ("ai/jit/__init__.py", "import ai.mcts.core", "The engine's floors"),
    ("ai/solver/table.py", "import ai.mcts.tree", "The engine's floors"),
    ("ai/mcts/tree.py", "import ai.solver.results", "The engine's floors"),
    ("ai/mcts/search.py", "import ai.search.levels", "The engine's floors"),
    ("ai/solver/core.py", "import ai.search.exact_root", "The engine's floors"),
    ("ai/search/levels.py", "import ai.engine.protocol", "The engine's floors"),
    ("ai/search/hybrid.py", "import ai.client.api", "The engine's floors"),
    ("ai/engine/protocol.py", "import ai.client.commands", "The engine's floors"),
    ("ai/client/api.py", "import ai.engine.process", "The engine's floors"),
    ("ai/client/session.py", "import ai.cli.bench", "The engine's floors"),
    ("ai/engine/process.py", "import ai.benchmarks.games", "The engine's floors"),
    ("ai/cli/bench.py", "import ai.benchmarks.deadline", "The engine's floors"),
    # the play model reads the vocabulary floor only, except its two doors (engine_driver, review_search)
    ("game/play/turns.py", "import ai.search.levels", "The play model reads the engine's vocabulary"),
    ("game/play/hints.py", "import ai.solver.core", "The play model reads the engine's vocabulary"),
    ("game/play/puzzle_mode.py", "import ai.search.puzzles", "The play model reads the engine's vocabulary"),
    ("game/play/players.py", "import ai.mcts.search", "The play model reads the engine's vocabulary"),
    ("game/play/engine_driver.py", "import ai.engine.protocol", "The play model reads the engine's vocabulary"),
    ("game/play/review_search.py", "import ai.solver.core", "The play model reads the engine's vocabulary"),
]


def _lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("importlinter", reason="import-linter is a development tool (requirements-dev.txt)")
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache"],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _scratch_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    skip = shutil.ignore_patterns("__pycache__", "*.npz", "*.pyc", "data")
    for package in ("game", "ai"):
        shutil.copytree(ROOT / package, tree / package, ignore=skip)
    shutil.copy(ROOT / ".importlinter", tree / ".importlinter")
    return tree


@pytest.mark.timeout(120)
def test_the_contracts_hold_on_the_tree(tmp_path: Path) -> None:
    result = _lint_imports(_scratch_tree(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("module", "bad_import", "contract"), PROBES, ids=[f"{m}:{i}" for m, i, _ in PROBES])
def test_a_bad_import_breaks_a_contract(tmp_path: Path, module: str, bad_import: str, contract: str) -> None:
    tree = _scratch_tree(tmp_path)
    path = tree / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{bad_import}  # probe\n", encoding="utf-8")
    result = _lint_imports(tree)
    assert result.returncode != 0, f"{module} + {bad_import!r} was let through:\n{result.stdout}"
    broken = [line for line in result.stdout.splitlines() if line.startswith(contract)]
    assert broken, f"expected the contract {contract!r} to break:\n{result.stdout}"


def _imported_top_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_rules_import_the_standard_library_only() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__", "game"}
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imported_top_names(path) - allowed) for path in RULES.glob("*.py")
    }
    offenders = {name: extra for name, extra in offenders.items() if extra}
    assert not offenders, f"the rules import more than the standard library: {offenders}"
    project_imports = {
        str(path.relative_to(ROOT))
        for path in RULES.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith("game.")
        and not (node.module or "").startswith("game.rules")
    }
    assert not project_imports, f"the rules import other floors of the game: {project_imports}"


@pytest.mark.timeout(120)
def test_the_import_graph_picture_is_current() -> None:
    pytest.importorskip("grimp", reason="grimp comes with import-linter, a development tool")
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "import_graph.py"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    svg = (ROOT / "docs" / "import-graph.svg").read_text(encoding="utf-8")
    assert "#c00" not in svg.split("</defs>", 1)[1], "an arrow of the import graph points up"


# Packages with no import circle between their modules (imports inside functions and under TYPE_CHECKING count
# too): the app's effects are data only, so no handler's module is imported back by ``game.ui.effects``.
CIRCLE_FREE = ("ai", "game", "game.rules", "game.net", "game.play", "game.text", "game.ui")


def import_circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (strongly connected, two or more), sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm (recursion: the tree is a few hundred modules)
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(imports.get(module, ())):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group: list[str] = []
            while not group or group[-1] != module:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    return sorted(circles)


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert import_circles(graph) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.timeout(120)
@pytest.mark.parametrize("package", CIRCLE_FREE)
def test_no_import_circle(package: str, monkeypatch: pytest.MonkeyPatch) -> None:
    grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter, a development tool")
    monkeypatch.syspath_prepend(str(ROOT))
    graph = grimp.build_graph(package.split(".")[0], cache_dir=None)
    inside = {m for m in graph.modules if m == package or m.startswith(package + ".")}
    imports = {m: {o for o in graph.find_modules_directly_imported_by(m) if o in inside} for m in inside}
    assert import_circles(imports) == [], f"modules of {package} import each other round a circle"
