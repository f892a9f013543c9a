"""Fit the Gomoku move ordering (``gomoku_patterns.POLICY_*``) to the moves of a stronger engine.

    python tools/fit_policy.py RECORDS.jsonl [...] [--ridge 0.001]

The records are the JSON lines of ``python -m ai.benchmarks.piskvork_match --records``: at every move of
*theirs* (the opponent engine) where no four is on the board and our side has no open-four cell (there the
alpha-beta's threat filter, not the ordering, picks the moves), each candidate cell (empty, within 2 of a
stone, as ``gomoku_ab._gen`` sees them) is described by the features the ordering scores:

- for the side to move and for its opponent: how many of the cell's 4 lines have each shape (8 counts)
  and the cell's threat class (one of 10);
- the Chebyshev distance (1, 2, 3, 4, 5 or more) to the opponent's last stone and to the mover's own.

A conditional logit (softmax over the candidates of each position, the chosen move the label) is fitted by
Newton's method with a small ridge. It prints the held-out recall (the chosen move within the first 1 / 3 /
8 / 12 cells) of the current ordering and of the fit, every fifth game held out, and the constants to put
in ``ai/mcts/gomoku_patterns.py`` (weights times 1000).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ai.mcts.gomoku_ab import _near_class  # noqa: E402
from ai.mcts.gomoku_board import make, new_state  # noqa: E402
from ai.mcts.gomoku_patterns import (  # noqa: E402
    CELL_CLASS,
    CELL_SHAPES,
    POLICY_CLASS,
    POLICY_NEAR,
    POLICY_SHAPE,
    T_FLEX4,
)
from ai.mcts.gomoku_search import GomokuSearcher  # noqa: E402
from game.rules.mnk import MnkSpec  # noqa: E402

FEATURES = 8 + 10 + 8 + 10 + 5 + 5
SIZE = 15
RECALL_AT = (1, 3, 8, 12)


def cell_features(cnt: np.ndarray, pw: int, cell: int, q: int, last: tuple[int, int]) -> np.ndarray:
    """The features of a stone of player ``q + 1`` on ``cell`` (``last``: the last stones of players 1 / 2)."""
    f = np.zeros(FEATURES)
    for side, player in enumerate((q, 1 - q)):
        index = cnt[cell * 4 + player, 4]
        for shape in CELL_SHAPES[index]:
            f[18 * side + shape] += 1
        f[18 * side + 8 + CELL_CLASS[index]] = 1
    f[36 + int(_near_class(pw, cell, last[1 - q]))] = 1  # type: ignore[no-untyped-call]
    f[41 + int(_near_class(pw, cell, last[q]))] = 1  # type: ignore[no-untyped-call]
    return f


def samples(games: Iterable[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(features of every candidate, candidates per position, index of the chosen one, game number)``."""
    spec = MnkSpec(SIZE, SIZE, 5)
    searcher = GomokuSearcher(spec)
    g, cwin, zob = searcher.g, searcher.cwin, searcher.zob
    pw = int(g[0])
    rows: list[np.ndarray] = []
    lens: list[int] = []
    chosen: list[int] = []
    game_of: list[int] = []
    for number, game in enumerate(games):
        stones = [tuple(s) for s in game["start"]] + [tuple(s) for s in game["moves"]]
        ours = 1 if game["ours_black"] else 2
        board = searcher._empty.copy()
        cnt, ev, n4, near, hsh = new_state(g)
        last = [-1, -1]
        for i, (x, y) in enumerate(stones):
            p = i % 2 + 1
            q = p - 1
            cell = searcher.padded((SIZE - 1 - y) * SIZE + x)
            if i >= len(game["start"]) and p != ours and n4[0] == 0 and n4[1] == 0:
                cells = [c for c in range(board.shape[0]) if board[c] == 0 and near[c] > 0]
                threatened = any(CELL_CLASS[cnt[c * 4 + 1 - q, 4]] >= T_FLEX4 for c in cells)
                if not threatened and cell in cells:
                    rows.extend(cell_features(cnt, pw, c, q, (last[0], last[1])) for c in cells)
                    lens.append(len(cells))
                    chosen.append(cells.index(cell))
                    game_of.append(number)
            make(g, cwin, board, cnt, ev, n4, near, hsh, zob, cell, p)  # type: ignore[no-untyped-call]
            last[q] = cell
    x = np.array(rows).reshape(-1, FEATURES)
    return x, np.array(lens, dtype=np.int64), np.array(chosen, dtype=np.int64), np.array(game_of, dtype=np.int64)


