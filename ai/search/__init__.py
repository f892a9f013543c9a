"""Searchers built on the kernels: what the engine process (and the tools) call to choose and score moves.

``hybrid`` (MCTS with the solver beside it on Connect 4), ``exact_root`` (the solver's background facts),
``levels`` (a level's choice rule), ``ponder`` (thinking on the opponent's time in-process), ``review`` (a
game's positions scored) and ``puzzles`` (puzzle generation and the shipped set).
"""
