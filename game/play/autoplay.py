"""Hand a side to Perfect, or take it back, in the middle of a game (as on connect4.gamesolver.org).

No pygame and no app object: ``toggle`` changes the settings' mode, human side and bot levels so the
game goes on from the shown position with the new players. Handing a human's side over makes it a
bot at the Perfect level (hot-seat becomes Human vs Bot, Human vs Bot becomes Bot vs Bot); taking a
bot's side makes it the player's again (the reverse). The game itself is not touched.
"""

from __future__ import annotations

from game.play.players import PERFECT, BotSetting, Mode, is_bot
from game.play.settings import Settings


def hands_over(settings: Settings, player: int) -> bool:
    """What the button of ``player``'s row does now: True hands the side to Perfect, False takes it back."""
    return not is_bot(settings.mode, settings.human_player, player)


def toggle(settings: Settings, player: int) -> None:
    if hands_over(settings, player):
        settings.bots[player] = BotSetting(PERFECT, settings.bots[player].custom_ms)
        if settings.mode == Mode.HOTSEAT:
            settings.mode, settings.human_player = Mode.VS_BOT, 1 - player
        else:
            settings.mode = Mode.BOT_VS_BOT
    elif settings.mode == Mode.BOT_VS_BOT:
        settings.mode, settings.human_player = Mode.VS_BOT, player
    else:
        settings.mode = Mode.HOTSEAT


def button_text(handing_over: bool, side: str) -> tuple[str, str]:
    """(label, tooltip) of a side's button: what a click does."""
    if handing_over:
        return "Hand to Perfect", f"Perfect plays {side} from here (click again to take it back)"
    return "Take over", f"You play {side} from here"
