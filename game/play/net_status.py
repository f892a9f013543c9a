"""A network game's clocks and its result line, without pygame: what the app shows of them.

``GameClocks`` keeps the clocks as the server last told them and runs the mover's clock on between
updates (the server's word is the truth: each update sets them again); a clock at zero is a fallen
flag, shown at once, before the server's final update says the game was lost on time.
``result_texts`` says who won and why: by the rules, resignation, time, abandonment or agreed draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from game.play.net_setup import clock_text

# Where a network game stands (``game.play.net_match.NetMatch.state``): "starting" (our server starts), "connecting",
# "waiting" (for the opponent or the first update), "playing", "over" (a result; a rematch may follow), "lost"
# (the connection dropped; retried at ``retry_at``), "gone" (given up: refused, the server gone, a game this
# app cannot show).
NetState = Literal["starting", "connecting", "waiting", "playing", "over", "lost", "gone"]
# Who offered a draw that is still open: "you" (this app) or "them" (the opponent).
DrawOffer = Literal["you", "them"]
# After the game: "you" offered a rematch, "them", or "off" (not possible).
RematchOffer = Literal["you", "them", "off"]

# why the loser lost, by the server's reason (docs/network-protocol.md)
LOSS_REASONS = {"resign": "resigned", "time": "lost on time (flag fell)", "abandoned": "left the game"}


@dataclass(frozen=True)
class GameClocks:
    """``ms[p]``: the time left of player ``p`` (0 moves first) when the server said it, at ``seen_at``
    (monotonic seconds); ``running``: the player whose clock runs (None: the game is not on)."""

    ms: tuple[int, int]
    seen_at: float
    running: int | None

    def left_ms(self, player: int, now: float) -> float:
        left = float(self.ms[player])
        if player == self.running:
            left -= (now - self.seen_at) * 1000
        return max(0.0, left)

    def texts(self, now: float) -> tuple[str, str]:
        return (clock_text(self.left_ms(0, now)), clock_text(self.left_ms(1, now)))

    def flagged(self, now: float) -> int | None:
        """The player whose flag fell (its clock is at zero), if any."""
        return next((p for p in (0, 1) if self.left_ms(p, now) <= 0), None)

    def stopped(self, now: float) -> GameClocks:
        """The clocks frozen as they read at ``now`` (the game ended)."""
        return GameClocks((round(self.left_ms(0, now)), round(self.left_ms(1, now))), now, None)


def result_texts(winners: Mapping[str, float], reason: str, names: tuple[str, str], you: int | None) -> tuple[str, ...]:
    """The status line at the end, longest first: who won, why, and what it means for ``you``
    (the player this app plays; None: a spectator)."""
    winner = next((int(seat) - 1 for seat, share in winners.items() if share == 1), None)
    if winner is None:
        why = {
            "agreed": "Draw agreed",
            "abandoned": "Draw: both players left",
            "rules": "Draw by the rules (no winner)",
        }.get(reason, f"Draw ({reason})")
        return (why, "Draw")
    verdict = f"{names[winner]} wins" if you is None else "you win!" if winner == you else "you lose"
    loser = names[1 - winner]
    if reason in LOSS_REASONS:
        line = f"{loser} {LOSS_REASONS[reason]}: {verdict}"
    elif you is None:
        line = f"{verdict} on the board"
    else:
        line = f"{names[winner]} wins on the board: {verdict}"
    short = verdict[0].upper() + verdict[1:]
    return (line, short)
