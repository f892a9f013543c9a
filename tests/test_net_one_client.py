"""The app, the terminal and the bot are clients of one library (``game.net``): each talks to the
server through the one client session (``game.net.session``) and reads typed messages
(``game.net.messages``); none of them parses JSON or dispatches over a dict's ``"type"``. (The
sockets half is an import-linter contract: ``.importlinter``, one-network-client.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = {  # module file -> the library module it must import
    "game/net/client.py": "game.net.session",
    "game/text/net_play.py": "game.net.session",
    "ai/cli/net_bot.py": "game.net.session",
    "game/ui/net_game.py": "game.net.client",
}
WIRE = {"game/net/messages.py", "game/net/wire.py"}  # the only modules that read a protocol line's JSON
NOT_LINES = {"game/net/store.py", "game/net/bench.py"}  # JSON in database rows; the benchmark's scripted clients


def _text_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _dict_reading(tree: ast.AST) -> list[str]:
    """Where a module reads a JSON object by hand: ``json.loads``, ``x.get("key")``, ``x["key"]``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name == "loads" and isinstance(node.func.value, ast.Name) and node.func.value.id == "json":
                found.append(f"line {node.lineno}: json.loads")
            elif name == "get" and node.args and _text_constant(node.args[0]):
                found.append(f"line {node.lineno}: .get({ast.unparse(node.args[0])})")
        elif isinstance(node, ast.Subscript) and _text_constant(node.slice):
            found.append(f"line {node.lineno}: [{ast.unparse(node.slice)}]")
    return found


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.timeout(30)
@pytest.mark.parametrize("path", list(CLIENTS))
def test_a_client_reads_typed_messages_through_the_library(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    assert _dict_reading(tree) == [], f"{path} reads protocol JSON by hand"
    assert CLIENTS[path] in _imports(tree), f"{path} does not use {CLIENTS[path]}"
    assert "socket" not in _imports(tree)


@pytest.mark.timeout(30)
def test_only_the_wire_modules_decode_server_lines() -> None:
    readers = []
    for path in sorted((ROOT / "game" / "net").glob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        source = path.read_text(encoding="utf-8")
        if "json.loads" in source and relative not in WIRE | NOT_LINES:
            readers.append(relative)
    assert readers == []
