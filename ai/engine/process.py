"""The engine process: JSON lines on stdin/stdout (docs/engine-protocol.md).

Started as ``python main.py engine`` (or ``<exe> engine``). It says ``ready`` at once and prepares
compiled code in a background thread (``ai.engine.prepare``: the current game first). The main
thread reads commands (each line capped at ``limits.MAX_LINE``) and answers ``isready`` at once,
also while a search runs or code compiles; a search runs in a worker thread (the compiled core
releases the GIL), so ``stop`` is handled at once. Only protocol lines reach the real stdout:
anything else printed in this process (warnings, library banners) is sent to stderr.

Memory: one searcher (one node budget, ``--max-nodes``, default 512 MB) for the whole process;
switching games or thread counts releases the previous searcher's trees.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import queue
import random
import sys
import threading
import time
from typing import IO, Any

from ai.engine import protocol
from ai.engine.book_solve import book_bestmove, book_solution
from ai.engine.ponder import MAX_PONDER_MS, PonderRun, end_report, yield_to_the_rest
from ai.engine.prepare import Preparer
from ai.search import levels
from ai.vocab import commands, limits, wire
from ai.vocab.results import OptionSet, Ready, ReadyOk, Reply, Solution, SolvedMove
from game.rules import get_game
from game.rules.base import GameSpec, Position
from game.rules.connect4 import as_connect4

VERSION = "0.2.0"
NAME = "connect4-mcts"
ENGINE_NICENESS = 4
MAX_THREADS = limits.MAX_THREADS
MAX_NODES_RANGE = limits.MAX_NODES_RANGE
default_threads = limits.default_threads


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help=f"search threads (root parallelism; default all cores but one, here {default_threads()})",
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed (reproducible searches)")
    parser.add_argument("--max-nodes", type=int, default=None, help="node budget of the whole process")


def run(args: argparse.Namespace) -> int:
    problem = _bad_arguments(args)
    if problem:
        print(f"connect4 engine: error: {problem}", file=sys.stderr)
        return 2
    out = _protocol_stdout()
    _yield_to_the_window()
    threads = default_threads() if args.threads is None else args.threads
    engine = Engine(out, threads=threads, seed=args.seed, max_nodes=args.max_nodes)
    return engine.serve(sys.stdin.buffer)


def _yield_to_the_window() -> None:
    """Run a little below normal priority so the app's frames stay smooth on a busy machine."""
    if hasattr(os, "nice") and os.environ.get("CONNECT4_ENGINE_NICE", "1") != "0":
        try:
            os.nice(ENGINE_NICENESS)
        except OSError:
            pass


def _bad_arguments(args: argparse.Namespace) -> str | None:
    if args.threads is not None and not 1 <= args.threads <= MAX_THREADS:
        return f"--threads must be between 1 and {MAX_THREADS}, not {args.threads}"
    low, high = MAX_NODES_RANGE
    if args.max_nodes is not None and not low <= args.max_nodes <= high:
        return f"--max-nodes must be between {low} and {high}, not {args.max_nodes}"
    return None


def _protocol_stdout() -> IO[str]:
    """Keep the real stdout for protocol lines and point fd 1 and sys.stdout at stderr."""
    try:
        fd = os.dup(sys.stdout.fileno())
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
        out: IO[str] = os.fdopen(fd, "w", buffering=1, encoding="utf-8", newline="\n")
    except (OSError, AttributeError, ValueError):  # no real file descriptors (embedded/test)
        out = sys.stdout
    sys.stdout = sys.stderr
    return out


