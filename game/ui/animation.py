"""Time-based animations (seconds of wall time, never frame counts)."""

from __future__ import annotations

import math
from dataclasses import dataclass

GRAVITY = 55.0  # cells per second squared
RESTITUTION = 0.26  # share of the impact speed kept by a bounce
BOUNCES = 2


@dataclass(frozen=True)
class DropAnimation:
    """A disc falling from ``start_row`` (above the board) to ``row`` of ``col``, then bouncing.

    Rows are in cell units, row 0 at the bottom; ``row_at(t)`` gives the disc's row (a float) ``t``
    seconds after ``started``.
    """

    col: int
    row: int
    player: int
    start_row: float
    started: float
    gravity: float = GRAVITY

    @property
    def fall_time(self) -> float:
        return math.sqrt(2 * max(self.start_row - self.row, 0.0) / self.gravity)

    def _bounce_times(self) -> list[tuple[float, float]]:
        """(start, speed) of every bounce after the first impact."""
        out = []
        t = self.fall_time
        speed = self.gravity * self.fall_time * RESTITUTION
        for _ in range(BOUNCES):
            out.append((t, speed))
            t += 2 * speed / self.gravity
            speed *= RESTITUTION
        return out

    @property
    def duration(self) -> float:
        bounces = self._bounce_times()
        last_start, last_speed = bounces[-1]
        return last_start + 2 * last_speed / self.gravity

    def row_at(self, now: float) -> float:
        t = now - self.started
        if t <= 0:
            return self.start_row
        if t < self.fall_time:
            return self.start_row - 0.5 * self.gravity * t * t
        for start, speed in self._bounce_times():
            dt = t - start
            if 0 <= dt <= 2 * speed / self.gravity:
                return self.row + speed * dt - 0.5 * self.gravity * dt * dt
        return float(self.row)

    def landed(self, now: float) -> bool:
        """True once the disc has hit the stack (the moment for the drop sound)."""
        return now - self.started >= self.fall_time

    def done(self, now: float) -> bool:
        return now - self.started >= self.duration
