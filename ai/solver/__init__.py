"""The exact Connect 4 solver (Pascal Pons' score convention, any board that fits 64 bits).

``core.Solver`` is the entry; ``kernel`` and ``table`` are the compiled negamax and its bound table,
``board`` one board size's words, ``columns`` the per-column scheduling over threads, ``results`` what it
answers, ``watchdog`` its deadline.
"""
