"""Compiled, game-agnostic UCT Monte Carlo Tree Search with MCTS-Solver proofs.

Use ``Searcher`` (``search.py``); ``supports(spec)`` says whether a game has a kernel.

Layout
------
* ``layout.py``   the ``params`` header, proof codes (UNKNOWN/LOSS/DRAW/WIN) and the in-kernel RNG.
* ``kernel_connect4.py``  the Connect 4 kernel (bitboards, any W x H with W * (H + 1) <= 64).
* ``kernel_mnk.py`` / ``mnk_lines.py``  tic-tac-toe and m,n,k up to 19x19 (Gomoku: candidate cells near
  stones, tactical playouts capped at 20 moves and scored by counting lines).
* ``kernel_uttt.py``  Ultimate tic-tac-toe (nine 9-bit boards per player).
* ``gomoku_search.py`` / ``gomoku_ab.py`` / ``gomoku_board.py``  Gomoku (five in a row on boards larger than
  8x8) is not searched by the MCTS: ``Searcher`` hands it to an alpha-beta searcher over an incremental
  window table (docs/gomoku.md).
* ``kernels.py``  the kernel table: ``KIND_*`` -> (``gen_children``, ``play``, ``playout``), and the UCT loop
                   compiled per kind (``run_chunk_for``), so a game compiles only its own code.
* ``core.py``     the compiled UCT loop over a node pool of arrays, and subtree compaction.
* ``tree.py``     the node pool: 7 arrays, 29 bytes per node, capped (default 512 MB in all);
                  lazily mapped memory, so only the nodes in use take RAM.
* ``games.py``    spec/position -> ``params`` and ``state`` arrays (one adapter per game).
* ``search.py``   the Python driver: budgets, chunks, stop(), tree reuse, threads, results.
* ``rules_search.py``  a plain MCTS over the rules (pure Python), with the same API and result types, for a
                  game without a kernel (a family registered at runtime: ``game.rules.family_registration``);
                  ``searcher_for(spec)`` picks it where ``games.py`` has no adapter.

Search
------
UCT with random playouts: a child's score is ``mean + C * sqrt(ln(N_parent) / n_child)`` with
results in [0, 1] (draw 0.5). ``DEFAULT_C = 0.5`` was picked by self-play matches (Connect 4,
random 2-move openings, both colours, 60-120 games per pair, 30-60 ms per move). Uniform
playouts: C=0.5 scored 67.5% vs 1.0 at 30 ms (53% at 60 ms); 0.25 / 0.35 / 0.7 scored 45% /
36% / 45% vs 0.5; 1.4 and 2.0 scored 50% / 47.5% vs 1.0. Playouts that take a winning move and
block a threat (``P_PLAYOUT`` = 1, the Connect 4 default) scored 64% vs uniform ones at C=0.5
and 60 ms; with them 0.35 / 0.8 / 1.2 scored 53% / 44% / 37.5% vs 0.5. Expanding a leaf on
its 5th visit (``P_EXPAND`` = 4, the Connect 4 default) instead of its 2nd scored 55.6% (so did
the 3rd; the 9th scored 48.8% vs the 5th) and allocates about 2.8x fewer nodes (0.7 instead
of 2 per iteration). (Reproduce: play ``Searcher``s against each other with ``exploration``,
``playout`` and ``expand`` set.)

A leaf is expanded (all children at once) when it is reached with ``params[P_EXPAND]`` visits
(the root at once); at expansion the kernel marks moves that win at once (WIN), end drawn
(DRAW) or let the opponent win at once (LOSS), and MCTS-Solver propagates proofs: a node
whose child is a proven win is a proven loss for the player who moved into it; a node whose
children are all proven takes the best of them. Proven-loss children are never selected; the
root move is a proven win if there is one, else the most visited move that is not a proven
loss. When the pool is full the search goes on with playouts from the leaves (no more growth).
The loop runs in chunks of about 5 ms so the driver can honour time budgets, ``stop()`` and
info callbacks; ``threads > 1`` runs independent trees (different seeds) in threads (numba
releases the GIL) and merges the root statistics.

Adding a game kernel (e.g. m,n,k or Ultimate TTT)
-------------------------------------------------
1. Write ``kernel_<game>.py`` with three ``@ai.jit.jit`` functions, all plain-Python compatible
   (int64 numpy arrays, no numba-only constructs), using ``params[P_GAME:]`` for constants:

   * ``<g>_gen_children(params, state, moves, status) -> n`` - legal moves into ``moves``
     (good moves first helps), and per move ``status``: WIN if it wins at once, DRAW if it ends
     the game drawn, LOSS if the opponent can then win at once (or UNKNOWN when not cheap).
   * ``<g>_play(params, state, move) -> int`` - play in place; return ONGOING/MOVER_WON/DRAWN.
   * ``<g>_playout(params, state, rng) -> float`` - random game to the end WITHOUT changing
     ``state`` (copy into locals or a scratch array); 1.0 / 0.5 / 0.0 for the player who made
     the last move before ``state``. Random numbers: ``layout.rand_below(rng, n)``.

   The state is a small int64 array (e.g. m,n,k up to 15x15: four words of bits per player
   plus ply/last move; UTTT: 81-cell bitboards per player, the big-board status, the forced
   sub-board). ``state`` must fully describe the position, because the core replays moves
   from a copy of the root state along the selected path.
2. In ``kernels.py`` add ``KIND_<GAME> = n`` and its row ``(gen_children, play, playout)`` to ``KERNELS``.
3. In ``games.py`` add the family's adapter to ``ADAPTERS`` (keyed by the family's name): ``kind``,
   ``max_moves`` (largest number of legal moves, e.g. width * height), ``state_len``,
   ``fill_params(spec, params)`` and ``encode(position) -> state`` (int64 array).
4. Moves must fit in int16 (cell indices up to 32767) and ``max_moves`` children per node are
   allocated at each expansion, so ``max_nodes`` bounds memory for every game.
Nothing in ``core.py``, ``tree.py`` or ``search.py`` changes; the whole core recompiles once
after a kernel is added (``ai.jit`` keys the numba cache on a digest of every jitted source file,
because numba itself only notices changes to a function's own file).
"""

from ai.mcts.search import DEFAULT_C, Searcher, default_threads, supports

__all__ = ["DEFAULT_C", "Searcher", "default_threads", "supports"]
