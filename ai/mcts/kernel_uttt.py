"""The Ultimate tic-tac-toe kernel: nine 9-bit local boards per player.

State (int64[23]): ``[b]`` / ``[9 + b]`` the stones of player 0 / 1 in local board ``b`` (bit =
local cell, row-major from the bottom-left, as in ``game.rules.uttt``), ``[18]`` / ``[19]`` the boards
won by player 0 / 1, ``[20]`` the closed boards (won or full), ``[21]`` the board the side to
move must play in (-1: any open board), ``[22]`` the ply. Moves are grid cells
``row * 9 + col``.

Children get WIN (wins the game), DRAW (closes the last open board without a line, or leaves
no line of boards that either side can still complete: a dead draw) or LOSS (the opponent can
then win the game at once in a board it may play in). Playouts are uniform random and stop at a
dead draw; with ``P_PLAYOUT`` = 1 (the default) they take a game-winning move when there is one
and mostly avoid moves that give the opponent one (see ``uttt_playout``).
"""

from __future__ import annotations

import numpy as np

from ai.jit import jit
from ai.mcts.layout import DRAW, DRAWN, LOSS, MOVER_WON, ONGOING, P_PLAYOUT, UNKNOWN, WIN, rand_below

STATE_LEN = 23
S_WON = 18
S_CLOSED = 20
S_FORCED = 21
S_PLY = 22
FULL = 511
_TRIPLES = (0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010, 0b100100100, 0b100010001, 0b001010100)


