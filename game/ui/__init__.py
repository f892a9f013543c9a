"""The desktop app (pygame-ce). The only package that imports pygame.

``app.run(args)`` opens the window; ``app.add_arguments(parser)`` adds the app's options.
The model it shows (the session, settings, players, the engine driver, a network game's rules in
``net_match``) is ``game.play``; its handlers and the values they pass (``effects``: data only, ``frame``,
``snapshot``, ``net_game``, ``net_view``, the ``app_*`` handlers) import no pygame themselves.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
