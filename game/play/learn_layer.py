"""Learn (L) and puzzles (Z) as layers over the game, never instead of it. No pygame.

Entering one keeps the game as it was (``KeptGame``: its line, the shown ply, the engine's numbers); inside, the
player's move at the challenge's position is judged, never played, so the game's main line and its players stay
what they were; leaving (Esc or "Back to the game") gives the kept game back exactly. The mode and the players are
never touched: the app holds its bots back while a layer is open.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from game.play.actions import Command
from game.play.session import ForcedNote, Session
from game.rules import GameSpec

# what a player may not do inside a layer (it would change the game, or save the puzzle as if it were the game)
KEPT_COMMANDS = frozenset(
    {
        Command.CONTINUE,
        Command.PROMOTE,
        Command.DELETE_MOVE,
        Command.NEXT_VARIATION,
        Command.REVIEW,
        Command.SAVE,
        Command.COPY,
        Command.SHARE,
        Command.UNDO,
        Command.REDO,
    }
)
LEAVE_HINT = "Esc: back to the game"


@dataclass(frozen=True)
class Challenge:
    """A position to find a move at: a shipped puzzle, or a mistake of the reviewed game."""

    ply: int  # the move is judged at the position after this many moves
    player: int
    accepted: tuple[int, ...]
    answer: int  # the move shown after
    title: str  # "Puzzle 12 (easy): find the win for Red"
    puzzle_id: int | None = None  # a shipped puzzle (its progress is kept)
    learn_index: int | None = None  # "learn from your mistakes": which of the marked moves
    result: str | None = None  # "solved" | "failed", once a move was played


@dataclass(frozen=True)
class KeptGame:
    """The game as the player left it for a layer: given back as it was when the layer closes."""

    spec: GameSpec
    line: tuple[int, ...]
    cursor: int
    evals: Mapping[int, float]
    proofs: Mapping[str, float]
    forced: Mapping[str, ForcedNote]

    @classmethod
    def of(cls, session: Session) -> KeptGame:
        return cls(
            session.spec,
            tuple(session.line),
            session.cursor,
            dict(session.evals),
            dict(session.proofs),
            dict(session.forced),
        )

    def restore(self, session: Session) -> None:
        session.load(self.spec, self.line, self.cursor)
        session.evals, session.proofs, session.forced = dict(self.evals), dict(self.proofs), dict(self.forced)


class Marked(Protocol):
    """A marked move of the review, as ``ReviewState.puzzles`` gives it."""

    @property
    def ply(self) -> int: ...

    @property
    def player(self) -> int: ...

    @property
    def moves(self) -> tuple[int, ...]: ...

    @property
    def played(self) -> int: ...

    @property
    def accepted(self) -> tuple[int, ...]: ...

    @property
    def best_moves(self) -> tuple[int, ...]: ...

    @property
    def klass(self) -> str: ...


def article(word: str) -> str:
    """ "an inaccuracy", "a mistake"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def next_mistake(found: Sequence[Marked], open_challenge: Challenge | None) -> int | None:
    """Which marked move the next L shows (in the order of the game): the one after the open one, else the first."""
    start = 0 if open_challenge is None or open_challenge.learn_index is None else open_challenge.learn_index + 1
    return start if start < len(found) else None


def mistake_challenge(mistake: Marked, index: int, name: str, move_text: str) -> Challenge:
    """The challenge of a marked move: find a better move for its mover, at the position before it."""
    best = mistake.best_moves[0] if mistake.best_moves else mistake.accepted[0]
    return Challenge(
        mistake.ply,
        mistake.player,
        mistake.accepted,
        best,
        f"Find a better move for {name} (played {move_text}, {article(mistake.klass)})",
        learn_index=index,
    )


@dataclass(frozen=True)
class Judged:
    challenge: Challenge  # with its result
    text: str  # the notice
    solved: bool


def judge(challenge: Challenge, move: int, solved: bool, move_text: str, answers: str, more: str) -> Judged:
    """The verdict on ``move``: the challenge with its result, and what to say (``more``: what next)."""
    result = "solved" if solved else "failed"
    if solved:
        text = f"Solved: {move_text} is right{more} · {LEAVE_HINT}"
    else:
        text = f"Not {move_text}: the answer is {answers}{more} · {LEAVE_HINT}"
    return Judged(replace(challenge, result=result), text, solved)


def refusal(challenge: Challenge, cursor: int) -> str:
    """Why a move is not played inside a layer."""
    if challenge.result is not None:
        return f"Answered. {LEAVE_HINT} (L or Z: the next one)"
    if cursor != challenge.ply:
        return f"Moves are only judged at the challenge's position · {LEAVE_HINT}"
    return LEAVE_HINT
