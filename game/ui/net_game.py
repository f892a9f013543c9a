"""A network game in the app: host (start a server here) or join (HOST:PORT), then play on it.

``NetGame`` owns the pygame-free pieces of ``game.net`` (``HostedServer``, ``NetClient``), reads their
events once per frame (never waiting on the network) and answers each with effects (``game.ui.effects``,
the one way the app's handlers talk back) that the app carries out: the opponent's
moves drop with the usual animation, our moves go to the server, a dropped connection is shown and
resumed with the seat token. The board is the app's own session played as hot-seat (no bot ever moves
for the remote side); only this app's player may move, only on its turn and at the latest position.
Undo, redo and "continue from here" would fork the shared game: the panel offers resign and draw.
The rules of play (the seat, whose move, the offers, what the server's events mean) are the play model's
``game.play.net_match.NetMatch`` (``match``), shared with the terminal client; this module turns its news
into effects and its requests into the client's messages.

A hosted game is played in a named room (``game.play.net_setup``), with the clock the host chose:
both clocks are shown in the panel and the mover's runs down between the server's updates; a fallen
flag shows at once. Someone may watch a room (a spectator: nothing to play). After a game in a room
the panel offers a rematch with colours swapped; the server starts it when both ask.

The unfinished game's server and seat token are kept in the settings, so a relaunched app comes back
to it (a host starts its server again on the same port; the games live in the server's SQLite file).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from game.net import events as ev
from game.net.client import NetClient
from game.net.host import HostedServer, ServerFailed, ServerReady
from game.net.wire import Address, parse_address
from game.play.actions import Command
from game.play.net_match import (
    FORKING,
    FollowMoves,
    ForgetSeat,
    KeepSeat,
    NetMatch,
    NewBoard,
    Request,
    Role,
    Say,
    board_step,
)
from game.play.net_setup import Where, clock_ms_of_room, parse_where, room_for, where_to_watch
from game.play.session import Session
from game.play.settings import Settings
from game.rules import get_game
from game.rules.capabilities import capabilities
from game.rules.errors import GameError
from game.ui import files, net_view
from game.ui.effects import Connect, Effects, Notice, PlayOnBoard, RememberSeat, ShowPly, StartGame
from game.ui.frame import Frame


class NetGame:
    """The app's side of a network game: the hosted server and the client; the rules are ``match``'s."""

    def __init__(
        self,
        role: Role,
        game: str | None,
        address: Address | None,
        *,
        lan: bool = False,
        token: str | None = None,
        port: int | None = None,
        room: str | None = None,
        clock_ms: int | None = None,
    ) -> None:
        self.game = game
        self.address = address  # the server's (for a host: known once it serves)
        self.share: str | None = None  # what a host gives the opponent (HOST:PORT/ROOM)
        self.server = HostedServer(game or "connect4", lan, port) if role == "host" else None
        if self.server is not None:
            self.server.start()
        self.match = NetMatch(role, room=room, clock_ms=clock_ms, token=token, hosting=self.server is not None)
        self.client: NetClient | None = None
        if address is not None:
            self._connect(address)

    @classmethod
    def start(cls, connect: Connect) -> NetGame:
        """The network game a ``Connect`` effect asks for."""
        where = connect.where
        if connect.role == "host" or where is None:
            return cls.host(connect.game, connect.lan, connect.clock_min)
        if connect.role == "watch":
            return cls("watch", None, where.address, room=where.room)
        return cls("join", None, where.address, room=where.room, clock_ms=clock_ms_of_room(where.room))

    @classmethod
    def host(cls, game: str, lan: bool, clock_min: int = 0) -> NetGame:
        room = room_for(clock_min)
        return cls("host", game, None, lan=lan, room=room, clock_ms=clock_ms_of_room(room))

    @classmethod
    def join(cls, address_text: str) -> NetGame:
        """Raises ValueError (one line) for an address that is not HOST:PORT or HOST:PORT/ROOM."""
        where = parse_where(address_text)
        return cls("join", None, where.address, room=where.room, clock_ms=clock_ms_of_room(where.room))

    @classmethod
    def watch(cls, address_text: str) -> NetGame:
        """A spectator of a room; ValueError (one line) for an address without one."""
        where = where_to_watch(address_text)
        return cls("watch", None, where.address, room=where.room)

    @classmethod
    def resume(cls, settings: Settings) -> NetGame | None:
        """The unfinished network game kept in the settings, if any (its server, our seat token)."""
        if not (settings.net_server and settings.net_token):
            return None
        try:
            address = parse_address(settings.net_server)
        except ValueError:
            return None
        if settings.net_role == "host":
            room = room_for(settings.net_clock_min)
            return cls(
                "host",
                settings.game,
                None,
                lan=settings.net_lan,
                token=settings.net_token,
                port=address.port,
                room=room,
                clock_ms=clock_ms_of_room(room),
            )
        return cls("join", None, address, token=settings.net_token)

    def _connect(self, address: Address) -> None:
        self.address = address
        m = self.match
        self.client = NetClient(
            address, self.game, m.token, room=m.room, clock_ms=m.clock_ms, spectate=m.role == "watch"
        )
        self.client.start()

    @property
    def where(self) -> str:
        """The server (and room) as a player types it to join or watch this game."""
        if self.match.role == "host" and self.share:
            return self.share
        return str(Where(self.address, self.match.room)) if self.address is not None else ""

    # --- each frame --------------------------------------------------------------------------------------
    def update(self, session: Session, player_name: Callable[[int], str]) -> Iterator[Effects]:
        """Each frame: the effects of each event of the hosted server and the client, in order (the app carries
        out each event's effects before the next is read: a new game's board is there for the next move)."""
        for host_event in self.server.events() if self.server is not None else []:
            if isinstance(host_event, ServerReady):
                self.share = str(Where(parse_address(host_event.share), self.match.room))  # HOST:PORT/ROOM
                copied = files.copy_text(self.share)  # the joiner's dialog offers it (game/play/net_setup.py)
                yield [Notice(f"Your opponent joins {self.share}" + (" (copied)" if copied else ""))]
                if self.client is None:
                    self._connect(Address("127.0.0.1", host_event.port))
                if host_event.restarted:
                    yield [Notice("The game server was started again: the game resumes")]
            elif isinstance(host_event, ServerFailed):
                if host_event.for_good or self.client is None:
                    self.match.give_up(host_event.message)
                yield [Notice(host_event.message, error=True)]
        for event in self.client.events() if self.client is not None else []:
            yield self._on_event(session, player_name, event)

    def _on_event(self, session: Session, player_name: Callable[[int], str], event: ev.NetEvent) -> Effects:
        """The match's news of one event, as the app's effects."""
        out: Effects = []
        for news in self.match.apply(event, player_name, session.spec.name):
            match news:
                case Say(text, error):
                    out.append(Notice(text, error=error))
                case NewBoard(game):
                    out += self._new_board(game)
                case FollowMoves(moves):
                    out += self._follow(session, moves)
                case KeepSeat(token) if self.address is not None:
                    out.append(RememberSeat(f"{self.address.host}:{self.address.port}", token))
                case ForgetSeat():
                    out.append(RememberSeat("", ""))
        return out

    def _new_board(self, game: str) -> Effects:
        try:
            spec = get_game(game)
            capabilities(spec)  # ValueError: a game this app cannot show
        except (GameError, ValueError):
            self.close()
            self.match.cannot_show(game)
            return []
        return [StartGame(spec)]

    def _follow(self, session: Session, moves: str) -> Effects:
        """Bring the board to the server's moves: a new move drops with the animation, else a reload."""
        try:
            told = tuple(session.spec.parse_position(moves).history)
        except GameError:
            return []
        step = board_step(tuple(session.line), told)
        if step.kind == "same":
            return []
        if step.move is not None:
            back = [] if session.at_end else [ShowPly(len(session.line))]  # a new move takes the view back to the game
            return [*back, PlayOnBoard(step.move)]
        return [StartGame(session.spec, step.line)]

    # --- what the player does ------------------------------------------------------------------------------
    def may_move(self, session: Session) -> bool:
        position = session.position
        return self.match.may_move(position.to_move, session.at_end, position.outcome.is_over)

    def take(self, c: Command) -> Effects | None:
        """The effects of a command that means something else in a network game; None: the usual meaning."""
        if c is Command.RESIGN:
            return self._send(self.match.resign())
        if c is Command.OFFER_DRAW:
            return self._send(self.match.offer_draw())
        if c is Command.REMATCH:
            return self._send(self.match.ask_rematch())
        refused = self.match.refusal(c)
        if refused is None:
            return None
        where = " (the panel), or look back with the arrows" if c in FORKING else ""  # the app's buttons and keys
        return [Notice(refused.text + where, error=refused.error)]

    def _send(self, request: Request) -> Effects:
        client = self.client
        if client is None or request.send is None:
            return []
        {"resign": client.resign, "draw": client.offer_draw, "rematch": client.rematch}[request.send]()
        return [Notice(say.text, error=say.error) for say in request.say]

    def sent_move(self, moves_before: str, move: int) -> None:
        if self.client is not None:
            self.client.play(moves_before, move)

    def leave(self) -> Effects:
        """This app starts another game: a network game under way is resigned (said at once), the seat forgotten
        (the server keeps it for its grace period)."""
        request = self.match.resign()
        resigned = self.client is not None and request.send is not None
        self._send(request)
        self.close()
        return [*([Notice("You resigned the network game you left")] if resigned else []), RememberSeat("", "")]

    def close(self) -> None:
        """Leave: the client stops (the server keeps our seat for its grace period), the hosted server stops."""
        if self.client is not None:
            self.client.close()
        if self.server is not None:
            self.server.close()

    # --- what the frame shows (game.ui.net_view) --------------------------------------------------------------
    def decorate(self, frame: Frame, names: tuple[str, str]) -> Frame:
        return net_view.decorate(self.match, self.where, frame, names)
