"""The engine's turns in the app, as a handler: ``EngineHandler`` owns ``game.play.turns.EngineTurns`` (which
search runs, what its lines mean, when a bot's move is due) and whether bots only analyse (screenshots); each
frame it answers with effects (``game.ui.effects``): the engine's notices and a bot's move."""

from __future__ import annotations

from game.play.actions import Command
from game.play.engine_driver import EngineDriver
from game.play.exact import Verdict
from game.play.heat import HeatData
from game.play.players import Mode, is_bot
from game.play.session import Session
from game.play.settings import Settings
from game.play.turns import EngineTurns
from game.rules.capabilities import GameCapabilities
from game.ui.app_commands import History
from game.ui.effects import BotMove, Effects, Notice


class EngineHandler:
    COMMANDS: tuple[Command, ...] = (Command.STOP_SOLVING,)

    def __init__(
        self, settings: Settings, session: Session, history: History, driver: EngineDriver, now: float
    ) -> None:
        self.settings, self.session, self.history = settings, session, history
        self.turns = EngineTurns(driver, now)
        self.analysis_only = False  # bots search but never move (screenshots)

    def handle(self, c: Command) -> Effects:
        if c is Command.STOP_SOLVING:  # the player stops the solver's background looks at the shown position
            self.turns.stop_solving(self.session)
        return []

    def update(self, caps: GameCapabilities, choosing: bool, animating: bool, now: float) -> Effects:
        """Each frame: the engine's news, the search the position wants, and a bot's move once it is due (none
        while the new-game dialog is open or bot-vs-bot is held)."""
        s, sess, history, turns = self.settings, self.session, self.history, self.turns
        effects: Effects = [Notice(text, error) for text, error in turns.poll(sess)]
        if not choosing:
            notice = turns.schedule(s, sess, caps, history.paused, history.step_requested, self.analysis_only, now)
            effects += [] if notice is None else [Notice(*notice)]
        move = turns.due_move(s, sess, choosing or history.held, now, animating)
        effects += [] if move is None else [BotMove(move)]
        return effects

    def verdicts(self, caps: GameCapabilities) -> dict[int, Verdict] | None:
        """Exact verdicts (or estimates) per column of the shown position, when Exact is on."""
        if not (self.settings.exact and caps.exact_solver):
            return None
        s, pos = self.settings, self.session.position
        held = self.history.paused and s.mode == Mode.BOT_VS_BOT
        bots_turn = is_bot(s.mode, s.human_player, pos.to_move) and not held and not self.analysis_only
        solving = not (self.session.at_end and bots_turn)  # (no solver looks while a bot plays)
        return self.turns.verdicts(self.session, solving=solving)

    def heat(self) -> HeatData | None:
        """The heat of the shown position, when the heatmap is on."""
        return self.turns.heat_for(self.session, self.settings.exact) if self.settings.heatmap else None

    def problem(self) -> str | None:
        """Why the engine will not deliver (unavailable, or it refused this game's searches)."""
        return self.turns.problem(self.session.spec.name)

    def ready(self) -> bool:
        return self.turns.driver.start() and self.turns.driver.is_ready
