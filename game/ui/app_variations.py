"""Variations kept in the app: a move played at a past position starts a variation (``game.play.variations``)
instead of dropping the rest of the line; A steps through the moves played at the shown position, Ctrl+P makes
the shown line the main line, Ctrl+D deletes the shown move and what follows it. A base class of
``game_app.App`` on the attributes the app sets up."""

from __future__ import annotations

import json
from dataclasses import replace

from game.play.actions import Command
from game.play.review_session import ReviewState
from game.play.session import Session
from game.play.variations import MoveTree, VariationError, tree_of_saved_text, with_variations
from game.ui.frame import Frame

VARIATION_COMMANDS = (Command.NEXT_VARIATION, Command.PROMOTE, Command.DELETE_MOVE, Command.FOLD_VARIATIONS)


class VariationCommands:
    session: Session
    tree: MoveTree
    variations_folded: bool
    reviewing: ReviewState
    _dirty_game: bool

    def set_notice(self, text: str, error: bool = False, about_position: bool = False) -> None:
        raise NotImplementedError

    def go_to(self, ply: int) -> None:
        raise NotImplementedError

    def evaluations_hidden(self) -> bool:
        raise NotImplementedError

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

    def after_branch(self, path: tuple[int, ...]) -> None:
        try:
            path = self.tree.play(path[:-1], path[-1])
            self.session.set_continuation(self.tree.line_through(path)[len(path) :])
        except (VariationError, ValueError):
            return
        count = len(self.tree.alternatives(path[:-1]))
        self.set_notice(f"A variation: {count} moves tried here (A: the next one, Ctrl+P: make it the main line)")

    def reset_tree(self, saved_text: str = "") -> None:
        sess = self.session
        self.tree = MoveTree(sess.spec, sess.line)
        if saved_text:
            try:
                self.tree = tree_of_saved_text(sess.spec, tuple(sess.line), saved_text)
            except (VariationError, ValueError):
                self.set_notice("The file's variations could not be read: its main line is loaded", error=True)

    # --- commands -----------------------------------------------------------------------------
    def variation_command(self, c: Command) -> None:
        sess = self.session
        self.sync_tree()
        path = tuple(sess.line[: sess.cursor])
        if c is Command.FOLD_VARIATIONS:
            self.variations_folded = not self.variations_folded
            self.set_notice(
                "Variations folded: +n marks where (F unfolds)" if self.variations_folded else "Variations shown"
            )
        elif c is Command.NEXT_VARIATION:
            if sess.at_end:
                self.set_notice("Go to a move to see the moves tried instead of it")
                return
            here = path
            moves = self.tree.alternatives(here)
            if len(moves) < 2:
                self.set_notice("No variation here: play another move at this position to start one")
                return
            nxt = moves[(moves.index(sess.line[sess.cursor]) + 1) % len(moves)]
            line = self.tree.line_through((*here, nxt))
            sess.set_continuation(line[len(here) :])
            self._dirty_game = True
            main = " (the main line)" if self.tree.is_main(line) else ""
            self.set_notice(f"Line {moves.index(nxt) + 1} of {len(moves)} here{main}")
        elif c is Command.PROMOTE:
            line = tuple(sess.line)
            if self.tree.is_main(line):
                self.set_notice("The shown line is the main line")
                return
            self.tree.make_main(line)
            self._dirty_game = True
            self.set_notice("The shown line is now the main line (saved as the game's moves)")
        elif c is Command.DELETE_MOVE:
            if sess.cursor == 0:
                self.set_notice("Go to a move to delete it and what follows")
                return
            at = tuple(sess.line[: sess.cursor])
            parent = self.tree.delete(at)
            rest = self.tree.line_through(parent)[len(parent) :]
            self.go_to(len(parent))
            sess.set_continuation(rest)
            self._dirty_game = True
            self.set_notice(f"Deleted move {len(at)} and every move after it")

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
        review = self.reviewing.review
        return self.reviewing.saved(text) if review is not None and review.moves == main else text

    def loaded_text(self, text: str) -> None:
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
        self.reset_tree(text if same else "")
        self.reviewing.attach(sess.spec, tuple(sess.line), text if same else "")

    def variation_paths(self) -> list[tuple[int, tuple[int, ...]]]:
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

    def variation_inserts(self) -> tuple[int, ...]:
        return () if self.variations_folded else tuple(ply // 2 for ply, _ in self.variation_paths())

    def variation_rows(self) -> tuple[tuple[int, str], ...]:
        """(pair row, label) of each line leaving the shown one: "3… 5 4 4" (its move number and moves)."""
        rows: list[tuple[int, str]] = []
        if self.variations_folded:
            return ()
        for ply, path in self.variation_paths():
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

    def show_variation(self, index: int) -> None:
        """Show the line of the move list's variation row ``index`` (at its first move)."""
        paths = self.variation_paths()
        if not 0 <= index < len(paths):
            return
        ply, path = paths[index]
        self.go_to(ply)
        self.session.set_continuation(self.tree.line_through(path)[ply:])
        self.go_to(ply + 1)
        self._dirty_game = True

    def variation_frame(self, frame: Frame) -> Frame:
        """The frame with the move list's tree: the "+n" badges and the other lines' rows."""
        branches = self.variation_counts()
        return replace(frame, branches=branches, variation_rows=self.variation_rows()) if any(branches) else frame

    def variation_counts(self) -> tuple[int, ...]:
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
