"""The app's effects (``game.ui.effects``) are data only: frozen values made of text, numbers, enums and other frozen
values, never a function or a handler object (the app builds what an effect asks for: issue 52)."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from pathlib import Path
from typing import Any

import game.ui.effects as fx
from game.rules import GameSpec

PLAIN = (type(None), int, float, str, bool, Path)
GAME_SPECS = (GameSpec,)  # a game, named by its rules' spec (game.rules: a protocol of read-only members)


def not_data(hint: Any, seen: set[Any], where: str) -> list[str]:
    """The parts of the type ``hint`` that are not data, named by where they are."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return []
    if origin is not None:  # tuple[...], list[...], dict[...], X | Y, Callable[...]
        if origin in (typing.Union, types.UnionType, tuple, list, dict, frozenset):
            return [bad for arg in typing.get_args(hint) if arg is not Ellipsis for bad in not_data(arg, seen, where)]
        return [f"{where}: {hint}"]
    if hint in PLAIN or (isinstance(hint, type) and issubclass(hint, enum.Enum)):
        return []
    if hint in GAME_SPECS:
        return []
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not hint.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [f"{where}: {hint.__name__} is not frozen"]
        if hint in seen:
            return []
        seen.add(hint)
        hints = typing.get_type_hints(hint)
        return [bad for name, field_hint in hints.items() for bad in not_data(field_hint, seen, f"{where}.{name}")]
    return [f"{where}: {hint!r}"]


def test_every_effect_is_a_frozen_value_of_data() -> None:
    effects = typing.get_args(fx.Effect)
    assert len(effects) > 10 and fx.Connect in effects
    problems = [bad for effect in effects for bad in not_data(effect, set(), effect.__name__)]
    assert problems == []


def test_the_check_finds_a_handler_in_an_effect() -> None:
    @dataclasses.dataclass(frozen=True)
    class CarriesAFunction:
        make: typing.Callable[[], object]

    assert not_data(CarriesAFunction, set(), "CarriesAFunction") != []
