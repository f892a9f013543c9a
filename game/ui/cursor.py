"""The keyboard's cursor: the drop column (Connect 4) or a cell (grid games). Pure functions.

The cursor starts on the hovered move when that is legal, else on the legal move nearest the centre
of where one may play (in Ultimate TTT the board one is sent to), and each step jumps to the next
legal move in that direction, so it never rests on a move that would be refused.
"""

from __future__ import annotations


def next_column(legal: tuple[int, ...], width: int, current: int | None, hover: int | None, step: int) -> int | None:
    if not legal:
        return None
    start = current if current is not None else (hover if hover is not None else width // 2 - step)
    col = start
    for _ in range(width):
        col = (col + step) % width
        if col in legal:
            return col
    return None


def start_cell(legal: tuple[int, ...], width: int, hover: int | None) -> int | None:
    if not legal:
        return None
    if hover in legal:
        return hover
    cols = [m % width for m in legal]
    rows = [m // width for m in legal]
    cx, cy = (min(cols) + max(cols)) / 2, (min(rows) + max(rows)) / 2
    return min(legal, key=lambda m: (abs(m % width - cx) + abs(m // width - cy), m))


def next_cell(
    legal: tuple[int, ...], width: int, height: int, current: int | None, hover: int | None, dx: int, dy: int
) -> int | None:
    """The cursor after an arrow key: the first press shows it, later ones move to the next legal cell."""
    if current is None:
        return start_cell(legal, width, hover)
    row, col = divmod(current, width)
    for _ in range(max(width, height)):
        row, col = (row + dy) % height, (col + dx) % width
        if row * width + col in legal:
            return row * width + col
    # nothing legal straight ahead: the nearest legal cell on that side
    ahead = [m for m in legal if (m % width - current % width) * dx + (m // width - current // width) * dy > 0]
    if not ahead:
        return current
    return min(ahead, key=lambda m: abs(m % width - current % width) + abs(m // width - current // width))
