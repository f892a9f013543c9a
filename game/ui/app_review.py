"""The app's review commands: Review, the jumps between mistakes, Hint, training mode, sharing, and what a frame
shows of the review. A handler of the app's commands that talks back with effects (``game.ui.effects``); the
model is ``game.play.review_session.ReviewState``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pygame

from game.play.actions import Command
from game.play.learn_layer import Challenge
from game.play.review_session import PositionScores, ReviewState, first_player_value, share_text
from game.play.session import Session
from game.play.settings import Settings, games_dir
from game.rules.capabilities import GameCapabilities
from game.ui import files, share
from game.ui.app_dialog import theme_of
from game.ui.effects import Effects, GameChanged, Notice, SaveSettings, ShowPly
from game.ui.frame import Frame, Progress, ReviewView


class Review:
    """Owns the game's review and hints (``ReviewState``); reads the session, the settings, the game's
    capabilities, the players' names, the open puzzle, and (to share) the frame; talks back with effects."""

    COMMANDS: tuple[Command, ...] = (
        Command.REVIEW,
        Command.HINT,
        Command.TRAINING,
        Command.NEXT_MISTAKE,
        Command.PREV_MISTAKE,
        Command.SHARE,
    )

    def __init__(
        self,
        settings: Settings,
        session: Session,
        caps: Callable[[], GameCapabilities],
        names: Callable[[], tuple[str, str]],
        snapshot: Callable[[], Frame],
        challenge: Callable[[], Challenge | None],
    ) -> None:
        self.settings, self.session = settings, session
        self._caps, self._names, self._snapshot, self._challenge = caps, names, snapshot, challenge
        self.reviewing = ReviewState()  # the game's review, hints (game/play/review_session.py)

    # --- commands -----------------------------------------------------------------------------
    def handle(self, c: Command) -> Effects:
        sess, state = self.session, self.reviewing
        if c is Command.REVIEW:
            if not sess.line:
                return [Notice("No moves to review yet")]
            state.start(sess.spec, sess.line, shown=sess.cursor)
            kind = "exact: opening book and solver" if state.review is not None and state.review.exact else "estimates"
            return [
                GameChanged(),
                Notice(f"Reviewing {len(sess.line)} moves ({kind}); [ and ] jump between the mistakes"),
            ]
        if c is Command.HINT:
            if sess.position.outcome.is_over:
                return [Notice("The game is over: no hint")]
            asked = state.ask_hint(sess.spec, sess.line[: sess.cursor])
            return [Notice("Looking for the best move…", about_position=True)] if asked else []
        if c is Command.TRAINING:
            self.settings.training = not self.settings.training
            on = "Training: every evaluation hidden until the game ends (K shows them)"
            return [SaveSettings(), Notice(on if self.settings.training else "Training off: evaluations shown")]
        if c in (Command.NEXT_MISTAKE, Command.PREV_MISTAKE):
            return self._jump(1 if c is Command.NEXT_MISTAKE else -1)
        if c is Command.SHARE:
            return self._share()
        return []

    def _jump(self, direction: int) -> Effects:
        sess, state = self.session, self.reviewing
        if state.review is None:
            return [Notice("Review the game first (V)")]
        target = state.jump(sess.line, sess.cursor, direction)
        if target is None:
            return [Notice("No more marked moves that way" if state.marked(sess.line) else "No marked moves")]
        return [ShowPly(target)]

    def _share(self) -> Effects:
        state = self.reviewing
        if state.review is None:
            return [Notice("Review the game first (V), then share it", error=True)]
        text, ok = self.share_files(games_dir())
        copied = ok and files.copy_text(share_text(state.review))  # the summary with the position string
        return [Notice(text + (" (the summary is on the clipboard)" if copied else ""), error=not ok)]

    # --- each frame ---------------------------------------------------------------------------
    def update(self, now: float) -> Effects:
        """Each frame: the review's new numbers go into the session's evaluations; its news and a hint's answer."""
        state, sess = self.reviewing, self.session
        state.keep_in_step(sess.spec, sess.line)
        found = state.poll()
        effects: Effects = []
        if found and state.review is not None:
            self._record(found)
            if state.review is not None and not state.running:
                effects.append(GameChanged())  # kept in the autosave
        finished = state.finished_text()
        if finished is not None:
            effects.append(Notice(finished))
        if state.error:
            effects.append(Notice(f"The review stopped: {state.error}", error=True))
            state.error = None
        hint, answered = state.poll_hint(now)
        if answered and hint is None:
            effects.append(Notice("No hint found in time", error=True))
        elif answered and hint is not None:
            effects += [Notice(f"Hint: {hint.text}", about_position=True), GameChanged()]
        return effects

    def _record(self, found: list[PositionScores]) -> None:
        sess, review = self.session, self.reviewing.review
        assert review is not None
        for numbers in found:
            if numbers.ply >= len(review.positions):
                continue
            known = first_player_value(numbers, review.positions[numbers.ply].to_move, review.max_score)
            if known is None:
                continue
            value, proven = known
            if proven:
                sess.proofs[sess.spec.moves_to_text(list(review.moves[: numbers.ply]))] = value
            else:
                sess.evals[numbers.ply] = value
        for ply, r in review.reviews.items():  # the position after each judged move, from its score
            after = r.after / 100.0 if r.mover == 0 else 1.0 - r.after / 100.0
            key = sess.spec.moves_to_text(list(review.moves[: ply + 1]))
            if r.exact:
                sess.proofs.setdefault(key, after)
            elif ply + 1 not in sess.evals:
                sess.evals[ply + 1] = after

    def share_files(self, folder: Path) -> tuple[str, bool]:
        """Write the PNG and the GIF of the reviewed game to ``folder``: (a notice naming them, True) or (why not)."""
        sess, review_model = self.session, self.reviewing.review
        if review_model is None:
            return "Review the game first (V)", False
        old_line, old_cursor, old_evals = list(sess.line), sess.cursor, dict(sess.evals)
        sess.go_to(0)
        sess.set_continuation(review_model.moves)  # the reviewed game, also while a variation is shown
        sess.go_to(len(review_model.moves))
        try:
            frame = self._snapshot()
            positions = [sess.position_at(p) for p in range(len(sess.line) + 1)]
            cells = [None] + [landed_cell(sess, p, self._caps()) for p in range(len(sess.line))]
        finally:
            sess.go_to(0)
            sess.set_continuation(old_line)
            sess.go_to(old_cursor)
            sess.evals = old_evals
        review = frame.review
        lines = [
            f"{self._names()[s.player]}: accuracy {'-' if s.accuracy is None else f'{s.accuracy:.1f}'}; "
            + ", ".join(f"{s.count(k)} {k}" for k in ("inaccuracy", "mistake", "blunder"))
            for s in review_model.summary()
        ]
        png, gif = share.share_paths(folder, sess.spec.name)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            share.save_png(share.render_png(frame, tuple(lines)), png)
            gif.write_bytes(share.render_gif(frame, positions, cells, review.classes if review else ()))
        except (OSError, pygame.error) as exc:
            return f"Could not share to {folder}: {exc}", False
        return f"Shared: {png} and {gif.name}", True

    def _hint_cell(self, ply: int, move: int) -> int | None:
        """Where a hint's disc would land (none when that very move was played: it is on the board)."""
        sess = self.session
        if sess.cursor > ply and sess.line[ply] == move:
            return None
        return landing_cell(sess, ply, move, self._caps())

    def evaluations_hidden(self) -> bool:
        """Training mode hides every evaluation until the game ends (or a review is asked for); an open puzzle
        hides them until it is answered."""
        challenge = self._challenge()
        if challenge is not None and challenge.result is None and self.session.cursor == challenge.ply:
            return True
        return (
            self.settings.training and not self.session.final_position.outcome.is_over and self.reviewing.review is None
        )

    def frame(self, frame: Frame, now: float) -> Frame:
        """The frame with the review's part (and training mode's hiding) applied."""
        state, sess = self.reviewing, self.session
        hidden = self.evaluations_hidden()
        hint = state.shown_hint(now, sess.cursor)
        if state.review is None and hint is None and not hidden:
            return replace(frame, panel=replace(frame.panel, training=self.settings.training))
        count = len(sess.line)
        classes = state.marks(sess.line)
        note = state.note(sess.line, sess.cursor, self._names()) if not hidden else None
        best_cell = None
        if note is not None and note.best is not None:
            best_cell = landing_cell(sess, note.ply, note.best, self._caps())
        view = ReviewView(
            classes=classes,
            note=note.texts if note is not None else (),
            note_class=note.klass if note is not None else "",
            played=note.played if note is not None else None,
            best=note.best if note is not None else None,
            best_cell=best_cell,
            summary=state.summary_texts(self._names()) if not hidden else (),
            progress=state.progress(),
            hint=hint.move if hint is not None else None,
            hint_cell=self._hint_cell(hint.ply, hint.move) if hint is not None else None,
            hint_label=state.hint_label,
            training=hidden,
        )
        panel = replace(frame.panel, reviewed=state.review is not None, training=self.settings.training)
        out = replace(frame, review=view, panel=panel)
        if hidden:
            out = replace(
                out,
                board=replace(out.board, heat=None, verdicts=None),
                eval_bar=None,
                graph=(None,) * len(out.graph),
                graph_label="hidden: find the move" if self._challenge() is not None else "hidden: training mode (K)",
            )
        elif view.summary:
            out = replace(out, graph_label=view.summary)  # (the longest that fits is drawn)
        status = out.status
        if view.progress is not None and status.progress is None:
            done = len(state.review.numbers) if state.review is not None else 0
            total = count + 1
            status = replace(
                status,
                progress=Progress(
                    (f"review {done}/{total}", f"{done}/{total}"), view.progress, theme_of(self.settings).accent
                ),
            )
        if view.note and frame.banner is not None:
            status = replace(status, texts=(*view.note, *status.texts))
        return replace(out, status=status)


def landed_cell(sess: Session, ply: int, caps: GameCapabilities) -> int | None:
    """The cell the move after ``ply`` moves landed on."""
    return landing_cell(sess, ply, sess.line[ply], caps)


def landing_cell(sess: Session, ply: int, move: int, caps: GameCapabilities) -> int | None:
    """The cell a move lands on at the position after ``ply`` moves (Connect 4: the column's lowest hole)."""
    if ply > len(sess.line):
        return None
    pos = sess.position_at(ply)
    if not caps.gravity:
        return move
    for row in range(caps.height):
        cell = row * caps.width + move
        if pos.cell(cell) is None:
            return cell
    return None
