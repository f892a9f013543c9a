"""The shipped Connect 4 puzzle set (``ai/puzzles.json``): its record type and its reader and writer, pure data.

``ai.search.puzzles`` makes the puzzles with the solver; the play model's puzzle mode reads them from here.
"""

from __future__ import annotations

import importlib.resources
import json
from dataclasses import asdict, dataclass

FORMAT = "connect4-mcts-puzzles"
PUZZLE_FILE = "puzzles.json"  # beside the book: the bundle ships the top-level data files of ai


@dataclass(frozen=True)
class Puzzle:
    id: int
    moves: str  # the position, columns 1-7 from the empty board
    to_move: int  # 1: the first player (Red), 2: the second
    goal: str  # "win" | "draw"
    answer: str  # the one column (1-7) that reaches the goal
    depth: int
    grade: str
    scores: tuple[int | None, ...]  # every column's exact score for the mover (None: full)


def to_json(puzzles: list[Puzzle], seed: int) -> str:
    items = [asdict(p) | {"scores": list(p.scores)} for p in puzzles]
    data = {"format": FORMAT, "version": 1, "seed": seed, "count": len(items), "puzzles": items}
    return json.dumps(data, separators=(",", ":")) + "\n"


def from_json(text: str) -> list[Puzzle]:
    """The puzzles of a puzzle file; ValueError (one line) for anything else."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("puzzles"), list):
        raise ValueError(f"not a puzzle file (expected format {FORMAT!r})")
    out = []
    for item in data["puzzles"]:
        try:
            out.append(Puzzle(**{**item, "scores": tuple(item["scores"])}))
        except (TypeError, KeyError) as exc:
            raise ValueError(f"bad puzzle entry: {str(exc)[:120]}") from None
    return out


def load() -> list[Puzzle]:
    """The shipped puzzles (empty when the file is missing)."""
    try:
        text = importlib.resources.files("ai").joinpath(PUZZLE_FILE).read_text(encoding="utf-8")
    except OSError:
        return []
    return from_json(text)
