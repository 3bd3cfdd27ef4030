"""Cribbage discards for the search bots: the best expected hand plus or minus the crib.

For each legal discard, the kept cards' expected show over every start card
(``keep_totals``, exact) plus the expected crib of the discarded cards when the
crib is the seat's side's, minus it when it is the other side's (shipped tables,
``crib_tables.py``).
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import CARD_INDEX
from games.cribbage.crib_tables import tables
from games.cribbage.scoring import keep_totals
from games.engine import Game, Move


def crib_value(discards: list[int]) -> float:
    """Return the table's expected crib value of one or two discarded cards."""
    data = tables()
    if len(discards) == 2:
        return data["pairs"][discards[0] % 13][discards[1] % 13]
    return data["singles"][discards[0] % 13]


def discard_values(cards: list[int], own_crib: bool, moves: list[Move]) -> list[tuple[float, Move]]:
    """Return ``(expected hand ± crib, move)`` for each discard move of a hand of ``cards``."""
    starts = 52 - len(cards)
    hand_ev = {frozenset(kept): total / starts for total, kept in keep_totals(cards)}
    sign = 1.0 if own_crib else -1.0
    out = []
    for move in moves:
        thrown = [CARD_INDEX[c] for c in move["discard"]]
        kept = frozenset(c for c in cards if c not in thrown)
        out.append((hand_ev[kept] + sign * crib_value(thrown), move))
    return out


def discard_choices(game: Game, state: Any, seat: int) -> list[tuple[float, Move]] | None:
    """In the discard phase, return ``(expected hand ± crib, move)`` for each legal discard of
    ``seat`` (from its own view only); else ``None``."""
    view = game.view(state, seat)
    if view["phase"] != "discard" or seat not in view["to_discard"]:
        return None
    moves = game.legal_moves(state, seat)
    side = next(i for i, seats in enumerate(view["sides"]) if seat in seats)
    own = view["dealer"] in view["sides"][side]
    cards = [CARD_INDEX[c] for c in view["hand"]]
    return discard_values(cards, own, moves)


def opening(game: Game, state: Any, seat: int, rng: random.Random) -> Move | None:
    """In the discard phase, return the discard with the best expected hand ± crib; else None."""
    choices = discard_choices(game, state, seat)
    if choices is None:
        return None
    return max(choices, key=lambda vm: vm[0])[1]
