"""Puzzles in the app: the solver's puzzle set (Z: the next puzzle of the chosen grade, Shift+Z another grade;
streak and progress kept with the settings) and "learn from your mistakes" (L: after a review, each of your
marked moves again, "find a better move"). The next move at the puzzle's position is judged, then the answer is
shown as a ghost disc. A handler of the app's commands: it talks back with effects (``game.ui.effects``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from game.play import puzzle_mode
from game.play.actions import Command
from game.play.hints import Hint
from game.play.players import Mode
from game.play.review_session import HINT_SECONDS, ReviewState
from game.play.session import Session
from game.play.settings import Settings
from game.rules import get_game
from game.ui.effects import BeginChallenge, Effects, Notice, SaveSettings, ShowPly, StartGame
from game.ui.frame import Frame


@dataclass(frozen=True)
class Challenge:
    """A position to find a move at: a shipped puzzle, or a mistake of the reviewed game."""

    ply: int  # the move is judged at the position after this many moves
    player: int
    accepted: tuple[int, ...]
    answer: int  # the move shown after
    title: str  # "Puzzle 12 (easy): find the win for Red"
    puzzle_id: int | None = None  # a shipped puzzle (its progress is kept)
    learn_index: int | None = None  # "learn from your mistakes": which of the marked moves
    result: str | None = None  # "solved" | "failed", once a move was played


class Puzzles:
    """Owns the open challenge (a puzzle, or a mistake to find a better move for) and the mode chosen before it
    (nobody moves for you meanwhile); reads the settings, the session, the review; talks back with effects."""

    COMMANDS: tuple[Command, ...] = (Command.PUZZLES, Command.PUZZLE_GRADE, Command.LEARN)

    def __init__(
        self, settings: Settings, session: Session, reviewing: ReviewState, names: Callable[[], tuple[str, str]]
    ) -> None:
        self.settings, self.session, self.reviewing, self._names = settings, session, reviewing, names
        self.challenge: Challenge | None = None
        self.mode_before_puzzle: Mode | None = None

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
        return []

    def _hold_bots(self) -> None:
        if self.mode_before_puzzle is None:
            self.mode_before_puzzle = self.settings.mode
        self.settings.mode = Mode.HOTSEAT  # nobody moves for you during a puzzle

    def end_challenge(self) -> None:
        """Leave puzzle mode (a new game): the mode chosen before comes back."""
        self.challenge = None
        if self.mode_before_puzzle is not None:
            self.settings.mode, self.mode_before_puzzle = self.mode_before_puzzle, None

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
        challenge = Challenge(
            len(moves),
            player,
            (answer,),
            answer,
            f"Puzzle {puzzle.id} ({puzzle.grade}): find {goal} for {self._names()[player]}",
            puzzle_id=puzzle.id,
        )
        # the new game ends any challenge and gives back the mode chosen before; then this one holds the bots
        return [
            StartGame(spec, moves),
            BeginChallenge(challenge),
            Notice(f"{challenge.title} · streak {progress.streak}"),
        ]

    def begin(self, challenge: Challenge) -> None:
        """A puzzle's game has started: its challenge is open, and nobody moves for you."""
        self._hold_bots()
        self.challenge = challenge

    def _next_mistake(self) -> Effects:
        review = self.reviewing.review
        if review is None:
            return [Notice("Review the game first (V), then learn from its mistakes (L)")]
        s = self.settings
        players = [s.human_player] if s.mode == Mode.VS_BOT else [0, 1]
        found = sorted((p for player in players for p in self.reviewing.puzzles(player)), key=lambda p: p.ply)
        start = 0 if self.challenge is None or self.challenge.learn_index is None else self.challenge.learn_index + 1
        if start >= len(found):
            if self.challenge is not None and self.challenge.learn_index is not None:
                self.end_challenge()
            return [Notice("No more mistakes to learn from" if found else "No marked moves to learn from")]
        mistake = found[start]
        if tuple(self.session.line[: mistake.ply]) != mistake.moves:
            self.session.set_continuation(())  # (a variation is shown: back to the reviewed line)
        self._hold_bots()
        name = self._names()[mistake.player]
        played = self.session.spec.move_to_text(mistake.played)
        self.challenge = Challenge(
            mistake.ply,
            mistake.player,
            mistake.accepted,
            mistake.best_moves[0] if mistake.best_moves else mistake.accepted[0],
            f"Find a better move for {name} (played {played}, a {mistake.klass})",
            learn_index=start,
        )
        return [ShowPly(mistake.ply), Notice(f"{self.challenge.title} · {start + 1} of {len(found)}")]

    # --- judging ------------------------------------------------------------------------------
    def judge(self, move: int, now: float) -> Effects:
        """Before ``move`` is played: judge it when it answers the open challenge."""
        ch = self.challenge
        sess = self.session
        if ch is None or ch.result is not None or sess.cursor != ch.ply:
            return []
        effects: Effects = []
        solved = move in ch.accepted
        if ch.puzzle_id is not None:
            progress = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
            pool = [p for p in puzzle_mode.load_puzzles() if p.id == ch.puzzle_id]
            if pool:
                done = puzzle_mode.attempt(progress, pool[0], move)
                solved = done.solved
                self.settings.puzzles = done.progress.to_dict()
                effects.append(SaveSettings())
        text = sess.spec.move_to_text
        answer = "/".join(text(m) for m in ch.accepted[:3])
        streak = ""
        if ch.puzzle_id is not None:
            p = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
            streak = f" · streak {p.streak} (best {p.best_streak}) · Z: next"
        else:
            streak = " · L: the next one"
        if solved:
            effects.append(Notice(f"Solved: {text(move)} is right{streak}"))
        else:
            effects.append(Notice(f"Not {text(move)}: the answer is {answer}{streak}", error=True))
        self.challenge = replace(ch, result="solved" if solved else "failed")
        self.reviewing.hint = Hint(ch.ply, ch.answer, text(ch.answer), True)  # the answer's ghost disc
        self.reviewing.hint_until = now + 2 * HINT_SECONDS
        self.reviewing.hint_label = "answer"
        return effects

    def frame(self, frame: Frame) -> Frame:
        ch = self.challenge
        if ch is None:
            return frame
        status = frame.status
        head = ch.title if ch.result is None else f"{ch.title}: {ch.result}"
        short = head.split(":")[0]
        return replace(frame, status=replace(status, texts=(head, short, *status.texts)))
