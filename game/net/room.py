"""One game on the server: two seats, spectators, the moves, the clocks, the grace after a drop.

A ``Room`` knows nothing of sockets: it talks to ``Seated`` objects (the server's connections)
through ``send(message)``, and uses the running asyncio loop only for its timers. Every move is
written to the ``GameStore`` before anybody is told about it.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any, Protocol

from game.net.messages import (
    DrawOffer,
    Error,
    Illegal,
    LastAction,
    OpponentNews,
    Player,
    Sent,
    Update,
    Welcome,
)
from game.net.states import action_to_move, move_to_action, points_of, state_of, winners_of
from game.net.store import GameStore, StoredGame
from game.net.wire import EXTENSIONS
from game.rules.base import GameSpec, Position
from game.rules.errors import GameError

DEFAULT_GRACE_S = 60.0
DEFAULT_MOVE_LIMIT_S = 600.0


class Seated(Protocol):
    extended: bool

    def send(self, message: Sent) -> None: ...

    def close_soon(self) -> None: ...


class Room:
    """A game between seat 1 (moves first) and seat 2."""

    def __init__(
        self,
        spec: GameSpec,
        store: GameStore,
        *,
        room: str | None = None,
        clock_ms: int | None = None,
        grace_s: float = DEFAULT_GRACE_S,
        move_limit_s: float = DEFAULT_MOVE_LIMIT_S,
        game_id: str | None = None,
        tokens: tuple[str, str] | None = None,
    ) -> None:
        self.spec = spec
        self.store = store
        self.room = room
        self.grace_s = grace_s
        self.move_limit_s = move_limit_s  # without a clock: the longest a move may take (only a move resets it)
        self.game_id = game_id or secrets.token_hex(8)
        self.tokens = tokens or (secrets.token_urlsafe(12), secrets.token_urlsafe(12))
        self.position: Position = spec.start()
        self.seats: dict[int, Seated | None] = {1: None, 2: None}
        self.spectators: set[Seated] = set()
        self.clock_ms = clock_ms  # the clock asked for (both players of a room must ask for the same)
        self.clocks_ms: list[int] | None = None if clock_ms is None else [clock_ms, clock_ms]
        self.clock_ms = clock_ms  # the time control (a rematch gets the same)
        self.keep_after_end = False  # extended clients stay connected after the end (game.net.rematch)
        self.started = False
        self.stored = False  # its row exists (written with the first move)
        self.over = False
        self.draw_offer: int | None = None
        self._turn_started = time.monotonic()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self.unsettled: set[Seated] = set()  # provisional players: the game does not start before they settle
        self.on_finish: Any = None  # called with the room when the game ends (the server forgets it)
        self.on_start: Any = None  # called with the room when both players are seated and settled
        self.addresses: set[str] = set()  # where its players connect from (the server counts games per address)

    @classmethod
    def restore(
        cls, stored: StoredGame, store: GameStore, grace_s: float, move_limit_s: float = DEFAULT_MOVE_LIMIT_S
    ) -> Room:
        """A game read back after a restart: started, both seats waiting for their player's return."""
        room = cls(
            stored.position().spec,
            store,
            room=stored.room,
            grace_s=grace_s,
            move_limit_s=move_limit_s,
            game_id=stored.game_id,
            tokens=stored.tokens,
        )
        room.position = stored.position()
        room.clocks_ms = None if stored.clocks_ms is None else list(stored.clocks_ms)
        room.started = True
        room.stored = True
        for seat in (1, 2):
            room._start_grace(seat)
        room._start_clock()
        return room

    # -- seats ----------------------------------------------------------------------------------------
    def free_seats(self) -> list[int]:
        return [seat for seat, who in self.seats.items() if who is None and not self.started]

    def take_seat(self, who: Seated, seat: int | None = None, *, provisional: bool = False) -> int:
        """Seat a new player (a free seat drawn at random); start the game once both are seated and settled.

        ``provisional``: a connection that has not said yet whether it is an extended client; its
        ``player`` line announces the extensions, and the game waits for ``settle`` (or ``leave``)."""
        free = self.free_seats()
        seat = seat if seat in free else secrets.choice(free)
        self.seats[seat] = who
        if provisional:
            self.unsettled.add(who)
        elif who.extended:
            who.send(self._welcome(seat))
        who.send(Player(seat, EXTENSIONS if provisional else None))
        self._start_if_ready()
        return seat

    def settle(self, who: Seated, welcome: bool = False) -> None:
        """A provisional player is what it is (a seed client, or an extended one keeping its seat)."""
        self.unsettled.discard(who)
        seat = self.seat_of(who)
        if welcome and seat is not None:
            who.send(self._welcome(seat))
            who.send(Player(seat))
        self._start_if_ready()

    def _start_if_ready(self) -> None:
        if self.started or not all(self.seats.values()) or self.unsettled:
            return
        self.started = True  # stored at its first move: a game without a move leaves no row
        self._turn_started = time.monotonic()
        self._broadcast(self._update())
        self._start_clock()
        if self.on_start is not None:
            self.on_start(self)

    def seat_of_token(self, token: str) -> int | None:
        return next((seat for seat in (1, 2) if secrets.compare_digest(self.tokens[seat - 1], token)), None)

    def rejoin(self, who: Seated, seat: int) -> None:
        """A player back with its token: the old connection (if any) is replaced, the game goes on."""
        old = self.seats[seat]
        if old is not None and old is not who:
            old.send(Error("this seat was taken over by a reconnection"))
            old.close_soon()
        self.seats[seat] = who
        self._cancel(f"grace{seat}")
        who.send(self._welcome(seat))
        who.send(Player(seat))
        if self.started:
            who.send(self._update())
            self._tell_others(who, OpponentNews("back", seat))

    def watch(self, who: Seated) -> None:
        self.spectators.add(who)
        who.send(self._welcome(None))
        if self.started:
            who.send(self._update())

    def leave(self, who: Seated) -> None:
        """A connection closed: a player keeps its seat for the grace period."""
        self.spectators.discard(who)
        self.unsettled.discard(who)
        for seat, sitting in self.seats.items():
            if sitting is who:
                self.seats[seat] = None
                if self.started and not self.over and self.position.ply == 0:
                    self._abandon(seat)  # a game without a move holds nobody's seat: it ends now
                elif self.started and not self.over:
                    self._start_grace(seat)
                    self._tell_others(who, OpponentNews("disconnected", seat, self.grace_s))

    def seat_of(self, who: Seated) -> int | None:
        return next((seat for seat, sitting in self.seats.items() if sitting is who), None)

    @property
    def is_empty(self) -> bool:
        return not any(self.seats.values()) and not self.spectators

    # -- play -----------------------------------------------------------------------------------------
    def act(self, who: Seated, action: Any, claimed_seat: int | None = None) -> None:
        seat = self.seat_of(who)
        if (
            seat is None
            or self.over
            or not self.started
            or claimed_seat not in (None, seat)
            or self.position.to_move + 1 != seat
        ):
            who.send(Illegal(action))
            return
        try:
            move = action_to_move(self.spec, action)
            position = self.position.play(move)
        except GameError:
            who.send(Illegal(action))
            return
        if self.clocks_ms is not None:
            left = self.clocks_ms[seat - 1] - self._elapsed_ms()
            if left <= 0:
                self._flag(seat)
                return
            self.clocks_ms[seat - 1] = left
        self.position = position
        self.draw_offer = None
        clocks = None if self.clocks_ms is None else (self.clocks_ms[0], self.clocks_ms[1])
        if self.stored:
            self.store.record_move(self.game_id, tuple(position.history), clocks)
        else:
            self.store.create(
                StoredGame(self.game_id, self.spec.name, self.room, tuple(position.history), self.tokens, clocks, False)
            )
            self.stored = True
        self._turn_started = time.monotonic()
        last = LastAction(seat, move_to_action(self.spec, move), position.ply)
        winners = winners_of(position)
        if winners is None:
            self._broadcast(self._update(last))
            self._start_clock()
        else:
            self._end(winners, "rules", last)

    def resign(self, who: Seated) -> None:
        seat = self.seat_of(who)
        if seat is None or self.over or not self.started:
            who.send(Illegal("resign"))
            return
        self._end(winners_of(self.position, loser_seat=seat) or {}, "resign")

    def offer_draw(self, who: Seated) -> None:
        seat = self.seat_of(who)
        if seat is None or self.over or not self.started:
            who.send(Illegal("draw"))
            return
        if self.draw_offer == 3 - seat:
            self._end({"1": 0.5, "2": 0.5}, "agreed")
            return
        if self.draw_offer == seat:  # offered already: the other player heard it once
            return
        self.draw_offer = seat
        self._tell_others(who, DrawOffer(seat))

    # -- end ------------------------------------------------------------------------------------------
    def _end(self, winners: dict[str, float], reason: str, last: LastAction | None = None) -> None:
        self.over = True
        for key in list(self._timers):
            self._cancel(key)
        if self.stored:
            self.store.finish(self.game_id, {"winners": winners, "reason": reason})
        self._broadcast(self._update(last, winners, reason))
        for who in [*self.seats.values(), *self.spectators]:
            if who is not None and not (self.keep_after_end and who.extended):
                who.close_soon()
        if self.on_finish is not None:
            self.on_finish(self)

    def _flag(self, seat: int) -> None:
        if not self.over:
            if self.clocks_ms is not None:
                self.clocks_ms[seat - 1] = 0
            self._end(winners_of(self.position, loser_seat=seat) or {}, "time")

    def _abandon(self, seat: int) -> None:
        if self.over:
            return
        if self.seats[3 - seat] is None:  # both gone (e.g. nobody came back after a restart): nobody wins
            self._end({"1": 0.5, "2": 0.5}, "abandoned")
        else:
            self._end(winners_of(self.position, loser_seat=seat) or {}, "abandoned")

    # -- timers ---------------------------------------------------------------------------------------
    def _elapsed_ms(self) -> int:
        return int((time.monotonic() - self._turn_started) * 1000)

    def _start_clock(self) -> None:
        """The timer of the side to move: its clock, or without one the per-move limit. Only a move
        restarts it (pings, bytes of a line that never ends, reconnections do not)."""
        self._cancel("clock")
        if not self.over:
            seat = self.position.to_move + 1
            delay = self.move_limit_s if self.clocks_ms is None else max(0.0, self.clocks_ms[seat - 1] / 1000)
            self._timers["clock"] = asyncio.get_running_loop().call_later(delay, self._flag, seat)

    def _start_grace(self, seat: int) -> None:
        self._cancel(f"grace{seat}")
        self._timers[f"grace{seat}"] = asyncio.get_running_loop().call_later(self.grace_s, self._abandon, seat)

    def _cancel(self, key: str) -> None:
        handle = self._timers.pop(key, None)
        if handle is not None:
            handle.cancel()

    # -- messages -------------------------------------------------------------------------------------
    def _welcome(self, seat: int | None) -> Welcome:
        role, token = ("spectator", None) if seat is None else ("player", self.tokens[seat - 1])
        return Welcome(role, self.spec.name, self.room, self.game_id, seat, token, self.grace_s, self.clock_ms)

    def _update(
        self, last: LastAction | None = None, winners: dict[str, float] | None = None, reason: str | None = None
    ) -> Update:
        clocks: tuple[int, int] | None = None
        if self.clocks_ms is not None:
            running = 0 if self.over else self._elapsed_ms()
            to_move = self.position.to_move + 1
            left = [max(0, self.clocks_ms[s - 1] - (running if s == to_move else 0)) for s in (1, 2)]
            clocks = (left[0], left[1])
        points = None if winners is None else points_of(self.spec, winners)
        return Update(
            state_of(self.position), last, winners, points, self.spec.name, self.position.to_text(), clocks, reason
        )

    def _broadcast(self, message: Sent) -> None:
        for who in [*self.seats.values(), *self.spectators]:
            if who is not None:
                who.send(message)

    def _tell_others(self, me: Seated, message: Sent) -> None:
        for who in [*self.seats.values(), *self.spectators]:
            if who is not None and who is not me and who.extended:
                who.send(message)
