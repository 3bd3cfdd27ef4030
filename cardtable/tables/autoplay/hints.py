"""Hints: whether a player may ask for one now, and what the hint is computed from."""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.tables.authority.checks import (
    own_seat,
    require_player,
)
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, Player, Table
from games import get_game


@dataclass(frozen=True)
class HintJob:
    """What a hint is computed from: the game, its state, the asking seat, a seed."""

    game: str
    state: dict
    seat: int
    seed: int


def hint_job(table_id: str, player: Player | None) -> HintJob:
    """Check that ``player`` may ask for a hint now (seated, game running, to act); return what to compute.

    Errors come in the protocol's order: no_player, not_seated, game_not_running, not_your_turn.
    Nothing changes at the table.
    """
    player = require_player(player)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError("not_found", f"there is no table {table_id!r}")
    seat = own_seat(table, player).index
    if table.status != Table.PLAYING:
        raise TableError("game_not_running", f"no game is running (the table is {table.status})")
    game = get_game(table.game)
    if seat not in game.to_act(game.from_json(table.state)):
        raise TableError("not_your_turn", "a hint is for your own turn")
    seed = Match.objects.filter(table=table, number=table.game_number).values_list("seed", flat=True).first()
    return HintJob(
        table.game, table.state, seat, ((seed or 0) * 1_000_003 + table.version * 31 + seat) & 0x7FFFFFFF
    )
