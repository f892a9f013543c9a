"""The engine process: JSON lines on stdin/stdout (docs/engine-protocol.md), started as ``main.py engine``.

``process`` reads commands and runs searches; ``protocol`` parses command lines; ``prepare`` and ``warmup``
ready compiled code in the background; ``ponder`` thinks on the opponent's time; ``book_solve`` answers
from the opening book alone. Never imported by the client: the two meet only on the wire.
"""
