"""Who plays each side: a human or a bot with a difficulty.

The named levels (Beginner to Perfect) are the engine's playing levels (``ai/search/levels.py``: ``go`` with
``"level"``): each is defined by how well it plays, calibrated by ``python -m ai.benchmarks.ladder``;
``time_ms`` only bounds the wait for its move (a detail in the label). Custom is a plain search of the
player's own budget; Random needs no engine. A ``kind="solve"`` level would instead ask the ``solve``
command for every column's score (Connect 4 only) and play the best column.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from ai.vocab.level_table import level

DifficultyKind = Literal["random", "search", "custom", "solve"]


@dataclass(frozen=True)
class Difficulty:
    key: str
    label: str
    kind: DifficultyKind
    time_ms: int = 0  # for "search"; "custom" uses the player's own budget
    exact: bool = False  # let the engine's exact solver choose the move when it can
    engine_level: str | None = None  # the engine's playing level (ai/search/levels.py), sent with the go


def _ladder(key: str, label: str) -> Difficulty:
    """A level of the engine's ladder (ai/vocab/level_table.py): its wait per move and exactness come from there."""
    lv = level(key)
    return Difficulty(key, label, "search", lv.wait_ms, exact=lv.exact, engine_level=key)


DIFFICULTIES: tuple[Difficulty, ...] = (
    Difficulty("random", "Random", "random"),
    _ladder("beginner", "Beginner"),
    _ladder("easy", "Easy"),
    _ladder("medium", "Medium"),
    _ladder("hard", "Hard"),
    _ladder("perfect", "Perfect"),
    Difficulty("custom", "Custom", "custom"),  # a plain search of the player's own budget, outside the ladder
)
PERFECT = "perfect"
TOP_WITHOUT_SOLVER = "Strongest"  # the top level's name in a game without an exact solver (it is not perfect)
DIFFICULTY_KEYS = tuple(d.key for d in DIFFICULTIES)
DEFAULT_DIFFICULTY = "medium"

# Steps offered by the custom budget's - / + buttons (milliseconds).
CUSTOM_STEPS_MS = (30, 50, 100, 200, 300, 500, 1000, 2000, 3000, 5000, 10000, 20000, 30000, 60000)
DEFAULT_CUSTOM_MS = 2000


class Mode(StrEnum):
    """Who plays the two sides, one vocabulary for the app, the terminal client and the settings file (which
    stores the value). A ``StrEnum``: a member equals its value, so ``Mode.VS_BOT == "vs-bot"``."""

    HOTSEAT = "hotseat"  # two people at one screen
    VS_BOT = "vs-bot"  # a person against the bot
    BOT_VS_BOT = "bot-vs-bot"  # the bot against itself

    @property
    def label(self) -> str:
        return MODE_LABELS[self]

    @classmethod
    def parse(cls, text: object) -> Mode:
        """A mode from its value or an old spelling (``MODE_ALIASES``); ValueError (one line) for anything else."""
        if isinstance(text, Mode):
            return text
        if isinstance(text, str):
            key = text.strip().lower()
            if key in MODE_ALIASES:
                return MODE_ALIASES[key]
            for mode in cls:
                if mode.value == key:
                    return mode
        raise ValueError(f"unknown mode {text!r}: expected one of {', '.join(MODE_SPELLINGS)}")


# the terminal client's old spellings (``play --text --mode bot``), still accepted everywhere
MODE_ALIASES = {"bot": Mode.VS_BOT, "botbot": Mode.BOT_VS_BOT}
MODES: tuple[Mode, ...] = tuple(Mode)
MODE_SPELLINGS: tuple[str, ...] = (*(m.value for m in Mode), *MODE_ALIASES)  # what a --mode option accepts
MODE_LABELS = {Mode.HOTSEAT: "Hot-seat", Mode.VS_BOT: "Human vs Bot", Mode.BOT_VS_BOT: "Bot vs Bot"}


def difficulty(key: str) -> Difficulty:
    for d in DIFFICULTIES:
        if d.key == key:
            return d
    raise ValueError(f"unknown difficulty {key!r}: expected one of {', '.join(DIFFICULTY_KEYS)}")


def format_ms(ms: int) -> str:
    if ms < 1000:
        return f"{ms} ms"
    seconds = ms / 1000
    return f"{seconds:g} s"


def step_custom(ms: int, direction: int) -> int:
    """The next custom budget up (direction 1) or down (-1) the ladder of steps."""
    if direction > 0:
        return next((s for s in CUSTOM_STEPS_MS if s > ms), CUSTOM_STEPS_MS[-1])
    return next((s for s in reversed(CUSTOM_STEPS_MS) if s < ms), CUSTOM_STEPS_MS[0])


@dataclass(frozen=True)
class BotSetting:
    """One bot's level; ``custom_ms`` is used when the level is Custom."""

    level: str = DEFAULT_DIFFICULTY
    custom_ms: int = DEFAULT_CUSTOM_MS

    @property
    def difficulty(self) -> Difficulty:
        return difficulty(self.level)

    @property
    def time_ms(self) -> int | None:
        """The engine budget, or None for a bot that needs no engine (Random)."""
        d = self.difficulty
        if d.kind == "random":
            return None
        if d.kind == "custom":
            return self.custom_ms
        return d.time_ms or None  # "search" and "solve" levels

    def label(self, solved: bool = True) -> str:
        """The level's name; ``solved`` False: the game has no exact solver, so its top level is not "Perfect"."""
        d = self.difficulty
        if d.kind == "custom":
            return f"Custom {format_ms(self.custom_ms)}"
        if d.key == PERFECT and not solved:
            return TOP_WITHOUT_SOLVER
        return d.label  # the name says how well it plays; ``detail`` the time

    def detail(self) -> str:
        """The time a move may take (the longest wait), for a tooltip or a dialog's second line."""
        ms = self.time_ms
        return "no engine" if ms is None else f"up to {format_ms(ms)} a move"

    def cycled(self, direction: int = 1) -> BotSetting:
        i = DIFFICULTY_KEYS.index(self.level) if self.level in DIFFICULTY_KEYS else 0
        return replace(self, level=DIFFICULTY_KEYS[(i + direction) % len(DIFFICULTY_KEYS)])


def is_bot(mode: Mode, human_player: int, player: int) -> bool:
    """Whether ``player`` (0 moves first) is played by the computer in ``mode``."""
    if mode == Mode.HOTSEAT:
        return False
    if mode == Mode.BOT_VS_BOT:
        return True
    return player != human_player
