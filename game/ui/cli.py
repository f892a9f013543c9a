"""Start the app from parsed arguments: the window, a screenshot, or the headless smoke test."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from game.errors import GameError
from game.ui import controller
from game.ui.display_env import disable_unusable_caches
from game.ui.exact import EXACT_BUDGETS_MS
from game.ui.players import BotSetting
from game.ui.savefile import SaveFileError, load_game
from game.ui.session import Session
from game.ui.settings import MIN_WINDOW, Settings, load_autosave, load_settings

SMOKE_BUDGET_MS = 30
SCREENSHOT_WAIT_MS = 3000  # longest wait for the analysis once the engine runs
SCREENSHOT_ITERATIONS = 20000  # a heatmap this well searched is worth showing
STARTUP_WAIT_S = 60.0
SMOKE_TIMEOUT_S = 120.0


class UsageError(ValueError):
    """A bad command-line value; reported in one line with exit status 2."""


def use_dummy_drivers() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x800") from None
    if w < MIN_WINDOW[0] or h < MIN_WINDOW[1] or w > 8000 or h > 8000:
        raise UsageError(f"--size {text}: at least {MIN_WINDOW[0]}x{MIN_WINDOW[1]}")
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
        settings.mode = args.mode
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
    from game.ui.board_view import make_board_view

    try:
        make_board_view(session.spec)
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
                return session
    try:
        return Session.from_text(settings.game)
    except (GameError, ImportError):
        return Session.from_text("connect4")


def run_app(args: argparse.Namespace) -> int:
    headless = bool(getattr(args, "screenshot", None) or getattr(args, "smoke", False))
    if headless:
        use_dummy_drivers()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        settings, session, notices = prepare(args, headless)
    except UsageError as exc:
        print(f"connect4: error: {exc}", file=sys.stderr)
        return 2
    cache_note = None if headless else disable_unusable_caches()  # before pygame opens the display
    if cache_note:
        notices.append(cache_note)
    if getattr(args, "smoke", False):
        return smoke(settings, session)
    from game.ui import window

    try:
        app = window.create_app(settings, session, persist=not headless)
    except Exception as exc:  # noqa: BLE001 - no display, no video driver...
        print(f"connect4: error: cannot open the window: {str(exc).splitlines()[0] if str(exc) else exc!r}",
              file=sys.stderr)
        return 1
    for notice in notices:  # the whole line, kept in the terminal / log (the window may cut it)
        print(f"connect4: note: {notice}", file=sys.stderr)
    if notices:
        app.set_notice("; ".join(notices))
    if getattr(args, "screenshot", None):
        wait = args.screenshot_wait
        if wait is None:
            wait = SCREENSHOT_WAIT_MS
        return screenshot(app, Path(args.screenshot), max(0, wait) / 1000)
    return window.main_loop(app)


def analysis_missing(app) -> list[str]:  # type: ignore[no-untyped-def]
    """What the shown position still lacks from the engine for a faithful picture (empty: nothing)."""
    s, settings = app.session, app.settings
    if s.position.outcome.is_over:
        return []
    missing = []
    heat_here = app.heat is not None and app.heat_moves == s.moves_text
    search = app.driver.search
    searched_enough = heat_here and (app.heat.iterations >= SCREENSHOT_ITERATIONS
                                     or (search is not None and search.finished and search.moves == s.moves_text))
    if settings.heatmap and not searched_enough:
        missing.append("heatmap")
    if settings.eval_bar and s.eval_at(s.cursor) is None:
        missing.append("eval")
    if settings.exact and controller.exact_available(s) and app.exact_budget() is not None:
        missing.append("exact verdicts")
    return missing


def screenshot(app, path: Path, wait_s: float) -> int:  # type: ignore[no-untyped-def]
    """Save the frame once the engine's analysis (heatmap, eval, exact verdicts) has arrived.

    Waits up to ``STARTUP_WAIT_S`` for the engine to start (a cold start compiles the search core),
    then up to ``wait_s`` for the analysis (plus the solver's budgets with exact verdicts on); without
    an engine it captures anyway and says why on stderr.
    """
    from game.ui import window

    app.analysis_only = True
    exact_s = sum(EXACT_BUDGETS_MS) / 1000 if app.settings.exact and controller.exact_available(app.session) else 0
    start = time.monotonic()
    ready_at: float | None = None
    problem = None
    try:
        while True:
            app.step([])
            now = time.monotonic()
            missing = analysis_missing(app)
            if not missing or wait_s <= 0:
                break
            game = app.session.spec.name
            if app.driver.unavailable:
                problem = app.driver.unavailable
                break
            refused = app.driver.refused.get(f"{game}/go")
            if refused and "exact verdicts" not in missing:
                problem = f"the engine cannot analyse {game}: {refused}"
                break
            if ready_at is None and app.driver.is_ready:
                ready_at = now
            if ready_at is None and now - start > STARTUP_WAIT_S:
                problem = f"the engine did not start within {STARTUP_WAIT_S:.0f} s"
                break
            if ready_at is not None and now - ready_at > wait_s + exact_s:
                problem = f"no {' / '.join(missing)} from the engine within {wait_s:g} s"
                break
            time.sleep(1 / 60)
        app.notice = None
        app.step([])
        window.save_png(app.screen, path)
    except Exception as exc:  # noqa: BLE001
        print(f"connect4: error: screenshot failed: {exc}", file=sys.stderr)
        return 1
    finally:
        window.shutdown(app)
    if problem:
        print(f"connect4: warning: screenshot taken without the engine's analysis: {problem}", file=sys.stderr)
    print(f"screenshot saved to {path}")
    return 0


def smoke(settings: Settings, session: Session) -> int:
    """Headless: open the window, start the engine, play a fast bot-vs-bot game, save a screenshot."""
    from game.ui import window

    settings.mode = "bot-vs-bot"
    settings.bots = [BotSetting("custom", SMOKE_BUDGET_MS), BotSetting("custom", SMOKE_BUDGET_MS)]
    settings.heatmap = True
    try:
        app = window.create_app(settings, session, persist=False)
    except Exception as exc:  # noqa: BLE001
        print(f"smoke: FAILED: cannot open the window: {exc}", file=sys.stderr)
        return 1
    app.min_bot_delay = 0.02
    app.gravity *= 12
    start = time.monotonic()
    moves_by_engine = 0
    try:
        if not app.driver.start():
            raise RuntimeError(app.driver.unavailable or "engine did not start")
        last_len = len(app.session.line)
        while not (app.session.final_position.outcome.is_over and app.animation is None):
            if not app.step():
                raise RuntimeError("the window was closed")
            if app.driver.unavailable:
                raise RuntimeError(app.driver.unavailable)
            if app.driver.refused:
                raise RuntimeError(f"the engine cannot search {app.session.spec.name}: "
                                   f"{next(iter(app.driver.refused.values()))}")
            if len(app.session.line) != last_len:
                last_len = len(app.session.line)
                moves_by_engine += 1
            if time.monotonic() - start > SMOKE_TIMEOUT_S:
                raise RuntimeError(f"the game did not finish within {SMOKE_TIMEOUT_S:.0f} s")
            time.sleep(1 / 120)
        app.step([])
        shot = Path(tempfile.mkdtemp(prefix="connect4-smoke-")) / "smoke.png"
        window.save_png(app.screen, shot)
    except Exception as exc:  # noqa: BLE001
        print(f"smoke: FAILED: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", file=sys.stderr)
        window.shutdown(app)
        return 1
    window.shutdown(app)
    outcome = app.session.final_position.outcome
    result = "draw" if outcome.winner is None else f"{app.player_name(outcome.winner)} won"
    print(f"smoke: ok: {moves_by_engine} bot moves in {time.monotonic() - start:.1f} s, {result} "
          f"({app.session.line_text}); screenshot {shot}")
    return 0
