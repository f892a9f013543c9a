"""The model of a game being played, without pygame: the session and its moves, settings and saved files,
players and levels, the engine driver with its heat and exact data, and a network game's set-up
(``net_setup``), rules of play (``net_match``: the seat, whose move, the server's events, the offers),
clocks (``net_status``) and words (``net_texts``). The desktop app (``game.ui``) and the terminal client
(``game.text``) both stand on it."""
