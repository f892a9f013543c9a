"""The compiled, game-agnostic UCT loop (select, expand, playout, backpropagate) with
MCTS-Solver proofs, on a node pool of preallocated arrays (see ``tree.py``).

Node ``i``: ``parent[i]`` (-1 at the root, which is always node 0), ``first_child[i]`` (-1 until
expanded; the children are contiguous), ``n_children[i]``, ``move[i]`` (the move that led here),
``visits[i]``, ``value[i]`` (sum of results for the player who made ``move[i]``) and
``proven[i]`` (layout.UNKNOWN / LOSS / DRAW / WIN for that same player).

A leaf is expanded (all its children at once) when the search reaches it with
``params[P_EXPAND]`` visits (1 = on the second visit). When the pool is full the search goes on with
playouts from the leaves and stops growing.

Draw contempt (``params[P_CONTEMPT]`` thousandths, 0 by default, so a draw counts 0.5): a drawn
result (a playout or a proof worth exactly 0.5) scores ``0.5 - contempt`` for the side to move at
the root and ``0.5 + contempt`` for its opponent, so the root side prefers unclear play to a draw.
The values in the tree then hold for the root side only (``Searcher`` drops the tree when the side
to move at the root changes).
"""

from __future__ import annotations

import math

import numpy as np

from ai.jit import jit, jit_unit
from ai.mcts.layout import DRAW, LOSS, P_CONTEMPT, P_EXPAND, P_STATE_LEN, UNKNOWN, WIN

# meta: int64 counters shared with the Python driver
M_USED = 0  # nodes in use
M_MAX_DEPTH = 1  # deepest tree node reached (root = 0), reset by the driver per search
M_FULL = 2  # 1 once an expansion was refused because the pool was full
META_LEN = 4


@jit
def proof_result(code):
    if code == WIN:
        return 1.0
    if code == LOSS:
        return 0.0
    return 0.5


@jit
def propagate(node, parent, first_child, n_children, proven):
    """MCTS-Solver: prove ``node`` and its ancestors from their children's proofs."""
    n = node
    while n >= 0:
        fc = first_child[n]
        nc = n_children[n]
        best = UNKNOWN
        all_proven = nc > 0
        for j in range(nc):
            p = proven[fc + j]
            if p == UNKNOWN:
                all_proven = False
            elif p > best:
                best = p
        if best == WIN or all_proven:
            proven[n] = 4 - best  # the mover of n faces the best reply
            n = parent[n]
        else:
            break


def make_run_chunk(gen_children, play, playout):
    """The UCT loop compiled for one game's kernel functions: a compile unit per game, so a game
    compiles (and caches) only its own code."""

    def run_chunk(
        params,
        root_state,
        work,
        moves_buf,
        status_buf,
        parent,
        first_child,
        n_children,
        move,
        visits,
        value,
        proven,
        meta,
        rng,
        n_iter,
        c,
    ):
        """Run up to ``n_iter`` iterations from the root (node 0); return how many ran.
        Stops early once the root is proven (and expanded, so its moves can be read)."""
        state_len = params[P_STATE_LEN]
        expand_at = max(1, params[P_EXPAND])
        contempt = params[P_CONTEMPT] / 1000.0
        cap = parent.shape[0]
        used = meta[M_USED]
        done = 0
        while done < n_iter and (proven[0] == UNKNOWN or first_child[0] < 0):
            for k in range(state_len):
                work[k] = root_state[k]
            node = 0
            depth = 0
            result = 0.5
            while True:
                fc = first_child[node]
                if proven[node] != UNKNOWN and (fc >= 0 or node != 0):
                    result = proof_result(proven[node])
                    break
                if fc < 0:
                    if visits[node] < expand_at and node != 0:
                        result = playout(params, work, rng)
                        break
                    nc = gen_children(params, work, moves_buf, status_buf)
                    if used + nc > cap or nc == 0:
                        meta[M_FULL] = 1
                        result = playout(params, work, rng)
                        break
                    any_proven = False
                    for j in range(nc):
                        ch = used + j
                        parent[ch] = node
                        first_child[ch] = -1
                        n_children[ch] = 0
                        move[ch] = moves_buf[j]
                        visits[ch] = 0
                        value[ch] = 0.0
                        proven[ch] = status_buf[j]
                        if status_buf[j] != UNKNOWN:
                            any_proven = True
                    first_child[node] = used
                    n_children[node] = nc
                    used += nc
                    if any_proven:
                        propagate(node, parent, first_child, n_children, proven)
                    continue
                nc = n_children[node]
                explore = c * math.sqrt(math.log(visits[node] + 1.0))
                draw_q = 0.5 - contempt if depth % 2 == 0 else 0.5 + contempt  # to the children's mover
                best = -1
                best_score = -1.0e300
                for j in range(nc):
                    ch = fc + j
                    pc = proven[ch]
                    if pc == LOSS:
                        continue
                    vc = visits[ch]
                    if vc == 0:
                        best = ch
                        break
                    inv = 1.0 / vc
                    q = draw_q if pc == DRAW else value[ch] * inv
                    score = q + explore * math.sqrt(inv)
                    if score > best_score:
                        best_score = score
                        best = ch
                if best < 0:  # every child loses: prove the node (cannot normally happen)
                    propagate(node, parent, first_child, n_children, proven)
                    result = proof_result(proven[node])
                    break
                play(params, work, move[best])
                node = best
                depth += 1
            if depth > meta[M_MAX_DEPTH]:
                meta[M_MAX_DEPTH] = depth
            if result == 0.5 and contempt != 0.0:  # a draw, for the mover of ``node`` (the root side at odd depths)
                result = 0.5 - contempt if depth % 2 == 1 else 0.5 + contempt
            n = node
            r = result
            while n >= 0:
                visits[n] += 1
                value[n] += r
                r = 1.0 - r
                n = parent[n]
            done += 1
        meta[M_USED] = used
        return done

    key = "/".join(f.__name__ if hasattr(f, "__name__") else repr(f) for f in (gen_children, play, playout))
    return jit_unit(run_chunk, key)


@jit
def compact(
    parent,
    first_child,
    n_children,
    move,
    visits,
    value,
    proven,
    n_parent,
    n_first_child,
    n_n_children,
    n_move,
    n_visits,
    n_value,
    n_proven,
    new_root,
):
    """Copy the subtree of ``new_root`` into the ``n_*`` arrays (breadth first, children kept
    contiguous) with ``new_root`` as node 0; return the number of nodes copied."""
    src = np.empty(n_parent.shape[0], dtype=np.int32)
    src[0] = new_root
    n_parent[0] = -1
    n_move[0] = move[new_root]
    n_visits[0] = visits[new_root]
    n_value[0] = value[new_root]
    n_proven[0] = proven[new_root]
    used = 1
    i = 0
    while i < used:
        o = src[i]
        fc = first_child[o]
        nc = n_children[o]
        if fc < 0 or nc == 0 or used + nc > n_parent.shape[0]:
            n_first_child[i] = -1
            n_n_children[i] = 0
        else:
            n_first_child[i] = used
            n_n_children[i] = nc
            for j in range(nc):
                d = used + j
                s = fc + j
                src[d] = s
                n_parent[d] = i
                n_move[d] = move[s]
                n_visits[d] = visits[s]
                n_value[d] = value[s]
                n_proven[d] = proven[s]
            used += nc
        i += 1
    return used
