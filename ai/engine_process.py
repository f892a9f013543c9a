"""The engine process: JSON lines on stdin/stdout (docs/engine-protocol.md).

Started as ``python main.py engine`` (or ``<exe> engine``). The main thread reads commands;
a search runs in a worker thread (the compiled core releases the GIL), so ``stop`` is
handled at once. Only protocol lines reach the real stdout: anything else printed in this
process (warnings, library banners) is sent to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from typing import IO, Any

from ai import protocol
from game import get_game
from game.base import GameSpec, Position

VERSION = "0.1.0"
NAME = "connect4-mcts"
ENGINE_NICENESS = 4


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, default=1, help="search threads (root parallelism)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (reproducible searches)")
    parser.add_argument("--max-nodes", type=int, default=None, help="node pool cap per search tree")


MAX_THREADS = 64
MAX_NODES_RANGE = (1024, 1_000_000_000)


def run(args: argparse.Namespace) -> int:
    problem = _bad_arguments(args)
    if problem:
        print(f"connect4 engine: error: {problem}", file=sys.stderr)
        return 2
    out = _protocol_stdout()
    _yield_to_the_window()
    engine = Engine(out, threads=args.threads, seed=args.seed, max_nodes=args.max_nodes)
    return engine.serve(sys.stdin.buffer)


def _yield_to_the_window() -> None:
    """Run a little below normal priority so the app's frames stay smooth on a busy machine."""
    if hasattr(os, "nice") and os.environ.get("CONNECT4_ENGINE_NICE", "1") != "0":
        try:
            os.nice(ENGINE_NICENESS)
        except OSError:
            pass


def _bad_arguments(args: argparse.Namespace) -> str | None:
    if not 1 <= args.threads <= MAX_THREADS:
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
        out = os.fdopen(fd, "w", buffering=1, encoding="utf-8", newline="\n")
    except (OSError, AttributeError, ValueError):  # no real file descriptors (embedded/test)
        out = sys.stdout
    sys.stdout = sys.stderr
    return out


