"""What a network game says in words, without pygame: the subtitle, the status bar's lines (longest first, the
app fits the longest that fits) and the result banner's lines, decided from the network game's rules
(``game.play.net_match.NetMatch``), the address players type (``where``) and the shown board (``Shown``).
The app (``game.ui.net_view``) draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.play.net_match import NetMatch
from game.play.net_status import result_texts


@dataclass(frozen=True)
class Shown:
    """What the board shows: the position after ``cursor`` of ``moves`` moves (``at_end``: the latest),
    whose turn it is there and whether the game is over; how a move is chosen (``gravity``: a column of
    ``width``, else a cell)."""

    at_end: bool
    cursor: int
    moves: int
    to_move: int
    over: bool
    width: int
    gravity: bool


def subtitle(net: NetMatch, where: str, names: tuple[str, str]) -> str:
    if net.role == "watch":
        side = "you are watching"
    else:
        side = f"you play {names[net.you]}" if net.you is not None else "seat not known yet"
    where = where or "starting the server"
    role = {"host": "host", "join": "joined", "watch": "spectator"}[net.role]
    clock = "" if net.clock_ms is None else f" · {net.clock_ms // 60_000} min each"
    return f"Network game ({role}, {where}){clock} · {side}"


def status_texts(net: NetMatch, where: str, shown: Shown, names: tuple[str, str]) -> tuple[str, ...] | None:
    """The status bar's words for the network's state (None: the usual words fit)."""
    if net.state == "starting":
        return ("Starting the game server…", "Starting…")
    if net.state == "connecting":
        return (f"Connecting to {where}…", "Connecting…")
    if net.state == "waiting":
        if net.role == "host":
            share = where
            return (f"Waiting for an opponent · share {share}", f"Waiting · share {share}", share)
        if net.role == "watch":
            return (f"Watching {where} · the game has not started yet", "Waiting for the game", "Waiting…")
        if net.room is None:  # the server's public game: an app's hosted game is in a room
            return (
                f"Seated in the public game of {where} · waiting for an opponent "
                "(to join an app's game, type HOST:PORT/ROOM as its host shows it)",
                "Seated in the public game · waiting for an opponent",
                "Waiting for the opponent",
                "Waiting…",
            )
        if not net.rematched:  # seated in a room and no opponent came with the seat: nobody was waiting there
            return (
                f"Nobody is waiting in room {net.room} · is it the address the host shows?",
                f"Nobody is waiting in room {net.room}",
                "Nobody is waiting",
            )
        return ("Seated · waiting for the opponent", "Waiting for the opponent", "Waiting…")
    if net.state == "gone":
        return (f"{net.detail} · N: new game", net.detail, "Network game ended")
    if net.state == "over":
        return over_texts(net, names)
    if net.state == "lost":
        wait = max(0.0, net.retry_at - net.now())
        return (
            f"Connection lost · reconnecting (next try in {wait:.0f} s) · no move is lost",
            f"Reconnecting in {wait:.0f} s…",
            "Reconnecting…",
        )
    if not shown.at_end:
        return (
            f"Viewing move {shown.cursor} of {shown.moves} · End returns to the game",
            f"Viewing move {shown.cursor} of {shown.moves}",
            f"Move {shown.cursor}/{shown.moves}",
        )
    to_move = shown.to_move
    if shown.over:
        return None
    flagged = net.clocks.flagged(net.now()) if net.clocks is not None else None
    if flagged is not None:
        return (f"{names[flagged]}'s flag fell: out of time", f"{names[flagged]}: flag fell", "Flag fell")
    if net.away_until is not None:
        away = net.away_player if net.away_player is not None else 1 - (net.you or 0)  # a spectator has no "other"
        them, left = names[away], max(0.0, net.away_until - net.now())
        who = "" if net.role == "watch" else " (opponent)"
        return (
            f"{them}{who} disconnected · their seat is kept {left:.0f} s more",
            "A player disconnected" if net.role == "watch" else "Opponent disconnected",
            "Player away",
        )
    if net.role == "watch":
        return (f"Watching · {names[to_move]} to move", f"{names[to_move]} to move", "Watching")
    if to_move == net.you:
        how = f"click a column or press 1-{shown.width}" if shown.gravity else "click a cell"
        return (f"Your move ({names[to_move]}) · {how}", f"Your move ({names[to_move]})", "Your move")
    return (f"{names[to_move]} (opponent) to move", "Opponent to move", "Their move")


def over_texts(net: NetMatch, names: tuple[str, str]) -> tuple[str, ...]:
    result = net.result
    if result is None:
        return ("Game over",)
    texts = result_texts(result.winners, result.reason, names, net.you)
    if net.rematch == "them":
        return (f"{texts[0]} · your opponent offers a rematch (Accept in the panel)", *texts)
    if net.rematch == "you":
        return (f"{texts[0]} · rematch offered, waiting for the answer", *texts)
    return texts


def banner_texts(net: NetMatch, names: tuple[str, str]) -> tuple[str, str] | None:
    """The result banner's line and hint (None: no result to show)."""
    if net.state != "over" or net.result is None:
        return None
    texts = result_texts(net.result.winners, net.result.reason, names, net.you)
    label = net.rematch_label()
    hint = "N: new game" if label is None or net.rematch == "off" else f"N: new game · {label} in the panel"
    return texts[0], hint
