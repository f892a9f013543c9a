"""One registration per game family: everything a floor needs to know of a family that it cannot work out from
the rules themselves, given in one place.

A family (Connect 4, the m,n,k games, Ultimate tic-tac-toe, or a game a plugin brings) is registered once with
``register_family(FamilyRegistration(...))``. Every per-family table of the other floors is a view over these
registrations (``FamilyTable``), so a new family needs no entry anywhere else:

* the names (``get_game``), the dialog's choices and one sample game: ``parse_name``, ``names``, ``choices``,
  ``sample``;
* the capability record (title, size, pieces, whether the exact solver covers it): ``capabilities``, or a
  default built from ``title`` and ``layout``;
* ``layout``, pure data: a move is a column whose piece falls (gravity), a cell, or a cell of nine local boards.
  The floors that cannot live in the rules pick their code by it: where a piece lands (``landing``), the
  terminal's drawing (``game.text.render``), the network's STATE and ACTION (``game.net.states``).

The search backend is the engine's choice, not the rules': a family with a compiled kernel has an adapter in
``ai.mcts.games``; any other family is searched by the rules-based MCTS (``ai.mcts.rules_search``).

Standard library only, like the rest of ``game.rules``.
"""

from __future__ import annotations

import enum
import importlib
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from game.rules.base import GameSpec
from game.rules.capability_record import GameCapabilities

V = TypeVar("V")


class BoardLayout(enum.StrEnum):
    """What a move is, as every floor draws, sends and lands it."""

    COLUMNS = "columns"  # a move is a column; its piece falls to the lowest empty cell (gravity)
    CELLS = "cells"  # a move is the cell itself (``row * width + col``)
    LOCAL_BOARDS = "local_boards"  # a cell of a 9x9 board made of nine 3x3 local boards (Ultimate TTT)


@dataclass(frozen=True)
class FamilyRegistration:
    """A game family, declared once (see the module's docstring)."""

    family: str  # the key every floor looks a game up by: ``spec.family`` of its games
    names: tuple[str, ...]  # the names an unknown-name error lists, e.g. ("connect4", "connect4:WxH")
    sample: str  # one game of the family (tests/test_game_families.py runs its checks on it)
    parse_name: Callable[[str], GameSpec | None]  # a lower-case name -> its game, None: not one of this family
    layout: BoardLayout
    title: str = ""  # what a player calls the game, for the default capability record
    capabilities: Callable[[GameSpec], GameCapabilities] | None = None  # None: the default record (title, layout)
    choices: tuple[str, ...] = ()  # the names the new-game dialog offers, in its order

    def __post_init__(self) -> None:
        if not self.family or self.family != self.family.strip().lower():
            raise ValueError(f"a family is a non-empty lower-case name, not {self.family!r}")
        if not self.names or not self.sample:
            raise ValueError(f"family {self.family!r}: give its names and a sample game")
        if self.capabilities is None and not self.title:
            raise ValueError(f"family {self.family!r}: give a title or a capabilities record")


_lock = threading.Lock()
_registrations: dict[str, FamilyRegistration] = {}
_builtins_lock = threading.RLock()  # (re-entered by the shipped families' own register_family calls)
_builtins = {"started": False, "done": False}


def _load_builtins() -> None:
    """Register the families this package ships (``game.rules.families``) on the first lookup."""
    if _builtins["done"]:
        return
    with _builtins_lock:
        if not _builtins["started"]:
            _builtins["started"] = True
            importlib.import_module("game.rules.families")
            _builtins["done"] = True


def register_family(registration: FamilyRegistration) -> FamilyRegistration:
    """Register a family; ValueError if another one already has its key."""
    _load_builtins()
    with _lock:
        known = _registrations.get(registration.family)
        if known is not None and known != registration:
            raise ValueError(f"the game family {registration.family!r} is already registered")
        _registrations[registration.family] = registration
    return registration


def unregister_family(family: str) -> None:
    """Forget a family registered at runtime (KeyError if it is not registered)."""
    _load_builtins()
    with _lock:
        del _registrations[family]


def registration_of(family: str) -> FamilyRegistration:
    """The registration of ``family``; KeyError naming it when none is registered."""
    _load_builtins()
    found = _registrations.get(family)
    if found is None:
        raise KeyError(f"no game family {family!r} is registered")
    return found


def registered_families() -> tuple[FamilyRegistration, ...]:
    """Every registered family, the shipped ones first, in registration order."""
    _load_builtins()
    with _lock:
        return tuple(_registrations.values())


class FamilyTable(Mapping[str, V]):
    """A per-family table as a read-only view: ``table[family]`` is ``pick(registration_of(family))``."""

    def __init__(self, pick: Callable[[FamilyRegistration], V]) -> None:
        self._pick = pick

    def __getitem__(self, family: str) -> V:
        return self._pick(registration_of(family))

    def __iter__(self) -> Iterator[str]:
        return iter([r.family for r in registered_families()])

    def __len__(self) -> int:
        return len(registered_families())


def view(pick: Callable[[FamilyRegistration], V]) -> Mapping[str, V]:
    """A ``FamilyTable`` typed as the mapping it reads as."""
    return FamilyTable(pick)
