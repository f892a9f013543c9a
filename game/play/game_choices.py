"""The games the new-game dialog offers (names from ``game.rules.registry``), in its order: each registered
family's ``choices`` (``game.rules.family_registration``). Their titles come from each game's capability record
(``game.rules.capabilities``)."""

from __future__ import annotations

from game.rules.family_registration import registered_families


def game_choices() -> tuple[str, ...]:
    """The dialog's games now (a family registered at runtime adds its own)."""
    return tuple(name for registration in registered_families() for name in registration.choices)


GAME_CHOICES: tuple[str, ...] = game_choices()  # the shipped families' choices
