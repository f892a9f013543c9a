"""``python main.py play --text``: every game in a terminal (hot-seat, vs the bot, bot vs bot, network).

Drawn with rich (a kept library: it detects colour support, prints plain text when piped and
honours ``NO_COLOR``; its live progress bar shows the bot's thinking). Moves are typed in the game's
notation (Connect 4: a column 1-7; grid games: a cell such as ``h8``). When stdin is not a terminal
it reads one move or command per line, so it can be scripted. The game is kept where the desktop
app keeps it (its autosave file), after every move and on quit, Ctrl+C or end of input.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn

from ai.client.session import EngineSession, EngineUnavailable
from ai.vocab.limits import MAX_THREADS
from game.play.players import DIFFICULTY_KEYS, MODE_SPELLINGS, Mode, difficulty, is_bot
from game.play.savefile import game_to_json
from game.play.settings import load_autosave, write_autosave
from game.rules.base import Position, Status
from game.rules.capabilities import capabilities
from game.rules.errors import GameError
from game.rules.registry import get_game
from game.text.render import SYMBOLS, book_verdicts, render, shares_of, top_moves

PONDER_LEVELS = ("hard", "perfect")
HELP = (
    "Type a move ({notation}), or: undo (take back your last move), moves (the game so far), "
    "hint (the best move here), review (every move so far marked: ?! ? ??), help, quit. "
    "The game is saved as you go; Ctrl+C or end of input also saves and quits."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--text", action="store_true", default=True, help="play in this terminal (the default)")
    parser.add_argument("--game", default=None, help="connect4 (default), tictactoe, mnk:MxN:K, gomoku, uttt")
    parser.add_argument(
        "--mode",
        choices=MODE_SPELLINGS,
        default=Mode.VS_BOT.value,
        help="hotseat, vs-bot (default) or bot-vs-bot (also: bot, botbot)",
    )
    parser.add_argument("--side", type=int, choices=(1, 2), default=1, help="vs the bot: you move first (1) or second")
    levels = [k for k in DIFFICULTY_KEYS if k != "custom"]
    parser.add_argument("--level", choices=levels, default="medium", help="the bot's level (default medium)")
    parser.add_argument("--time-ms", type=int, default=None, help="the bot's time per move (overrides --level)")
    parser.add_argument("--position", default=None, help="start from these moves (e.g. 4453)")
    parser.add_argument("--new", action="store_true", help="start a new game instead of the saved one")
    parser.add_argument("--connect", default=None, metavar="HOST:PORT", help="join a game on a server")
    parser.add_argument("--room", default=None, help="with --connect: the room to join (created if new)")
    parser.add_argument(
        "--ponder",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the bot thinks while you do (default: on with --time-ms, hard and perfect)",
    )
    parser.add_argument("--spectate", action="store_true", help="with --connect and --room: watch the game")
    parser.add_argument(
        "--clock-min",
        type=float,
        default=None,
        help="with --connect: minutes per player on the clock of a game you create",
    )
    parser.add_argument("--token", default=None, help="with --connect: come back to your seat with its token")
    parser.add_argument("--threads", type=int, default=1, help="the bot's search threads (default 1)")


class Quit(Exception):
    """The player quit (the game is saved)."""


class TextGame:
    def __init__(self, console: Console, position: Position, args: argparse.Namespace, interactive: bool) -> None:
        self.console = console
        self.spec = position.spec
        self.position = position
        self.args = args
        self.interactive = interactive
        mode = Mode.parse(args.mode)
        self.bots: set[int] = {p for p in (0, 1) if is_bot(mode, args.side - 1, p)}
        self.level = difficulty(args.level)
        self.rng = random.Random()
        self.time_ms = args.time_ms or self.level.time_ms or 1000
        self.session: EngineSession | None = None  # the engine process, launched at the bot's first turn
        self.shares: dict[int, float] | None = None
        wanted = args.ponder if args.ponder is not None else (args.time_ms is not None or args.level in PONDER_LEVELS)
        self.pondering = bool(wanted and self.bots and len(self.bots) < 2 and self.level.kind != "random")

    # -- the loop -------------------------------------------------------------------------------------
    def run(self) -> int:
        self.show()
        while not self.position.outcome.is_over:
            if self.position.to_move in self.bots:
                self.bot_move()
            else:
                self.human_turn()
            self.save()
            self.show()
        self.console.print(self.result_text(), style="bold")
        return 0

    def show(self) -> None:
        self.console.print(render(self.position, self.shares))
        self.shares = None

    def result_text(self) -> str:
        outcome = self.position.outcome
        if outcome.status is Status.DRAW:
            return f"Draw after {self.position.ply} moves."
        assert outcome.winner is not None
        who = self.side_name(outcome.winner)
        return f"{SYMBOLS[outcome.winner]} ({who}) wins after {self.position.ply} moves."

    def side_name(self, side: int) -> str:
        if side in self.bots:
            return "the bot" if len(self.bots) == 1 else f"bot {side + 1}"
        return "you" if self.bots else f"player {side + 1}"

    def save(self) -> None:
        notice = write_autosave(game_to_json(self.spec, self.position.history))
        if notice:
            self.console.print(notice, style="red")

    # -- the human ------------------------------------------------------------------------------------
    def read_line(self, prompt: str) -> str:
        if self.interactive:
            return self.console.input(escape(prompt))
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        self.console.print(prompt + line.strip(), markup=False)
        return line

    def notation(self) -> str:
        if capabilities(self.spec).gravity:
            return f"a column 1-{self.spec.width}"
        return f"a cell like {self.spec.move_to_text(self.position.legal_moves()[0])}"

    def human_turn(self) -> None:
        if self.pondering:
            self.engine().ponder(self.spec, self.position.to_text(), exact=self.level.exact)  # it thinks as you do
        before = self.position.history
        try:
            self._read_move()
        finally:
            if self.pondering and self.session is not None:
                after = self.position.history
                replied = len(after) == len(before) + 1 and after[:-1] == before  # not after an undo
                self.session.end_ponder(self.spec, self.position.to_text() if replied else None)

    def _read_move(self) -> None:
        side = self.position.to_move
        while True:
            text = self.read_line(f"{SYMBOLS[side]} ({self.side_name(side)}) to move, {self.notation()}: ").strip()
            command = text.lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                raise Quit
            if command in ("help", "?", "h"):
                self.console.print(HELP.format(notation=self.notation()))
            elif command in ("undo", "u"):
                if self.undo():
                    self.show()
            elif command == "moves":
                self.console.print(f"{self.spec.name}: {self.position.to_text() or '(no moves yet)'}")
            elif command in ("hint", "review"):
                from game.text.review_commands import print_hint, print_review

                (print_hint if command == "hint" else print_review)(self.console, self.spec, self.position.history)
            else:
                try:
                    self.position = self.position.play(self.spec.parse_move(text))
                    return
                except GameError as exc:
                    self.console.print(f"{exc} (type help for help)", style="red", markup=False)

    def undo(self) -> bool:
        """Take back to the human's previous turn (past the bot's reply)."""
        history = list(self.position.history)
        if not history:
            self.console.print("nothing to undo", style="yellow")
            return False
        history.pop()
        while history and len(history) % 2 in self.bots:
            history.pop()
        start = self.spec.start()
        for move in history:
            start = start.play(move)
        self.position = start
        return True

    # -- the bot --------------------------------------------------------------------------------------
    def bot_move(self) -> None:
        if self.level.kind == "random" and self.args.time_ms is None:
            move = random.choice(self.position.legal_moves())
            self.console.print(f"{self.side_name(self.position.to_move)} plays {self.spec.move_to_text(move)} (random)")
            self.position = self.position.play(move)
            return
        engine = self.engine()
        level = self.level.engine_level if self.args.time_ms is None else None  # its rule: ai/search/levels.py
        progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=20),
            TextColumn("{task.percentage:>3.0f}%"),
            TextColumn("{task.fields[best]}"),
            console=self.console,
            transient=True,
            disable=not self.console.is_terminal,
        )
        budget_s = self.time_ms / 1000
        with progress:
            task = progress.add_task(f"{self.side_name(self.position.to_move)} thinking", total=budget_s, best="")

            def on_info(result: Any) -> None:
                best = self.spec.move_to_text(result.best_move)
                progress.update(
                    task,
                    completed=min(budget_s, result.elapsed_ms / 1000),
                    best=f"{result.iterations:,} iterations, best {best} (win {result.value:.0%})",
                )

            result = engine.search(
                self.spec,
                self.position.to_text(),
                time_ms=self.time_ms,
                exact=self.level.exact,
                level=level,
                on_info=on_info,
            )
        book = book_verdicts(self.spec, self.position)
        played = self.spec.move_to_text(result.best_move)
        if book is not None and (getattr(engine, "last_choice", None) == "book" or result.iterations == 0):
            # the move is a lookup: its statistics would be of a search that did not decide it
            self.console.print(f"{self.side_name(self.position.to_move)} plays {played} from the opening book")
        else:
            self.console.print(
                f"{self.side_name(self.position.to_move)} plays "
                f"{played}: win chance {result.value:.0%}, "
                f"{result.iterations:,} iterations in {result.elapsed_ms / 1000:.1f} s"
            )
            self.console.print("  searched: " + top_moves(self.spec, result.children, 3), style="cyan", markup=False)
        if book is not None:
            self.console.print("  the book: " + book, style="cyan", markup=False)
        self.shares = shares_of(result.children)
        self.position = self.position.play(result.best_move)

    def engine(self) -> EngineSession:
        """The engine process (``main.py engine``, as the app uses), started at the first need."""
        if self.session is None:
            session = EngineSession(threads=self.args.threads)
            self.session = session
            with self.console.status("loading the engine..."):
                session.start()
        return self.session


def starting_position(args: argparse.Namespace, console: Console) -> Position:
    if args.position is not None or args.new or args.game:
        spec = get_game(args.game or "connect4")
        if args.position is not None:
            return spec.parse_position(args.position)
        if not args.new:
            saved, _ = load_autosave()
            if saved is not None and saved[0].name == spec.name:
                return _resumed(saved, console)
        return spec.start()
    saved, notice = load_autosave()
    if notice:
        console.print(notice, style="yellow")
    if saved is not None:
        return _resumed(saved, console)
    return get_game("connect4").start()


def _resumed(saved: Any, console: Console) -> Position:
    spec, moves, _ = saved
    position: Position = spec.start()
    for move in moves:
        position = position.play(move)
    if position.outcome.is_over:
        fresh: Position = spec.start()
        return fresh
    if moves:
        console.print(f"Resuming the saved {spec.name} game ({len(moves)} moves; --new for a new one).")
    return position


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    interactive = sys.stdin.isatty()
    if args.time_ms is not None and args.time_ms <= 0:
        print("error: --time-ms must be positive", file=sys.stderr)
        return 2
    if not 1 <= args.threads <= MAX_THREADS:
        print(f"error: --threads must be between 1 and {MAX_THREADS}", file=sys.stderr)
        return 2
    if args.connect:
        from game.text.net_play import play_network

        return play_network(console, args, interactive)
    try:
        position = starting_position(args, console)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    game = TextGame(console, position, args, interactive)
    try:
        return game.run()
    except EngineUnavailable as exc:
        game.save()
        print(f"error: {exc} (the game is saved)", file=sys.stderr)
        return 1
    except (Quit, EOFError, KeyboardInterrupt) as exc:
        game.save()
        reason = {Quit: "quit", EOFError: "end of input", KeyboardInterrupt: "interrupted"}[type(exc)]
        plural = "" if game.position.ply == 1 else "s"
        console.print(
            f"\n{reason}: game saved ({game.position.ply} move{plural}: {game.position.to_text() or '-'}); "
            "python main.py play --text resumes it"
        )
        return 130 if isinstance(exc, KeyboardInterrupt) else 0
    finally:
        if game.session is not None:
            game.session.close()