def _tables() -> tuple[np.ndarray, ...]:
    line = np.zeros(512, dtype=np.int64)  # 1 if the 9-bit mask holds a three-in-a-row
    complete = np.zeros(512, dtype=np.int64)  # cells that would complete a three-in-a-row
    for m in range(512):
        line[m] = any(m & t == t for t in _TRIPLES)
        for t in _TRIPLES:
            rest = t & ~m
            if rest and rest & (rest - 1) == 0:
                complete[m] |= rest
    popcount = np.array([bin(m).count("1") for m in range(512)], dtype=np.int64)
    cell_board = np.zeros(81, dtype=np.int64)
    cell_local = np.zeros(81, dtype=np.int64)
    board_cell = np.zeros(81, dtype=np.int64)  # [board * 9 + local] -> grid cell
    for cell in range(81):
        row, col = divmod(cell, 9)
        b = (row // 3) * 3 + col // 3
        loc = (row % 3) * 3 + col % 3
        cell_board[cell] = b
        cell_local[cell] = loc
        board_cell[b * 9 + loc] = cell
    return line, complete, popcount, cell_board, cell_local, board_cell


LINE9, COMPLETE9, POPCOUNT9, CELL_BOARD, CELL_LOCAL, BOARD_CELL = _tables()
TRIPLES9 = np.array(_TRIPLES, dtype=np.int64)


def uttt_state(position) -> np.ndarray:
    """The kernel state of a ``game.rules.uttt`` position."""
    state = np.zeros(STATE_LEN, dtype=np.int64)
    for cell in range(81):
        bit = 1 << int(CELL_LOCAL[cell])
        b = int(CELL_BOARD[cell])
        if (position.stones0 >> cell) & 1:
            state[b] |= bit
        elif (position.stones1 >> cell) & 1:
            state[9 + b] |= bit
    state[S_WON] = position.won0
    state[S_WON + 1] = position.won1
    state[S_CLOSED] = position.closed_boards
    state[S_FORCED] = position.board
    state[S_PLY] = position.ply
    return state


@jit
def _opponent_wins_at_once(state, q, won_opp, closed, target, b, own_b):
    """After the side in slot ``q`` played in board ``b`` (now ``own_b``), sending the opponent to
    ``target``: can the opponent win the game with its next move?"""
    o = 1 - q
    for b2 in range(9):
        if (closed >> b2) & 1:
            continue
        if ((closed >> target) & 1) == 0 and b2 != target:
            continue
        if LINE9[won_opp | (1 << b2)] == 0:
            continue
        mine = own_b if b2 == b else state[q * 9 + b2]
        theirs = state[o * 9 + b2]
        if COMPLETE9[theirs] & ~(mine | theirs) & FULL:
            return True
    return False


@jit
def _dead_draw(won_a, won_b, closed):
    """True when neither side can complete a line of boards any more (every line holds a closed
    board the side did not win): the game can only end drawn. Symmetric in the two sides."""
    for t in TRIPLES9:  # noqa: SIM110 - a loop compiles under numba, all() of a generator does not
        if (t & closed & ~won_a) == 0 or (t & closed & ~won_b) == 0:
            return False
    return True


@jit
def uttt_gen_children(params, state, moves, status):
    """Legal moves with WIN / DRAW / LOSS / UNKNOWN; returns how many."""
    q = state[S_PLY] % 2
    o = 1 - q
    won_me = state[S_WON + q]
    won_opp = state[S_WON + o]
    closed = state[S_CLOSED]
    forced = state[S_FORCED]
    n = 0
    for b in range(9):
        if (closed >> b) & 1 or (forced >= 0 and b != forced):
            continue
        own = state[q * 9 + b]
        taken = own | state[o * 9 + b]
        for loc in range(9):
            if (taken >> loc) & 1:
                continue
            new_own = own | (1 << loc)
            won2 = won_me
            closed2 = closed
            if LINE9[new_own]:
                won2 |= 1 << b
                closed2 |= 1 << b
            elif taken | (1 << loc) == FULL:
                closed2 |= 1 << b
            moves[n] = BOARD_CELL[b * 9 + loc]
            if LINE9[won2]:
                status[n] = WIN
            elif closed2 == FULL or _dead_draw(won2, won_opp, closed2):
                status[n] = DRAW
            elif _opponent_wins_at_once(state, q, won_opp, closed2, loc, b, new_own):
                status[n] = LOSS
            else:
                status[n] = UNKNOWN
            n += 1
    return n


@jit
def uttt_play(params, state, move):
    """Play the legal cell ``move``; MOVER_WON / DRAWN / ONGOING."""
    b = CELL_BOARD[move]
    loc = CELL_LOCAL[move]
    q = state[S_PLY] % 2
    state[S_PLY] += 1
    own = state[q * 9 + b] | (1 << loc)
    state[q * 9 + b] = own
    if LINE9[own]:
        state[S_WON + q] |= 1 << b
        state[S_CLOSED] |= 1 << b
    elif own | state[(1 - q) * 9 + b] == FULL:
        state[S_CLOSED] |= 1 << b
    closed = state[S_CLOSED]
    state[S_FORCED] = -1 if (closed >> loc) & 1 else loc
    if LINE9[state[S_WON + q]]:
        state[S_FORCED] = -1
        return MOVER_WON
    if closed == FULL:
        return DRAWN
    return ONGOING


@jit
def _nth_bit(mask, i):
    """The index of the ``i``-th (0-based) set bit of a 9-bit mask."""
    for loc in range(9):
        if (mask >> loc) & 1:
            if i == 0:
                return loc
            i -= 1
    return -1


@jit
def _winning_move(s):
    """A move that wins the game at once for the side to move, or -1."""
    q = s[S_PLY] % 2
    closed = s[S_CLOSED]
    forced = s[S_FORCED]
    for b in range(9):
        if (closed >> b) & 1 or (forced >= 0 and b != forced):
            continue
        if LINE9[s[S_WON + q] | (1 << b)] == 0:
            continue
        own = s[q * 9 + b]
        spots = COMPLETE9[own] & ~(own | s[(1 - q) * 9 + b]) & FULL
        if spots:
            return BOARD_CELL[b * 9 + _nth_bit(spots, 0)]
    return -1


@jit
def _random_move(s, rng):
    """A uniformly random legal move of ``s``."""
    forced = s[S_FORCED]
    closed = s[S_CLOSED]
    if forced >= 0:
        empty = FULL & ~(s[forced] | s[9 + forced])
        return BOARD_CELL[forced * 9 + _nth_bit(empty, rand_below(rng, POPCOUNT9[empty]))]
    total = 0
    for b in range(9):
        if ((closed >> b) & 1) == 0:
            total += POPCOUNT9[FULL & ~(s[b] | s[9 + b])]
    i = rand_below(rng, total)
    for b in range(9):
        if (closed >> b) & 1:
            continue
        empty = FULL & ~(s[b] | s[9 + b])
        count = POPCOUNT9[empty]
        if i < count:
            return BOARD_CELL[b * 9 + _nth_bit(empty, i)]
        i -= count
    return -1


@jit
def _gives_a_win(s, move):
    """True if ``move`` (not winning the game itself) lets the opponent win the game at once."""
    q = s[S_PLY] % 2
    b = CELL_BOARD[move]
    loc = CELL_LOCAL[move]
    own = s[q * 9 + b] | (1 << loc)
    closed = s[S_CLOSED]
    if LINE9[own] or own | s[(1 - q) * 9 + b] == FULL:
        closed |= 1 << b
    return _opponent_wins_at_once(s, q, s[S_WON + 1 - q], closed, loc, b, own)


@jit
def uttt_playout(params, state, rng):
    """A random game from ``state`` (unchanged); 1.0 / 0.5 / 0.0 for the leaf's mover. With
    ``P_PLAYOUT`` = 1 a side takes a game-winning move, and draws a random move up to 3 times
    to find one that does not let the opponent win the game at once."""
    s = state.copy()
    smart = params[P_PLAYOUT] >= 1
    t = 0  # moves played; the side to move at ``state`` plays when t is even
    while True:
        move = _winning_move(s) if smart else -1
        if move < 0:
            move = _random_move(s, rng)
            tries = 1
            while smart and tries < 3 and _gives_a_win(s, move):
                move = _random_move(s, rng)
                tries += 1
        closed = s[S_CLOSED]
        code = uttt_play(params, s, move)
        if code == MOVER_WON:
            return 0.0 if t % 2 == 0 else 1.0
        if code == DRAWN or (s[S_CLOSED] != closed and _dead_draw(s[S_WON], s[S_WON + 1], s[S_CLOSED])):
            return 0.5
        t += 1
