"""Saving and loading games with their evaluations, and saying where.

A saved game is the JSON of ``savefile.game_to_json`` plus an optional ``"evals"`` object: for a ply
(a string key) the first player's winning chance and whether it is proven, e.g.
``{"0": [0.55, false], "3": [1.0, true]}``. Readers that do not know ``evals`` ignore it; a bad
``evals`` entry is skipped (the moves still load).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from game.play.savefile import SUFFIX, SaveFileError, game_to_json, load_game, parse_game_text, read_evals, write_atomic
from game.play.session import Session
from game.rules import GameSpec
from game.rules.capabilities import capabilities

MAX_TEXT = 100_000


@dataclass(frozen=True)
class LoadedGame:
    spec: GameSpec
    moves: tuple[int, ...]
    cursor: int | None
    evals: dict[int, tuple[float, bool]]
    text: str = ""  # the file's text: its variations and review load from it (variations.tree_of_saved_text,
    # review_store.review_from_text)


def game_json_with_evals(session: Session, *, with_cursor: bool = False) -> str:
    """The game as JSON with its evaluations (``with_cursor``: and the shown move, as the autosave keeps it)."""
    data = json.loads(game_to_json(session.spec, session.line, session.cursor if with_cursor else None))
    evals = {}
    for ply, point in enumerate(session.eval_series()):
        if point is not None and not session.position_at(ply).outcome.is_over:
            evals[str(ply)] = [round(point.value, 4), point.exact]
    if evals:
        data["evals"] = evals
    return json.dumps(data, indent=2) + "\n"


def save_with_evals(session: Session, folder: Path, decorate: Callable[[str], str] | None = None) -> tuple[str, bool]:
    """Write the game to a new file in ``folder``; (a notice naming the full path, True) or (why not, False).
    ``decorate``: adds to the JSON text (the app's variations and review)."""
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    name = session.spec.name.replace(":", "-")
    path = folder / f"{name}_{stamp}{SUFFIX}"
    n = 2
    while path.exists():
        path, n = folder / f"{name}_{stamp}_{n}{SUFFIX}", n + 1
    try:
        text = game_json_with_evals(session)
        write_atomic(path, decorate(text) if decorate is not None else text)
    except OSError as exc:
        return f"Could not save to {folder}: {exc.strerror or exc}", False
    return f"Saved to {path}", True


def read_game(default_game: str, text: str | None = None, path: Path | None = None) -> LoadedGame:
    """A game from pasted text or a file; SaveFileError (one line) when it cannot be read."""
    if path is not None:
        spec, moves, cursor = load_game(path, default_game)
        try:
            raw = path.read_text(encoding="utf-8")[: MAX_TEXT * 10]
        except (OSError, UnicodeDecodeError):
            raw = ""
    else:
        raw = (text or "")[:MAX_TEXT]
        spec, moves, cursor = parse_game_text(raw, default_game)
    return LoadedGame(spec, moves, cursor, read_evals(raw, len(moves)), raw)


def describe_saved(path: Path, default_game: str = "connect4") -> str:
    """One line about a saved game for the Load card: the game, its moves (the first of them), when it was saved."""
    try:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    except OSError:
        when = "?"
    try:
        spec, moves, _ = load_game(path, default_game)
    except (SaveFileError, ValueError):
        return f"{path.name} · cannot be read · {when}"
    from game.rules.capabilities import capabilities

    try:
        title = capabilities(spec).title
    except ValueError:
        title = spec.name
    line = spec.moves_to_text(list(moves))
    preview = line if len(line) <= 18 else line[:17] + "…"
    count = "1 move" if len(moves) == 1 else f"{len(moves)} moves"
    return f"{title} · {count}{f' ({preview})' if preview else ''} · {when}"


def is_connect4_text(text: str) -> bool:
    """A bare string of the digits 1-7: a Connect 4 position, whatever game is shown (the README's paste)."""
    bare = text.strip()
    return 0 < len(bare) <= 42 and all(ch in "1234567" for ch in bare)


def restore_evals(session: Session, evals: dict[int, tuple[float, bool]]) -> None:
    """Put saved evaluations back into a freshly loaded session."""
    for ply, (value, exact) in evals.items():
        if exact:
            session.proofs[session.spec.moves_to_text(session.line[:ply])] = value
        else:
            session.evals[ply] = value


def copy_position(session: Session, copy_text: Callable[[str], bool]) -> tuple[str, bool]:
    """Put the shown position on the clipboard with ``copy_text`` (False: no clipboard), Connect 4 plain,
    other games as ``game: moves``."""
    moves = session.moves_text
    text = moves if capabilities(session.spec).classic else f"{session.spec.name}: {moves}"
    if copy_text(text):
        return f"Copied position {text or '(empty board)'}", True
    return f"No clipboard here; the position is {text or '(empty board)'}", False


__all__ = [
    "LoadedGame",
    "describe_saved",
    "is_connect4_text",
    "SaveFileError",
    "copy_position",
    "game_json_with_evals",
    "read_evals",
    "read_game",
    "restore_evals",
    "save_with_evals",
]
