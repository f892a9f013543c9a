"""Game plugins: modules named in ``CONNECT4_GAME_PLUGINS`` (comma-separated) that register game families
(``game.rules.family_registration.register_family``) when imported.

Every program of ``main.py`` (the app, the engine process, the server, the terminal client and the tools) loads
them first, and a process it starts inherits the variable, so a family registered by a plugin is known on every
path: ``--game``, the engine protocol, the network. Standard library only.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Mapping

from game.rules.errors import GameError

PLUGINS_VARIABLE = "CONNECT4_GAME_PLUGINS"
_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


class PluginError(GameError):
    """A plugin named in ``CONNECT4_GAME_PLUGINS`` that is not a module name or does not import."""


def plugin_names(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The module names in the variable (none when it is unset or empty)."""
    text = (os.environ if environ is None else environ).get(PLUGINS_VARIABLE, "")
    return tuple(name.strip() for name in text.split(",") if name.strip())


def load_game_plugins(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Import every plugin module named in the variable (each registers its families); return their names.
    PluginError, one line, for a bad name or a module that fails to import."""
    names = plugin_names(environ)
    for name in names:
        if not _MODULE_NAME.fullmatch(name):
            raise PluginError(f"{PLUGINS_VARIABLE}: {name!r} is not a module name")
        try:
            importlib.import_module(name)
        except Exception as error:  # any failure of a plugin's import is reported as that plugin's
            first = (str(error).splitlines() or [""])[0]
            raise PluginError(
                f"{PLUGINS_VARIABLE}: the game plugin {name!r} failed to load: {type(error).__name__}: {first}"
            ) from error
    return names
