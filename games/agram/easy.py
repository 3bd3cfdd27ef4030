"""Agram's easy player: play low, and keep a winner for the sixth trick.

Only the sixth trick counts, so a person keeps their strongest card (the highest
by Agram's order, ace high) for the end and sheds the weakest card they may play
on every earlier trick; leading the fifth trick is worth winning with the other
card, because the leader of the sixth picks the suit.
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import CARD_INDEX, PLAY_MOVES
from games.engine import Game, Move
from games.tricks import ace_high


def choose(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """Return the easy move for ``seat``, from its view and legal moves only."""
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    view = game.view(state, seat)
    hand = [CARD_INDEX[c] for c in view["hand"]]
    keeper = max(hand, key=ace_high)
    legal = [CARD_INDEX[m["play"]] for m in moves]
    others = [c for c in legal if c != keeper] or legal
    if view["tricks_played"] == 4 and view["trick"]:
        # Trick five: take it with the spare card if it can win, to lead the sixth.
        led = CARD_INDEX[view["trick"][0]["card"]] // 13
        best = max(
            (CARD_INDEX[p["card"]] for p in view["trick"] if CARD_INDEX[p["card"]] // 13 == led), key=ace_high
        )
        winners = [c for c in others if c // 13 == led and ace_high(c) > ace_high(best)]
        if winners:
            return PLAY_MOVES[min(winners, key=ace_high)]
    return PLAY_MOVES[min(others, key=ace_high)]
