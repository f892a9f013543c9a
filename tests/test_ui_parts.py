"""Pieces of the app without a window: turn logic, undo targets, difficulty list, heat parsing, discs."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from ai.vocab import wire
from ai.vocab.results import ChildLine, Info
from game.play import controller
from game.play.heat import HeatData, HeatEntry, heat_from_info, share_text
from game.play.players import DIFFICULTIES, BotSetting, Mode, is_bot, step_custom
from game.play.session import Session
from game.play.settings import Settings
from game.rules import get_game

pytestmark = pytest.mark.timeout(60)


def test_difficulty_levels_and_budgets() -> None:
    assert [d.label for d in DIFFICULTIES] == ["Random", "Beginner", "Easy", "Medium", "Hard", "Perfect", "Custom"]
    assert BotSetting("random").time_ms is None
    named = ("beginner", "easy", "medium", "hard", "perfect")
    assert [BotSetting(k).difficulty.engine_level for k in named] == list(named)  # the engine's levels
    assert all(BotSetting(k).time_ms for k in named)  # each bounds the wait for its move
    assert BotSetting("custom", 750).time_ms == 750 and BotSetting("custom").difficulty.engine_level is None
    assert BotSetting("hard").label() == "Hard" and BotSetting("hard").detail() == "up to 3 s a move"
    assert step_custom(1000, 1) > 1000 > step_custom(1000, -1)
    assert BotSetting("hard").cycled(1).level == "perfect" and BotSetting("random").cycled(-1).level == "custom"
    perfect = BotSetting("perfect")
    assert perfect.difficulty.exact and perfect.time_ms == 5000 and perfect.label() == "Perfect"
    assert not any(BotSetting(k).difficulty.exact for k in ("beginner", "easy", "medium", "hard"))


def test_who_is_a_bot_in_each_mode() -> None:
    assert not is_bot(Mode.HOTSEAT, 0, 0) and not is_bot(Mode.HOTSEAT, 0, 1)
    assert is_bot(Mode.BOT_VS_BOT, 0, 0) and is_bot(Mode.BOT_VS_BOT, 0, 1)
    assert not is_bot(Mode.VS_BOT, 1, 1) and is_bot(Mode.VS_BOT, 1, 0)


def test_session_play_undo_and_branching() -> None:
    s = Session.from_text("connect4", "4453")
    s.record_eval(4, 0.7)  # first player to move after 4 moves
    point = s.eval_at(4)
    assert point is not None and point.value == pytest.approx(0.7)
    s.go_to(2)
    assert s.moves_text == "44" and s.line_text == "4453"
    s.play(4)  # the same move as the line: keeps the rest for redo
    assert s.line_text == "4453" and s.cursor == 3
    s.play(0)  # a different move cuts the line
    assert s.line_text == "4451" and 4 not in s.evals
    s.record_eval(4, 0.2)
    point = s.eval_at(4)
    assert point is not None and point.value == pytest.approx(0.2)


def test_undo_against_a_bot_returns_to_the_humans_turn() -> None:
    settings = Settings(mode=Mode.VS_BOT, human_player=0)
    s = Session.from_text("connect4", "4453")  # human (first) to move
    assert controller.undo_target(settings, s) == 2
    s.go_to(2)
    assert controller.redo_target(settings, s) == 4
    hotseat = Settings(mode=Mode.HOTSEAT)
    s.go_to(4)
    assert controller.undo_target(hotseat, s) == 3


def test_wanted_search_per_situation() -> None:
    settings = Settings(mode=Mode.VS_BOT, human_player=0, heatmap=False, eval_bar=False)
    s = Session.from_text("connect4", "4")
    assert controller.wanted_search(settings, s, False, False) == ("bot", settings.bots[1].time_ms)
    s.go_to(0)
    assert controller.wanted_search(settings, s, False, False) is None  # human's turn, no analysis asked
    settings.heatmap = True
    assert controller.wanted_search(settings, s, False, False) == ("analysis", controller.ANALYSIS_HEATMAP_MS)
    won = Session.from_text("connect4", "1212121")
    assert controller.wanted_search(settings, won, False, False) is None
    settings.mode = Mode.BOT_VS_BOT
    settings.bots = [BotSetting("random"), BotSetting("random")]
    assert controller.wanted_search(settings, Session.from_text("connect4"), False, False) == ("bot", 0)


def _info(iterations: int, children: tuple[ChildLine, ...]) -> Info:
    return Info(1, iterations, 0.0, 0.5, 0, (), False, None, children)


def test_heat_from_an_info_line_ignores_bad_children() -> None:
    spec = get_game("connect4")
    children = (
        ChildLine("4", 30, 0.6, None, None),
        ChildLine("1", 10, 0.4, "loss", -3),
        ChildLine("x", 99, 0.5, None, None),  # a move this game cannot read
    )
    heat = heat_from_info(spec, 0, _info(40, children))
    assert heat is not None and set(heat.entries) == {3, 0}
    assert heat.entries[3].share == pytest.approx(0.75) and heat.best == 3
    assert heat.entries[0].proven == "loss"
    assert heat_from_info(spec, 0, _info(0, ())) is None
    with pytest.raises(ValueError, match="children"):  # a child that is not one never gets past the wire module
        wire.decode(
            {
                "type": "info",
                "id": 1,
                "iterations": 1,
                "elapsed_ms": 0,
                "value": 0.5,
                "max_depth": 0,
                "pv": [],
                "exact": False,
                "proven": None,
                "children": ["junk"],
            }
        )


def test_colour_blind_discs_differ_by_a_mark_not_only_colour() -> Any:
    pygame.init()
    from game.ui.discs import disc_sprite

    grey = (128, 128, 128)
    ring, cross, plain = (disc_sprite(grey, 30, m) for m in (0, 1, None))

    def pixels(s: pygame.Surface) -> bytes:
        return pygame.image.tobytes(s, "RGBA")

    assert pixels(ring) != pixels(cross) != pixels(plain) and pixels(ring) != pixels(plain)


def test_share_labels_never_show_zero_for_a_visited_move() -> None:
    assert share_text(0.0) == "0%"
    assert share_text(0.003) == "<1%"
    assert share_text(0.006) == "1%"
    assert share_text(0.6) == "60%"


def test_a_search_that_visited_nothing_shows_dashes_not_zero_shares() -> None:
    """At a book position the engine settles every column without a visit: "0%" under every column read as
    "the engine likes nothing here"."""
    settled = HeatData(
        3, {m: HeatEntry(m, 0.0, 1.0 if m in (1, 4) else 0.0, "win" if m in (1, 4) else "loss", None) for m in range(7)}
    )
    assert not settled.visited
    assert share_text(0.0, settled.visited) == "–"
    searched = HeatData(3, {0: HeatEntry(0, 0.0, 0.4, None, None), 1: HeatEntry(1, 1.0, 0.6, None, None)})
    assert searched.visited and share_text(0.0, searched.visited) == "0%"
