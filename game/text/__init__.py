"""Play in a terminal (``python main.py play --text``): rich text boards, typed moves, scriptable."""
