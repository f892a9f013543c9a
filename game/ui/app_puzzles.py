"""Puzzles in the app, as layers over the game (``game.play.learn_layer``): the solver's puzzle set (Z: the next
puzzle of the chosen grade, Shift+Z another grade; streak and progress kept with the settings) and "learn from your
mistakes" (L: after a review, each marked move again, "find a better move"). A move at the challenge's position is
judged, never played; the answer is shown as a ghost disc. Esc or "Back to the game" gives the game back as it was.
A handler of the app's commands: it talks back with effects (``game.ui.effects``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from game.play import puzzle_mode
from game.play.actions import Command
from game.play.hints import Hint
from game.play.learn_layer import (
    KEPT_COMMANDS,
    LEAVE_HINT,
    Challenge,
    KeptGame,
    judge,
    mistake_challenge,
    next_mistake,
    refusal,
)
from game.play.players import Mode
from game.play.review import GameReview
from game.play.review_session import HINT_SECONDS, ReviewState
from game.play.session import Session
from game.play.settings import Settings
from game.play.variations import MoveTree
from game.rules import get_game
from game.ui.app_variations import Variations
from game.ui.effects import Effects, LayerShown, Notice, SaveSettings, ShowPly
from game.ui.frame import Frame

__all__ = ["Challenge", "Puzzles"]


@dataclass(frozen=True)
class Kept:
    """What a layer keeps of the game: the session's game, its tree of variations and its review."""

    game: KeptGame
    tree: MoveTree
    review: GameReview | None


