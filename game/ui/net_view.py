"""What a network game shows in the frame: the panel's network part (resign, draw, rematch, the clocks),
the status bar's words, the subtitle and the result banner. Pure functions of the network game's rules
(``game.play.net_match.NetMatch``), its address and the frame the app built; nothing here changes the game.
"""

from __future__ import annotations

from dataclasses import replace

from game.play.net_match import NetMatch
from game.play.net_status import result_texts
from game.ui.frame import Banner, Frame, NetPanel


def decorate(net: NetMatch, where: str, frame: Frame, names: tuple[str, str]) -> Frame:
    live = net.live
    now = net.now()
    clocks = net.clocks
    rematch = net.rematch_label()
    panel = replace(
        frame.panel,
        mode_label="Watching" if net.role == "watch" else "Network",
        network=NetPanel(
            net.you,
            live,
            net.draw_label(),
            live and net.state == "playing" and net.draw_offered_by != "you",
            clocks=clocks.texts(now) if clocks is not None else None,
            running=clocks.running if clocks is not None and net.state == "playing" else None,
            flagged=clocks.flagged(now) if clocks is not None else None,
            rematch_label=rematch,
            can_rematch=rematch is not None and net.rematch in (None, "them"),
            watching=net.role == "watch",
        ),
    )
    status = frame.status
    texts = status_texts(net, where, frame, names)
    if texts is not None:
        status = replace(status, texts=texts, bold=net.state in ("over", "gone"))
    if net.state == "over" and net.result is not None:  # the winner's colour, whatever the board's side to move
        winner = net.winner()
        status = replace(status, dot=frame.board.colours[winner] if winner is not None else None)
    return replace(
        frame, panel=panel, status=status, subtitle=subtitle(net, where, names), banner=banner(net, frame, names)
    )


def subtitle(net: NetMatch, where: str, names: tuple[str, str]) -> str:
    if net.role == "watch":
        side = "you are watching"
    else:
        side = f"you play {names[net.you]}" if net.you is not None else "seat not known yet"
    where = where or "starting the server"
    role = {"host": "host", "join": "joined", "watch": "spectator"}[net.role]
    clock = "" if net.clock_ms is None else f" · {net.clock_ms // 60_000} min each"
    return f"Network game ({role}, {where}){clock} · {side}"


def status_texts(net: NetMatch, where: str, frame: Frame, names: tuple[str, str]) -> tuple[str, ...] | None:
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
        return _over_texts(net, names)
    if net.state == "lost":
        wait = max(0.0, net.retry_at - net.now())
        return (
            f"Connection lost · reconnecting (next try in {wait:.0f} s) · no move is lost",
            f"Reconnecting in {wait:.0f} s…",
            "Reconnecting…",
        )
    if not frame.panel.at_end:
        return (
            f"Viewing move {frame.cursor} of {len(frame.moves)} · End returns to the game",
            f"Viewing move {frame.cursor} of {len(frame.moves)}",
            f"Move {frame.cursor}/{len(frame.moves)}",
        )
    to_move = frame.board.position.to_move
    if frame.board.position.outcome.is_over:
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
        how = f"click a column or press 1-{frame.caps.width}" if frame.caps.gravity else "click a cell"
        return (f"Your move ({names[to_move]}) · {how}", f"Your move ({names[to_move]})", "Your move")
    return (f"{names[to_move]} (opponent) to move", "Opponent to move", "Their move")


def _over_texts(net: NetMatch, names: tuple[str, str]) -> tuple[str, ...]:
    result = net.result
    if result is None:
        return ("Game over",)
    texts = result_texts(result.winners, result.reason, names, net.you)
    if net.rematch == "them":
        return (f"{texts[0]} · your opponent offers a rematch (Accept in the panel)", *texts)
    if net.rematch == "you":
        return (f"{texts[0]} · rematch offered, waiting for the answer", *texts)
    return texts


def banner(net: NetMatch, frame: Frame, names: tuple[str, str]) -> Banner | None:
    if net.state != "over" or net.result is None:
        return None
    if frame.banner is None and net.result.reason == "rules":
        return None  # the last disc is still falling
    texts = result_texts(net.result.winners, net.result.reason, names, net.you)
    winner = net.winner()
    colour = frame.board.colours[winner] if winner is not None else None
    label = net.rematch_label()
    hint = "N: new game" if label is None or net.rematch == "off" else f"N: new game · {label} in the panel"
    return Banner(texts[0], hint, colour)
