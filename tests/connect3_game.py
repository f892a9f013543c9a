"""A game defined outside the project, for tests/test_new_game_in_one_place.py: Connect 3 on a 5x4 board (discs
fall, three in a row wins). Its rules are written here, standard library only, and it is registered by the ONE
call at the bottom, which is all the project is told of it. Importing this module is the plugin
(``CONNECT4_GAME_PLUGINS=connect3_game``, with tests/ on the path)."""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.base import DRAW, ONGOING, Outcome, Status
from game.rules.errors import IllegalMoveError, NotationError
from game.rules.family_registration import BoardLayout, FamilyRegistration, register_family

WIDTH, HEIGHT, IN_A_ROW = 5, 4, 3
NAME = "connect3"
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class Connect3Spec:
    name: str = NAME
    family: str = NAME
    width: int = WIDTH
    height: int = HEIGHT

    def start(self) -> Connect3Position:
        return Connect3Position(self, ())

    def parse_move(self, text: str) -> int:
        if not (len(text.strip()) == 1 and text.strip().isdigit() and 1 <= int(text) <= self.width):
            raise NotationError(f"a Connect 3 move is a column 1-{self.width}, not {text!r}")
        return int(text) - 1

    def move_to_text(self, move: int) -> str:
        return str(move + 1)

    def parse_moves(self, text: str) -> tuple[int, ...]:
        return tuple(self.parse_move(ch) for ch in text.strip())

    def moves_to_text(self, moves: tuple[int, ...] | list[int]) -> str:
        return "".join(self.move_to_text(m) for m in moves)

    def parse_position(self, text: str) -> Connect3Position:
        position = self.start()
        for move in self.parse_moves(text):
            position = position.play(move)
        return position


@dataclass(frozen=True)
class Connect3Position:
    spec: Connect3Spec
    history: tuple[int, ...]

    @property
    def ply(self) -> int:
        return len(self.history)

    @property
    def to_move(self) -> int:
        return self.ply % 2

    def _owners(self) -> dict[int, int]:
        owners: dict[int, int] = {}
        heights = [0] * WIDTH
        for ply, column in enumerate(self.history):
            owners[heights[column] * WIDTH + column] = ply % 2
            heights[column] += 1
        return owners

    def cell(self, index: int) -> int | None:
        return self._owners().get(index)

    @property
    def outcome(self) -> Outcome:
        owners = self._owners()
        for cell, owner in owners.items():
            row, col = divmod(cell, WIDTH)
            for dc, dr in _DIRECTIONS:
                line = [(row + i * dr) * WIDTH + col + i * dc for i in range(IN_A_ROW)]
                inside = all(0 <= col + i * dc < WIDTH and 0 <= row + i * dr < HEIGHT for i in range(IN_A_ROW))
                if inside and all(owners.get(c) == owner for c in line):
                    return Outcome(Status.WIN, owner, tuple(line))
        return DRAW if len(owners) == WIDTH * HEIGHT else ONGOING

    def legal_moves(self) -> tuple[int, ...]:
        if self.outcome.is_over:
            return ()
        return tuple(c for c in range(WIDTH) if self.history.count(c) < HEIGHT)

    def play(self, move: int) -> Connect3Position:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"column {move + 1} cannot be played here")
        return Connect3Position(self.spec, (*self.history, move))

    def to_text(self) -> str:
        return self.spec.moves_to_text(self.history)


def parse_name(text: str) -> Connect3Spec | None:
    return Connect3Spec() if text == NAME else None


# the one registration: everything else (the app's geometry, the terminal's board, the network's STATE and
# ACTION, the search) follows from the layout; the engine searches it with the rules-based MCTS
REGISTRATION = register_family(
    FamilyRegistration(
        family=NAME,
        names=(NAME,),
        sample=NAME,
        parse_name=parse_name,
        layout=BoardLayout.COLUMNS,
        title="Connect 3 5x4",
        choices=(NAME,),
    )
)
