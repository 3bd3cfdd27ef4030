"""Rebuild any game played at a table from its seed and its move log."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardtable.tables.models import Match
from games import get_game


def replay(match: Match) -> Iterator[tuple[int, Any]]:
    """Yield (table version, state) after the start and after each logged move.

    The state yielded is changed in place by the next move: clone or serialise
    it before asking for the next one if you keep it.
    """
    game = get_game(match.game)
    state = game.new(match.players, dict(match.options), match.seed)
    yield match.version, state
    for record in match.moves.order_by("seq"):
        game.apply(state, record.seat, record.move)
        yield record.version, state
