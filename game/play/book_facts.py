"""The opening book read in the app's own process: exact facts about the positions of the line, at once.

A book position's every column is a lookup (``ai.vocab.opening_book``), so the verdicts under the columns, the
eval bar and the eval graph's points of book positions need no engine search: they are filled here in every
mode (also while two bots play and the engine is busy with their moves, and for the earlier positions of a
pasted or loaded game). The book (a few MB of numpy arrays) is read once, in a background thread, so that
no frame waits for it; until then nothing is filled.
"""

from __future__ import annotations

import threading
from typing import Any

from game.play.exact import ExactCache
from game.play.session import Session
from game.rules.capabilities import capabilities
from game.rules.connect4 import as_connect4

BOOK_BUDGET_MS = 10**9  # the budget an answer from the book stands for: no solver look will add to it
_RESULTS = {1: "win", 0: "draw", -1: "loss"}


class BookFacts:
    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled  # False: never read (tests of the engine's own answers)
        self._book: Any = None
        self._loaded = threading.Event()
        self._thread: threading.Thread | None = None
        self._checked: set[tuple[str, str]] = set()  # (game, moves) looked up already

    def start(self) -> None:
        """Read the book in the background (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._load, name="book", daemon=True)
            self._thread.start()

    def _load(self) -> None:
        try:
            from ai.vocab.opening_book import load

            self._book = load()
        except Exception:  # no book: nothing is filled, the engine still answers  # noqa: BLE001
            self._book = None
        finally:
            self._loaded.set()

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the book is read (tests); True when it is."""
        self.start()
        return self._loaded.wait(timeout)

    @property
    def ready(self) -> bool:
        return self._loaded.is_set() and self._book is not None

    def fill(self, session: Session, cache: ExactCache) -> None:
        """Record what the book knows about the line's positions: the shown position's column scores (for the
        verdicts) and every book position's proven result (for the eval bar and graph)."""
        if not capabilities(session.spec).classic or not self.enabled:
            return
        self.start()
        if not self.ready:
            return
        game = session.spec.name
        for ply in range(len(session.line) + 1):
            moves = session.spec.moves_to_text(session.line[:ply])
            if (game, moves) in self._checked:
                continue
            self._checked.add((game, moves))
            if len(self._checked) > 50_000:
                self._checked.clear()
            position = as_connect4(session.position_at(ply))
            if position is None or position.outcome.is_over:
                continue
            scores = self._book.column_scores(position)
            if scores is not None:
                legal = position.legal_moves()
                cache.put(game, moves, {c: scores[c] for c in legal}, BOOK_BUDGET_MS)
                played = scores[session.line[ply]] if ply < len(session.line) else None
                if played is not None:  # the next position's result too (one past the book's last position)
                    result = _RESULTS[(played > 0) - (played < 0)]
                    session.record_proof(session.line[: ply + 1], position.to_move, result)
            entry = self._book.entry(position)
            if entry is not None:
                session.record_proof(session.line[:ply], position.to_move, _RESULTS[entry.result])

    def forget(self) -> None:
        """A new line: look its positions up again."""
        self._checked.clear()
