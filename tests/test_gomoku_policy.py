"""The Gomoku move ordering (``gomoku_patterns.POLICY_*``, ``gomoku_ab._gen``) and the tool that fits it
(``tools/fit_policy.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ai.mcts.gomoku_ab import MAXM, MAXPLY, MUST, POLICY_BASE, _gen, _near_class
from ai.mcts.gomoku_patterns import CELL_CLASS, T_THREE_THREE
from ai.mcts.gomoku_search import GomokuSearcher
from tests.test_gomoku_ab import GOMOKU
from tests.tools_loader import load_tool

fit_policy = load_tool("fit_policy")
PW = 25  # the padded board's pitch for 15x15


def candidate_scores(  # type: ignore[no-untyped-def]
    searcher: GomokuSearcher, position, p: int, width: int = MAXM, killer: int = -1, last: int = -1, own: int = -1
) -> dict[int, int]:
    """``_gen`` at an inner node (ply 1, no history): the ordering score of each candidate cell (padded) of ``p``
    to move, ``killer`` in both killer slots, ``last`` / ``own`` the last stones (padded, -1: none)."""
    board, cnt, ev, n4, near, hsh = searcher._board(position)
    mv = np.zeros((MAXPLY, MAXM), dtype=np.int64)
    sc = np.zeros((MAXPLY, MAXM), dtype=np.int64)
    killers = np.full((MAXPLY, 2), killer, dtype=np.int64)
    hist = np.zeros(board.shape[0], dtype=np.int64)
    info = np.zeros(3, dtype=np.int64)
    g, cwin, wcell = searcher.g, searcher.cwin, searcher.wcell
    n = int(_gen(g, cwin, wcell, board, cnt, near, p, 1, -1, killers, hist, width, mv, sc, info, last, own))
    return {int(mv[1, i]): int(sc[1, i]) >> 2 for i in range(n)}


def test_near_classes_are_the_chebyshev_distance() -> None:
    c = 12 * PW + 12
    assert _near_class(PW, c, c + 1) == 0
    assert _near_class(PW, c, c - 2 * PW + 1) == 1
    assert _near_class(PW, c, c + 3) == 2
    assert _near_class(PW, c, c + 4 * PW - 4) == 3
    assert _near_class(PW, c, c + 5) == 4
    assert _near_class(PW, c, c - 9 * PW) == 4
    assert _near_class(PW, c, -1) == 4


def test_a_cell_next_to_the_last_stones_ranks_higher() -> None:
    searcher = GomokuSearcher(GOMOKU)
    position = GOMOKU.start().play(112).play(113).play(97)  # X (7,7), O (8,7), X (7,6)
    o_stone = searcher.padded(113)
    plain = candidate_scores(searcher, position, 2)
    after = candidate_scores(searcher, position, 2, last=searcher.padded(97))
    assert after[searcher.padded(82)] > plain[searcher.padded(82)]  # (7,5): next to X's last stone
    own = candidate_scores(searcher, position, 2, own=o_stone)
    assert own[searcher.padded(114)] > plain[searcher.padded(114)]  # (9,7): next to O's own stone


def test_the_tool_scores_candidates_as_the_search_orders_them() -> None:
    searcher = GomokuSearcher(GOMOKU)
    rng = np.random.default_rng(7)
    pw = int(searcher.g[0])
    for _ in range(5):
        position = GOMOKU.start()
        cells = [int(c) for c in rng.permutation(np.arange(225).reshape(15, 15)[4:11, 4:11].ravel())[:14]]
        for c in cells:
            position = position.play(c)
        p = 1  # 14 stones: X to move
        last, own = searcher.padded(cells[-1]), searcher.padded(cells[-2])
        got = candidate_scores(searcher, position, p, last=last, own=own)
        board, cnt, *_ = searcher._board(position)
        for cell, score in got.items():
            features = fit_policy.cell_features(cnt, pw, cell, p - 1, (own, last))
            expected = POLICY_BASE + int(fit_policy.current_scores(features[None, :])[0])
            if CELL_CLASS[cnt[cell * 4, 4]] >= T_THREE_THREE or CELL_CLASS[cnt[cell * 4 + 1, 4]] >= T_THREE_THREE:
                expected += MUST
            assert score == expected


def test_the_fit_finds_the_features_the_choices_follow() -> None:
    rng = np.random.default_rng(3)
    truth = np.zeros(fit_policy.FEATURES)
    truth[[4, 26, 36]] = (2.0, 1.0, 1.5)  # an open-three shape of the mover, the opponent's, a near cell
    positions, width = 400, 12
    x = rng.integers(0, 2, size=(positions * width, fit_policy.FEATURES)).astype(float)
    lens = np.full(positions, width)
    utility = (x @ truth).reshape(positions, width) + rng.gumbel(size=(positions, width))
    chosen = utility.argmax(axis=1)
    w = fit_policy.fit(x, lens, chosen)
    assert set(np.argsort(-w)[:3]) == {4, 26, 36}
    fitted = fit_policy.recall(x @ w, lens, chosen, (1, 3))
    best = fit_policy.recall(x @ truth, lens, chosen, (1, 3))  # the true weights, blind to the noise
    assert fitted[0] > best[0] - 0.05 and fitted[1] > best[1] - 0.05
    assert fitted[0] > 3 / width  # far above a random order


def test_the_samples_of_a_record_are_the_opponent_moves() -> None:
    game = {
        "start": [[7, 7], [8, 8], [6, 9]],
        "ours_black": True,  # ours X: theirs O moves at plies 3, 5
        "moves": [[9, 9], [5, 5], [10, 10], [4, 4]],
    }
    x, lens, chosen, game_of = fit_policy.samples([game])
    assert len(lens) == 2 and x.shape == (int(lens.sum()), fit_policy.FEATURES)
    assert list(game_of) == [0, 0]
    first = x[int(chosen[0])]
    assert first[36 + 2] == 1  # (9,9) is 3 steps from X's last stone (6,9)
    assert first[41 + 0] == 1  # and next to O's own (8,8)


def test_the_root_orders_with_the_games_last_stones() -> None:
    from ai.mcts.gomoku_search import _root_moves

    searcher = GomokuSearcher(GOMOKU)
    position = GOMOKU.start().play(112).play(113).play(97)  # X (7,7), O (8,7), X (7,6): O to move
    board, cnt, ev, n4, near, hsh = searcher._board(position)
    mv = np.zeros((MAXPLY, MAXM), dtype=np.int64)
    sc = np.zeros((MAXPLY, MAXM), dtype=np.int64)
    g, cwin, wcell = searcher.g, searcher.cwin, searcher.wcell

    def rank(cell: int, last: int, own: int) -> int:
        out = np.zeros(MAXM, dtype=np.int64)
        n = int(_root_moves(g, cwin, wcell, board, cnt, near, 2, out, mv, sc, last, own))
        return [int(c) for c in out[:n]].index(searcher.padded(cell))

    plain = rank(114, -1, -1)  # (9,7): next to O's own stone (8,7)
    assert rank(114, searcher.padded(97), searcher.padded(113)) < plain


def test_the_tool_refuses_records_without_games_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "r.jsonl"
    for text, message in (
        ('3\n["start"]\n{"moves": []}\n', "error: no positions in the records"),  # JSON, but no game
        ('{"start": [\n', "r.jsonl:1: not a JSON line"),
    ):
        records.write_text(text)
        with pytest.raises(SystemExit) as exit_:
            fit_policy.main([str(records)])
        assert exit_.value.code == 2
        assert capsys.readouterr().err.strip().splitlines()[-1].endswith(message)