class Engine:
    """Holds the position and the searchers; runs one search or solve at a time."""

    def __init__(self, out: IO[str], *, threads: int = 1, seed: int | None = None,
                 max_nodes: int | None = None) -> None:
        self._out = out
        self._write_lock = threading.Lock()
        self._threads = threads
        self._seed = seed
        self._max_nodes = max_nodes
        self._searchers: dict[str, Any] = {}
        self.spec: GameSpec = get_game("connect4")
        self.position: Position = self.spec.start()
        self._worker: threading.Thread | None = None
        self._stop_event = threading.Event()  # set by finish(); one per search or solve
        self._solving = False

    # -- output -----------------------------------------------------------------------------
    def emit(self, message: dict[str, Any]) -> None:
        line = protocol.dumps(message)
        with self._write_lock:
            try:
                self._out.write(line + "\n")
                self._out.flush()
            except (OSError, ValueError):  # the client went away; nothing left to tell
                pass

    # -- main loop --------------------------------------------------------------------------
    def serve(self, stdin: IO[bytes]) -> int:
        started = time.perf_counter()
        self._searcher(self.spec).warm_up()
        self.emit({"type": "ready", "name": NAME, "version": VERSION, "games": _game_names(),
                   "startup_ms": round((time.perf_counter() - started) * 1000, 1)})
        while True:
            raw = stdin.readline()
            if not raw:
                break
            line = raw.decode("utf-8", errors="replace").strip()
            if not line:
                continue
            if not self.handle(line):
                break
        self.finish()
        return 0

    def handle(self, line: str) -> bool:
        """Act on one line; False means quit."""
        try:
            command = protocol.parse_command(line)
        except protocol.ProtocolError as exc:
            self.emit(_with_id(protocol.error(str(exc)), line))
            return True
        except Exception as exc:  # noqa: BLE001 - a reader bug must not kill the engine
            self.emit(_with_id(protocol.error(f"internal error reading the line: {type(exc).__name__}: {exc}"), line))
            return True
        try:
            return self._dispatch(command)
        except Exception as exc:  # noqa: BLE001 - the engine must stay alive on any failure
            self.emit(protocol.error(f"internal error: {type(exc).__name__}: {exc}"))
            return True

    def _dispatch(self, command: protocol.Command) -> bool:
        if isinstance(command, protocol.Simple):
            if command.cmd == "quit":
                return False
            if command.cmd == "stop":
                self.finish()
            elif command.cmd == "isready":
                self.finish_if_done()
                self.emit({"type": "readyok"})
            return True
        self.finish()
        if isinstance(command, protocol.SetPosition):
            self.spec, self.position = command.spec, command.position
        elif self.position.outcome.is_over:
            message = protocol.error(f"the game is over at position {self.position.to_text()!r}; nothing to search")
            self.emit(dict(message, id=command.search_id))
        elif isinstance(command, protocol.Go):
            self._start(self._run_search, command)
        elif isinstance(command, protocol.Solve):
            self._start(self._run_solve, command)
        return True

    # -- searches ---------------------------------------------------------------------------
    def _searcher(self, spec: GameSpec) -> Any:
        from ai.hybrid import HybridSearcher

        searcher = self._searchers.get(spec.name)
        if searcher is None:
            searcher = HybridSearcher(spec, seed=self._seed, max_nodes=self._max_nodes, threads=self._threads)
            self._searchers[spec.name] = searcher
        return searcher

    def _start(self, target: Any, command: Any) -> None:
        self._stop_event = threading.Event()
        self._worker = threading.Thread(target=self._guarded, args=(target, command), daemon=True)
        self._worker.start()

    def _guarded(self, target: Any, command: Any) -> None:
        try:
            target(command)
        except Exception as exc:  # noqa: BLE001 - report, keep the process alive
            self.emit(dict(protocol.error(f"search failed: {type(exc).__name__}: {exc}"), id=command.search_id))

    def _run_search(self, go: protocol.Go) -> None:
        spec, position = self.spec, self.position
        searcher = self._searcher(spec)
        searcher.set_position(position)

        def on_info(result: Any) -> None:
            self.emit(protocol.result_message("info", spec, result, go.search_id))

        result = searcher.search(
            time_ms=go.time_ms,
            iterations=go.iterations,
            on_info=on_info if go.info_ms else None,
            info_ms=go.info_ms or 100.0,
            stop_event=self._stop_event,
            early_stop=go.early_stop,
            exact=go.exact,
        )
        self.emit(protocol.result_message("bestmove", spec, result, go.search_id))

    def _run_solve(self, solve: protocol.Solve) -> None:
        from ai.solver import shared_solver

        spec, position = self.spec, self.position
        if not spec.name.startswith("connect4"):
            message = protocol.error(f"solve is only available for connect4, not {spec.name}")
            self.emit(dict(message, id=solve.search_id))
            return
        started = time.perf_counter()
        solver = shared_solver()
        self._solving = True
        try:
            if self._stop_event.is_set():
                return
            columns = solver.analyze_columns(position, time_ms=solve.time_ms)
        finally:
            self._solving = False
        best = max((s for s in columns.scores if s is not None), default=None)
        self.emit({
            "type": "solution",
            "id": solve.search_id,
            "score": best if columns.complete else None,
            "children": [{"move": spec.move_to_text(col), "score": score}
                         for col, score in enumerate(columns.scores) if col in position.legal_moves()],
            "complete": bool(columns.complete),
            "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
        })

    def finish(self) -> None:
        """Stop the running search (it still reports its bestmove) and wait for it."""
        worker = self._worker
        if worker is None:
            return
        self._stop_event.set()
        if self._solving:
            from ai.solver import shared_solver

            shared_solver().stop()
        worker.join()
        self._worker = None

    def finish_if_done(self) -> None:
        if self._worker is not None and not self._worker.is_alive():
            self.finish()


def _with_id(message: dict[str, Any], line: str) -> dict[str, Any]:
    """Echo the ``id`` of a rejected go/solve line (when it has a usable one) so the client can
    tell that this search will never answer."""
    try:
        obj = json.loads(line)
        search_id = protocol._search_id(obj) if isinstance(obj, dict) else None
    except (ValueError, RecursionError):
        return message
    return message if search_id is None else dict(message, id=search_id)


def _game_names() -> list[str]:
    from game import GAME_NAMES

    return list(GAME_NAMES)
