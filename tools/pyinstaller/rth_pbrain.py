"""PyInstaller runtime hook: an executable named ``pbrain-*`` is the Gomoku engine under the Piskvork protocol.

Gomocup managers (Piskvork, the tournament manager) start a brain executable whose name begins
with ``pbrain-`` without arguments and talk to it on stdin/stdout. The bundle ships ``pbrain-mcts``
beside ``connect4`` (the same program, sharing its libraries and shipped compiled code); started
under that name it runs ``connect4 piskvork`` (with any arguments given), never the app.
"""

import os
import sys

PISKVORK_PREFIX = "pbrain-"

if os.path.basename(sys.executable).lower().startswith(PISKVORK_PREFIX):
    sys.argv[1:1] = ["piskvork"]
