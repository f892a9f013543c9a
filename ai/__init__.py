"""The AI: compiled MCTS search, the exact Connect 4 solver, the engine process and its client.

Floors, every import pointing down (``.importlinter``, contract ``ai-floors``):

* ``ai.cli`` | ``ai.benchmarks``  programs: ``main.py solve/analyze/bench/bot/piskvork`` and the measuring tools.
* ``ai.client`` | ``ai.engine``   the two ends of the engine protocol: the client (in the app's process) and
  the engine process. Neither imports the other; they share the vocabulary (``ai.vocab``).
* ``ai.search``                   searchers built on the kernels: MCTS with the solver beside it, levels,
  pondering, review scores, puzzles.
* ``ai.solver`` | ``ai.mcts``     the exact Connect 4 solver and the compiled MCTS kernels of every game.
* ``ai.jit``                      numba when it is there, plain Python when it is not.
* ``ai.vocab``                    pure data and types: results, commands, limits, level table, review scores,
  the puzzle set, opening book reader, the reply wire format. The play model (``game.play``) reads this floor
  only, but through its two doors: ``engine_driver`` (the engine client) and ``review_search`` (the review's
  in-process searchers); the contract ``play-reads-the-vocabulary`` and tests/test_architecture.py's probes
  keep it so.

Data files (``opening_book.npz``, ``puzzles.json``) stay at the top of the package: the bundle ships them.
"""
