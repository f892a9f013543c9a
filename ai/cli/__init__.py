"""Command-line programs over the engine: ``main.py solve``, ``analyze``, ``bench``, ``bot`` (a network
player) and ``piskvork`` (the Gomoku brain of Gomocup managers)."""
