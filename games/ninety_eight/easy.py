"""Ninety-Eight's easy player: keep the total safe, and hold the escapes.

A person plays the biggest number card that keeps the total at 98 or under (it
pushes the next seat towards the edge) and keeps the escapes, the cards that do
not raise the total much whatever it is (J, Q, T, K), for when no number card
fits. What a card does to the total is found by trying it on a copy of the
state and reading the public total, so the card values live only in the game.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Game, Move

# The order a person gives up escapes: J and Q first, then T, the K last.
ESCAPE_ORDER = {"J": 0, "Q": 0, "T": 1, "K": 2}


def trial(game: Game, state: Any, seat: int, move: Move) -> tuple[bool, int]:
    """Return (busted, total after) for ``move``, tried on a copy of the state.

    Only public facts are read back: the seat's score (a bust costs it) and the
    pile's total.
    """
    before = game.view(state, None)
    copy = game.clone(state)
    game.advance(copy, seat, move)
    after = game.view(copy, None) if not game.is_over(copy) else game.result(copy)
    if after["scores"][seat] < before["scores"][seat]:
        return True, 99
    if after.get("deal_number", before["deal_number"]) != before["deal_number"]:
        return False, 0  # the deal ended without a loser
    return False, after["total"]


def choose(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """Return the easy move for ``seat``: the highest safe number card, else an escape."""
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    numbers, escapes, busts = [], [], []
    for move in moves:
        busted, total = trial(game, state, seat, move)
        rank = move["play"][0]
        if busted:
            busts.append(move)
        elif rank in ESCAPE_ORDER:
            escapes.append((ESCAPE_ORDER[rank], move))
        else:
            numbers.append((total, move))
    if numbers:
        return max(numbers, key=lambda tm: tm[0])[1]
    if escapes:
        return min(escapes, key=lambda em: em[0])[1]
    return busts[0]
