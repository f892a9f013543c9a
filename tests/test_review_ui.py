"""The review in the desktop app (issue 39): Review (V) runs progressively and marks the moves in the move list,
on the graph and on the board; [ ] jump between the mistakes; Hint; training mode hides every evaluation; a
move at a past position starts a variation; puzzles and "learn from your mistakes"; Share writes a PNG and a
GIF; the review and the variations are kept in saved files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from test_ui_fakes import make_test_app

from game.play import puzzle_mode
from game.play.actions import Command, PlayMove
from game.play.gif import GifFrame, encode, lzw
from game.play.review_session import ReviewState
from game.play.variations import tree_of_saved_text
from game.ui import app_review, game_app, layout_check, text, view
from game.ui.board_view import Connect4Painter
from game.ui.move_list import variation_cells

pytestmark = pytest.mark.timeout(120)

BLUNDER_GAME = "4444442"  # Red's 7th move (2) throws a win in 18 away: a draw (docs/review.md)
SIZES = [(1120, 760), (640, 480), (1600, 1000)]


@pytest.fixture
def made() -> Iterator[Any]:
    apps: list[game_app.App] = []

    def factory(*args: Any, **kw: Any) -> Any:
        app, client = make_test_app(*args, **kw)
        apps.append(app)
        return app, client

    yield factory
    for app in apps:
        app.review.reviewing.stop()
        app.close()


def reviewed(app: game_app.App) -> float:
    """Run Review to its end through the app's frames; the frame time it ends at."""
    app.apply(Command.REVIEW)
    assert app.review.reviewing.wait(90)
    now = app.now + 0.05
    app.step([], now=now)
    assert not app.review.reviewing.running and app.review.reviewing.review is not None
    return now


def test_review_marks_the_blunder_everywhere(made: Any) -> None:
    app, _ = made("connect4", BLUNDER_GAME, size=(1120, 760))
    app.go_to(3)
    now = reviewed(app)
    review = app.review.reviewing.review
    assert review is not None and review.reviews[6].klass == "blunder"
    assert app.session.cursor == 3  # the board stayed where it was
    frame = app.snapshot()
    assert frame.review is not None
    assert frame.review.classes[6] == "blunder" and frame.review.classes[0] == "best"
    assert frame.graph[7] is not None  # the graph has the position after the blunder
    assert "Red" in frame.graph_label[0] and "1 blunder" in frame.graph_label[0]  # the summary beside the graph
    app.apply(Command.NEXT_MISTAKE)
    assert app.session.cursor == 7  # the position after the marked move
    app.step([], now=now + 0.1)
    frame = app.snapshot()
    assert frame.review is not None
    assert frame.review.note[0] == "blunder: Red played 2: draw; best 3/5: win in 18"  # the mover named
    assert frame.review.best == 2 and frame.review.best_cell == 2  # the ghost disc in column 3, bottom row
    app.apply(Command.PREV_MISTAKE)
    assert app.session.cursor == 7  # none before it: stays


def test_the_review_is_kept_in_the_saved_game(made: Any) -> None:
    app, _ = made("connect4", BLUNDER_GAME)
    reviewed(app)
    app.review.reviewing.hints.add(2)
    saved = app.variations.saved_text(
        json.dumps({"format": "connect4-mcts-game", "version": 1, "game": "connect4", "moves": BLUNDER_GAME})
    )
    assert json.loads(saved)["review"]["positions"]
    other, _ = made("connect4", "")
    other.new_game(app.session.spec, tuple(app.session.line))
    other.variations.loaded_text(saved)
    assert other.review.reviewing.review is not None and other.review.reviewing.review.reviews[6].klass == "blunder"


