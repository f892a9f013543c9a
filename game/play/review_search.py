"""The play model's one door to the in-process review searchers (``ai.search.review``: the book, the solver,
MCTS at a fixed iteration count), beside ``engine_driver``, its door to the engine process.

A review and a hint score positions in the app's own process (a review job in a thread, a hint at once), not
through the engine process: the engine answers one search at a time for the game being played, and a review runs
beside it. Every other module of ``game.play`` reads the engine's vocabulary floor (``ai.vocab``) only; the
import-linter contract ``play-reads-the-vocabulary`` keeps it so.
"""

from __future__ import annotations

from ai.search.review import DEFAULT_ITERATIONS as DEFAULT_ITERATIONS
from ai.search.review import DEFAULT_SEED as DEFAULT_SEED
from ai.search.review import ReviewJob as ReviewJob
from ai.search.review import is_exact_game as is_exact_game
from ai.search.review import iter_review as iter_review
from ai.search.review import prepare as prepare
from ai.search.review import score_position as score_position
