"""The status bar (whose turn, the result, engine progress) and the notices above it.

``turn_texts`` and ``progress_of`` are pure: they turn explicit facts into the words shown (each in
variants, longest first, so the bar picks the longest that fits). Notices are drawn as a toast above
the status bar, wrapped (never cut) and in the error colour when something went wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.play.engine_driver import EngineView
from game.play.themes import Color, Theme
from game.ui import fonts, text
from game.ui.frame import Notice, Progress, Status
from game.ui.notice_place import NoticePlace
from game.ui.widgets import draw_progress


@dataclass(frozen=True)
class TurnFacts:
    names: tuple[str, str]
    over: bool
    winner: int | None
    to_move: int
    at_end: bool
    cursor: int
    line_len: int
    vs_bot: bool
    bot_to_move: bool
    human_won: bool  # vs-bot: the winner is the human
    paused: bool
    held_back: bool  # screenshots: the bots do not move
    planned: str | None  # the move the bot has decided on (shown until it is played)
    gravity: bool
    width: int
    forced: str | None = None  # a proven win's forced line for the shown position ("Red wins: VCT in 3")


def turn_texts(f: TurnFacts) -> tuple[str, ...]:
    if f.over:
        if f.winner is None:
            return ("Draw: the board is full", "Draw")
        name = f.names[f.winner]
        if f.vs_bot:
            who = "you win!" if f.human_won else "the bot wins"
            return (f"{name} wins: {who}", f"{name} wins")
        return (f"{name} wins!", f"{name} wins")
    name = f.names[f.to_move]
    if not f.at_end:
        return (
            f"Viewing move {f.cursor} of {f.line_len} · End returns, Continue plays on",
            f"Viewing move {f.cursor} of {f.line_len}",
            f"Move {f.cursor}/{f.line_len}",
        )
    if f.bot_to_move and not f.held_back:
        if f.paused:
            return (f"Paused · {name} to move · S steps one move, P resumes", f"Paused · {name} to move", "Paused")
        if f.planned is not None:
            return (f"{name} plays {f.planned}", f"{name}: {f.planned}")
        return (f"{name} is thinking", f"{name} thinks")
    if f.bot_to_move:
        return (f"{name} (bot) to move", f"{name} to move")
    how = f"click a column or press 1-{f.width}" if f.gravity else "click a cell, or arrows and Enter"
    if f.forced is not None:  # the proof takes the hint's place (the side panel may be behind the menu)
        how = f.forced
    if f.vs_bot:
        return (f"Your move ({name}) · {how}", f"Your move ({name})", "Your move")
    return (f"{name} to move · {how}", f"{name} to move", name)


def count_text(n: float) -> str:
    if n >= 1e6:
        return f"{n / 1e6:.1f}M"
    if n >= 1e3:
        return f"{n / 1e3:.0f}k"
    return f"{n:.0f}"


def engine_progress(engine: EngineView, colour: Color, searching: bool = False) -> Progress | None:
    """The bar about the engine itself, shown with or without a search: the real fraction of compile
    steps while a first launch compiles, and plain words while the bot is not available."""
    if engine.state == "preparing" and (engine.first_launch or searching):  # (a warm cache loads unseen while no
        # search waits for it) from the engine's first line on: the real fraction once it is known
        words = "preparing the engine, first launch only" if engine.first_launch else "preparing the engine"
        if engine.fraction is None:
            return Progress((f"{words}…", "preparing the engine…", "preparing…"), None, colour)
        pct = round(100 * engine.fraction)
        return Progress(
            (f"{words} · {pct}%", f"preparing the engine {pct}%", f"preparing {pct}%"),
            engine.fraction,
            colour,
        )
    if engine.state in ("unavailable", "restarting"):
        retry = "" if engine.retry_in_s is None else f" · retrying in {engine.retry_in_s:.0f} s"
        first = engine.message if engine.state == "unavailable" else "the bot is not available"
        return Progress((f"{first}{retry}", f"the bot is not available{retry}", "bot not available"), None, colour)
    if engine.building_kernels and not searching:  # a checkout's first launch, once: later starts compile nothing
        return Progress(
            (
                "compiling the search code once, so that later starts are instant",
                "compiling the search code once",
                "compiling…",
            ),
            None,
            colour,
        )
    return None


def progress_of(
    kind: str,
    elapsed_s: float,
    budget_s: float,
    iterations: int,
    engine_ready: bool,
    heard: bool,
    colour: Color,
    engine: EngineView | None = None,
) -> Progress:
    """What the bar shows for a running search. Before the engine has answered at all the length of the
    wait is unknown: an indeterminate bar with the time waited, never a fraction that fills and sits;
    while it compiles for a first launch, the real fraction of that work. Never a negative time."""
    elapsed_s = max(0.0, elapsed_s)
    preparing = engine is not None and engine.state == "preparing"  # no search runs before it is prepared
    about_engine = engine_progress(engine, colour, True) if engine is not None and (preparing or not heard) else None
    if about_engine is not None:
        return about_engine
    if not engine_ready and not heard:
        return Progress((f"starting the engine… {elapsed_s:.0f} s", "starting…"), None, colour)
    its = f" · {count_text(iterations)} iterations" if iterations > 0 else ""
    if not heard and elapsed_s > budget_s:  # past its budget without a line: preparing, for how long unknown
        return Progress((f"preparing the search… {elapsed_s:.0f} s", "preparing…"), None, colour)
    if kind == "exact":
        return Progress(
            (f"solving exactly · {elapsed_s:.1f} / {budget_s:g} s", f"{elapsed_s:.1f} s"),
            elapsed_s / max(budget_s, 1e-3),
            colour,
        )
    if kind in ("bot", "solve"):
        return Progress(
            (f"{elapsed_s:.1f} / {budget_s:g} s{its}", f"{elapsed_s:.1f} / {budget_s:g} s"),
            elapsed_s / max(budget_s, 1e-3),
            colour,
        )
    if not heard:
        return Progress(("analysing…",), None, colour)
    return Progress(
        (f"analysing · {elapsed_s:.1f} s{its}", f"analysing · {elapsed_s:.1f} s", "analysing"),
        None if budget_s <= 0 else min(1.0, elapsed_s / budget_s),
        colour,
    )


def draw_status(
    surface: pygame.Surface,
    status: Status,
    rect: pygame.Rect,
    theme: Theme,
    now: float,
    text_rect: pygame.Rect | None = None,
) -> None:
    """The bar across ``rect``; its words and progress within ``text_rect`` (the bar less its buttons)."""
    surface.fill(theme.panel, rect)
    pygame.draw.line(surface, theme.panel_border, rect.topleft, rect.topright)
    rect = text_rect or rect
    x = rect.left + 12
    if status.dot is not None:
        pygame.draw.aacircle(surface, status.dot, (x + 7, rect.centery), 7)
        x += 22
    size = 15 if rect.height > 40 else 13
    room = rect.right - 12 - x
    progress = status.progress
    bar_w = 0
    if progress is not None:
        bar_w = min(140, max(50, room // 4))
        room -= bar_w + 16
    label, lsize = text.first_fitting(status.texts, size, room * (0.6 if progress else 1.0), bold=status.bold)
    drawn = text.draw(
        surface,
        label,
        lsize,
        theme.text,
        (x, rect.centery),
        "midleft",
        bold=status.bold,
        width=room * (0.6 if progress else 1.0),
    )
    if progress is not None:
        bar = pygame.Rect(drawn.right + 16, rect.centery - 4, bar_w, 8)
        if bar.right <= rect.right - 12:
            draw_progress(surface, bar, progress.fraction, theme, progress.colour, now)
            room_label = rect.right - 12 - bar.right - 10
            plabel, psize = text.first_fitting(progress.label, 12, room_label)
            if text.fits(plabel, psize, room_label) and room_label > 20:
                text.draw(surface, plabel, psize, theme.text_dim, (bar.right + 10, rect.centery), "midleft")


def draw_notice(surface: pygame.Surface, notice: Notice, place: NoticePlace, theme: Theme) -> pygame.Rect:
    """A toast with the whole notice, wrapped, in the box ``game.ui.notice_place`` chose; errors in the error
    colour."""
    box = place.box
    line_h = fonts.font(place.size).get_linesize()
    ink = theme.error if notice.error else theme.text
    pygame.draw.rect(surface, theme.panel, box, border_radius=8)
    pygame.draw.rect(
        surface, ink if notice.error else theme.panel_border, box, width=2 if notice.error else 1, border_radius=8
    )
    if notice.error:
        pygame.draw.rect(surface, ink, pygame.Rect(box.left, box.top, 6, box.height), border_radius=3)
    y = box.top + (box.height - line_h * len(place.lines)) // 2
    for line in place.lines:
        text.draw(surface, line, place.size, ink, (box.left + 14, y), bold=notice.error, width=box.width - 24)
        y += line_h
    return box
