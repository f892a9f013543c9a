"""Save, load, clipboard: the text notation in and out of the app."""

from __future__ import annotations

import stat
import time
from pathlib import Path

import pygame

from game.play.savefile import SUFFIX, game_to_json, write_atomic
from game.play.session import Session
from game.play.settings import games_dir


def save_game(session: Session, folder: Path | None = None) -> Path:
    folder = folder or games_dir()
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    name = session.spec.name.replace(":", "-")
    path = folder / f"{name}_{stamp}{SUFFIX}"
    n = 2
    while path.exists():
        path = folder / f"{name}_{stamp}_{n}{SUFFIX}"
        n += 1
    write_atomic(path, game_to_json(session.spec, session.line))
    return path


def saved_games(folder: Path | None = None, limit: int = 12) -> list[Path]:
    """The newest saved games (regular ``*.json`` files only: a FIFO or a folder is never listed)."""
    folder = folder or games_dir()
    dated: list[tuple[float, Path]] = []
    try:
        for path in folder.glob("*.json"):
            try:
                info = path.stat()
            except OSError:  # removed meanwhile, a dangling link...
                continue
            if stat.S_ISREG(info.st_mode):
                dated.append((info.st_mtime, path))
    except OSError:
        return []
    dated.sort(key=lambda item: item[0], reverse=True)
    return [path for _when, path in dated[:limit]]


def copy_text(text: str) -> bool:
    """Put ``text`` on the clipboard; False when there is no clipboard."""
    try:
        pygame.scrap.put_text(text)
        return True
    except (pygame.error, AttributeError, NotImplementedError):
        return False


def paste_text() -> str | None:
    try:
        text = pygame.scrap.get_text()
    except (pygame.error, AttributeError, NotImplementedError):
        return None
    return text if isinstance(text, str) else None
