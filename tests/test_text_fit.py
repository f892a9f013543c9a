"""Every measurement the layout text helpers make is of bounded, drawable text, so a 100 kB string
(a pasted position, a corrupt file's content in a notice) never freezes a frame."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ui import fonts, text

pytestmark = pytest.mark.timeout(60)


class RecordingFont:
    def __init__(self, real: pygame.font.Font, seen: list[str]) -> None:
        self.real, self.seen = real, seen

    def size(self, s: str) -> tuple[int, int]:
        self.seen.append(s)
        return self.real.size(s)

    def render(self, s: str, *args: Any) -> pygame.Surface:
        self.seen.append(s)
        return self.real.render(s, *args)


def test_long_text_with_nul_is_measured_only_in_bounded_drawable_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.font.init()
    fonts.reset()  # fonts cached by earlier tests die with their pygame.quit()
    real_font = fonts.font
    seen: list[str] = []
    monkeypatch.setattr(fonts, "font", lambda size, bold=False: RecordingFont(real_font(size, bold), seen))
    fonts._render.cache_clear()
    huge = "4" * 100_000 + " a\x00b " * 20_000
    surface = pygame.Surface((640, 480))
    text.draw(surface, huge, 20, (255, 255, 255), (0, 0), width=300)
    lines = text.wrap(huge, 14, 300)
    text.first_fitting((huge, "short"), 20, 300)
    assert seen, "nothing was measured?"
    assert max(len(s) for s in seen) <= fonts.MAX_DRAWN_CHARS
    assert not any("\x00" in s for s in seen)
    assert sum(len(line) for line in lines) <= fonts.MAX_DRAWN_CHARS
    monkeypatch.undo()
    fonts.reset()
