"""The pygame-free play model under a hypothesis state machine (issue 49): the session (the line, the cursor, the
engine's numbers), its tree of variations and the layer that keeps the game (``game.play.learn_layer``).

Rules are what a player does to the model: moves at the shown position (a new variation before the end), undo
and redo, going to a ply, promoting the shown line, deleting a move, an engine estimate, opening a layer, showing
another position inside it and leaving it. Invariants after each step: the tree holds the shown line; the main line
changes only by a move played at its end, promote or delete; leaving a layer gives back the game exactly; the saved
text (moves, cursor, variations, evaluations) reads back as the same game.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from game.play.game_files import game_json_with_evals, read_game
from game.play.learn_layer import KeptGame
from game.play.session import Session
from game.play.variations import MoveTree, tree_of_saved_text, tree_to_saved_text, with_variations
from game.rules import get_game

pytestmark = pytest.mark.timeout(120)

SPEC = get_game("connect4")
OTHER_POSITIONS = ("", "4453", "1234567", "44444")


class PlayModel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.session = Session.from_text("connect4", "")
        self.tree = MoveTree(SPEC, ())
        self.kept: tuple[KeptGame, MoveTree, tuple[int, ...]] | None = None  # the game under an open layer

    def sync(self) -> None:
        self.tree.add_line((), self.session.line)

    # --- the game ----------------------------------------------------------------------------
    @rule(column=st.integers(0, 6))
    def move(self, column: int) -> None:
        if self.kept is not None:
            return  # (inside a layer a move is judged, never played: game/play/learn_layer.py)
        s = self.session
        if column not in s.position.legal_moves():
            return
        main, at_end = self.tree.main_line(), s.at_end
        on_main = tuple(s.line[: s.cursor]) == main[: s.cursor]
        path = self.tree.play(tuple(s.line[: s.cursor]), column)
        s.play(column)
        s.set_continuation(self.tree.line_through(path)[len(path) :])
        self.sync()
        after = self.tree.main_line()
        if at_end and on_main and s.cursor - 1 == len(main):
            assert after == (*main, column), "a move at the main line's end did not extend it"
        else:
            assert after[: len(main)] == main or after == main, "a move before the end changed the main line"

    @rule(step=st.sampled_from((-1, 1)))
    def undo_redo(self, step: int) -> None:
        self.session.go_to(self.session.cursor + step)

    @rule(ply=st.integers(0, 12))
    def go_to(self, ply: int) -> None:
        self.session.go_to(ply)

    @rule()
    def promote(self) -> None:
        if self.kept is None:
            self.tree.make_main(tuple(self.session.line))

    @rule()
    def delete(self) -> None:
        s = self.session
        if self.kept is not None or s.cursor == 0:
            return
        parent = self.tree.delete(tuple(s.line[: s.cursor]))
        s.go_to(len(parent))
        s.set_continuation(self.tree.line_through(parent)[len(parent) :])

    @rule(value=st.floats(0.0, 1.0))
    def estimate(self, value: float) -> None:
        self.session.record_eval(self.session.cursor, value)

    # --- a layer over the game -------------------------------------------------------------------
    @rule()
    def open_layer(self) -> None:
        if self.kept is None:
            self.kept = (KeptGame.of(self.session), self.tree, self.tree.main_line())

    @rule(moves=st.sampled_from(OTHER_POSITIONS), ply=st.integers(0, 5))
    def inside_layer(self, moves: str, ply: int) -> None:
        if self.kept is None:
            return
        line = tuple(SPEC.parse_position(moves).history)
        self.session.load(SPEC, line, min(ply, len(line)))
        self.tree = MoveTree(SPEC, line)
        self.session.record_eval(0, 0.3)

    @rule()
    def leave_layer(self) -> None:
        if self.kept is None:
            return
        game, tree, main = self.kept
        game.restore(self.session)
        self.tree, self.kept = tree, None
        assert tuple(self.session.line) == game.line and self.session.cursor == game.cursor
        assert self.session.evals == dict(game.evals) and self.tree.main_line() == main

    # --- invariants ------------------------------------------------------------------------------
    @invariant()
    def the_tree_holds_the_shown_line(self) -> None:
        assert self.tree.has(tuple(self.session.line))

    @invariant()
    def the_layer_keeps_the_game(self) -> None:
        if self.kept is not None:
            game, tree, main = self.kept
            assert tree.main_line() == main and tree.has(game.line)

    @invariant()
    def save_then_load_gives_the_same_game(self) -> None:
        s = self.session
        if tuple(s.line) != self.tree.main_line():
            return  # (the evaluations belong to the shown line: the app saves them only on the main line)
        text = with_variations(game_json_with_evals(s, with_cursor=True), self.tree)
        loaded = read_game("connect4", text=text)
        cursor = len(loaded.moves) if loaded.cursor is None else loaded.cursor  # (none written: the end)
        assert loaded.moves == tuple(s.line) and cursor == s.cursor
        tree = tree_of_saved_text(SPEC, loaded.moves, loaded.text)
        assert tree.variations_json() == self.tree.variations_json()
        shown = {ply: p for ply, p in enumerate(s.eval_series()) if p is not None}
        for ply, point in shown.items():
            if not s.position_at(ply).outcome.is_over:
                assert loaded.evals[ply] == (round(point.value, 4), point.exact)
        plain = json.loads(tree_to_saved_text(self.tree, s.cursor))
        assert plain["moves"] == SPEC.moves_to_text(self.tree.main_line())


PlayModel.TestCase.settings = settings(max_examples=60, stateful_step_count=25, deadline=None)
test_play_model = PlayModel.TestCase
