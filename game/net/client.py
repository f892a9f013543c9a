"""One player's network game for the desktop app: the socket lives in a background thread.

``NetClient`` speaks the extended protocol (docs/network-protocol.md) through the one client session
(``game.net.session``, run on an asyncio loop in its thread): it opens with a ``hello`` (the game, or
its seat token to come back), turns the server's typed messages into the app's events (frozen
dataclasses, ``game.net.events``) put on a queue, and reconnects with backoff after a drop, with the
seat token, until the game goes on or the server stays away too long. The caller (the app's frame
loop) only calls ``events()``, ``play``, ``resign``, ``offer_draw``, ``rematch`` and ``close``: none
of them waits on the network.

It can also watch a room (``spectate``), ask for a clock when it creates a room (``clock_ms``), and
after a game in a room it stays connected while the server offers a rematch (colours swapped): the
new game comes as a new ``welcome`` on the same connection.

A move sent just before a drop is not lost: the client remembers it until the server's moves show
it, and sends it again after resuming when the server still waits for it.
"""

from __future__ import annotations

import asyncio

from game.net.client_events import event_of, update_events
from game.net.events import (
    ConnectionLost,
    Declined,
    Gone,
    NetEvent,
    Rematch,
    Seated,
    Watching,
)
from game.net.messages import (
    Decline,
    Illegal,
    Player,
    ServerLineError,
    Update,
    Welcome,
)
from game.net.session import (
    BACKOFF_S,
    GONE_AFTER_S,
    GRACE_MARGIN_S,
    ClientSession,
    Dropped,
    Ended,
    Opened,
    Patience,
    SessionEvent,
    Unreachable,
)
from game.net.states import move_to_action
from game.net.wire import Action, Address, Command, Hello
from game.net.worker import Worker
from game.rules.base import GameSpec
from game.rules.errors import GameError
from game.rules.registry import get_game

__all__ = ["BACKOFF_S", "GONE_AFTER_S", "GRACE_MARGIN_S", "NetClient"]

PING_EVERY_S = 10.0
SILENT_LIMIT_S = 35.0  # nothing heard this long (pings unanswered): the connection is dead
POLL_S = 0.1  # how soon a move, a resignation or close() is acted on
SEED_ONLY = "the server speaks only the seed protocol (no rooms, no reconnection): play there with main.py bot"


