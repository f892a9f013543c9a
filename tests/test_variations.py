"""Issue 39: the move tree: a move at a past position starts a variation; promote, delete; saved beside the main
line in the game file (round trip), and files without variations (every older file) still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.play.savefile import game_to_json, parse_game_text
from game.play.variations import MoveTree, VariationError, tree_of_saved_text, tree_to_saved_text
from game.rules import get_game
from game.rules.errors import IllegalMoveError

pytestmark = pytest.mark.timeout(30)

SPEC = get_game("connect4")


def cols(text: str) -> tuple[int, ...]:
    return SPEC.parse_moves(text)


def sample_tree() -> MoveTree:
    tree = MoveTree(SPEC, cols("4453"))
    tree.add_line(cols("44"), cols("322"))  # a variation at ply 2: 44 322
    tree.add_line(cols("443"), cols("7"))  # nested in it: 443 7 instead of 443 2
    tree.add_line(cols("4"), cols("1"))  # at ply 1: 4 1
    return tree


def test_a_move_at_a_past_position_starts_a_variation() -> None:
    tree = MoveTree(SPEC, cols("4453"))
    path = tree.play(cols("44"), 2)
    assert path == cols("443")
    assert tree.main_line() == cols("4453")  # the main line is kept
    assert tree.alternatives(cols("44")) == (4, 2)  # main continuation first
    assert tree.play(cols("44"), 4) == cols("445") and tree.size() == 5  # an existing move is followed, not added
    assert tree.line_through(cols("4")) == cols("4453")
    full = tree.add_line((), cols("444444"))
    with pytest.raises(IllegalMoveError):
        tree.play(full, 3)
    assert not tree.has((*full, 3))
    with pytest.raises(VariationError, match="no move"):
        tree.node(cols("47"))


def test_promote_and_make_main() -> None:
    tree = sample_tree()
    nested = cols("4437")
    assert not tree.is_main(nested)
    assert tree.promote(nested) == cols("443")  # the deepest branch point first: 7 before 2 after 443
    assert tree.line_through(cols("443")) == nested and tree.main_line() == cols("4453")
    assert tree.promote(nested) == cols("44")  # then 3 before 5 after 44
    assert tree.main_line() == nested
    assert tree.promote(nested) == ()  # already main: nothing changes
    other = sample_tree()
    other.make_main(cols("41"))
    assert other.main_line() == cols("41")
    assert other.alternatives(cols("4")) == (0, 3)


def test_delete() -> None:
    tree = sample_tree()
    assert tree.delete(cols("443")) == cols("44")
    assert tree.alternatives(cols("44")) == (4,) and not tree.has(cols("4437"))
    assert tree.main_line() == cols("4453")
    assert tree.delete(cols("44")) == cols("4")  # the main continuation: the next alternative takes over
    assert tree.main_line() == cols("41")
    tree.delete(cols("4"))
    assert tree.main_line() == () and tree.size() == 0
    with pytest.raises(VariationError):
        tree.delete(())


def test_save_and_load_round_trip() -> None:
    tree = sample_tree()
    text = tree_to_saved_text(tree, cursor=2)
    data = json.loads(text)
    assert data["moves"] == "4453" and data["cursor"] == 2
    assert data["variations"] == [
        {"ply": 1, "moves": "1"},
        {"ply": 2, "moves": "322", "variations": [{"ply": 3, "moves": "7"}]},
    ]
    spec, moves, cursor = parse_game_text(text)  # what any reader of the old format sees: the main line
    assert moves == cols("4453") and cursor == 2
    again = tree_of_saved_text(spec, moves, text)
    assert again.variations_json() == tree.variations_json() and again.size() == tree.size()
    assert sorted(again.branch_points()) == sorted(tree.branch_points())


def test_old_files_load_as_one_line() -> None:
    old = game_to_json(SPEC, cols("4453"))
    assert "variations" not in old
    spec, moves, _ = parse_game_text(old)
    tree = tree_of_saved_text(spec, moves, old)
    assert tree.main_line() == cols("4453") and list(tree.branch_points()) == [] and tree.variations_json() == []
    bare = tree_of_saved_text(spec, cols("44"), "44")  # a bare position string
    assert bare.main_line() == cols("44")


@pytest.mark.parametrize(
    ("variations", "message"),
    [
        ({"ply": 1}, "must be a list"),
        (["x"], "must be an object"),
        ([{"ply": 9, "moves": "1"}], '"ply" must be 0-4'),
        ([{"ply": True, "moves": "1"}], '"ply"'),
        ([{"ply": 1, "moves": ""}], "non-empty"),
        ([{"ply": 1, "moves": "9"}], "variation at ply 1"),
        ([{"ply": 0, "moves": "4444444"}], "full"),
    ],
)
def test_bad_variations_are_one_line(variations: object, message: str) -> None:
    text = json.dumps(
        {"format": "connect4-mcts-game", "version": 1, "game": "connect4", "moves": "4453"} | {"variations": variations}
    )
    with pytest.raises(VariationError, match=message) as info:
        tree_of_saved_text(SPEC, cols("4453"), text)
    assert "\n" not in str(info.value)


def test_a_session_follows_the_tree() -> None:
    """How the app keeps both: the tree records every line, the session shows one (Redo follows the variation)."""
    from game.play.session import Session

    tree = MoveTree(SPEC, cols("4453"))
    session = Session(SPEC, list(cols("4453")), 4)
    session.go_to(2)
    path = tree.play(tuple(session.line[: session.cursor]), 2)
    session.play(2)
    session.set_continuation(tree.line_through(path)[len(path) :])
    assert session.line == list(cols("443")) and tree.main_line() == cols("4453")
    session.go_to(2)
    path = tree.play(tuple(session.line[: session.cursor]), 4)  # back into the main line
    session.play(4)
    session.set_continuation(tree.line_through(path)[len(path) :])
    assert session.line == list(cols("4453")) and session.cursor == 3 and session.position.ply == 3
    with pytest.raises(IllegalMoveError):
        session.set_continuation(cols("4444444"))
    assert session.line == list(cols("4453"))  # unchanged after a refused continuation


def test_the_saved_files_of_the_app_carry_the_tree(tmp_path: Path) -> None:
    """``game_files``: the app's save (with evals) gets the tree with ``with_variations``; ``read_game`` keeps the
    file's text, so the tree loads back from it."""
    from game.play.game_files import game_json_with_evals, read_game
    from game.play.session import Session
    from game.play.variations import with_variations

    session = Session(SPEC, list(cols("4453")), 4)
    session.record_eval(1, 0.4)
    tree = sample_tree()
    path = tmp_path / "g.c4game.json"
    path.write_text(with_variations(game_json_with_evals(session), tree), encoding="utf-8")
    loaded = read_game("connect4", path=path)
    assert loaded.moves == cols("4453") and loaded.evals == {1: (0.6, False)}
    again = tree_of_saved_text(loaded.spec, loaded.moves, loaded.text)
    assert again.variations_json() == tree.variations_json()
    assert with_variations("not json", tree) == "not json"
