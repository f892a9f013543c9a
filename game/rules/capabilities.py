"""What each game is, declared once: the UI asks this record instead of probing positions.

Pure (no pygame, no numba). ``capabilities(spec)`` finds the record through the game's family: its
registration (``game.rules.family_registration``) gives it, or a default record made from its title and
layout; ``RECORDS`` is the per-family view of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from game.rules.base import GameSpec
from game.rules.capability_record import GameCapabilities, PieceStyle
from game.rules.family_registration import BoardLayout, FamilyRegistration, view
from game.rules.mnk import MnkSpec, as_mnk_spec

__all__ = ["RECORDS", "GameCapabilities", "PieceStyle", "capabilities", "connect4_record", "mnk_record", "uttt_record"]


def connect4_record(spec: GameSpec) -> GameCapabilities:
    size = "" if (spec.width, spec.height) == (7, 6) else f" {spec.width}x{spec.height}"
    return GameCapabilities(
        spec.name,
        f"Connect 4{size}",
        spec.width,
        spec.height,
        gravity=True,
        local_boards=False,
        exact_solver=True,
        pieces="discs",
        player_names=None,
        classic=(spec.width, spec.height) == (7, 6),
    )


def uttt_record(spec: GameSpec) -> GameCapabilities:
    return GameCapabilities(
        spec.name,
        "Ultimate tic-tac-toe",
        spec.width,
        spec.height,
        gravity=False,
        local_boards=True,
        exact_solver=False,
        pieces="marks",
        player_names=("X", "O"),
    )


def mnk_record(spec: GameSpec) -> GameCapabilities:
    mnk = as_mnk_spec(spec)  # (the family says it is one; this tells mypy about ``k``)
    if mnk is None:
        raise ValueError(f"the app cannot show the game {spec.name!r}")
    return GameCapabilities(
        spec.name,
        _mnk_title(mnk),
        spec.width,
        spec.height,
        gravity=False,
        local_boards=False,
        exact_solver=False,
        pieces=_mnk_pieces(mnk),
        player_names=("X", "O") if _mnk_pieces(mnk) == "marks" else None,
    )


def _default_record(registration: FamilyRegistration) -> Callable[[GameSpec], GameCapabilities]:
    """A family registered with a title only: its layout says the geometry, the pieces are discs on columns and
    stones on a grid, the exact solver (Connect 4's) does not cover it."""
    gravity = registration.layout is BoardLayout.COLUMNS

    def record(spec: GameSpec) -> GameCapabilities:
        return GameCapabilities(
            spec.name,
            registration.title,
            spec.width,
            spec.height,
            gravity=gravity,
            local_boards=registration.layout is BoardLayout.LOCAL_BOARDS,
            exact_solver=False,
            pieces="discs" if gravity else "stones",
            player_names=None,
        )

    return record


# one record maker per game family: a view over the registrations
RECORDS: Mapping[str, Callable[[GameSpec], GameCapabilities]] = view(
    lambda registration: registration.capabilities or _default_record(registration)
)


def capabilities(spec: GameSpec) -> GameCapabilities:
    """The record of ``spec``'s game; ValueError for a rule set the app does not know."""
    record = RECORDS.get(spec.family)
    if record is None:
        raise ValueError(f"the app cannot show the game {spec.name!r}")
    return record(spec)


def _mnk_pieces(spec: MnkSpec) -> PieceStyle:
    return "marks" if (spec.width, spec.height) == (3, 3) else "stones"


def _mnk_title(spec: MnkSpec) -> str:
    w, h, k = spec.width, spec.height, spec.k
    if (w, h, k) == (3, 3, 3):
        return "Tic-tac-toe"
    if (w, h, k) == (15, 15, 5):
        return "Gomoku 15x15"
    words = {3: "Three", 4: "Four", 5: "Five", 6: "Six"}
    return f"{words.get(k, str(k))} in a row {w}x{h}"
