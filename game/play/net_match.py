"""A network game's rules of play, without pygame or sockets: the one place that decides them for the desktop
app (``game.ui.net_game``) and the terminal client (``game.text.net_play``).

``NetMatch`` follows what the server tells (``game.net.events``: seated, the game's moves, a drop, the clocks,
a draw or rematch offer, the result) and says what that means as plain values (``MatchNews``): a line to show,
a fresh board, the moves the board must show, a seat to keep or forget. It decides which seat we have, whether
a move may be played now (ours, on our turn, at the latest position, connected), which offers (draw, rematch)
are open and what answering them sends, and refuses what would fork the shared game (undo, redo, "continue
from here", loading another game). It never touches the network: what a player's request sends is returned
(``Request``) and the caller's client sends it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from game.net import events as ev
from game.play.actions import Command
from game.play.net_status import DrawOffer, GameClocks, NetState, RematchOffer

# Who we are in the game: "host" (our server, our room), "join" (a seat on another's server), "watch" (a spectator).
Role = Literal["host", "join", "watch"]
# What a player's request sends to the server (the protocol's commands).
Sent = Literal["resign", "draw", "rematch"]

UNDO_REFUSED = "Undo, redo and continue would change the shared game: resign or offer a draw instead"
LOAD_REFUSED = "A network game is on: start a new game (N) before loading one"
FORKING = (Command.UNDO, Command.REDO, Command.CONTINUE)


@dataclass(frozen=True)
class Say:
    """A line to show the player (``error``: something went wrong or was refused)."""

    text: str
    error: bool = False


@dataclass(frozen=True)
class NewBoard:
    """A fresh board of ``game`` (a joiner learns the host's game, a rematch starts over); the caller says
    ``cannot_show`` when it cannot show that game."""

    game: str


@dataclass(frozen=True)
class FollowMoves:
    """Bring the board to the server's game, ``moves`` in the project's notation."""

    moves: str


@dataclass(frozen=True)
class KeepSeat:
    """From now on there is a game to come back to: keep the server and this seat token."""

    token: str


@dataclass(frozen=True)
class ForgetSeat:
    """No game to come back to any more."""


MatchNews = Say | NewBoard | FollowMoves | KeepSeat | ForgetSeat


@dataclass(frozen=True)
class Request:
    """What a player's request does: ``send`` goes to the server (None: nothing), ``say`` is shown."""

    send: Sent | None = None
    say: tuple[Say, ...] = ()


@dataclass(frozen=True)
class BoardStep:
    """How the board reaches the server's moves: nothing, one move more (``move``), or a reload of ``line``."""

    kind: Literal["same", "one more", "reload"]
    line: tuple[int, ...] = ()
    move: int | None = None


def board_step(shown: tuple[int, ...], told: tuple[int, ...]) -> BoardStep:
    """The board shows ``shown``, the server told ``told``: a new move drops (animated), anything else reloads."""
    if told == shown:
        return BoardStep("same", told)
    if told[:-1] == shown:
        return BoardStep("one more", told, told[-1])
    return BoardStep("reload", told)


class NetMatch:
    """Where one player's (or a spectator's) network game stands, as the server told it (see the module)."""

    def __init__(
        self,
        role: Role,
        *,
        room: str | None = None,
        clock_ms: int | None = None,
        token: str | None = None,
        now: Callable[[], float] = time.monotonic,
        hosting: bool = False,
    ) -> None:
        self.role: Role = role
        self.room = room
        self.clock_ms = clock_ms  # asked of the server (a host's choice, or read from the room's name)
        self.token = token  # our seat token (brings us back to the seat)
        self.now = now  # the clocks' time (tests step it)
        self.state: NetState = "starting" if hosting else "connecting"
        self.you: int | None = None  # our player (0 moves first); None: a spectator, or not seated yet
        self.detail = ""  # why the state is what it is (a drop's reason, a refusal)
        self.retry_at = 0.0  # when the next reconnection try is due (``now``'s time)
        self.away_until: float | None = None  # a player dropped: when its seat is given up
        self.away_player: int | None = None  # who dropped (0 moves first), as the server said
        self.draw_offered_by: DrawOffer | None = None
        self.result: ev.GameOver | None = None
        self.server_moves = ""  # the game as the server last told it
        self.clocks: GameClocks | None = None
        self.rematch: RematchOffer | None = None
        self.rematched = False  # this game is a rematch

    # --- what the server tells ---------------------------------------------------------------------------
    def apply(self, event: ev.NetEvent, player_name: Callable[[int], str], board_game: str) -> list[MatchNews]:
        """The news of one event of the server, in order; ``player_name`` names a player (0 moves first),
        ``board_game`` is the game the caller's board shows."""
        out: list[MatchNews] = []
        match event:
            case ev.Seated(seat, game, token, _, room):
                out += self._seated(game, board_game)
                self.you, self.token = seat - 1, token
                self.room = room or self.room  # a joiner relaunched with its token learns its room here
            case ev.Watching(game, room):
                rematch = self.state == "over"
                out += self._seated(game, board_game)
                self.you = None
                out.append(Say(f"Watching room {room}" + (": the rematch" if rematch else "")))
            case ev.Clocks(ms, running):
                self.clocks = GameClocks(ms, self.now(), None if running is None else running - 1)
            case ev.Rematch(news):
                out += self._rematch_news(news)
            case ev.OpponentJoined(moves):
                out += self._opponent_joined(moves, player_name)
            case ev.Moved(moves, _):
                self.draw_offered_by = None
                out.append(self._follow(moves))
            case ev.Resumed(moves):
                self.state, self.detail = "playing", ""
                out += [self._follow(moves), Say("Connection back: the game goes on")]
            case ev.GameOver():
                self.state, self.result, self.rematch = "over", event, None
                if self.clocks is not None:
                    self.clocks = replace(self.clocks, running=None)
                out += [self._follow(event.moves), ForgetSeat()]
            case ev.Opponent("draw offer"):
                self.draw_offered_by = "them"
                out.append(Say("Your opponent offers a draw: Accept draw in the panel"))
            case ev.Opponent(news, grace_s, seat):
                self.away_until = self.now() + grace_s if news == "away" else None
                self.away_player = None if seat is None else seat - 1
            case ev.Refused(kind, message):
                out.append(Say(f"The server refused: {kind} {message}", error=True))
                if kind == "illegal":
                    out.append(self._follow(self.server_moves))  # a move it refused comes off the board
            case ev.ConnectionLost(reason, retry_in_s, attempt):
                self.state, self.detail, self.retry_at = "lost", reason, self.now() + retry_in_s
                if attempt == 1:
                    out.append(Say(f"Connection lost ({reason}): reconnecting…", error=True))
            case ev.Declined(message) | ev.Gone(message):
                self.state, self.detail = "gone", message
                out += [Say(f"Network game: {message}", error=True), ForgetSeat()]
        return out

    def _opponent_joined(self, moves: str, player_name: Callable[[int], str]) -> list[MatchNews]:
        """Both seats taken: the game (or the rematch) is on."""
        self.state = "playing"
        out: list[MatchNews] = [KeepSeat(self.token)] if self.token else []  # a game to come back to from now on
        out.append(self._follow(moves))
        if self.role == "watch":
            out.append(Say("The rematch is on" if self.rematched else "The game is on"))
        elif self.rematched:
            out.append(Say(f"Rematch, colours swapped: you play {player_name(self.you or 0)}"))
        else:
            out.append(Say(f"Your opponent is here: you play {player_name(self.you or 0)}"))
        return out

    def _seated(self, game: str, board_game: str) -> list[MatchNews]:
        """A seat (or a spectator's place) in a game of ``game``: after a game over, a rematch on a new board."""
        fresh = self.state == "over"  # a new game on this connection
        self.rematched = self.rematched or fresh
        self.state = "waiting"
        self.result, self.clocks, self.rematch, self.draw_offered_by, self.away_until = None, None, None, None, None
        self.server_moves = ""
        return [NewBoard(game)] if fresh or game != board_game else []

    def cannot_show(self, game: str) -> None:
        """The caller cannot show the server's game: this client gives up."""
        self.give_up(f"this app cannot show the server's game {game}")

    def give_up(self, why: str) -> None:
        """No game to follow any more (the server gone for good, a game that cannot be shown)."""
        self.state, self.detail = "gone", why

    def _follow(self, moves: str) -> FollowMoves:
        self.server_moves = moves
        return FollowMoves(moves)

    def _rematch_news(self, news: str) -> list[MatchNews]:
        if self.state != "over" or self.role == "watch":
            return []
        if news == "offer":
            self.rematch = "them"
            return [Say("Your opponent offers a rematch, colours swapped: Accept in the panel")]
        if news == "declined":
            self.rematch = "off"
            return [Say("Your opponent left: no rematch")]
        if self.rematch != "off":
            self.rematch = "off"
            if self.rematch_label() is not None:
                return [Say("The server closed the game: no rematch (start a new game with N)")]
        return []

    # --- what the player may do ------------------------------------------------------------------------------
    def may_move(self, to_move: int, at_end: bool, over: bool) -> bool:
        """A move of ours may be played now: connected, our turn, at the latest position of a game not over."""
        return self.state == "playing" and at_end and self.you == to_move and not over

    def refusal(self, c: Command) -> Say | None:
        """A command that would fork the shared game, refused (None: allowed)."""
        if c in FORKING and self.state != "gone":
            return Say(UNDO_REFUSED, error=True)
        if c in (Command.LOAD, Command.PASTE) and self.state not in ("over", "gone"):
            return Say(LOAD_REFUSED, error=True)
        return None

    def resign(self) -> Request:
        if self.state not in ("playing", "lost") or self.role == "watch":
            return Request(say=(Say("No game of yours is under way to resign", error=True),))
        return Request("resign", (Say("You resigned"),))

    def offer_draw(self) -> Request:
        """Offer a draw, or accept the opponent's."""
        if self.draw_offered_by == "you":
            return Request(say=(Say("Your draw offer is open: waiting for your opponent's answer"),))
        if self.state != "playing" or self.role == "watch":
            return Request(say=(Say("No game of yours is under way to offer a draw in", error=True),))
        accepting = self.draw_offered_by == "them"
        self.draw_offered_by = "you"
        return Request(
            "draw", (Say("Draw accepted" if accepting else "Draw offered: waiting for your opponent's answer"),)
        )

    def ask_rematch(self) -> Request:
        """After the game: offer a rematch (colours swapped), or accept the opponent's."""
        if self.state != "over" or self.rematch in ("you", "off") or self.role == "watch":
            return Request()
        accepting = self.rematch == "them"
        self.rematch = "you"
        return Request(
            "rematch",
            (Say("Rematch accepted" if accepting else "Rematch offered (colours swapped): waiting for your opponent"),),
        )

    def rematch_label(self) -> str | None:
        """The rematch button's label (None: no rematch here: not over, a spectator, or no room)."""
        if self.state != "over" or self.role == "watch" or self.room is None or self.you is None:
            return None
        return {"you": "Offered", "them": "Accept"}.get(self.rematch or "", "Rematch")

    def draw_label(self) -> str:
        return {"them": "Accept draw", "you": "Draw offered"}.get(self.draw_offered_by or "", "Offer draw")

    @property
    def live(self) -> bool:
        """A player's game under way (resign and draw mean something)."""
        return self.state in ("playing", "lost") and self.role != "watch"

    @property
    def can_offer_draw(self) -> bool:
        """A draw may be offered (or the opponent's accepted) now: connected, and no offer of ours is open."""
        return self.live and self.state == "playing" and self.draw_offered_by != "you"

    @property
    def can_rematch(self) -> bool:
        """A rematch may be offered (or the opponent's accepted) now."""
        return self.rematch_label() is not None and self.rematch in (None, "them")

    def verdict(self) -> Literal["win", "loss", "draw"] | None:
        """What the result means for us (None: no result yet, a spectator, or a share the protocol does not name)."""
        if self.result is None or self.you is None:
            return None
        share = self.result.winners.get(str(self.you + 1))
        return {1.0: "win", 0.0: "loss", 0.5: "draw"}.get(share) if share is not None else None  # type: ignore[return-value]

    def winner(self) -> int | None:
        """The player who won (0 moves first; None: no result yet, or a draw)."""
        if self.result is None:
            return None
        return next((int(seat) - 1 for seat, share in self.result.winners.items() if share == 1), None)
