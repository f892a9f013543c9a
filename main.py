"""Connect 4 (and friends) with a Monte Carlo Tree Search AI.

``python main.py`` opens the desktop app; ``python main.py SUBCOMMAND --help`` for the tools.
The frozen executable takes the same arguments (``connect4 engine`` starts the engine process).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import NoReturn

# name -> (module with add_arguments(parser) and run(args) -> int, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "engine": ("ai.engine.process", "the engine process: JSON lines on stdin/stdout (docs/engine-protocol.md)"),
    "solve": ("ai.cli.solve", "exact score of a Connect 4 position and of every column"),
    "analyze": ("ai.cli.analyze", "MCTS analysis of a position (or one per stdin line with '-')"),
    "bench": ("ai.cli.bench", "search speed (iterations/s), memory and JIT load time"),
    "serve": ("game.net.serve_cli", "game server for network play (docs/network-protocol.md)"),
    "review": ("game.play.review", "classify every move of a game (exact on Connect 4: book + solver)"),
    "play": ("game.text.play", "play in a terminal (--text): hot-seat, vs the bot, bot vs bot, or on a server"),
    "piskvork": ("ai.cli.piskvork", "the Gomoku engine under the Piskvork/Gomocup protocol (stdin/stdout)"),
    "bot": ("ai.cli.net_bot", "our engine as a network player (python main.py bot --connect HOST:PORT)"),
}


class OneLineErrorParser(argparse.ArgumentParser):
    """Usage errors are one line on stderr (no usage block) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        first = message.splitlines()[0] if message else "bad arguments"
        self.exit(2, f"{self.prog}: error: {first} (see {self.prog} --help)\n")


def _app_parser() -> OneLineErrorParser:
    lines = [f"  {name:<9} {help_}" for name, (_, help_) in SUBCOMMANDS.items()]
    parser = OneLineErrorParser(
        prog="connect4",
        description="Connect 4 with a Monte Carlo Tree Search AI. Without a subcommand it opens the app.",
        epilog="subcommands (each has --help):\n" + "\n".join(lines),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="store_true", help="print the version, the git commit and how the search runs"
    )
    parser.add_argument("--game", default=None, help="connect4, connect4:WxH, tictactoe, mnk:MxN:K, gomoku, uttt")
    parser.add_argument("--position", default=None, help="start from this position (e.g. 4453)")
    return parser


# Set in a subcommand process (e.g. the engine) started from the command line; a process it starts that
# would open the app refuses, so a lost argument can never make app and engine spawn each other endlessly.
ROLE_VARIABLE = "CONNECT4_PROCESS_ROLE"


def main(argv: list[str] | None = None) -> int:
    from_command_line = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    from game.rules.plugins import PluginError, load_game_plugins

    try:  # the game families plugins register, before any game name is read (CONNECT4_GAME_PLUGINS)
        load_game_plugins()
    except PluginError as error:
        print(f"connect4: error: {error}", file=sys.stderr)
        return 2
    if argv and argv[0] in SUBCOMMANDS:
        if from_command_line:
            os.environ[ROLE_VARIABLE] = argv[0]
        module_name, help_ = SUBCOMMANDS[argv[0]]
        module = importlib.import_module(module_name)
        parser = OneLineErrorParser(prog=f"connect4 {argv[0]}", description=help_)
        module.add_arguments(parser)
        return int(module.run(parser.parse_args(argv[1:])) or 0)
    if argv == ["--version"]:
        return print_version()
    role = os.environ.get(ROLE_VARIABLE)
    if role:
        print(f"connect4: error: the {role} process may not open the app (arguments: {argv})", file=sys.stderr)
        return 2
    parser = _app_parser()
    from game.ui import app

    app.add_arguments(parser)
    return int(app.run(parser.parse_args(argv)) or 0)


def print_version() -> int:
    from game.version import current

    print(current().line())
    import ai.jit

    print(f"search kernels: {ai.jit.describe()}")
    return 0


def entry_point() -> None:
    """The ``connect4`` command of an installed copy (and ``python main.py``)."""
    import multiprocessing

    multiprocessing.freeze_support()
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
