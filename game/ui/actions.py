"""What every button and shortcut does. ``perform(app, name)`` is the one entry point."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from game import get_game
from game.ui import controller, files
from game.ui.game_choices import game_title, next_game
from game.ui.overlays import LoadDialog
from game.ui.players import MODES, step_custom
from game.ui.savefile import SaveFileError, load_game, parse_game_text
from game.ui.settings import games_dir
from game.ui.themes import THEME_ORDER

if TYPE_CHECKING:
    from game.ui.game_app import App


def _cycle(values: tuple[str, ...], current: str, direction: int) -> str:
    i = values.index(current) if current in values else 0
    return values[(i + direction) % len(values)]


def perform(app: App, action: str, direction: int = 1) -> None:
    s, sess = app.settings, app.session
    if action.startswith("goto:"):
        app.go_to(int(action[5:]))
    elif action == "new":
        app.new_game()
        app.set_notice("New game")
    elif action == "undo":
        if sess.cursor > 0:
            app.cancel_search()
            if s.mode == "bot-vs-bot":
                app.paused = True
            app.go_to(controller.undo_target(s, sess))
    elif action == "redo":
        app.cancel_search()
        app.go_to(controller.redo_target(s, sess))
    elif action in ("first", "prev", "next", "last"):
        target = {"first": 0, "prev": sess.cursor - 1, "next": sess.cursor + 1, "last": len(sess.line)}[action]
        app.go_to(target)
    elif action == "continue":
        sess.truncate()
        app._dirty_game = True
    elif action == "mode":
        app.cancel_search()
        s.mode = _cycle(MODES, s.mode, direction)
        app.paused = False
        app.save_settings()
    elif action == "order":
        s.human_player = 1 - s.human_player
        app.cancel_search()
        app.save_settings()
    elif action == "colours":
        s.swap_colours = not s.swap_colours
        app.save_settings()
    elif action in ("bot0", "bot1"):
        p = int(action[3])
        s.bots[p] = s.bots[p].cycled(direction)
        app.save_settings()
    elif action.startswith("custom") and action[-1] in "+-":
        p = int(action[6])
        s.bots[p] = replace(s.bots[p], custom_ms=step_custom(s.bots[p].custom_ms, 1 if action[-1] == "+" else -1))
        app.save_settings()
    elif action == "heatmap":
        s.heatmap = not s.heatmap
        app.set_notice("Heatmap on" if s.heatmap else "Heatmap off")
        app.save_settings()
    elif action == "exact":
        if not controller.exact_available(sess):
            app.set_notice("Exact verdicts are for Connect 4 boards only")
            return
        s.exact = not s.exact
        app.set_notice("Exact verdicts on" if s.exact else "Exact verdicts off")
        app.save_settings()
    elif action == "game":
        switch_game(app, next_game(sess.spec.name, direction))
    elif action == "eval":
        s.eval_bar = not s.eval_bar
        app.save_settings()
    elif action == "sound":
        s.sound = not s.sound
        app.sounds.enabled = s.sound
        app.set_notice("Sound on" if s.sound else "Muted")
        app.save_settings()
    elif action == "theme":
        s.theme = _cycle(THEME_ORDER, s.theme, direction)
        app.save_settings()
    elif action == "pause":
        if s.mode == "bot-vs-bot":
            app.paused = not app.paused
            app.step_requested = False
    elif action == "step":
        if s.mode == "bot-vs-bot" and app.paused:
            app.step_requested = True
    elif action == "help":
        app.overlay = None if app.overlay == "help" else "help"
    elif action == "panel":
        app.panel_open = not app.panel_open
    elif action == "save":
        _save(app)
    elif action == "load":
        folder = games_dir()
        app.load_dialog = LoadDialog(files.saved_games(folder), folder)
        app.overlay = "load"
    elif action == "copy":
        text = sess.moves_text if sess.spec.name == "connect4" else f"{sess.spec.name}: {sess.moves_text}"
        if files.copy_text(text):
            app.set_notice(f"Copied position {text or '(empty board)'}")
        else:
            app.set_notice(f"No clipboard here; the position is {text or '(empty board)'}")
    elif action == "paste":
        text = files.paste_text()
        if not text or not text.strip():
            app.set_notice("The clipboard holds no position")
        else:
            load_text(app, text, "clipboard")
    elif action == "quit":
        app.running = False


def switch_game(app: App, name: str) -> None:
    """Start a new game of ``name`` (the old game stays in its autosave only until the next move)."""
    try:
        spec = get_game(name)
        app.new_game(spec)
    except ValueError as exc:
        app.set_notice(f"Cannot switch to {name}: {str(exc).splitlines()[0]}")
        return
    app.save_settings()
    app.set_notice(f"New game: {game_title(spec.name)}")


def _save(app: App) -> None:
    try:
        path = files.save_game(app.session)
    except OSError as exc:
        app.set_notice(f"Could not save: {exc.strerror or exc}")
        return
    app.set_notice(f"Saved {path.name}")


def load_text(app: App, text: str, source: str) -> None:
    """Load a position string or a saved game; on failure keep the game and say why."""
    try:
        spec, moves, cursor = parse_game_text(text[:100_000], app.session.spec.name)
        app.new_game(spec, moves, cursor)
    except (SaveFileError, ValueError) as exc:
        app.set_notice(f"Could not load from {source}: {str(exc).splitlines()[0]}")
        return
    app.paused = app.settings.mode == "bot-vs-bot"
    app.set_notice(f"Loaded {source}: {len(moves)} moves")


def load_path(app: App, path: str | Path) -> None:
    app.overlay = None
    try:
        spec, moves, cursor = load_game(path, app.session.spec.name)
        app.new_game(spec, moves, cursor)
    except (SaveFileError, ValueError) as exc:
        app.set_notice(f"Could not load {Path(path).name}: {str(exc).splitlines()[0]}")
        return
    app.paused = app.settings.mode == "bot-vs-bot"
    app.set_notice(f"Loaded {Path(path).name}")
