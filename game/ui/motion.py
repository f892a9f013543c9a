"""Pieces in motion and their sounds: a disc dropping into a column (Connect 4) or a stone scaling in
(grid games), the drop sound when it lands and the win or draw chord after. Wall-time driven; no app
object and no drawing here (the frame reads ``animation`` and ``placed``)."""

from __future__ import annotations

from game.rules import Position
from game.rules.capabilities import GameCapabilities
from game.ui.animation import GRAVITY, DropAnimation
from game.ui.sounds import Sounds


class Motion:
    def __init__(self, sounds: Sounds) -> None:
        self.sounds = sounds
        self.gravity = GRAVITY
        self.animation: DropAnimation | None = None
        self.placed: tuple[int, float] | None = None  # (cell, when) of the newest stone on a grid
        self._landed = True

    def start(self, caps: GameCapabilities, before: Position, after: Position, move: int, now: float) -> None:
        """The move ``move`` turned ``before`` into ``after``: animate it."""
        self.finish()
        if caps.gravity:
            row = sum(1 for r in range(caps.height) if before.cell(r * caps.width + move) is not None)
            self.animation = DropAnimation(move, row, before.to_move, caps.height + 0.35, now, self.gravity)
            self._landed = False
        else:
            self.placed = (move, now)
            self.sounds.play("drop", 0)
            self._result_sound(after)

    def finish(self) -> None:
        """End a running drop at once (its landing sound still plays)."""
        if self.animation is not None and not self._landed:
            self.sounds.play("drop", self.animation.row)
        self.animation = None
        self._landed = True

    def stop(self) -> None:
        """Forget every motion silently (the shown position jumped)."""
        self.animation, self.placed, self._landed = None, None, True

    def moving(self, now: float) -> bool:
        return self.animation is not None and not self.animation.done(now)

    def tick(self, now: float, shown: Position) -> None:
        anim = self.animation
        if anim is None:
            return
        if not self._landed and anim.landed(now):
            self.sounds.play("drop", anim.row)
            self._landed = True
        if anim.done(now):
            self.animation = None
            self._result_sound(shown)

    def _result_sound(self, pos: Position) -> None:
        if pos.outcome.is_over:
            self.sounds.play("win" if pos.outcome.winner is not None else "draw")
