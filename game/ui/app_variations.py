"""Variations kept in the app: a move played at a past position starts a variation (``game.play.variations``)
instead of dropping the rest of the line; A steps through the moves played at the shown position, Ctrl+P makes
the shown line the main line, Ctrl+D deletes the shown move and what follows it. A handler of the app's commands:
it talks back with effects (``game.ui.effects``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from game.play.actions import Command
from game.play.review_session import ReviewState
from game.play.session import Session
from game.play.variations import MoveTree, VariationError, tree_of_saved_text, with_variations
from game.ui.effects import Effects, GameChanged, Notice, ShowPly
from game.ui.frame import Frame


class Variations:
    """Owns the tree of the moves tried (``MoveTree``) and whether the move list folds it; reads the session, the
    review (for "better" marks and the saved file) and whether evaluations are hidden."""

    COMMANDS: tuple[Command, ...] = (
        Command.NEXT_VARIATION,
        Command.PROMOTE,
        Command.DELETE_MOVE,
        Command.FOLD_VARIATIONS,
    )

    def __init__(self, session: Session, reviewing: ReviewState, evaluations_hidden: Callable[[], bool]) -> None:
        self.session, self.reviewing, self.evaluations_hidden = session, reviewing, evaluations_hidden
        self.tree = MoveTree(session.spec, session.line)
        self.folded = False  # the move list shows only the "+n" marks of the variations (F)

    # --- the tree follows the session ---------------------------------------------------------
    def sync_tree(self) -> None:
        """Make sure the shown line is in the tree (a new game, bot moves, a loaded file)."""
        sess = self.session
        if self.tree.spec.name != sess.spec.name:
            self.tree = MoveTree(sess.spec, sess.line)
            return
        try:
            self.tree.add_line((), sess.line)
        except (VariationError, ValueError):
            self.tree = MoveTree(sess.spec, sess.line)

    def branch_move(self, move: int) -> bool:
        """Before ``move`` is played at the shown position: when it leaves the line, keep the line in the tree
        and return True (``after_branch`` then puts the variation's own continuation after it)."""
        sess = self.session
        if sess.at_end or sess.line[sess.cursor] == move:
            return False
        self.sync_tree()
        return True

    def after_branch(self, path: tuple[int, ...]) -> Effects:
        try:
            path = self.tree.play(path[:-1], path[-1])
            self.session.set_continuation(self.tree.line_through(path)[len(path) :])
        except (VariationError, ValueError):
            return []
        count = len(self.tree.alternatives(path[:-1]))
        return [Notice(f"A variation: {count} moves tried here (A: the next one, Ctrl+P: make it the main line)")]

    def reset_tree(self, saved_text: str = "") -> Effects:
        sess = self.session
        self.tree = MoveTree(sess.spec, sess.line)
        if saved_text:
            try:
                self.tree = tree_of_saved_text(sess.spec, tuple(sess.line), saved_text)
            except (VariationError, ValueError):
                return [Notice("The file's variations could not be read: its main line is loaded", error=True)]
        return []

    # --- commands -----------------------------------------------------------------------------
    def handle(self, c: Command) -> Effects:
        self.sync_tree()
        if c is Command.FOLD_VARIATIONS:
            self.folded = not self.folded
            return [Notice("Variations folded: +n marks where (F unfolds)" if self.folded else "Variations shown")]
        if c is Command.NEXT_VARIATION:
            return self._next()
        if c is Command.PROMOTE:
            line = tuple(self.session.line)
            if self.tree.is_main(line):
                return [Notice("The shown line is the main line")]
            self.tree.make_main(line)
            return [GameChanged(), Notice("The shown line is now the main line (saved as the game's moves)")]
        if c is Command.DELETE_MOVE:
            return self._delete()
        return []

    def _next(self) -> Effects:
        sess = self.session
        if sess.at_end:
            return [Notice("Go to a move to see the moves tried instead of it")]
        here = tuple(sess.line[: sess.cursor])
        moves = self.tree.alternatives(here)
        if len(moves) < 2:
            return [Notice("No variation here: play another move at this position to start one")]
        nxt = moves[(moves.index(sess.line[sess.cursor]) + 1) % len(moves)]
        line = self.tree.line_through((*here, nxt))
        sess.set_continuation(line[len(here) :])
        main = " (the main line)" if self.tree.is_main(line) else ""
        return [GameChanged(), Notice(f"Line {moves.index(nxt) + 1} of {len(moves)} here{main}")]

    def _delete(self) -> Effects:
        sess = self.session
        if sess.cursor == 0:
            return [Notice("Go to a move to delete it and what follows")]
        at = tuple(sess.line[: sess.cursor])
        parent = self.tree.delete(at)
        rest = self.tree.line_through(parent)[len(parent) :]
        return [
            ShowPly(len(parent), continuation=rest),
            GameChanged(),
            Notice(f"Deleted move {len(at)} and every move after it"),
        ]

    # --- saving -------------------------------------------------------------------------------
    def saved_text(self, text: str) -> str:
        """A saved game with its variations and its review (evaluations only when the shown line is the main
        line: they belong to the shown line)."""
        self.sync_tree()
        main = self.tree.main_line()
        if main != tuple(self.session.line):
            try:
                data = json.loads(text)
                data.pop("evals", None)
                text = json.dumps(data, indent=2) + "\n"
            except (ValueError, AttributeError):
                pass
        if self.tree.variations_json():
            text = with_variations(text, self.tree)
        return self.reviewing.saved(text, main)  # (of the moves the main line shares with the reviewed game)

    def loaded_text(self, text: str) -> Effects:
        """A game opened from ``text``: its variations and its review come with it (none when the text is of
        another game than the one shown, e.g. an autosave that was not restored)."""
        sess = self.session
        try:
            data = json.loads(text) if text else None
        except (ValueError, RecursionError):
            data = None
        same = (
            isinstance(data, dict)
            and data.get("game", "connect4") == sess.spec.name
            and data.get("moves") == sess.spec.moves_to_text(sess.line)
        )
        effects = self.reset_tree(text if same else "")
        self.reviewing.attach(sess.spec, tuple(sess.line), text if same else "")
        return effects

    def paths(self) -> list[tuple[int, tuple[int, ...]]]:
        """(ply, path to its first move) of each line that leaves the shown line, in the order of the line."""
        out = []
        node = self.tree.root
        line = self.session.line
        for ply, move in enumerate(line):
            out += [(ply, (*line[:ply], c.move)) for c in node.children if c.move is not None and c.move != move]
            child = node.child(move)
            if child is None:
                break
            node = child
        return out

    def inserts(self) -> tuple[int, ...]:
        return () if self.folded else tuple(ply // 2 for ply, _ in self.paths())

    def rows(self) -> tuple[tuple[int, str], ...]:
        """(pair row, label) of each line leaving the shown one: "3… 5 4 4" (its move number and moves)."""
        rows: list[tuple[int, str]] = []
        if self.folded:
            return ()
        for ply, path in self.paths():
            moves = self.tree.line_through(path)[ply:]
            number = f"{ply // 2 + 1}." if ply % 2 == 0 else f"{ply // 2 + 1}…"
            words = " ".join(self.session.spec.move_to_text(m) for m in moves[:12])
            rows.append((ply // 2, f"↳ {number} {words}{self._better(ply, path[-1])}"))
        return tuple(rows)

    def _better(self, ply: int, move: int) -> str:
        """ " (better: win in 20)" when the reviewed game's scores say ``move`` beats the move it played there."""
        review = self.reviewing.review
        if self.evaluations_hidden():  # (training, or a puzzle to solve: no hint from the move list)
            return ""
        r = review.reviews.get(ply) if review is not None else None
        if (
            review is None
            or r is None
            or r.played_score is None
            or tuple(self.session.line[:ply]) != review.moves[:ply]
        ):
            return ""
        score = dict(r.scores).get(move)
        if move == r.played or score is None or score <= r.played_score:
            return ""
        return f" (better: {review.verdict(ply, score)})"

    def show(self, index: int) -> Effects:
        """Show the line of the move list's variation row ``index`` (at its first move)."""
        paths = self.paths()
        if not 0 <= index < len(paths):
            return []
        ply, path = paths[index]
        return [ShowPly(ply, continuation=self.tree.line_through(path)[ply:]), ShowPly(ply + 1), GameChanged()]

    def frame(self, frame: Frame) -> Frame:
        """The frame with the move list's tree: the "+n" badges and the other lines' rows."""
        branches = self.counts()
        return replace(frame, branches=branches, variation_rows=self.rows()) if any(branches) else frame

    def counts(self) -> tuple[int, ...]:
        """Per move of the shown line: how many other moves were tried at the position before it."""
        out = []
        node = self.tree.root
        for move in self.session.line:
            out.append(max(0, len(node.children) - 1))
            child = node.child(move)
            if child is None:
                out.extend([0] * (len(self.session.line) - len(out)))
                break
            node = child
        return tuple(out)
