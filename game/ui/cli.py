"""Start the app from parsed arguments: the window, a screenshot, or the headless smoke test."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from game.play.actions import Command
from game.play.game_files import restore_evals
from game.play.players import BotSetting, Mode
from game.play.savefile import SaveFileError, load_game, read_small_text
from game.play.session import Session
from game.play.settings import (
    SETTINGS_FILE,
    Settings,
    autosave_evals,
    autosave_text,
    config_dir,
    load_autosave,
    load_settings,
)
from game.rules import get_game
from game.rules.capabilities import capabilities
from game.rules.errors import GameError
from game.ui import app_run, game_app, headless
from game.ui.app_probe import AppProbe
from game.ui.display_env import disable_unusable_caches
from game.ui.layout import MIN_SIZE

SMOKE_BUDGET_MS = 30
SCREENSHOT_WAIT_MS = 3000  # longest wait for the analysis once the engine runs


class UsageError(ValueError):
    """A bad command-line value; reported in one line with exit status 2."""


REVIEW_WAIT_S = 120.0  # a screenshot with --review waits this long at most for the review


def use_dummy_drivers() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x800") from None
    if w < MIN_SIZE[0] or h < MIN_SIZE[1] or w > 8000 or h > 8000:
        raise UsageError(f"--size {text}: at least {MIN_SIZE[0]}x{MIN_SIZE[1]}")
    return w, h


def prepare(args: argparse.Namespace, headless: bool) -> tuple[Settings, Session, list[str]]:
    """Settings and the game to show, from the stored files and the command line."""
    notices: list[str] = []
    if headless:
        settings = Settings()
    else:
        settings, notice = load_settings()
        if notice:
            notices.append(notice)
    if getattr(args, "mode", None):
        settings.mode = Mode.parse(args.mode)
    if getattr(args, "human", None):
        settings.human_player = 0 if args.human == "first" else 1
    if getattr(args, "bot", None):
        settings.bots = [replace(b, level=args.bot) for b in settings.bots]
    if getattr(args, "bot_time", None) is not None:
        if not 10 <= args.bot_time <= 600_000:
            raise UsageError(f"--bot-time {args.bot_time}: expected 10 to 600000 milliseconds")
        settings.bots = [BotSetting("custom", args.bot_time) for _ in settings.bots]
    if getattr(args, "theme", None):
        settings.theme = args.theme
    if getattr(args, "heatmap", False):
        settings.heatmap = True
    if getattr(args, "exact", False):
        settings.exact = True
    if getattr(args, "no_eval", False):
        settings.eval_bar = False
    if getattr(args, "mute", False):
        settings.sound = False
    if getattr(args, "size", None):
        settings.window = parse_size(args.size)
    session = _initial_session(args, settings, headless, notices)
    try:
        capabilities(session.spec)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    settings.game = session.spec.name
    return settings, session, notices


def _initial_session(args: argparse.Namespace, settings: Settings, headless: bool, notices: list[str]) -> Session:
    game = getattr(args, "game", None)
    position = getattr(args, "position", None)
    load = getattr(args, "load", None)
    try:
        if load:
            spec, moves, cursor = load_game(load, game or "connect4")
            return Session(spec, list(moves), len(moves) if cursor is None else cursor)
        if game is not None or position is not None:
            return Session.from_text(game or "connect4", position or "")
    except SaveFileError as exc:
        raise UsageError(f"--load: {exc}") from None
    except GameError as exc:
        raise UsageError(str(exc)) from None
    except ImportError:
        raise UsageError(f"game {game!r} is not available in this version") from None
    if not headless and not getattr(args, "new", False):
        saved, notice = load_autosave()
        if notice:
            notices.append(notice)
        if saved is not None:
            spec, moves, cursor = saved
            session = Session(spec, list(moves), len(moves) if cursor is None else cursor)
            if not session.final_position.outcome.is_over:
                restore_evals(session, autosave_evals(len(moves)))  # none from a damaged one: it was moved aside
                return session
    try:
        capabilities(get_game(settings.game))
        return Session.from_text(settings.game)
    except (GameError, ImportError, ValueError):
        return Session.from_text("connect4")


def start_review(app: game_app.App, wait: bool) -> None:
    """--review: the game is reviewed on opening (a screenshot waits for it and shows the first marked move)."""
    app.apply(Command.REVIEW)
    if wait and app.review.reviewing.wait(REVIEW_WAIT_S):
        app.step([])
        app.go_to(0)
        app.apply(Command.NEXT_MISTAKE)


def kept_text(args: argparse.Namespace, headless: bool) -> str:
    """The text of the game the app opens with: the --load file, else the autosave ("" for none)."""
    load = getattr(args, "load", None)
    try:
        if load:
            return read_small_text(load)
    except (OSError, ValueError):
        return ""
    asked = any(getattr(args, name, None) for name in ("game", "position", "new"))
    return "" if headless or asked else autosave_text()


def first_launch(args: argparse.Namespace, headless: bool) -> bool:
    """The new-game dialog greets the player: on the first launch (no settings file yet, no game asked
    for), and with ``--new`` (also in a screenshot: the start screen)."""
    if getattr(args, "new", False):
        return True
    asked = any(getattr(args, name, None) for name in ("game", "position", "load", "mode"))
    return not headless and not asked and not (config_dir() / SETTINGS_FILE).exists()


def run_app(args: argparse.Namespace) -> int:
    shot = getattr(args, "screenshot", None)
    is_headless = bool(shot or getattr(args, "smoke", False))
    if is_headless:
        use_dummy_drivers()
    try:
        settings, session, notices = prepare(args, is_headless)
    except UsageError as exc:
        print(f"connect4: error: {exc}", file=sys.stderr)
        return 2
    greet = first_launch(args, is_headless)
    cache_note = None if is_headless else disable_unusable_caches()  # before pygame opens the display
    if cache_note:
        notices.append(cache_note)
    for notice in notices:  # the whole line, kept in the terminal / log (the window may cut it)
        print(f"connect4: note: {notice}", file=sys.stderr)
    if getattr(args, "smoke", False):
        settings.mode = Mode.BOT_VS_BOT
        settings.bots = [BotSetting("custom", SMOKE_BUDGET_MS), BotSetting("custom", SMOKE_BUDGET_MS)]
        settings.heatmap = True
    try:
        app = app_run.create_app(settings, session, persist=not is_headless, first_launch=greet, notices=notices)
    except Exception as exc:  # no display, no video driver...
        print(
            f"connect4: error: cannot open the window: {str(exc).splitlines()[0] if str(exc) else exc!r}",
            file=sys.stderr,
        )
        return 1
    app.carry_out(app.variations.loaded_text(kept_text(args, is_headless)))  # its variations and review come too
    if getattr(args, "review", False):
        start_review(app, wait=bool(shot))
    if getattr(args, "smoke", False):
        try:
            return headless.smoke(AppProbe(app))
        finally:
            app_run.shutdown(app)
    if shot:
        wait = SCREENSHOT_WAIT_MS if args.screenshot_wait is None else args.screenshot_wait
        try:
            return headless.screenshot(AppProbe(app), Path(shot), max(0, wait) / 1000, settings.exact)
        finally:
            app_run.shutdown(app)
    return app_run.main_loop(app)
