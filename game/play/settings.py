"""Settings and the autosaved game, kept in the user's config directory (platformdirs).

``CONNECT4_CONFIG_DIR`` overrides the directory (tests use a temporary one). Both files are
written atomically and read only when they are small regular files; a file that cannot be read is
reported in one line and kept aside (never deleted). Each running instance has its own autosave
(``game.play.instance_lock``).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from game.play.autosave import keep_aside, restore, shown_folder, unfinished_since
from game.play.instance_lock import Slot, claim, waiting_games
from game.play.net_setup import CLOCK_CHOICES
from game.play.players import DEFAULT_CUSTOM_MS, DIFFICULTY_KEYS, BotSetting, Mode
from game.play.safe_read import excerpt, read_regular_text
from game.play.savefile import GameTuple, game_to_json, read_evals, read_small_text, write_atomic

APP_NAME = "connect4-mcts"
SETTINGS_FILE = "settings.json"
AUTOSAVE_FILE = "autosave.json"
THEME_KEYS = ("classic", "dark", "colorblind")
NET_ROLES = ("host", "join", "watch")
MIN_WINDOW = (720, 520)
DEFAULT_WINDOW = (1120, 760)


def config_dir() -> Path:
    override = os.environ.get("CONNECT4_CONFIG_DIR")
    if override:
        return Path(override)
    try:
        from platformdirs import user_config_dir

        return Path(user_config_dir(APP_NAME, appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        return Path.home() / ".config" / APP_NAME


def games_dir() -> Path:
    """Where Save puts games: the user's documents folder, or the config dir when overridden."""
    if os.environ.get("CONNECT4_CONFIG_DIR"):
        return config_dir() / "games"
    try:
        from platformdirs import user_documents_dir

        return Path(user_documents_dir()) / "Connect4 games"
    except ImportError:  # pragma: no cover
        return config_dir() / "games"


@dataclass
class Settings:
    mode: Mode = Mode.VS_BOT
    human_player: int = 0  # in vs-bot: 0 = the human moves first
    swap_colours: bool = False  # the first player's colour is the second palette colour
    bots: list[BotSetting] = field(default_factory=lambda: [BotSetting(), BotSetting()])
    theme: str = "classic"
    sound: bool = True
    heatmap: bool = False
    exact: bool = False  # exact verdicts under the Connect 4 columns
    eval_bar: bool = True
    window: tuple[int, int] = DEFAULT_WINDOW
    game: str = "connect4"
    search_threads: int = 0  # engine search threads; 0: all cores but one (the engine option is wired by the lead)
    # network play (game.ui.net_game): the dialog's choices, and the game under way to come back to
    network: bool = False  # the last game chosen was a network game (the dialog opens on it)
    net_role: str = "host"  # "host" (this app starts a server), "join" or "watch" (a spectator)
    net_address: str = ""  # the HOST:PORT[/ROOM] typed to join or watch
    net_clock_min: int = 0  # a hosted game's clock, minutes per player (0: none; game.play.net_setup)
    net_lan: bool = False  # the hosted server listens on the local network, not only on this computer
    net_server: str = ""  # the unfinished network game: its server (HOST:PORT; "" none)
    net_token: str = ""  # ... and our seat token there
    ponder: str = "auto"  # "Think on your time": "auto" (on at Hard and Perfect), "on" or "off"
    training: bool = False  # training mode: evaluations hidden until the game ends (game/ui/app_review.py)
    puzzles: dict[str, object] = field(default_factory=dict)  # puzzle mode's progress (puzzle_mode.PuzzleProgress)

    def __post_init__(self) -> None:
        self.mode = Mode.parse(self.mode)  # (a plain string, or an old spelling, is read as its Mode)

    def to_json(self) -> str:
        data = asdict(self)
        data["window"] = list(self.window)
        data["version"] = 1
        return json.dumps(data, indent=2) + "\n"

    @classmethod
    def from_dict(cls, data: object) -> Settings:
        """Build settings from parsed JSON; unknown keys are ignored, bad values raise ValueError."""
        if not isinstance(data, dict):
            raise ValueError("settings file is not a JSON object")
        s = cls()
        names = {f.name for f in fields(cls)}
        for key, value in data.items():
            if key not in names:
                continue
            if key == "bots":
                s.bots = _bots(value)
            elif key == "window":
                s.window = _window(value)
            elif key == "mode":
                try:
                    s.mode = Mode.parse(value)  # (an old spelling is read, and written back as the value)
                except ValueError:
                    raise ValueError(f"setting 'mode' has a bad value {value!r}") from None
            else:
                expected = type(getattr(s, key))
                if expected is int and isinstance(value, bool) or not isinstance(value, expected):
                    raise ValueError(f"setting {key!r} has a bad value {value!r}")
                setattr(s, key, value)
        if s.theme not in THEME_KEYS:
            raise ValueError(f"setting 'theme' has a bad value {s.theme!r}")
        if s.net_role not in NET_ROLES:
            raise ValueError(f"setting 'net_role' has a bad value {s.net_role!r}")
        if s.net_clock_min not in CLOCK_CHOICES:
            raise ValueError(f"setting 'net_clock_min' has a bad value {s.net_clock_min!r}")
        if s.ponder not in ("auto", "on", "off"):
            raise ValueError(f"setting 'ponder' has a bad value {s.ponder!r}")
        if s.human_player not in (0, 1):
            raise ValueError(f"setting 'human_player' has a bad value {s.human_player!r}")
        return s