def test_a_move_at_a_past_position_starts_a_variation_kept_in_the_file(made: Any) -> None:
    app, _ = made("connect4", "4453")
    app.go_to(2)
    app.apply(PlayMove(0))  # "1" instead of "5"
    assert app.session.line == [3, 3, 0]
    assert sorted(app.variations.tree.alternatives((3, 3))) == [0, 4]  # the old line is kept
    assert app.variations.counts()[2] == 1
    saved = app.variations.saved_text(
        json.dumps({"format": "connect4-mcts-game", "version": 1, "game": "connect4", "moves": "441"})
    )
    data = json.loads(saved)
    assert data["moves"] == "4453" and data["variations"]  # the main line stays the file's moves
    tree = tree_of_saved_text(app.session.spec, (3, 3, 4, 2), saved)
    assert tree.alternatives((3, 3)) == (4, 0)
    assert app.variations.rows() == ((1, "↳ 2. 5 3"),)  # the old line, indented under move 2's row
    app.apply(Command.FOLD_VARIATIONS)
    assert app.variations.rows() == () and app.variations.inserts() == () and app.variations.counts()[2] == 1
    app.apply(Command.FOLD_VARIATIONS)
    app.step([], now=app.now + 0.05)
    panel = app.layout.panel
    assert panel is not None and panel.moves_rect is not None
    cell, index = variation_cells(panel.moves_rect, 3, app.move_scroll, app.variations.inserts())[0]
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=cell.center)], now=app.now + 0.1)
    assert app.session.line == [3, 3, 4, 2] and app.session.cursor == 3  # the click shows that line
    assert app.variations.rows() == ((1, "↳ 2. 1"),)
    app.apply(PlayMove(0))  # another variation, one move deeper: 4 4 5 1
    assert app.variations.rows() == ((1, "↳ 2. 1"), (1, "↳ 2… 3"))
    app.go_to(2)
    app.apply(Command.NEXT_VARIATION)
    app.apply(Command.PROMOTE)
    assert app.variations.tree.main_line() == (3, 3, 0)
    app.go_to(2)
    app.apply(Command.NEXT_VARIATION)
    assert app.session.line == [3, 3, 4, 2]
    app.go_to(3)
    app.apply(Command.DELETE_MOVE)
    assert app.variations.tree.alternatives((3, 3)) == (0,)


def test_a_variation_better_than_the_reviewed_move_says_so(made: Any) -> None:
    app, _ = made("connect4", BLUNDER_GAME)
    reviewed(app)
    app.go_to(6)
    app.apply(PlayMove(2))  # 3 instead of the blunder 2: a win
    assert app.variations.rows() == ((3, "↳ 4. 2"),)  # the reviewed move itself: no praise
    app.go_to(6)
    app.apply(Command.NEXT_VARIATION)  # back to the game: the variation 3 was better
    assert app.variations.rows() == ((3, "↳ 4. 3 (better: win in 18)"),)
    app.apply(Command.LEARN)  # the blunder as a puzzle: the move list gives nothing away
    assert app.puzzles.challenge is not None and app.variations.rows() == ((3, "↳ 4. 3"),)


def test_training_mode_hides_every_evaluation_until_the_game_ends(made: Any) -> None:
    app, _ = made("connect4", "4453", heatmap=True, exact=True, eval_bar=True)
    app.session.evals[2] = 0.7
    app.apply(Command.TRAINING)
    assert app.settings.training
    frame = app.snapshot()
    assert frame.eval_bar is None and frame.board.heat is None and frame.board.verdicts is None
    assert all(p is None for p in frame.graph) and frame.review is not None and frame.review.training
    app.apply(Command.TRAINING)
    assert app.snapshot().eval_bar is not None


def test_a_hint_is_shown_and_counted(made: Any) -> None:
    app, _ = made("connect4", "444444")
    app.apply(Command.HINT)
    assert app.review.reviewing.wait_hint(60)
    app.step([], now=app.now + 0.05)
    frame = app.snapshot()
    assert frame.review is not None and frame.review.hint is not None
    assert frame.review.hint_cell == frame.review.hint  # the bottom row of its column
    assert 6 in app.review.reviewing.hints
    assert app.notice is not None and app.notice.notice.text.startswith("Hint: ")


def test_a_puzzle_solved_then_one_failed_keeps_the_streak_in_the_settings(made: Any) -> None:
    app, _ = made("connect4", "44", mode="vs-bot", exact=True, heatmap=True, eval_bar=True)
    app.apply(Command.PUZZLES)
    ch = app.puzzles.challenge
    assert ch is not None and ch.puzzle_id is not None and app.settings.mode == "vs-bot"  # the mode stays
    puzzle_line = list(app.session.line)
    for i in range(5):
        app.step([], now=app.now + 0.5 * (i + 1))
    assert app.session.line == puzzle_line  # no bot moves in a puzzle
    frame = app.snapshot()  # nothing gives the answer away
    assert frame.board.verdicts is None and frame.board.heat is None and frame.eval_bar is None
    app.apply(PlayMove(ch.answer))
    assert puzzle_mode.PuzzleProgress.from_dict(app.settings.puzzles).streak == 1
    assert app.session.line == puzzle_line  # judged, not played
    app.apply(Command.PUZZLES)
    ch = app.puzzles.challenge
    assert ch is not None
    wrong = next(m for m in app.session.position.legal_moves() if m != ch.answer)
    app.apply(PlayMove(wrong))
    progress = puzzle_mode.PuzzleProgress.from_dict(app.settings.puzzles)
    assert progress.streak == 0 and ch.puzzle_id in progress.failed and progress.best_streak == 1
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")], now=app.now + 0.05)
    assert app.puzzles.challenge is None and app.session.line == [3, 3] and app.settings.mode == "vs-bot"


