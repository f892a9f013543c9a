"""Puzzles in the app: the solver's puzzle set (Z: the next puzzle of the chosen grade, Shift+Z another grade;
streak and progress kept with the settings) and "learn from your mistakes" (L: after a review, each of your
marked moves again, "find a better move"). The next move at the puzzle's position is judged, then the answer is
shown as a ghost disc. A base class of ``game_app.App`` on the attributes the app sets up."""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.play import puzzle_mode
from game.play.actions import Command
from game.play.hints import Hint
from game.play.players import Mode
from game.play.review_session import HINT_SECONDS, ReviewState
from game.play.session import Session
from game.play.settings import Settings
from game.rules import GameSpec, get_game
from game.ui.frame import Frame

PUZZLE_COMMANDS = (Command.PUZZLES, Command.PUZZLE_GRADE, Command.LEARN)


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


class PuzzleCommands:
    settings: Settings
    session: Session
    reviewing: ReviewState
    now: float
    challenge: Challenge | None
    mode_before_puzzle: Mode | None
    _dirty_game: bool

    def set_notice(self, text: str, error: bool = False, about_position: bool = False) -> None:
        raise NotImplementedError

    def go_to(self, ply: int) -> None:
        raise NotImplementedError

    def save_settings(self) -> None:
        raise NotImplementedError

    def names(self) -> tuple[str, str]:
        raise NotImplementedError

    def new_game(self, spec: GameSpec | None = None, moves: tuple[int, ...] = (), cursor: int | None = None) -> None:
        raise NotImplementedError

    # --- commands -----------------------------------------------------------------------------
    def puzzle_command(self, c: Command) -> None:
        if c is Command.PUZZLE_GRADE:
            progress = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
            grades = puzzle_mode.GRADES
            progress = replace(progress, grade=grades[(grades.index(progress.grade) + 1) % len(grades)])
            self.settings.puzzles = progress.to_dict()
            self.save_settings()
            self._next_puzzle()
        elif c is Command.PUZZLES:
            self._next_puzzle()
        elif c is Command.LEARN:
            self._next_mistake()

    def _hold_bots(self) -> None:
        if self.mode_before_puzzle is None:
            self.mode_before_puzzle = self.settings.mode
        self.settings.mode = Mode.HOTSEAT  # nobody moves for you during a puzzle

    def end_challenge(self) -> None:
        """Leave puzzle mode (a new game): the mode chosen before comes back."""
        self.challenge = None
        if self.mode_before_puzzle is not None:
            self.settings.mode, self.mode_before_puzzle = self.mode_before_puzzle, None

    def _next_puzzle(self) -> None:
        progress = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
        puzzle = puzzle_mode.next_puzzle(progress)
        if puzzle is None:
            self.set_notice(f"Every {progress.grade} puzzle is solved: Shift+Z for another grade")
            return
        spec = get_game("connect4")
        moves = tuple(spec.parse_position(puzzle.moves).history)
        mode = self.mode_before_puzzle
        self.new_game(spec, moves)  # (ends any challenge and restores the mode: held again below)
        self.mode_before_puzzle = mode
        self._hold_bots()
        player = puzzle.to_move - 1
        goal = "the win" if puzzle.goal == "win" else "the only move that holds the draw"
        answer = int(puzzle.answer) - 1
        self.challenge = Challenge(
            len(moves),
            player,
            (answer,),
            answer,
            f"Puzzle {puzzle.id} ({puzzle.grade}): find {goal} for {self.names()[player]}",
            puzzle_id=puzzle.id,
        )
        self.set_notice(f"{self.challenge.title} · streak {progress.streak}")

    def _next_mistake(self) -> None:
        review = self.reviewing.review
        if review is None:
            self.set_notice("Review the game first (V), then learn from its mistakes (L)")
            return
        s = self.settings
        players = [s.human_player] if s.mode == "vs-bot" else [0, 1]
        found = sorted((p for player in players for p in self.reviewing.puzzles(player)), key=lambda p: p.ply)
        start = 0 if self.challenge is None or self.challenge.learn_index is None else self.challenge.learn_index + 1
        if start >= len(found):
            self.set_notice("No more mistakes to learn from" if found else "No marked moves to learn from")
            if self.challenge is not None and self.challenge.learn_index is not None:
                self.end_challenge()
            return
        mistake = found[start]
        if tuple(self.session.line[: mistake.ply]) != mistake.moves:
            self.session.set_continuation(())  # (a variation is shown: back to the reviewed line)
        self._hold_bots()
        self.go_to(mistake.ply)
        name = self.names()[mistake.player]
        played = self.session.spec.move_to_text(mistake.played)
        self.challenge = Challenge(
            mistake.ply,
            mistake.player,
            mistake.accepted,
            mistake.best_moves[0] if mistake.best_moves else mistake.accepted[0],
            f"Find a better move for {name} (played {played}, a {mistake.klass})",
            learn_index=start,
        )
        self.set_notice(f"{self.challenge.title} · {start + 1} of {len(found)}")

    # --- judging ------------------------------------------------------------------------------
    def judge_challenge(self, move: int) -> None:
        """Before ``move`` is played: judge it when it answers the open challenge."""
        ch = self.challenge
        sess = self.session
        if ch is None or ch.result is not None or sess.cursor != ch.ply:
            return
        solved = move in ch.accepted
        if ch.puzzle_id is not None:
            progress = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
            pool = [p for p in puzzle_mode.load_puzzles() if p.id == ch.puzzle_id]
            if pool:
                done = puzzle_mode.attempt(progress, pool[0], move)
                solved = done.solved
                self.settings.puzzles = done.progress.to_dict()
                self.save_settings()
        text = sess.spec.move_to_text
        answer = "/".join(text(m) for m in ch.accepted[:3])
        streak = ""
        if ch.puzzle_id is not None:
            p = puzzle_mode.PuzzleProgress.from_dict(self.settings.puzzles)
            streak = f" · streak {p.streak} (best {p.best_streak}) · Z: next"
        else:
            streak = " · L: the next one"
        if solved:
            self.set_notice(f"Solved: {text(move)} is right{streak}")
        else:
            self.set_notice(f"Not {text(move)}: the answer is {answer}{streak}", error=True)
        self.challenge = replace(ch, result="solved" if solved else "failed")
        self.reviewing.hint = Hint(ch.ply, ch.answer, text(ch.answer), True)  # the answer's ghost disc
        self.reviewing.hint_until = self.now + 2 * HINT_SECONDS
        self.reviewing.hint_label = "answer"

    def challenge_frame(self, frame: Frame) -> Frame:
        ch = self.challenge
        if ch is None:
            return frame
        status = frame.status
        head = ch.title if ch.result is None else f"{ch.title}: {ch.result}"
        short = head.split(":")[0]
        return replace(frame, status=replace(status, texts=(head, short, *status.texts)))