class Puzzles:
    """Owns the open challenge and the game kept under it; reads the settings, the session, the review and the
    variations; talks back with effects. The mode and the players are never changed (the app holds its bots
    back while a layer is open)."""

    COMMANDS: tuple[Command, ...] = (Command.PUZZLES, Command.PUZZLE_GRADE, Command.LEARN, Command.BACK_TO_GAME)

    def __init__(
        self,
        settings: Settings,
        session: Session,
        reviewing: ReviewState,
        variations: Variations,
        names: Callable[[], tuple[str, str]],
    ) -> None:
        self.settings, self.session, self.reviewing, self._names = settings, session, reviewing, names
        self.variations = variations
        self.challenge: Challenge | None = None
        self.kept: Kept | None = None  # the game under the open layer

    @property
    def open(self) -> bool:
        return self.kept is not None

    def name(self) -> str:
        """What the open layer is called ("Learn", "the puzzle")."""
        ch = self.challenge
        return "the puzzle" if ch is not None and ch.puzzle_id is not None else "Learn"

    def answer_awaited(self) -> bool:
        """The open challenge waits for its answer at the shown position."""
        ch = self.challenge
        return ch is not None and ch.result is None and self.session.cursor == ch.ply

    def refusal(self, c: Command, networked: bool = False) -> Effects | None:
        """A command that would change the game, refused while a layer is open; Learn and puzzles during a network
        game (its moves keep coming to the board). None: not refused."""
        if networked and c in self.COMMANDS and c is not Command.BACK_TO_GAME:
            return [Notice("Not during a network game: start a new game (N) first", error=True)]
        if self.open and c in KEPT_COMMANDS:
            return [Notice(f"Not inside {self.name()}: {LEAVE_HINT}", error=True)]
        return None

    # --- commands -----------------------------------------------------------------------------
    def handle(self, c: Command) -> Effects:
        if c is Command.PUZZLE_GRADE:
            progress = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
            grades = puzzle_mode.GRADES
            progress = replace(progress, grade=grades[(grades.index(progress.grade) + 1) % len(grades)])
            self.settings.puzzles = progress.to_dict()
            return [SaveSettings(), *self._next_puzzle()]
        if c is Command.PUZZLES:
            return self._next_puzzle()
        if c is Command.LEARN:
            return self._next_mistake()
        if c is Command.BACK_TO_GAME:
            return self.leave() if self.open else []
        return []

    def _keep(self) -> None:
        if self.kept is None:
            self.reviewing.stop()
            self.kept = Kept(KeptGame.of(self.session), self.variations.tree, self.reviewing.review)

    def leave(self) -> Effects:
        """Close the layer: the game comes back exactly as it was kept."""
        kept, self.kept, self.challenge = self.kept, None, None
        self.reviewing.hint = None
        if kept is None:
            return []
        self.reviewing.stop()
        kept.game.restore(self.session)
        self.variations.tree, self.reviewing.review = kept.tree, kept.review
        return [LayerShown(), Notice("Back to the game")]

    def forget(self) -> None:
        """A new game replaces the kept one: the layer closes without giving it back."""
        self.kept, self.challenge = None, None

    def _next_puzzle(self) -> Effects:
        progress = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
        puzzle = puzzle_mode.next_puzzle(progress)
        if puzzle is None:
            return [Notice(f"Every {progress.grade} puzzle is solved: Shift+Z for another grade")]
        spec = get_game("connect4")
        moves = tuple(spec.parse_position(puzzle.moves).history)
        player = puzzle.to_move - 1
        goal = "the win" if puzzle.goal == "win" else "the only move that holds the draw"
        answer = int(puzzle.answer) - 1
        self._keep()
        self.session.load(spec, moves)
        self.variations.tree = MoveTree(spec, moves)
        self.reviewing.review = None
        self.challenge = Challenge(
            len(moves),
            player,
            (answer,),
            answer,
            f"Puzzle {puzzle.id} ({puzzle.grade}): find {goal} for {self._names()[player]}",
            puzzle_id=puzzle.id,
        )
        return [LayerShown(), Notice(f"{self.challenge.title} · streak {progress.streak} · {LEAVE_HINT}")]

    def _next_mistake(self) -> Effects:
        kept_review = self.kept.review if self.kept is not None else self.reviewing.review
        if self.kept is not None and (self.challenge is None or self.challenge.learn_index is None):
            return [Notice(f"A puzzle is open: {LEAVE_HINT}, then L")]
        if kept_review is None:
            return [Notice("Review the game first (V), then learn from its mistakes (L)")]
        s = self.settings
        players = [s.human_player] if s.mode == Mode.VS_BOT else [0, 1]
        found = sorted((p for player in players for p in self.reviewing.puzzles(player)), key=lambda p: p.ply)
        index = next_mistake(found, self.challenge)
        if index is None:
            done = "No more mistakes to learn from" if found else "No marked moves to learn from"
            return [*self.leave(), Notice(done)] if self.open else [Notice(done)]
        mistake = found[index]
        self._keep()
        name = self._names()[mistake.player]
        self.challenge = mistake_challenge(mistake, index, name, self.session.spec.move_to_text(mistake.played))
        effects: Effects = []
        if tuple(self.session.line[: mistake.ply + 1]) != (*mistake.moves, mistake.played):
            effects.append(ShowPly(0, continuation=kept_review.moves))  # the reviewed game, not a variation
        return [
            *effects,
            ShowPly(mistake.ply),
            Notice(f"{self.challenge.title} · {index + 1} of {len(found)} · {LEAVE_HINT}"),
        ]

    # --- judging ------------------------------------------------------------------------------
    def take_move(self, move: int, now: float) -> Effects:
        """A move while a layer is open: judged at the challenge's position, never played."""
        ch, sess = self.challenge, self.session
        if ch is None or ch.result is not None or sess.cursor != ch.ply:
            return [Notice(refusal(ch, sess.cursor), error=True)] if ch is not None else []
        if move not in sess.position.legal_moves():
            return []
        solved = move in ch.accepted
        effects: Effects = []
        if ch.puzzle_id is not None:
            progress = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
            pool = [p for p in puzzle_mode.load_puzzles() if p.id == ch.puzzle_id]
            if pool:
                done = puzzle_mode.attempt(progress, pool[0], move)
                solved = done.solved
                self.settings.puzzles = done.progress.to_dict()
                effects.append(SaveSettings())
        text = sess.spec.move_to_text
        if ch.puzzle_id is not None:
            p = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
            more = f" · streak {p.streak} (best {p.best_streak}) · Z: next"
        else:
            more = " · L: the next one"
        verdict = judge(ch, move, solved, text(move), "/".join(text(m) for m in ch.accepted[:3]), more)
        effects.append(Notice(verdict.text, error=not verdict.solved))
        self.challenge = verdict.challenge
        self.reviewing.hint = Hint(ch.ply, ch.answer, text(ch.answer), True)  # the answer's ghost disc
        self.reviewing.hint_until = now + 2 * HINT_SECONDS
        self.reviewing.hint_label = "answer"
        return effects

    def frame(self, frame: Frame) -> Frame:
        ch = self.challenge
        if ch is None or not self.open:
            return frame
        status = replace(frame.status, back_to_game=True)
        if self.session.cursor != ch.ply:  # browsing inside the layer: the usual status of the shown position
            return replace(frame, status=status)
        head = ch.title if ch.result is None else f"{ch.title}: {ch.result}"
        short = head.split(" (")[0]
        return replace(frame, status=replace(status, texts=(head, short, *status.texts)))
