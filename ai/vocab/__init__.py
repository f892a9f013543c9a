"""The engine's vocabulary: pure data and types that every floor (and the play model) may read.

Search results and replies (``results``), their wire format (``wire``), the limits of every way into the
engine (``limits``), the playing levels' table (``level_table``) and the opening book's reader
(``opening_book``, numpy only). Nothing here searches, spawns or compiles.
"""
