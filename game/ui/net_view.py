"""What a network game shows in the frame: the panel's network part (resign, draw, rematch, the clocks),
the status bar, the subtitle and the result banner, in the words ``game.play.net_texts`` chooses. Pure
functions of the network game's rules (``game.play.net_match.NetMatch``), its address and the frame the app
built; nothing here changes the game.
"""

from __future__ import annotations

from dataclasses import replace

from game.play.net_match import NetMatch
from game.play.net_texts import Shown, banner_texts, status_texts, subtitle
from game.ui.frame import Banner, Frame, NetPanel


def decorate(net: NetMatch, where: str, frame: Frame, names: tuple[str, str]) -> Frame:
    now = net.now()
    clocks = net.clocks
    rematch = net.rematch_label()
    panel = replace(
        frame.panel,
        mode_label="Watching" if net.role == "watch" else "Network",
        network=NetPanel(
            net.you,
            net.live,
            net.draw_label(),
            net.can_offer_draw,
            clocks=clocks.texts(now) if clocks is not None else None,
            running=clocks.running if clocks is not None and net.state == "playing" else None,
            flagged=clocks.flagged(now) if clocks is not None else None,
            rematch_label=rematch,
            can_rematch=net.can_rematch,
            watching=net.role == "watch",
        ),
    )
    status = frame.status
    board = frame.board.position
    shown = Shown(
        frame.panel.at_end,
        frame.cursor,
        len(frame.moves),
        board.to_move,
        board.outcome.is_over,
        frame.caps.width,
        frame.caps.gravity,
    )
    texts = status_texts(net, where, shown, names)
    if texts is not None:
        status = replace(status, texts=texts, bold=net.state in ("over", "gone"))
    if net.state == "over" and net.result is not None:  # the winner's colour, whatever the board's side to move
        winner = net.winner()
        status = replace(status, dot=frame.board.colours[winner] if winner is not None else None)
    return replace(
        frame, panel=panel, status=status, subtitle=subtitle(net, where, names), banner=banner(net, frame, names)
    )


def banner(net: NetMatch, frame: Frame, names: tuple[str, str]) -> Banner | None:
    texts = banner_texts(net, names)
    if texts is None or net.result is None:
        return None
    if frame.banner is None and net.result.reason == "rules":
        return None  # the last disc is still falling
    winner = net.winner()
    return Banner(texts[0], texts[1], frame.board.colours[winner] if winner is not None else None)