class Engine:
    """Holds the position and the searcher; runs one search or solve at a time."""

    def __init__(
        self,
        out: IO[str],
        *,
        threads: int = 1,
        seed: int | None = None,
        max_nodes: int | None = None,
        preparer: Preparer | None = None,
    ) -> None:
        self._out = out
        self._write_lock = threading.Lock()
        self._threads = threads
        self._seed = seed
        self._choice_rng = random.Random(seed)  # the levels' move choices (ai/search/levels.py)
        self._max_nodes = max_nodes
        self._searcher_key: tuple[str, int] | None = None
        self._searcher_obj: Any = None
        self.spec: GameSpec = get_game("connect4")
        self.position: Position = self.spec.start()
        self._worker: threading.Thread | None = None
        self._stop_event = threading.Event()  # set by finish(); one per search or solve
        self._solving = False
        self._ponder: PonderRun | None = None  # the running (or self-ended) ponder, until a command ends it
        self.preparer = preparer or Preparer(self.emit)

    # -- output -----------------------------------------------------------------------------
    def emit(self, reply: Reply) -> None:
        line = wire.dumps(reply)
        with self._write_lock:
            try:
                self._out.write(line + "\n")
                self._out.flush()
            except (OSError, ValueError):  # the client went away; nothing left to tell
                pass

    # -- main loop --------------------------------------------------------------------------
    def serve(self, stdin: IO[bytes]) -> int:
        self.emit(Ready(NAME, VERSION, tuple(_game_names()), round(_process_age_ms(), 1), self._threads))
        self.preparer.prefer(self.spec)
        self.preparer.start()
        inbox: queue.Queue[protocol.Command | None] = queue.Queue()
        dispatcher = threading.Thread(target=self._dispatch_all, args=(inbox,), name="dispatch", daemon=True)
        dispatcher.start()
        for text, too_long in limits.bounded_lines(stdin):
            if too_long:
                self.emit(
                    protocol.error(
                        f"line too long (more than {limits.MAX_LINE} characters): {limits.excerpt(text, 40)}"
                    )
                )
                continue
            command = self._parse(text) if text else None
            if isinstance(command, commands.IsReady):
                self.emit(ReadyOk())  # at once: the heartbeat says this process reads its input
                continue
            if isinstance(command, commands.Stop):
                self._stop_event.set()  # at once, even while the dispatcher waits for something
            if command is not None:
                inbox.put(command)
            if isinstance(command, commands.Quit) or not dispatcher.is_alive():
                break
        inbox.put(None)
        dispatcher.join()
        self.finish()
        return 0

    def _dispatch_all(self, inbox: queue.Queue[protocol.Command | None]) -> None:
        while (command := inbox.get()) is not None:
            if not self._dispatch_safely(command):
                return

    def handle(self, line: str) -> bool:
        """Act on one line at once (parse and dispatch in the calling thread); False means quit."""
        command = self._parse(line)
        return True if command is None else self._dispatch_safely(command)

    def _parse(self, line: str) -> protocol.Command | None:
        """The command of one line, or None after emitting its one-line error."""
        try:
            return protocol.parse_command(line)
        except protocol.ProtocolError as exc:
            self.emit(protocol.error(str(exc), commands.search_id_of(line)))
        except Exception as exc:  # noqa: BLE001 - a reader bug must not kill the engine
            problem = f"internal error reading the line: {type(exc).__name__}: {exc}"
            self.emit(protocol.error(problem, commands.search_id_of(line)))
        return None

    def _dispatch_safely(self, command: protocol.Command) -> bool:
        try:
            return self._dispatch(command)
        except Exception as exc:  # noqa: BLE001 - the engine must stay alive on any failure
            self.emit(protocol.error(f"internal error: {type(exc).__name__}: {exc}"))
            return True

    def _dispatch(self, command: protocol.Command) -> bool:
        if isinstance(command, commands.Quit):
            return False
        if isinstance(command, commands.Stop):
            self._end_ponder(self.position)
            self.finish()
            return True
        if isinstance(command, commands.IsReady):
            self.finish_if_done()
            self.emit(ReadyOk())
            return True
        if isinstance(command, protocol.SetOption):
            self._end_ponder(self.position)
            self._threads = command.value  # the next search builds its searcher with it
            self.emit(OptionSet(command.name, command.value))
            return True
        if isinstance(command, protocol.Prepare):
            self.preparer.prefer(command.spec)
            return True
        self._end_ponder(command.position if isinstance(command, protocol.SetPosition) else self.position)
        self.finish()
        if isinstance(command, protocol.SetPosition):
            self.spec, self.position = command.spec, command.position
            if not self.preparer.is_prepared(command.spec):
                self.preparer.prefer(command.spec)
        elif self.position.outcome.is_over:
            message = f"the game is over at position {self.position.to_text()!r}; nothing to search"
            self.emit(protocol.error(message, command.search_id))
        elif isinstance(command, protocol.Go):
            self._start(self._run_search, command)
        elif isinstance(command, protocol.Solve):
            self._start(self._run_solve, command)
        elif isinstance(command, protocol.Ponder):
            run = PonderRun(command.search_id, self.spec, self.position)
            self._ponder = run
            self._start(functools.partial(self._run_ponder, run), command)
        return True

    # -- searches ---------------------------------------------------------------------------
    def _searcher(self, spec: GameSpec) -> Any:
        """The one searcher of this process, for ``spec`` at the current thread count: switching
        games (or threads) releases the previous one's node budget before the next takes its own."""
        from ai.search.hybrid import HybridSearcher

        key = (spec.name, self._threads)
        if self._searcher_key != key:
            if self._searcher_obj is not None:
                self._searcher_obj.close()
                self._searcher_obj = None
                gc.collect()  # unmap the old trees now, not at some later collection
            self._searcher_obj = HybridSearcher(spec, seed=self._seed, max_nodes=self._max_nodes, threads=self._threads)
            self._searcher_key = key
        return self._searcher_obj

    def _start(self, target: Any, command: Any) -> None:
        self._stop_event = threading.Event()
        received = time.perf_counter()
        self._worker = threading.Thread(target=self._guarded, args=(target, command, received), daemon=True)
        self._worker.start()

    def _guarded(self, target: Any, command: Any, received: float) -> None:
        try:
            solve = isinstance(command, protocol.Solve)
            booked = book_solution(self.spec, self.position, command.search_id) if solve else None
            if booked is not None:  # a lookup: at once, also before the compiled code is ready
                self.emit(booked)
                return
            waits = not self.preparer.is_prepared(self.spec, _needs_solver(command))
            if waits and isinstance(command, protocol.Go):  # a level's book move needs no compiled code
                played = book_bestmove(self.spec, self.position, command, self._choice_rng)
                if played is not None:
                    self.emit(played)
                    return
            if self._wait_for_preparation(command):
                target(command, time.perf_counter() if waits else received)  # the budget starts once prepared
        except Exception as exc:  # noqa: BLE001 - report, keep the process alive
            self.emit(protocol.error(f"search failed: {type(exc).__name__}: {exc}", command.search_id))

    def _wait_for_preparation(self, command: Any) -> bool:
        """Wait (in the worker) until the game's compiled code is ready; the client sees the
        ``preparing`` lines and the heartbeat meanwhile. False (with an error) when stopped first."""
        spec = self.spec
        exact = _needs_solver(command)
        if self.preparer.is_prepared(spec, exact):
            return True
        self.preparer.prefer(spec)
        problem = self.preparer.wait_for(spec, self._stop_event, exact)
        if problem is None:
            return True
        if problem == "stopped" and isinstance(command, protocol.Ponder):
            return False  # its ponderend says it ended
        if problem == "stopped":
            problem = f"stopped while the engine was still preparing {spec.name}"
        self.emit(protocol.error(problem, command.search_id))
        return False

    def _run_search(self, go: protocol.Go, received: float) -> None:
        spec, position = self.spec, self.position
        searcher = self._searcher(spec)
        searcher.set_position(position)
        if go.level is not None and go.level.iterations is not None:
            searcher.forget()  # a capped level's strength is its cap: no tree kept from earlier moves
        time_ms = go.limit.time_ms
        if time_ms is not None:  # time_ms counts from the go line
            time_ms = max(1.0, time_ms - (time.perf_counter() - received) * 1000)

        def on_info(result: Any) -> None:
            self.emit(protocol.result_message("info", spec, result, go.search_id))

        result = searcher.search(
            time_ms=time_ms,
            iterations=go.limit.iterations,
            on_info=on_info if go.info_ms else None,
            info_ms=go.info_ms or 100.0,
            stop_event=self._stop_event,
            early_stop=go.early_stop,
            exact=go.exact,
        )
        if go.level is None:
            self.emit(protocol.result_message("bestmove", spec, result, go.search_id))
            return
        move, how = levels.choose(go.level, position, result, self._choice_rng)
        self.emit(
            protocol.result_message("bestmove", spec, result, go.search_id, move=move, level=go.level.name, choice=how)
        )

    def _run_ponder(self, run: PonderRun, ponder: protocol.Ponder, received: float) -> None:
        """Search the pondered position until a command stops it (the tree is kept for the next search)."""
        yield_to_the_rest()
        searcher = self._searcher(run.spec)
        searcher.set_position(run.position)

        def on_info(result: Any) -> None:
            self.emit(protocol.result_message("info", run.spec, result, ponder.search_id))

        run.result = searcher.search(
            time_ms=MAX_PONDER_MS,
            early_stop=False,
            stop_event=self._stop_event,
            exact=ponder.exact,
            on_info=on_info if ponder.info_ms else None,
            info_ms=ponder.info_ms or 100.0,
        )

    def _end_ponder(self, following: Position) -> None:
        """End the ponder (if any) and report it; ``following`` is the position the next command leaves."""
        run = self._ponder
        if run is None:
            return
        self._ponder = None
        self.finish()
        same = self._searcher_key == (run.spec.name, self._threads)
        self.emit(end_report(run, following, self._searcher_obj if same else None))

    def _run_solve(self, solve: protocol.Solve, received: float) -> None:
        from ai.solver.core import default_threads, shared_solver

        spec, position = self.spec, as_connect4(self.position)
        if position is None:
            self.emit(protocol.error(f"solve is only available for connect4, not {spec.name}", solve.search_id))
            return
        started = time.perf_counter()
        solver = shared_solver()
        self._solving = True
        try:
            if self._stop_event.is_set():
                return
            columns = solver.analyze_columns(
                position,
                time_ms=solve.limit.time_ms,
                threads=default_threads(),
            )  # a solve has the engine to itself
        finally:
            self._solving = False
        best = max((s for s in columns.scores if s is not None), default=None)
        children = tuple(
            SolvedMove(spec.move_to_text(col), score)
            for col, score in enumerate(columns.scores)
            if col in position.legal_moves()
        )
        self.emit(
            Solution(
                solve.search_id,
                best if columns.complete else None,
                children,
                bool(columns.complete),
                round((time.perf_counter() - started) * 1000, 1),
            )
        )

    def finish(self) -> None:
        """Stop the running search (it still reports its bestmove) and wait for it."""
        worker = self._worker
        if worker is None:
            return
        self._stop_event.set()
        if self._solving:
            from ai.solver.core import shared_solver

            shared_solver().stop()
        worker.join()
        self._worker = None

    def finish_if_done(self) -> None:
        if self._worker is not None and not self._worker.is_alive():
            self.finish()


def _process_age_ms() -> float:
    """Milliseconds since this process started (Linux; 0 where unknown): the ``startup_ms`` of ``ready``."""
    try:
        with open("/proc/self/stat") as stat:
            start_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as uptime:
            up_s = float(uptime.read().split()[0])
        return max(0.0, (up_s - start_ticks / os.sysconf("SC_CLK_TCK")) * 1000)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def _game_names() -> list[str]:
    from game.rules.registry import game_names

    return list(game_names())


def _needs_solver(command: Any) -> bool:
    """A solve, or a search with the exact solver on (a ``go`` without ``"exact": false``)."""
    return bool(getattr(command, "exact", True))
