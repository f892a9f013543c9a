"""PyInstaller runtime hook: an executable named ``pbrain-*`` is the Gomoku engine under the Piskvork protocol.

Gomocup managers (Piskvork, the tournament manager) start a brain executable whose name begins
with ``pbrain-`` without arguments and talk to it on stdin/stdout. The bundle ships ``pbrain-mcts``
beside ``connect4`` (the same program, sharing its libraries and shipped compiled code); started
under that name it runs ``connect4 piskvork`` (with any arguments given), never the app.
"""

import os
import sys

PISKVORK_PREFIX = "pbrain-"

# sys.executable is the real file (a one-file build resolves links); argv[0] keeps the name it was started
# by, so a symbolic link named pbrain-mcts to the one-file executable works too.
_names = (os.path.basename(sys.executable), os.path.basename(sys.argv[0]) if sys.argv else "")
if any(name.lower().startswith(PISKVORK_PREFIX) for name in _names):
    sys.argv[1:1] = ["piskvork"]