class NetClient(Worker[NetEvent]):
    """A player on a game server. ``game``: the game to ask for (None: the server's); ``token``: a seat to resume."""

    def __init__(
        self,
        address: Address,
        game: str | None = None,
        token: str | None = None,
        *,
        gone_after_s: float | None = None,
        backoff: tuple[float, ...] = BACKOFF_S,
        connect_timeout_s: float = 5.0,
        room: str | None = None,
        clock_ms: int | None = None,
        spectate: bool = False,
    ) -> None:
        super().__init__("net-client")
        self.address = address
        self.game = game
        self.token = token
        self.room = room
        self.clock_ms = clock_ms
        self.spectate = spectate
        self.seat: int | None = None
        self._spec: GameSpec | None = None
        self._started = token is not None  # a token: the game is under way
        self._over = False
        self._resuming = False  # welcomed back with our token: the next update is the whole picture
        self._reconnected = self._started  # this connection comes back to a game (a token given, or a drop)
        self._pending: tuple[str, Action] | None = None  # (moves before, action) not yet seen in an update
        self._seed_only = False  # the server did not announce the extensions: this app does not play there
        self.session = ClientSession(
            address,
            self._hello,
            resumable=lambda: not self._over,
            patience=Patience(gone_after_s, backoff),
            connect_timeout_s=connect_timeout_s,
            ping_every_s=PING_EVERY_S,
            silent_limit_s=SILENT_LIMIT_S,
            poll_s=POLL_S,
            returning=self._started,
        )

    @property
    def gone_after_s(self) -> float:
        """How long the client keeps trying to come back (the server's grace and more, or as given)."""
        return self.session.patience.gone_after_s

    # -- the caller's side (never blocks) ---------------------------------------------------------------
    def play(self, moves_before: str, move: int) -> None:
        """Send our move, played at the position ``moves_before``."""
        if self._spec is None:
            return
        action = Action(move_to_action(self._spec, move))
        self._pending = (moves_before, action)
        self.session.send(action)

    def resign(self) -> None:
        self.session.send(Command("resign"))

    def offer_draw(self) -> None:
        """Offer a draw, or accept the opponent's offer."""
        self.session.send(Command("draw"))

    def rematch(self) -> None:
        """After the game: offer a rematch (colours swapped), or accept the opponent's offer."""
        self.session.send(Command("rematch"))

    def close(self) -> None:
        self._stop.set()
        self.session.stop()

    # -- the thread -------------------------------------------------------------------------------------
    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        async with self.session:
            try:
                async for event in self.session:
                    if not self.on_event(event):
                        return
            except ServerLineError as exc:
                self._events.put(Declined(str(exc)))

    def _hello(self) -> Hello:
        if self.token and self._started:
            return Hello(token=self.token)
        return Hello(self.game or None, self.room, clock_ms=self.clock_ms or None, spectate=self.spectate, name="app")

    def on_event(self, event: SessionEvent) -> bool:
        """One event of the session (a server message, or news of the connection); False: stop."""
        if self._seed_only and not isinstance(event, Opened):
            self._events.put(Declined(event.message if isinstance(event, Decline) else SEED_ONLY))
            return False
        match event:
            case Opened(extended, resuming):
                self._seed_only = not extended  # its first line comes next: a decline, or its seed seat
                self._reconnected = self._reconnected or resuming
            case Dropped(reason, retry_in_s, attempt):
                self._events.put(ConnectionLost(reason, retry_in_s, attempt))
            case Ended(_):  # the finished game is closed: no rematch now
                self._events.put(Rematch("closed"))
                return False
            case Unreachable(reason):
                self._events.put(Gone(reason))
                return False
            case Welcome():
                return self._welcome(event)
            case Player(seat):
                self.seat = seat
            case Update():
                self._update(event)
            case _:
                if isinstance(event, Illegal):
                    self._pending = None  # refused: not to be sent again
                told = event_of(event)
                if told is not None:
                    self._events.put(told)
                return not isinstance(event, Decline)
        return True

    def _welcome(self, welcome: Welcome) -> bool:
        try:
            self._spec = get_game(welcome.game)
        except GameError as exc:
            self._events.put(Declined(f"the server plays a game this app does not know: {exc}"))
            return False
        if self._over:  # a rematch: a new game on this connection
            self._over = self._started = False
            self._pending = None
        self._resuming = self._reconnected and self._started  # the update that follows says where the game is
        self._reconnected = False
        if welcome.spectator:
            self._events.put(Watching(self._spec.name, welcome.room or ""))
            return True
        self.token = welcome.token or self.token
        self.seat = welcome.seat
        self.session.patience.learn(welcome)  # as long as our seat is kept, and more
        self._events.put(Seated(self.seat or 0, self._spec.name, self.token, welcome.grace_s, welcome.room))
        return True

    def _update(self, update: Update) -> None:
        moves = update.moves or ""
        first, resumed = not self._started, self._resuming
        self._started, self._resuming = True, False
        for told in update_events(update, moves, first=first, resumed=resumed):
            self._events.put(told)
        if update.winners is not None:
            self._over = True
            return
        self._resend_if_lost(moves, update)

    def _resend_if_lost(self, moves: str, update: Update) -> None:
        pending = self._pending
        if pending is None:
            return
        before, action = pending
        if moves == before and update.to_move == self.seat:
            self.session.send(action)  # it never reached the server: send it again
        elif moves != before:
            self._pending = None
