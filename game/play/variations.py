"""A game's move tree: a move played at a past position starts a variation instead of cutting the line.

No pygame. A node is addressed by its ``path``: the moves from the start that reach it (the children of a
node play different moves, so a path names one node). The first child of a node is its main continuation;
the others are variations, in the order they were made. ``main_line()`` follows first children from the
root; ``line_through(path)`` is the path continued by first children to its end (what a move list shows
when a variation is selected).

In a saved game (``docs/review.md`` shows the format) the main line stays in ``"moves"`` (so a reader that
knows nothing of variations still loads the game) and the variations go in ``"variations"``: a list of
``{"ply": P, "moves": "..."}``, where ``P`` is the number of moves of the enclosing line played before the
variation's first move, and ``moves`` the variation's own moves (the variation replaces the enclosing line's
move ``P + 1`` and everything after it); each may hold ``"variations"`` of its own, with ``P`` counted from
the start of the game along the variation's line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from game.rules import GameSpec
from game.rules.errors import GameError

MAX_NODES = 20_000  # a loaded tree larger than this is refused (a saved file is small)
Path = tuple[int, ...]


class VariationError(ValueError):
    """A path that names no node, or a bad ``variations`` entry; the message is one line."""


@dataclass
class Node:
    move: int | None  # None at the root
    children: list[Node] = field(default_factory=list)

    def child(self, move: int) -> Node | None:
        return next((c for c in self.children if c.move == move), None)


class MoveTree:
    def __init__(self, spec: GameSpec, main_line: tuple[int, ...] | list[int] = ()) -> None:
        self.spec = spec
        self.root = Node(None)
        self.add_line((), main_line)

    # --- reading ------------------------------------------------------------------------------------------
    def node(self, path: Path) -> Node:
        node = self.root
        for i, move in enumerate(path):
            found = node.child(move)
            if found is None:
                raise VariationError(f"no move {self.spec.move_to_text(move)} at ply {i} of this game")
            node = found
        return node

    def has(self, path: Path) -> bool:
        try:
            self.node(path)
        except VariationError:
            return False
        return True

    def line_through(self, path: Path) -> Path:
        """``path`` continued by main continuations to the end of its line."""
        node = self.node(path)
        out = list(path)
        while node.children:
            node = node.children[0]
            assert node.move is not None
            out.append(node.move)
        return tuple(out)

    def main_line(self) -> Path:
        return self.line_through(())

    def is_main(self, path: Path) -> bool:
        return self.main_line()[: len(path)] == tuple(path)

    def alternatives(self, path: Path) -> tuple[int, ...]:
        """The moves played at the position after ``path``, main continuation first."""
        return tuple(c.move for c in self.node(path).children if c.move is not None)

    def branch_points(self) -> Iterator[tuple[Path, tuple[int, ...]]]:
        """Each position with more than one move played from it, with those moves (main first), depth-first."""
        stack: list[tuple[Path, Node]] = [((), self.root)]
        while stack:
            path, node = stack.pop()
            if len(node.children) > 1:
                yield path, tuple(c.move for c in node.children if c.move is not None)
            for child in reversed(node.children):
                assert child.move is not None
                stack.append(((*path, child.move), child))

    def size(self) -> int:
        count, stack = 0, [self.root]
        while stack:
            node = stack.pop()
            count += len(node.children)
            stack.extend(node.children)
        return count

    # --- changing -----------------------------------------------------------------------------------------
    def play(self, path: Path, move: int) -> Path:
        """Play ``move`` after ``path``: follow it if it was played there, else add it (a new variation when
        the position already has a continuation). Raises the rules' IllegalMoveError for an illegal move."""
        node = self.node(path)
        if node.child(move) is None:
            self._position(path).play(move)  # raises on an illegal move
            node.children.append(Node(move))
        return (*path, move)

    def add_line(self, path: Path, moves: tuple[int, ...] | list[int]) -> Path:
        for move in moves:
            path = self.play(path, move)
        return path

    def promote(self, path: Path) -> Path:
        """Make the variation that ``path`` lies in the main continuation at its branch point (the deepest
        position on ``path`` where it leaves a main continuation); returns that branch point's path.
        Promoting a path already on the main line changes nothing and returns ``()``."""
        self.node(path)
        node = self.root
        branch: tuple[Path, Node, int] | None = None
        for i, move in enumerate(path):
            index = next(k for k, c in enumerate(node.children) if c.move == move)
            if index > 0:
                branch = (path[:i], node, index)
            node = node.children[index]
        if branch is None:
            return ()
        at, parent, index = branch
        parent.children.insert(0, parent.children.pop(index))
        return at

    def make_main(self, path: Path) -> None:
        """Promote until ``path`` lies on the main line."""
        while not self.is_main(path):
            self.promote(path)

    def delete(self, path: Path) -> Path:
        """Remove the node at ``path`` and everything after it; returns its parent's path."""
        if not path:
            raise VariationError("the start position cannot be deleted")
        parent = self.node(path[:-1])
        child = parent.child(path[-1])
        if child is None:
            raise VariationError("no such move")
        parent.children.remove(child)
        return path[:-1]

    def _position(self, path: Path) -> Any:
        position = self.spec.start()
        for move in path:
            position = position.play(move)
        return position

    # --- saved form -----------------------------------------------------------------------------------------
    def variations_json(self) -> list[dict[str, Any]]:
        """The ``variations`` of a saved game (empty when the tree is a single line)."""
        return self._variations_of(())

    def _variations_of(self, line_start: Path) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        line = self.line_through(line_start)
        for ply in range(len(line_start), len(line)):
            node = self.node(line[:ply])
            for side in node.children[1:]:
                assert side.move is not None
                start = (*line[:ply], side.move)
                own = self.line_through(start)[ply:]
                entry: dict[str, Any] = {"ply": ply, "moves": self.spec.moves_to_text(own)}
                nested = self._variations_of(start)
                if nested:
                    entry["variations"] = nested
                out.append(entry)
        return out

    @classmethod
    def from_saved(cls, spec: GameSpec, main_line: tuple[int, ...], variations: object) -> MoveTree:
        """The tree of a saved game; VariationError (one line) for a bad ``variations`` value."""
        tree = cls(spec, main_line)
        if variations is not None:
            tree._load(main_line, variations, 0)
        return tree

    def _load(self, line: Path, variations: object, depth: int) -> None:
        if depth > 64 or not isinstance(variations, list):
            raise VariationError('"variations" must be a list of {"ply", "moves"} objects')
        for entry in variations:
            if not isinstance(entry, dict):
                raise VariationError('a variation must be an object with "ply" and "moves"')
            ply, text = entry.get("ply"), entry.get("moves")
            if not (isinstance(ply, int) and not isinstance(ply, bool) and 0 <= ply <= len(line)):
                raise VariationError(f'a variation\'s "ply" must be 0-{len(line)}, not {str(ply)[:20]}')
            if not isinstance(text, str) or not text.strip():
                raise VariationError('a variation\'s "moves" must be a non-empty string')
            try:
                own = self.spec.parse_moves(text)
                end = self.add_line(line[:ply], own)
            except GameError as exc:
                raise VariationError(f"variation at ply {ply}: {str(exc)[:160]}") from None
            if self.size() > MAX_NODES:
                raise VariationError(f"too many moves in the variations (more than {MAX_NODES})")
            if "variations" in entry:
                self._load(end, entry["variations"], depth + 1)