def _bots(value: object) -> list[BotSetting]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("setting 'bots' must be a list of two bots")
    bots = []
    for item in value:
        if not isinstance(item, dict):
            raise ValueError("setting 'bots' must hold objects")
        level = item.get("level", "medium")
        custom = item.get("custom_ms", DEFAULT_CUSTOM_MS)
        if level not in DIFFICULTY_KEYS:
            raise ValueError(f"unknown bot level {level!r}")
        if isinstance(custom, bool) or not isinstance(custom, int) or not 10 <= custom <= 600_000:
            raise ValueError(f"bad custom bot budget {custom!r}")
        bots.append(BotSetting(level, custom))
    return bots


def _window(value: object) -> tuple[int, int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError("setting 'window' must be [width, height]")
    w, h = value
    return max(MIN_WINDOW[0], min(int(w), 8000)), max(MIN_WINDOW[1], min(int(h), 8000))


def load_settings(directory: Path | None = None) -> tuple[Settings, str | None]:
    """The stored settings and a one-line notice when the file was unreadable: it is then kept aside
    (``settings.json.bad-<time>``) and defaults are written in its place."""
    path = (directory or config_dir()) / SETTINGS_FILE
    try:
        return Settings.from_dict(json.loads(read_small_text(path))), None
    except FileNotFoundError:
        return Settings(), None
    except (OSError, ValueError, RecursionError) as exc:  # UnicodeDecodeError, NotRegularFileError...
        kept = keep_aside(path)
        where = f"Settings kept as {kept.name} in {shown_folder(kept.parent)}" if kept else "Settings file"
        notice = f"{where}: unreadable, defaults restored ({_one_line(exc)})"
        try:
            write_atomic(path, Settings().to_json())
        except OSError:
            pass
        return Settings(), notice


def save_settings(settings: Settings, directory: Path | None = None) -> str | None:
    try:
        write_atomic((directory or config_dir()) / SETTINGS_FILE, settings.to_json())
    except OSError as exc:
        return f"Could not save settings: {_one_line(exc)}"
    return None


def instance_slot(directory: Path | None = None) -> Slot:
    """This process's autosave slot in ``directory`` (claimed once; another folder releases the old one)."""
    global _slot
    folder = directory or config_dir()
    if _slot is None or _slot.directory != folder:
        if _slot is not None:
            _slot.release()
        _slot = claim(folder, unfinished_since)
    return _slot


_slot: Slot | None = None


def write_autosave(game_json: str, directory: Path | None = None) -> str | None:
    try:
        write_atomic(instance_slot(directory).autosave_path, game_json)
    except OSError as exc:
        return f"Could not autosave: {_one_line(exc)}"
    return None


def autosave_json(spec, moves, cursor) -> str:  # type: ignore[no-untyped-def]
    return game_to_json(spec, moves, cursor)


def autosave_evals(moves: int, directory: Path | None = None) -> dict[int, tuple[float, bool]]:
    """The evaluations kept with this instance's autosaved game of ``moves`` moves (empty if none or unreadable:
    they are a convenience, the game itself is restored by ``load_autosave``)."""
    try:
        return read_evals(read_regular_text(instance_slot(directory).autosave_path), moves)
    except (OSError, ValueError):
        return {}


def autosave_text(directory: Path | None = None) -> str:
    """The text of this instance's autosave ("" if none or unreadable): its variations and review."""
    try:
        return read_regular_text(instance_slot(directory).autosave_path)
    except (OSError, ValueError):
        return ""


def load_autosave(directory: Path | None = None) -> tuple[GameTuple | None, str | None]:
    """(spec, moves, cursor) of this instance's autosaved game or None, and a one-line notice: the
    autosave was damaged (kept aside, legal prefix restored), another instance runs, or games wait."""
    slot = instance_slot(directory)
    saved, notice = restore(slot.autosave_path)
    notes = [notice] if notice else []
    if slot.others:
        notes.append(f"Another window of this game is open; this one autosaves to {slot.autosave_path.name}")
    waiting = waiting_games(slot, unfinished_since)
    if waiting:
        names = ", ".join(p.name for p in waiting[:3]) + (", ..." if len(waiting) > 3 else "")
        games = "game is" if len(waiting) == 1 else "games are"
        notes.append(f"{len(waiting)} more unfinished {games} kept ({names}) for a later launch or a second window")
    return saved, "; ".join(notes) or None


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    return excerpt(str(exc), 100) or type(exc).__name__
