"""The engine's vocabulary: pure data and types that every floor (and the play model) may read.

Search results and replies (``results``), their wire format (``wire``), the commands of the engine protocol,
encoded by the client and decoded by the engine with the same code (``commands``), the limits of every way into
the engine (``limits``), the playing levels' table (``level_table``), a review's scores of a position
(``review_scores``), the shipped puzzle set (``puzzle_set``) and the opening book's reader (``opening_book``,
numpy only). Nothing here searches, spawns or compiles.
"""