def tree_of_saved_text(spec: GameSpec, main_line: tuple[int, ...], text: str) -> MoveTree:
    """The move tree of a saved game's text (its main line alone for a file without variations, such as every
    file written before variations existed); VariationError (one line) for a bad ``variations`` value."""
    from game.play.savefile import read_field

    return MoveTree.from_saved(spec, main_line, read_field(text, "variations"))


def tree_to_saved_text(tree: MoveTree, cursor: int | None = None) -> str:
    """The saved-game JSON of ``tree``: its main line in ``moves``, the rest in ``variations``."""
    from game.play.savefile import game_to_json

    return game_to_json(tree.spec, tree.main_line(), cursor, tree.variations_json() or None)


def with_variations(saved_text: str, tree: MoveTree) -> str:
    """A saved game's JSON text with the tree's main line in ``moves`` and the rest in ``variations`` (the text
    unchanged when it is not a JSON object); a ``cursor`` beyond the main line is dropped."""
    import json

    try:
        data = json.loads(saved_text)
    except (ValueError, RecursionError):
        return saved_text
    if not isinstance(data, dict):
        return saved_text
    main = tree.main_line()
    data["moves"] = tree.spec.moves_to_text(main)
    cursor = data.get("cursor")
    if isinstance(cursor, int) and not 0 <= cursor <= len(main):
        del data["cursor"]
    variations = tree.variations_json()
    if variations:
        data["variations"] = variations
    else:
        data.pop("variations", None)
    return json.dumps(data, indent=2) + "\n"
