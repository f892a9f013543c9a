"""Pieces of the frame snapshot built from explicit facts (no app object): the panel model, the result
banner, the notices. Pure functions, no pygame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from game.play.engine_driver import EngineView, Search
from game.play.exact import Verdict
from game.play.heat import HeatData
from game.play.players import MODE_LABELS, BotSetting, Mode, is_bot
from game.play.pondering import ponder_applies, ponder_on
from game.play.session import EvalPoint, Session
from game.play.settings import Settings
from game.play.themes import Color, Theme
from game.rules import Position
from game.rules.capabilities import GameCapabilities
from game.rules.uttt import UtttPosition
from game.ui.animation import DropAnimation
from game.ui.frame import (
    Banner,
    BoardScene,
    EvalBarState,
    Frame,
    NewGameCard,
    Notice,
    Overlay,
    PanelModel,
    PlayerRow,
    Progress,
    Status,
)
from game.ui.status import TurnFacts, engine_progress, progress_of, turn_texts

NOTICE_SECONDS = 6.0
ERROR_SECONDS = 9.0


@dataclass(frozen=True)
class TimedNotice:
    notice: Notice
    until: float
    position: str | None  # a notice about this position goes when the position changes

    def live(self, now: float, position: str) -> bool:
        return now <= self.until and (self.position is None or self.position == position)


def timed_notice(text: str, now: float, error: bool, position: str | None = None) -> TimedNotice:
    line = text.splitlines()[0] if text else ""
    return TimedNotice(Notice(line, error), now + (ERROR_SECONDS if error else NOTICE_SECONDS), position)


def panel_model(
    settings: Settings,
    session: Session,
    names: tuple[str, str],
    colours: tuple[Color, Color],
    theme: Theme,
    paused: bool,
    exact_available: bool,
    sound_available: bool = True,
) -> PanelModel:
    players = tuple(_player_row(settings, p, names[p], colours[p], exact_available) for p in (0, 1))
    bvb = settings.mode == Mode.BOT_VS_BOT
    return PanelModel(
        mode_label=MODE_LABELS.get(settings.mode, settings.mode),
        players=(players[0], players[1]),
        bot_vs_bot=bvb,
        paused=paused,
        can_step=paused and not session.final_position.outcome.is_over,
        can_undo=session.cursor > 0,
        can_redo=not session.at_end,
        at_start=session.cursor == 0,
        at_end=session.at_end,
        heatmap=settings.heatmap,
        exact=settings.exact,
        exact_available=exact_available,
        eval_bar=settings.eval_bar,
        sound=settings.sound,
        theme_label=theme.label,
        ponder=ponder_on(settings) if settings.mode == Mode.VS_BOT else None,
        ponder_applies=ponder_applies(settings) and not session.final_position.outcome.is_over,
        over=session.final_position.outcome.is_over,
        sound_available=sound_available,
    )


def _player_row(settings: Settings, player: int, name: str, colour: Color, solved: bool = True) -> PlayerRow:
    if not is_bot(settings.mode, settings.human_player, player):
        return PlayerRow(name, colour, None, False)
    bot: BotSetting = settings.bots[player]
    return PlayerRow(name, colour, bot.label(solved), bot.difficulty.kind == "custom", bot.detail())


def banner_for(
    position: Position, names: tuple[str, str], colours: tuple[Color, Color], vs_bot: bool, human: int
) -> Banner | None:
    outcome = position.outcome
    if not outcome.is_over:
        return None
    if outcome.winner is None:
        return Banner("Draw", "N: new game · U: undo", None)
    text = f"{names[outcome.winner]} wins"
    if vs_bot:
        text += " · you win!" if outcome.winner == human else " · the bot wins"
    return Banner(text, "N: new game · U: undo", colours[outcome.winner])


def subtitle(settings: Settings, names: tuple[str, str], solved: bool = True) -> str:
    parts = []
    for p in (0, 1):
        who = f"Bot ({settings.bots[p].label(solved)})" if is_bot(settings.mode, settings.human_player, p) else "Human"
        parts.append(f"{names[p]}: {who}")
    return f"{MODE_LABELS.get(settings.mode, settings.mode)} · " + " vs ".join(parts)


@dataclass(frozen=True)
class FrameFacts:
    """What a frame is built from (the app's state, passed explicitly)."""

    now: float
    settings: Settings
    session: Session
    caps: GameCapabilities
    theme: Theme
    names: tuple[str, str]
    colours: tuple[Color, Color]
    can_play: bool
    hover: int | None
    key_cursor: int | None
    animation: DropAnimation | None
    placed: tuple[int, float] | None
    heat: HeatData | None
    verdicts: dict[int, Verdict] | None
    eval_shown: float | None
    paused: bool
    held: bool  # a paused bot-vs-bot game
    analysis_only: bool
    planned: str | None
    engine_ready: bool
    search: Search | None
    notice: Notice | None
    overlay: Overlay | None
    mouse: tuple[int, int]
    panel_open: bool
    move_scroll: int
    engine: EngineView | None = None
    solving_left: int | None = None  # columns the solver still works on in the background (None: none)
    sound_available: bool = True


def build_frame(f: FrameFacts) -> Frame:
    s, sess, caps = f.settings, f.session, f.caps
    settled = f.animation is None or f.animation.done(f.now)
    point = sess.eval_at(sess.cursor)
    eval_state = None
    if s.eval_bar:
        eval_state = EvalBarState(
            f.eval_shown if f.eval_shown is not None else 0.5,
            point is not None,
            point is not None and point.exact,
            f.eval_shown is not None,
        )
    return Frame(
        now=f.now,
        theme=f.theme,
        caps=caps,
        title=caps.title,
        subtitle=subtitle(s, f.names, caps.exact_solver),
        board=_board(f),
        banner=banner_for(sess.position, f.names, f.colours, s.mode == Mode.VS_BOT, s.human_player)
        if settled
        else None,
        eval_bar=eval_state,
        panel=panel_model(s, sess, f.names, f.colours, f.theme, f.paused, caps.exact_solver, f.sound_available),
        moves=tuple(sess.spec.move_to_text(m) for m in sess.line),
        cursor=sess.cursor,
        move_scroll=f.move_scroll,
        graph=sess.eval_series(),
        graph_label=graph_label(point, f.names),
        status=_status(f, settled, point),
        overlay=f.overlay,
        mouse=f.mouse,
        panel_open=f.panel_open,
    )


def _forced_text(f: FrameFacts, point: EvalPoint | None) -> str | None:
    """The shown position's (``point``) forced line when the evaluation is on ("Red wins: VCT in 3"), else
    None; not a loss of the player against the bot at the player's every turn (true but discouraging, as
    "every move loses": the eval bar and the heading still say it)."""
    if not f.settings.eval_bar or point is None or point.forced is None:
        return None
    if f.settings.mode == Mode.VS_BOT and point.forced.winner != f.session.position.to_move:
        return None
    return forced_line_text(point, f.names)


def forced_line_text(point: EvalPoint | None, names: tuple[str, str]) -> str | None:
    """A proven win's forced line where the engine found one for ``point``'s position ("Red wins: VCF in
    7"), else None."""
    if point is None or point.forced is None:
        return None
    return point.forced.line.describe(names[point.forced.winner])


def graph_label(point: EvalPoint | None, names: tuple[str, str]) -> str:
    """The evaluation's heading: the forced line (``forced_line_text``) or whose chance the graph shows."""
    return forced_line_text(point, names) or f"{names[0]}'s winning chance"


def settled_now(f: FrameFacts) -> bool:
    return f.animation is None or f.animation.done(f.now)


def _board(f: FrameFacts) -> BoardScene:
    s, sess, caps = f.settings, f.session, f.caps
    pos = sess.position
    last = None
    if sess.cursor > 0 and caps.gravity:
        col = sess.line[sess.cursor - 1]
        last = max(r for r in range(caps.height) if pos.cell(r * caps.width + col) is not None) * caps.width + col
    hover = f.key_cursor if f.key_cursor is not None and caps.gravity else f.hover
    uttt = cast(UtttPosition, pos) if caps.local_boards else None
    swap = int(s.swap_colours)
    return BoardScene(
        position=pos,
        theme=f.theme,
        colours=f.colours,
        marks=(swap, 1 ^ swap) if f.theme.marks else (None, None),
        now=f.now,
        hover=hover if f.can_play and settled_now(f) else None,
        preview_player=pos.to_move if f.can_play and settled_now(f) else None,  # no ghost while a disc falls
        animation=f.animation,
        heat=f.heat,
        last_move=last,
        placed=f.placed,
        key_cursor=f.key_cursor if not caps.gravity and f.can_play else None,
        verdicts=f.verdicts,
        allowed_boards=uttt.allowed_boards() if uttt is not None else (),
        local_winners=tuple(uttt.local_winner(b) for b in range(9)) if uttt is not None else (),
    )


def _status(f: FrameFacts, settled: bool, point: EvalPoint | None) -> Status:
    pos = f.session.position
    outcome = pos.outcome
    over = outcome.is_over and (settled or not f.session.at_end)
    facts = _turn_facts(f, over, point)
    dot = (
        None
        if over and outcome.winner is None
        else f.colours[outcome.winner if over and outcome.winner is not None else pos.to_move]
    )
    left = f.solving_left
    texts = _status_texts(f, facts, over)
    return Status(texts, dot, over, _progress(f, over), f.notice, stop_solving=bool(left) and not over)


def _turn_facts(f: FrameFacts, over: bool, point: EvalPoint | None) -> TurnFacts:
    s, sess = f.settings, f.session
    pos = sess.position
    outcome = pos.outcome

    def bot(player: int) -> bool:
        return is_bot(s.mode, s.human_player, player)

    return TurnFacts(
        f.names,
        over,
        outcome.winner,
        pos.to_move,
        sess.at_end,
        sess.cursor,
        len(sess.line),
        s.mode == Mode.VS_BOT,
        bot(pos.to_move),
        outcome.winner is not None and not bot(outcome.winner),
        f.held,
        f.analysis_only,
        f.planned,
        f.caps.gravity,
        f.caps.width,
        _forced_text(f, point) if sess.at_end and not over else None,
    )


def _progress(f: FrameFacts, over: bool) -> Progress | None:
    """The search's progress bar (or the engine's preparation when nothing searches)."""
    search, sess = f.search, f.session
    if search is not None and not search.finished and sess.moves_text == search.moves and not over:
        colour = f.colours[sess.position.to_move] if search.kind != "analysis" else f.theme.accent
        return progress_of(
            search.kind,
            search.elapsed_ms(f.now) / 1000,
            search.time_ms / 1000,
            search.iterations,
            f.engine_ready,
            search.last_info is not None,
            colour,
            f.engine,
        )
    if f.engine is not None and not over:  # no search: still say when the engine compiles or is away
        return engine_progress(f.engine, f.theme.accent)
    return None


def _status_texts(f: FrameFacts, facts: TurnFacts, over: bool) -> tuple[str, ...]:
    """The status line's texts, longest first (the view takes the first that fits)."""
    sess = f.session
    pos = sess.position
    texts = turn_texts(facts)
    heard = f.search is not None and f.search.moves == sess.moves_text and f.search.last_info is not None
    waiting = f.engine is not None and f.engine.state in ("starting", "preparing") and not heard
    if waiting and facts.bot_to_move and sess.at_end and not over and not f.held and not f.analysis_only:
        name = f.names[pos.to_move]  # the bot cannot think yet: say what it waits for, not "is thinking"
        texts = (f"{name} waits for the engine to be ready", f"{name} waits for the engine", f"{name} waits")
    if isinstance(f.overlay, NewGameCard) and not over:  # nothing moves behind the dialog
        texts = ("Choose a game and press Start", "Press Start")
    if f.engine is not None and f.engine.pondering and not over:
        texts = (f"{texts[0]} · the bot thinks on your time", *texts)
    common = f.heat.common_outcome if f.heat is not None and not over else None
    if common == "loss" and sess.at_end and not facts.bot_to_move:
        common = None  # true but discouraging at the player's every turn: said in the analysis view only
    if common is not None:  # the heatmap stresses nothing: say why
        verb = {"win": "wins", "draw": "draws", "loss": "loses"}[common]
        texts = (f"{texts[0]} · every move {verb}", *texts)
    left = f.solving_left
    if left and not over:
        columns = "column" if left == 1 else "columns"
        texts = (
            f"{texts[0]} · solving {left} more {columns} in the background",
            f"{texts[-1]} · solving {left} more {columns}",
            f"solving {left} more {columns}",
            *texts,
        )
    return texts