def fit(x: np.ndarray, lens: np.ndarray, chosen: np.ndarray, ridge: float = 1e-3, steps: int = 30) -> np.ndarray:
    """Weights maximising the mean log-likelihood of the chosen moves less ``ridge`` times their squares."""
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    group = np.repeat(np.arange(len(lens)), lens)
    target = x[starts + chosen].sum(axis=0)
    n = len(lens)

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        s = x @ w
        top = np.maximum.reduceat(s, starts)
        e = np.exp(s - top[group])
        z = np.add.reduceat(e, starts)
        value = float((target @ w - (top + np.log(z)).sum()) / n - ridge * w @ w)
        return value, e / z[group]

    w = np.zeros(x.shape[1])
    value, p = objective(w)
    for _ in range(steps):
        mean = np.add.reduceat(x * p[:, None], starts)  # per position: the expected features
        grad = (target - mean.sum(axis=0)) / n - 2 * ridge * w
        hess = (x.T @ (x * p[:, None]) - mean.T @ mean) / n + 2 * ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        while scale > 1e-4:  # halve the Newton step until the objective improves
            better, q = objective(w + scale * step)
            if better >= value:
                break
            scale /= 2
        else:
            break
        w, value, p = w + scale * step, better, q
        if np.abs(scale * step).max() < 1e-5:
            break
    return w


def recall(score: np.ndarray, lens: np.ndarray, chosen: np.ndarray, at: Iterable[int] = RECALL_AT) -> list[float]:
    """The share of positions whose chosen cell is among the first ``k`` by ``score`` (ties count against)."""
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    rank = np.array(
        [(score[a : a + m] >= score[a + c]).sum() - 1 for a, m, c in zip(starts, lens, chosen, strict=True)]
    )
    return [float(np.mean(rank < k)) for k in at]


def current_scores(x: np.ndarray) -> np.ndarray:
    """The ordering scores of ``gomoku_patterns`` as they are, from the features."""
    mover, opponent = (np.concatenate([POLICY_SHAPE[i], POLICY_CLASS[i]]) for i in range(2))
    w = np.concatenate([mover, opponent, POLICY_NEAR[0], POLICY_NEAR[1]])
    scores: np.ndarray = x @ w.astype(float)
    return scores


def constants(w: np.ndarray) -> str:
    """The weights as the constants of ``gomoku_patterns`` (times 1000)."""
    k = np.round(w * 1000).astype(int).tolist()
    return (
        f"POLICY_SHAPE = {[k[0:8], k[18:26]]}\n"
        f"POLICY_CLASS = {[k[8:18], k[26:36]]}\n"
        f"POLICY_NEAR = {[k[36:41], k[41:46]]}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, help="piskvork_match --records files (JSON lines)")
    parser.add_argument("--ridge", type=float, default=1e-3, help="L2 penalty of the weights")
    args = parser.parse_args(argv)
    games = []
    for path in args.records:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            try:
                game = json.loads(line)
                if isinstance(game, dict) and {"start", "moves", "ours_black"} <= game.keys():
                    games.append(game)
            except json.JSONDecodeError:
                parser.error(f"{path}:{number}: not a JSON line")
    x, lens, chosen, game_of = samples(games)
    if len(lens) == 0:
        parser.error("no positions in the records")
    held = game_of % 5 == 0
    rows = np.repeat(held, lens)
    w = fit(x[~rows], lens[~held], chosen[~held], args.ridge)
    print(f"{len(games)} games, {len(lens)} positions ({held.sum()} held out), {len(x)} candidate cells")
    now = recall(current_scores(x[rows]), lens[held], chosen[held])
    new = recall(x[rows] @ w, lens[held], chosen[held])
    print("held-out recall at " + " / ".join(map(str, RECALL_AT)))
    print("  current ordering: " + " / ".join(f"{r:.3f}" for r in now))
    print("  fitted:           " + " / ".join(f"{r:.3f}" for r in new))
    print(constants(w))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
