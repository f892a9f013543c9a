"""Modes over the game, under a hypothesis state machine (issue 49).

The machine drives the real app (dummy video driver, the fake engine) with what a player does: new games of
each mode, moves by key, undo/redo, browsing, review, the jumps between marks, hints, learn (L) with right and
wrong answers, puzzles (Z), Esc, variations, save and load. After every step it checks the invariants:

- inside Learn or a puzzle the game (its main line, mode and players) is the one the player left;
- the side the status line names is the side to move on the board shown;
- leaving a mode (Esc) gives back exactly the state before it (main line, shown ply, mode, players);
- the players' set-up changes only through a new game;
- the autosave holds the game, never a puzzle's moves;
- no notice covers the board, its labels or its verdict row, at 1120x760, 640x480, 940x540 and 1600x1000;
- save then load gives back the same main line, shown ply and variations.
"""

from __future__ import annotations

import json
from typing import Any

import pygame
import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from test_ui_fakes import make_test_app

from game.play.actions import Command
from game.play.game_files import game_json_with_evals, restore_evals
from game.play.players import Mode
from game.play.savefile import parse_game_text, read_evals
from game.rules import get_game
from game.ui import game_app, layout, text, view

pytestmark = pytest.mark.timeout(300)

SIZES = ((1120, 760), (640, 480), (940, 540), (1600, 1000))
OPENINGS = ("", "4453", "44141474", "4444442")
KEYS = {Command.LEARN: pygame.K_l, Command.PUZZLES: pygame.K_z, Command.CLOSE: pygame.K_ESCAPE}


def key(app: game_app.App, k: int, typed: str = "") -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=typed)], now=app.now + 0.05)


def players_of(app: game_app.App) -> tuple[str, int, tuple[str, ...]]:
    s = app.settings
    return (str(s.mode), s.human_player, tuple(b.label(False) for b in s.bots))


def in_mode(app: game_app.App) -> bool:
    """A learning mode is open over the game (Learn or a puzzle)."""
    return app.puzzles.challenge is not None


def game_line(app: game_app.App) -> tuple[int, ...]:
    """The game's main line: the one kept under a learning mode when one is open."""
    kept = getattr(app.puzzles, "kept", None)
    tree = kept.tree if kept is not None else app.variations.tree
    return tuple(tree.main_line())


class ModesMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.written: list[str] = []
        self.patch = pytest.MonkeyPatch()  # (undone in teardown)
        self.patch.setattr(game_app, "write_autosave", self._write)
        self.app, _ = make_test_app("connect4", "", mode=Mode.HOTSEAT, size=(1120, 760))
        self.players = players_of(self.app)
        self.before_mode: tuple[tuple[int, ...], int, tuple[str, int, tuple[str, ...]]] | None = None

    def _write(self, text_: str, directory: Any = None) -> str | None:
        self.written.append(text_)
        return None

    def teardown(self) -> None:
        self.patch.undo()
        self.app.review.reviewing.stop()
        self.app.close()

    def settle(self) -> None:
        for _ in range(3):
            self.app.step([], now=self.app.now + 0.05)
        self.app.autosave()  # (what the real app does after each change: tests run it without writing)

    def state(self) -> tuple[tuple[int, ...], int, tuple[str, int, tuple[str, ...]]]:
        return game_line(self.app), self.app.session.cursor, players_of(self.app)

    def enter(self, command: Command) -> None:
        before = self.state()
        key(self.app, KEYS[command], command.name[0].lower())
        if in_mode(self.app) and self.before_mode is None:
            self.before_mode = before
            event(f"{command.name} opened")

    # --- the game --------------------------------------------------------------------------
    @rule(moves=st.sampled_from(OPENINGS), mode=st.sampled_from((Mode.HOTSEAT, Mode.VS_BOT)), human=st.integers(0, 1))
    def new_game(self, moves: str, mode: Mode, human: int) -> None:
        self.app.settings.mode, self.app.settings.human_player = mode, human  # (what the dialog's Start sets)
        self.app.new_game(get_game("connect4"), tuple(get_game("connect4").parse_position(moves).history))
        self.players = players_of(self.app)
        self.before_mode = None
        self.settle()

    @rule(
        moves=st.sampled_from(OPENINGS[1:]), mode=st.sampled_from((Mode.HOTSEAT, Mode.VS_BOT)), human=st.integers(0, 1)
    )
    def reviewed_game(self, moves: str, mode: Mode, human: int) -> None:
        """A game's review at once, then Learn (the way to it)."""
        self.new_game(moves, mode, human)
        self.review()
        self.learn()

    @rule(column=st.integers(0, 6))
    def move_key(self, column: int) -> None:
        line = game_line(self.app)
        key(self.app, pygame.K_1 + column, str(column + 1))
        self.settle()
        if self.before_mode is not None:
            assert game_line(self.app) == line, "an answer changed the game's main line"

    @rule(command=st.sampled_from((Command.UNDO, Command.REDO, Command.PREV, Command.NEXT, Command.FIRST)))
    def browse(self, command: Command) -> None:
        if in_mode(self.app):
            return
        self.app.apply(command)
        self.settle()

    @rule(
        command=st.sampled_from(
            (Command.NEXT_VARIATION, Command.PROMOTE, Command.DELETE_MOVE, Command.FOLD_VARIATIONS, Command.CONTINUE)
        )
    )
    def variations(self, command: Command) -> None:
        line = game_line(self.app)
        self.app.apply(command)
        self.settle()
        if self.before_mode is not None:
            assert game_line(self.app) == line, f"{command.name} changed the game inside a mode"

    @rule()
    def review(self) -> None:
        if in_mode(self.app) or not self.app.session.line:
            return
        self.app.apply(Command.REVIEW)
        assert self.app.review.reviewing.wait(60)
        self.settle()

    @rule(command=st.sampled_from((Command.NEXT_MISTAKE, Command.PREV_MISTAKE, Command.HINT)))
    def review_keys(self, command: Command) -> None:
        if in_mode(self.app):
            return
        self.app.apply(command)
        if command is Command.HINT:
            self.app.review.reviewing.wait_hint(30)
        self.settle()

    @rule()
    def learn(self) -> None:
        self.enter(Command.LEARN)
        self.closed_by_itself()
        self.settle()

    @rule()
    def puzzle(self) -> None:
        self.enter(Command.PUZZLES)
        self.closed_by_itself()
        self.settle()

    def closed_by_itself(self) -> None:
        """L after the last mistake closes Learn: the game as it was before, like Esc."""
        if self.before_mode is not None and not in_mode(self.app):
            assert self.state() == self.before_mode, "the mode closed without restoring the game"
            self.before_mode = None

    @rule()
    def escape(self) -> None:
        key(self.app, pygame.K_ESCAPE)
        if self.before_mode is not None:  # (looked at before a bot, whose turn it may be, moves on)
            assert not in_mode(self.app), "Esc did not leave the mode"
            assert self.state() == self.before_mode, "leaving the mode did not restore the game"
            self.before_mode = None
        self.settle()

    @rule()
    def save_and_load(self) -> None:
        if in_mode(self.app):
            return
        app = self.app
        saved = app.variations.saved_text(game_json_with_evals(app.session, with_cursor=True))
        tree = app.variations.tree
        main, cursor, branches = tree.main_line(), app.session.cursor, tree.variations_json()
        marks = app.review.reviewing.marks(tree.main_line()) if app.review.reviewing.review is not None else None
        app.load(text=saved)
        self.settle()
        tree = app.variations.tree
        assert (tree.main_line(), app.session.cursor, tree.variations_json()) == (main, cursor, branches)
        if marks is not None:
            assert app.review.reviewing.marks(tree.main_line()) == marks, "the review's marks were not kept"

    @rule()
    def relaunch(self) -> None:
        """Close the app (inside a mode too) and open it again from what its autosave holds, as a launch does."""
        old = self.app
        kept = getattr(old.puzzles, "kept", None)
        event("relaunched inside a mode" if kept is not None else "relaunched")
        tree = kept.tree if kept is not None else old.variations.tree
        line, variations = tree.main_line(), tree.variations_json()
        cursor = self.before_mode[1] if self.before_mode is not None else old.session.cursor
        marks = old.review.reviewing.marks(line) if old.review.reviewing.review is not None else None
        mode, human = old.settings.mode, old.settings.human_player
        old.review.reviewing.stop()
        old.persist = True  # (its close writes the autosave, as the real app's does)
        old.close()
        text = self.written[-1]
        spec, moves, saved_cursor = parse_game_text(text)
        new, _ = make_test_app(spec.name, spec.moves_to_text(moves), mode=mode, size=(1120, 760), human_player=human)
        self.app = new
        new.session.go_to(len(moves) if saved_cursor is None else saved_cursor)
        restore_evals(new.session, read_evals(text, len(moves)))
        new.carry_out(new.variations.loaded_text(text))
        self.before_mode = None
        self.settle()
        assert moves == line, "the autosave did not give back the game's main line"
        assert new.variations.tree.variations_json() == variations, "the variations were not given back"
        if tuple(new.session.line) == line:
            assert new.session.cursor == cursor, "the shown move was not given back"
        if marks is not None:
            assert new.review.reviewing.marks(line) == marks, "the review's marks were not given back"

    # --- invariants ------------------------------------------------------------------------
    @invariant()
    def players_only_change_through_a_new_game(self) -> None:
        assert players_of(self.app) == self.players, "the players' set-up changed without a new game"

    @invariant()
    def the_mode_keeps_the_game(self) -> None:
        if self.before_mode is not None:
            assert game_line(self.app) == self.before_mode[0], "a mode changed the game's main line"

    @invariant()
    def the_status_names_the_side_to_move(self) -> None:
        app = self.app
        pos = app.session.position
        if pos.outcome.is_over:
            return
        head = app.snapshot().status.texts[0]
        names = app.names()
        named = [p for p in (0, 1) if names[p] in head]
        if len(named) == 1:
            assert named[0] == pos.to_move, f"the status says {head!r} with {names[pos.to_move]} to move"

    @invariant()
    def the_autosave_holds_the_game(self) -> None:
        self.app.autosave()
        if not self.written:
            return
        saved = json.loads(self.written[-1])
        moves = tuple(get_game("connect4").parse_position(saved["moves"]).history)
        assert moves == game_line(self.app), "the autosave holds something else than the game"

    @invariant()
    def no_notice_covers_the_board(self) -> None:
        frame = self.app.snapshot()
        if frame.status.notice is None:
            return
        for size in SIZES:
            surface = pygame.Surface(size)
            lay = layout.compute_layout(size, frame)
            with text.recording() as drawn:
                view.draw(surface, frame, lay)
            for d in drawn:
                if d.layer == "notice":
                    assert not d.rect.inflate(16, 12).colliderect(lay.board.frame), (
                        f"the notice {d.label!r} covers the board at {size}"
                    )


ModesMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_modes = ModesMachine.TestCase
