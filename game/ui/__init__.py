"""The desktop app (pygame-ce). The only package that imports pygame.

``app.run(args)`` opens the window; ``app.add_arguments(parser)`` adds the app's options.
Modules that do not draw (``players``, ``session``, ``settings``, ``savefile``, ``actions``, ``frame``,
``new_game``, ``engine_events``) never import pygame.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
