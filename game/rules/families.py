"""The game families this package ships, each registered once (``game.rules.family_registration``): their
order is the new-game dialog's."""

from __future__ import annotations

from game.rules.base import GameFamily
from game.rules.capabilities import connect4_record, mnk_record, uttt_record
from game.rules.family_registration import BoardLayout, FamilyRegistration, register_family
from game.rules.registry import parse_connect4, parse_mnk, parse_uttt

CONNECT4 = register_family(
    FamilyRegistration(
        family=GameFamily.CONNECT4,
        names=("connect4", "connect4:WxH"),
        sample="connect4:6x5",
        parse_name=parse_connect4,
        layout=BoardLayout.COLUMNS,
        capabilities=connect4_record,
        choices=("connect4", "connect4:8x7", "connect4:9x6"),
    )
)
MNK = register_family(
    FamilyRegistration(
        family=GameFamily.MNK,
        names=("tictactoe", "mnk:MxN:K", "gomoku"),
        sample="gomoku",
        parse_name=parse_mnk,
        layout=BoardLayout.CELLS,
        capabilities=mnk_record,
        choices=("tictactoe", "mnk:6x6:4", "gomoku"),
    )
)
UTTT = register_family(
    FamilyRegistration(
        family=GameFamily.UTTT,
        names=("uttt",),
        sample="uttt",
        parse_name=parse_uttt,
        layout=BoardLayout.LOCAL_BOARDS,
        capabilities=uttt_record,
        choices=("uttt",),
    )
)