def test_learn_from_your_mistakes_replays_the_blunder(made: Any) -> None:
    app, _ = made("connect4", BLUNDER_GAME)
    reviewed(app)
    app.apply(Command.LEARN)
    ch = app.puzzles.challenge
    assert ch is not None and ch.ply == 6 and app.session.cursor == 6
    app.apply(PlayMove(4))  # 5: one of the best moves
    assert app.puzzles.challenge is not None and app.puzzles.challenge.result == "solved"


def test_share_writes_a_png_and_a_gif(made: Any, tmp_path: Path) -> None:
    app, _ = made("connect4", BLUNDER_GAME)
    reviewed(app)
    app.go_to(2)
    app.apply(PlayMove(0))  # a variation is shown: the reviewed game is shared all the same
    notice, ok = app.review.share_files(tmp_path)
    assert app.session.line == [3, 3, 0]
    assert ok, notice
    png = next(tmp_path.glob("*.png"))
    gif = next(tmp_path.glob("*.gif"))
    assert pygame.image.load(str(png)).get_size() == (960, 560)
    data = gif.read_bytes()
    assert data[:6] == b"GIF89a" and data[-1] == 0x3B
    assert data.count(b"\x21\xf9\x04") == len(BLUNDER_GAME) + 1  # one frame per position


def test_share_copies_the_summary_with_the_position_string(
    made: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, _ = made("connect4", BLUNDER_GAME)
    reviewed(app)
    copied: list[str] = []
    monkeypatch.setattr(app_review, "games_dir", lambda: tmp_path)

    def copy(text: str) -> bool:
        copied.append(text)
        return True

    monkeypatch.setattr("game.ui.files.copy_text", copy)
    app.apply(Command.SHARE)
    assert copied and "connect4.gamesolver.org/?pos=4444442" in copied[0]
    assert len(list(tmp_path.glob("*.gif"))) == 1


def test_the_gif_encoder_round_trips_through_pygame(tmp_path: Path) -> None:
    w, h = 120, 100  # enough pixels of noise to fill the LZW table (4096 codes) more than once
    state = 39
    values = []
    for _ in range(w * h):
        state = (state * 1103515245 + 12345) % 2**31
        values.append((state >> 16) % 7)
    pixels = bytes(values)
    palette = [(i * 30, 255 - i * 30, 100) for i in range(7)]
    path = tmp_path / "a.gif"
    path.write_bytes(encode(w, h, palette, [GifFrame(0, 0, w, h, pixels, 10)]))
    surface = pygame.image.load(str(path))
    got = [tuple(surface.get_at((i % w, i // w)))[:3] for i in range(w * h)]
    assert got == [palette[v] for v in values]
    assert len(lzw(bytes(5000))) < 200  # a run compresses


def test_review_state_marks_only_the_moves_a_variation_shares() -> None:
    state = ReviewState()
    assert state.marks([3, 3]) == ("", "")
    assert state.jump([3], 0, 1) is None


@pytest.mark.parametrize("size", SIZES)
def test_review_texts_fit_at_every_size(made: Any, size: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _ = made("connect4", BLUNDER_GAME, size=size, eval_bar=True)
    now = reviewed(app)
    app.go_to(6)
    app.apply(PlayMove(2))  # a variation: its row is drawn under move 4 (with "better: win in 18")
    app.go_to(6)
    app.apply(Command.NEXT_VARIATION)
    app.apply(Command.NEXT_MISTAKE)
    app.notice = None
    for drawer in (False, True):
        app.window.panel_open = drawer
        app.step([], now=now)
        monkeypatch.setattr(view, "_CONNECT4", Connect4Painter())
        with text.recording() as drawn:
            app.step([], now=now)
        problems = layout_check.problems(list(drawn), pygame.Rect((0, 0), size))
        assert not problems, problems
        labels = [d.label for d in drawn]
        if not app.layout.narrow or drawer:
            assert "??" in labels
        if not app.layout.narrow:  # (the drawer's short move list shows the rows around the cursor)
            assert any(label.startswith("↳ 4. 3") for label in labels)
