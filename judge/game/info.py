"""The asking commands anyone may send: HELP, GET, LIST, LIST game, SUMMARY, VERSION
(HISTORY is in :mod:`.history`)."""

from __future__ import annotations

from .. import render
from ..engine import Position
from ..engine.phase import Phase
from ..mail import commands as c
from ..mail.commands import Command
from ..store.games import FORMING, PLAYER, Game, all_games, find_game, members, order_sets, phase_records
from . import notices, orders
from .board import board_of
from .press_rules import describe
from .service import MailState, handles


@handles(c.HELP, c.GET)
def get(state: MailState, cmd: Command) -> None:
    topic = cmd.args[0] if cmd.args else None
    try:
        state.say(render.help_text(topic))
    except render.HelpTopicError as exc:
        state.error(cmd, str(exc))


@handles(c.VERSION)
def version(state: MailState, cmd: Command) -> None:
    state.say(render.help_text("version") if "version" in render.help_topics() else state.config.code)


def _game(state: MailState, cmd: Command) -> Game | None:
    if cmd.args:
        game = find_game(state.session, cmd.args[0])
        if game is None:
            state.error(cmd, f"There is no game called '{cmd.args[0]}'.")
        elif state.game is None:
            state.about = game
        return game
    if state.game is None:
        state.error(cmd, "Name the game (LIST game), or SIGNON first.")
    return state.game


@handles(c.LIST)
def list_games(state: MailState, cmd: Command) -> None:
    if not cmd.args and state.game is None:
        lines = []
        for g in all_games(state.session):
            m = board_of(g).m
            players = len(members(g, roles=(PLAYER,)))
            needed = len(m.powers) - players if g.status == FORMING else 0
            lines.append(render.GameLine(g.name, m.title, g.phase, g.status, players, needed))
        state.say(render.list_text(lines))
        return
    game = _game(state, cmd)
    if game is None:
        return
    ctx = notices.game_ctx(state.config, game)
    state.say(render.game_list_text(ctx, _listing(state, game)))


def _listing(state: MailState, game: Game) -> render.Listing:
    b = board_of(game)
    position: Position | None = b.position if game.status != FORMING else None
    waiting: list[str] = []
    status_of: dict[str, str] = {}
    if position is not None and game.phase:
        stored = order_sets(state.session, game, game.phase)
        for power in orders.required(b.engine, position):
            lines = stored[power].lines if power in stored else []
            done = orders.is_complete(b.engine, position, power, lines)
            status_of[power] = "" if done else "move"
            if not done:
                waiting.append(power)
    rows = [(role, status_of.get(role, ""), email) for role, email in notices.roster(game)]
    params = [
        ("Options", ", ".join(f"{k}={v}" for k, v in sorted((game.options or {}).items())) or "none"),
        ("Press", describe(game.press, game.partial_press)),
        ("Status", game.status.capitalize()),
        ("Winning Centers", str(b.m.victory)),
    ]
    missed = {p.power: p.nmr_count for p in members(game, roles=(PLAYER,)) if p.power} if position else {}
    return render.Listing(position, game.deadline, game.grace_end, params, rows, waiting, missed)


@handles(c.SUMMARY)
def summary(state: MailState, cmd: Command) -> None:
    game = _game(state, cmd)
    if game is None:
        return
    b = board_of(game)
    rows: list[tuple[Phase, dict[str, int]]] = []
    for record in phase_records(state.session, game):
        pos = Position.from_json(b.m, record.position)
        if pos.phase.kind == "M" and pos.phase.season == "S":
            rows.append((pos.phase, pos.centre_counts()))
    if game.position:
        rows.append((b.position.phase, b.position.centre_counts()))
    players = [(role, email) for role, email in notices.roster(game)]
    state.say(render.summary_text(notices.game_ctx(state.config, game), rows, players))
