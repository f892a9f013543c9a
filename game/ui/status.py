"""The status bar (whose turn, the result, engine progress, notices) and the title line."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui import fonts
from game.ui.players import MODE_LABELS
from game.ui.widgets import draw_progress

if TYPE_CHECKING:
    from game.ui.game_app import App


def title_text(app: App) -> str:
    s = app.settings
    parts = []
    for p in (0, 1):
        who = f"Bot ({s.bots[p].label()})" if app.is_bot(p) else "Human"
        parts.append(f"{app.player_name(p)}: {who}")
    return f"{MODE_LABELS[s.mode]} · " + " vs ".join(parts)


def _count(n: float) -> str:
    if n >= 1e6:
        return f"{n / 1e6:.1f}M"
    if n >= 1e3:
        return f"{n / 1e3:.0f}k"
    return f"{n:.0f}"


def status_text(app: App) -> str:
    sess = app.session
    pos = sess.position
    outcome = pos.outcome
    if outcome.is_over and (app.animation is None or sess.cursor < len(sess.line)):
        if outcome.winner is None:
            return "Draw: the board is full"
        name = app.player_name(outcome.winner)
        if app.settings.mode == "vs-bot":
            return f"{name} wins: " + ("you win!" if not app.is_bot(outcome.winner) else "the bot wins")
        return f"{name} wins!"
    if outcome.is_over:
        return ""
    name = app.player_name(pos.to_move)
    if not sess.at_end:
        return f"Viewing move {sess.cursor} of {len(sess.line)} · End returns, Continue plays on from here"
    if app.is_bot(pos.to_move) and not app.analysis_only:
        if app.settings.mode == "bot-vs-bot" and app.paused and not app.step_requested:
            return f"Paused · {name} to move · S steps one move, P resumes"
        return f"{name} is thinking"
    if app.is_bot(pos.to_move):  # only while bots are held back (screenshots)
        return f"{name} (bot) to move"
    how = (f"click a column or press 1-{sess.spec.width}" if hasattr(pos, "column_height")
           else "click a cell, or arrows and Enter")
    if app.settings.mode == "vs-bot":
        return f"Your move ({name}) · {how}"
    return f"{name} to move · {how}"


def draw_status(surface: pygame.Surface, app: App, rect: pygame.Rect) -> None:
    theme = app.theme
    surface.fill(theme.panel, rect)
    pygame.draw.line(surface, theme.panel_border, rect.topleft, rect.topright)
    pos = app.session.position
    x = rect.left + 16
    colour_player = pos.outcome.winner if pos.outcome.winner is not None else pos.to_move
    if not (pos.outcome.is_over and pos.outcome.winner is None):
        pygame.draw.aacircle(surface, app.colour_of(colour_player), (x + 8, rect.centery), 8)
        x += 24
    text = status_text(app)
    img_rect = fonts.blit_text(surface, text, 15, theme.text, (x, rect.centery), "midleft", bold=pos.outcome.is_over)
    x = img_rect.right + 16
    search = app.driver.search
    right_limit = rect.right - 16
    if app.notice:
        notice = fonts.fit_text(app.notice[0], 13, max(60, (rect.right - x) // 2))
        r = fonts.blit_text(surface, notice, 13, theme.accent, (right_limit, rect.centery), "midright")
        right_limit = r.left - 16
    if search is not None and not search.finished and app.session.moves_text == search.moves:
        elapsed = max(0.0, search.elapsed_ms(app.now))
        iters = search.last_info.get("iterations", 0)
        iters = iters if isinstance(iters, int | float) else 0
        if not app.driver.is_ready and not search.last_info:
            label = "starting engine…"
        elif search.kind == "exact":
            label = f"solving exactly · {elapsed / 1000:.1f} / {search.budget_ms / 1000:g} s"
        elif search.kind in ("bot", "solve"):
            label = f"{elapsed / 1000:.1f} / {search.budget_ms / 1000:g} s · {_count(iters)} iterations"
        else:
            label = f"analysing · {elapsed / 1000:.1f} s · {_count(iters)} iterations"
        bar_w = min(180, max(60, (right_limit - x) // 3))
        label_w = fonts.font(12).size(label)[0]
        if right_limit - x > bar_w + label_w + 12:
            bar = pygame.Rect(x, rect.centery - 4, bar_w, 8)
            draw_progress(surface, bar, elapsed / max(1, search.budget_ms), theme, app.colour_of(pos.to_move)
                          if search.kind != "analysis" else theme.accent)
            fonts.blit_text(surface, label, 12, theme.text_dim, (bar.right + 10, rect.centery), "midleft")
    elif f"{app.session.spec.name}/go" in app.driver.refused and not pos.outcome.is_over:
        label = "no engine search for this game yet" + (" · the bot plays random moves"
                                                        if app.is_bot(pos.to_move) else "")
        if right_limit - x > fonts.font(12).size(label)[0]:
            fonts.blit_text(surface, label, 12, theme.text_dim, (x, rect.centery), "midleft")
    elif app.pending_move is not None and app.is_bot(pos.to_move) and not pos.outcome.is_over:
        label = f"plays {app.session.spec.move_to_text(app.pending_move[1])}"
        if right_limit - x > 80:
            fonts.blit_text(surface, label, 13, theme.text_dim, (x, rect.centery), "midleft")
