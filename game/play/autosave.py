"""Restore the autosaved game without ever deleting a user's file.

An autosave that cannot be read is renamed to ``<name>.bad-<time>`` (kept aside, never removed), the
legal prefix of its moves is restored when there is one, and the player is told where the file went
in one line. A UTF-8 byte order mark is accepted. No pygame here.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from game.play.safe_read import FileTooLargeError, excerpt, read_regular_bytes, read_regular_text
from game.play.savefile import GameTuple, SaveFileError, legal_prefix, parse_game_text, split_game_text
from game.rules import GameSpec, get_game
from game.rules.errors import GameError

NOTICE_CHARS = 100  # a notice quotes at most this much of an error message


def keep_aside(path: Path) -> Path | None:
    """Rename ``path`` to ``path.bad-<time>`` (a free name: never over another file); None if that failed."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        target = path.with_name(f"{path.name}.bad-{stamp}" + (f"-{n}" if n > 1 else ""))
        if os.path.lexists(target):
            continue
        try:
            if hasattr(os, "link") and path.is_file() and not path.is_symlink():
                os.link(path, target)  # fails if ``target`` appeared meanwhile: no file is overwritten
                os.unlink(path)
            else:
                os.rename(path, target)
            return target
        except FileExistsError:
            continue
        except OSError:
            try:
                os.rename(path, target)  # e.g. a file system without hard links
                return target
            except OSError:
                return _copy_aside(path, target)
    return None


def _copy_aside(path: Path, target: Path) -> Path | None:
    """A byte copy of the regular file ``path`` at the new name ``target`` (when it cannot be renamed)."""
    try:
        data = read_regular_bytes(path)
        with open(target, "xb") as out:
            out.write(data)
        return target
    except (OSError, ValueError):
        return None


def _salvage(text: str) -> tuple[GameSpec, tuple[int, ...]] | None:
    """The game and the legal moves at the start of an unreadable saved game, if any can be told."""
    try:
        game, moves_text, _cursor = split_game_text(text)
        spec = get_game(game)
    except (SaveFileError, GameError, ImportError):
        return None
    moves = legal_prefix(spec, moves_text)
    return (spec, moves) if moves else None


def restore(path: Path) -> tuple[GameTuple | None, str | None]:
    """(spec, moves, cursor) of the autosave at ``path`` or None, and a one-line notice when it was
    unreadable: it is then kept aside, and its legal prefix restored when it has one."""
    try:
        text = read_regular_text(path)
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError) as exc:  # NotRegularFileError, FileTooLargeError, UnicodeDecodeError
        why = "too large" if isinstance(exc, FileTooLargeError) else _reason(exc)
        return None, _kept_notice(path, why, None)
    try:
        return parse_game_text(text), None
    except SaveFileError as exc:
        salvaged = _salvage(text)
        notice = _kept_notice(path, _reason(exc), salvaged)
        if salvaged is None:
            return None, notice
        spec, moves = salvaged
        return (spec, moves, None), notice


def _kept_notice(path: Path, why: str, salvaged: tuple[GameSpec, tuple[int, ...]] | None) -> str:
    """Where the file went comes first: a status bar that cuts the line keeps the part that matters."""
    kept = keep_aside(path)
    where = (
        f"Autosave kept as {excerpt(kept.name, NOTICE_CHARS)} in {shown_folder(kept.parent)}"
        if kept
        else f"Autosave {excerpt(path.name, NOTICE_CHARS)} left in place"
    )
    if salvaged is None:
        return f"{where}: unreadable, new game ({why})"
    return f"{where}: damaged, its first {len(salvaged[1])} moves restored ({why})"


def shown_folder(folder: Path) -> str:
    """``folder`` for a notice: the home directory as ``~``, at most ``NOTICE_CHARS`` characters."""
    text = os.fsdecode(folder)
    home = os.path.expanduser("~")
    if home not in ("~", "/") and (text == home or text.startswith(home + os.sep)):
        text = "~" + text[len(home) :]
    return excerpt(text, NOTICE_CHARS)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    text = getattr(exc, "strerror", None) if isinstance(exc, OSError) else None
    return excerpt(text or str(exc) or type(exc).__name__, NOTICE_CHARS)


def unfinished_since(path: Path) -> float | None:
    """The modification time of the autosave at ``path`` when it holds a game to restore (unfinished,
    or damaged: then it is to be kept aside), else None. Reads only; never moves the file."""
    when: float | None = None
    try:
        when = path.stat().st_mtime
        spec, moves, _cursor = parse_game_text(read_regular_text(path))
    except (OSError, ValueError):  # SaveFileError included
        return when if when is not None and path.is_file() else None
    position = spec.start()
    for move in moves:
        position = position.play(move)
    return None if position.outcome.is_over else when
