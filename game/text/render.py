"""Boards as rich ``Text`` for the terminal: colour where the terminal has it, plain text when piped.

The same ``Text`` prints plain when the console has no colour (rich drops the styles), so the
characters alone must tell the sides apart: ``X`` moves first, ``O`` second, ``.`` an empty cell
where the side to move may play (``-`` one where it may not, in Ultimate TTT).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text

from game.rules.base import Position
from game.rules.capabilities import capabilities
from game.rules.family_registration import BoardLayout, view
from game.rules.grid import COLUMN_LETTERS
from game.rules.landing import last_cell
from game.rules.uttt import as_uttt, board_name, board_of

SYMBOLS = ("X", "O")
STYLES = ("bold red", "bold yellow")
LAST_STYLE = " reverse"
PROVEN = {1: "wins", 0: "draws", -1: "loses"}
WIN_STYLE = " underline"


def render(position: Position, shares: dict[int, float] | None = None) -> Text:
    """The board; with ``shares`` (move -> share of the search's visits) Connect 4 shows them below
    the columns (the heatmap as numbers)."""
    return DRAWERS[position.spec.family](position, shares)


def index_of_last(position: Position) -> int | None:
    """The cell of the last move (Connect 4 moves are columns: the top disc of that column)."""
    return last_cell(position)


def _connect4(position: Position, shares: dict[int, float] | None) -> Text:
    spec = position.spec
    text = Text()
    last = index_of_last(position)
    for row in reversed(range(spec.height)):
        text.append("|", style="blue")
        for col in range(spec.width):
            index = row * spec.width + col
            owner = position.cell(index)
            text.append(" ")
            if owner is None:
                text.append(".", style="dim")
            else:
                style = STYLES[owner] + (LAST_STYLE if index == last else "")
                text.append(SYMBOLS[owner], style=style + (WIN_STYLE if index in position.outcome.line else ""))
            text.append(" |" if col == spec.width - 1 else "  ", style="blue")
        text.append("\n")
    text.append("+" + "-" * (4 * spec.width - 1) + "+\n", style="blue")
    text.append(" " + "".join(f" {c + 1}  " for c in range(spec.width)).rstrip() + "\n", style="bold")
    if shares:
        text.append(
            " " + "".join(f"{_percent(shares.get(c)):>3} " for c in range(spec.width)).rstrip() + "\n", style="cyan"
        )
    return text


def _percent(share: float | None) -> str:
    return "" if share is None else f"{round(share * 100)}%"


def _grid(position: Position, shares: dict[int, float] | None = None) -> Text:
    spec = position.spec
    text = Text()
    last = index_of_last(position)
    letters = "   " + " ".join(COLUMN_LETTERS[: spec.width])
    for row in reversed(range(spec.height)):
        text.append(f"{row + 1:>2} ", style="bold")
        for col in range(spec.width):
            index = row * spec.width + col
            owner = position.cell(index)
            if owner is None:
                text.append(".", style="dim")
            else:
                style = STYLES[owner] + (LAST_STYLE if index == last else "")
                text.append(SYMBOLS[owner], style=style + (WIN_STYLE if index in position.outcome.line else ""))
            if col < spec.width - 1:
                text.append(" ")
        text.append(f" {row + 1}\n", style="bold")
    text.append(letters + "\n", style="bold")
    return text


def _uttt(any_position: Position, shares: dict[int, float] | None = None) -> Text:
    position = as_uttt(any_position)
    if position is None:
        raise TypeError(f"not an Ultimate tic-tac-toe position: {any_position.spec.name}")
    text = Text()
    allowed = set(position.allowed_boards())
    last = index_of_last(position)
    for row in reversed(range(9)):
        text.append(f"{row + 1} ", style="bold")
        for col in range(9):
            index = row * 9 + col
            board = board_of(index)
            winner = position.local_winner(board)
            owner = position.cell(index)
            base = "" if winner is None else ("on dark_red" if winner == 0 else "on grey30")
            if owner is None:
                playable = board in allowed
                text.append("." if playable else "-", style=("bold green" if playable else "dim") + (" " + base))
            else:
                style = STYLES[owner] + (LAST_STYLE if index == last else "") + (" " + base if base else "")
                text.append(SYMBOLS[owner], style=style + (WIN_STYLE if index in position.outcome.line else ""))
            if col in (2, 5):
                text.append(" | ", style="blue")
            elif col < 8:
                text.append(" ")
        text.append("\n")
        if row in (6, 3):
            text.append("  ------+-------+------\n", style="blue")
    text.append("  a b c   d e f   g h i\n", style="bold")
    won = [f"{board_name(b)} {SYMBOLS[w]}" for b in range(9) if (w := position.local_winner(b)) is not None]
    if won:
        text.append("boards won: " + ", ".join(won) + "\n", style="dim")
    return text


# the drawing of each layout (a family's registration names its layout: game.rules.family_registration)
BY_LAYOUT: dict[BoardLayout, Callable[[Position, dict[int, float] | None], Text]] = {
    BoardLayout.COLUMNS: _connect4,
    BoardLayout.CELLS: _grid,
    BoardLayout.LOCAL_BOARDS: _uttt,
}
# one entry per game family: a view over the registrations
DRAWERS: Mapping[str, Callable[[Position, dict[int, float] | None], Text]] = view(
    lambda registration: BY_LAYOUT[registration.layout]
)


def top_moves(spec: Any, children: Sequence[Any], count: int = 4) -> str:
    """``5 76% (win 48%), 2 24% (win 43%)``: the moves with the most visits (at least 1%), as shares."""
    total = sum(c.visits for c in children)
    if total == 0:  # decided before any iteration (a proven result)
        return "no search needed: " + ", ".join(
            f"{spec.move_to_text(c.move)} {PROVEN[c.proven]}" for c in children if c.proven is not None
        )
    best = [c for c in sorted(children, key=lambda c: -c.visits)[:count] if c.visits * 100 >= total]
    return ", ".join(f"{spec.move_to_text(c.move)} {round(100 * c.visits / total)}% (win {c.value:.0%})" for c in best)


def book_verdicts(spec: Any, position: Any) -> str | None:
    """``1 loss in 18, 2 draw, …``: every column's exact verdict from the opening book (for the side to move),
    or None when the book does not know them all (a 7x6 Connect 4 position near the start only)."""
    if not capabilities(spec).classic:
        return None
    from ai.vocab.opening_book import load  # (a few MB, read once at the first need)
    from game.play.exact import score_verdict

    scores = load().column_scores(position)
    if scores is None:
        return None
    cells = spec.width * spec.height
    return ", ".join(
        f"{spec.move_to_text(c)} {score_verdict(cells, position.ply, s).text}"
        for c, s in enumerate(scores)
        if s is not None
    )


def shares_of(children: Sequence[Any]) -> dict[int, float] | None:
    total = sum(c.visits for c in children)
    if total == 0:
        return None
    return {c.move: c.visits / total for c in children}
