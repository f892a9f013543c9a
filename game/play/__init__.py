"""The model of a game being played, without pygame: the session and its moves, settings and saved files,
players and levels, the engine driver with its heat and exact data. The desktop app (``game.ui``) and the
terminal client (``game.text``) both stand on it."""
