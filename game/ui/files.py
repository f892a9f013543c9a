"""Save, load, clipboard: the text notation in and out of the app."""

from __future__ import annotations

import time
from pathlib import Path

import pygame

from game.ui.savefile import SUFFIX, game_to_json, write_atomic
from game.ui.session import Session
from game.ui.settings import games_dir


def game_json(session: Session) -> str:
    return game_to_json(session.spec, session.line, session.cursor)


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
    folder = folder or games_dir()
    try:
        found = [p for p in folder.glob("*.json") if p.is_file()]
    except OSError:
        return []
    found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return found[:limit]


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
