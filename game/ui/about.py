"""The About page (the help card's last page): the version, the commit and the licences of what the app bundles.

The list comes from ``assets/THIRD_PARTY_NOTICES.md`` (its table: component and licence), the same file
every artefact ships, so the page and the file cannot disagree.
"""

from __future__ import annotations

import pygame

from game.play.themes import Theme
from game.ui import text
from game.ui.resources import asset_path
from game.version import current

NOTICES = "THIRD_PARTY_NOTICES.md"


def notice_rows() -> tuple[tuple[str, str], ...]:
    """(component, licence) of each row of the notices table; empty when the file is missing."""
    try:
        lines = asset_path(NOTICES).read_text(encoding="utf-8").splitlines()
    except OSError:
        return ()
    rows = []
    for line in lines:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("Component", "") and not set(cells[0]) <= set("-: "):
            rows.append((cells[0].replace("`", ""), cells[2].replace("`", "")))
    return tuple(rows)


def about_lines() -> tuple[str, ...]:
    version = current()
    lines = [f"Connect 4 MCTS {version.version} (commit {version.commit})", "Bundled software and licences:"]
    lines += [f"{component}: {licence}" for component, licence in notice_rows()]
    lines.append(f"Full texts: {NOTICES} and licenses/ beside the app")
    return tuple(lines)


def draw_about(surface: pygame.Surface, card: pygame.Rect, theme: Theme) -> None:
    """The About page inside the help card ``card`` (already drawn)."""
    lines = about_lines()
    text.draw(surface, "About", 18, theme.text, (card.left + 20, card.top + 14), bold=True, width=card.width - 40)
    line = max(12, min(20, (card.height - 80) // max(1, len(lines))))
    size = max(text.MIN_SIZE, min(13, line - 6))
    y = card.top + 48
    for i, words in enumerate(lines):
        colour = theme.accent if i < 2 else theme.text
        text.draw(surface, words, size, colour, (card.left + 20, y), width=card.width - 40)
        y += line
