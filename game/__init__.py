"""The game, on four floors (each imports only the floors below it, checked by import-linter):

* ``game.rules``: the pure rules of every game (standard library only);
* ``game.net``: the network protocol, server and client (on the rules);
* ``game.play``: the pygame-free model of a game being played (session, settings, files, players,
  the engine driver, heat and exact data), on the rules, the network and the engine client (``ai``);
* ``game.ui`` (pygame) and ``game.text`` (the terminal), each standing on ``game.play``.
"""
