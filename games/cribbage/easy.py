"""Cribbage's easy player: keep the best hand, peg what scores, give nothing away.

- Discard: ``select_hand``, the four cards with the best average show.
- The play: the card that pegs most (found by trying it on a copy and reading
  the seat's public score); otherwise avoid leaving the count at 5 or 21 (a
  ten-card makes 15 or 31), and prefer counts from which no single card makes
  15 or 31; shed high cards first, keeping low ones to squeeze in under 31.
"""

from __future__ import annotations

import random
from typing import Any

from games.cribbage.scoring import select_hand
from games.engine import Game, Move


def choose(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """Return the easy move for ``seat``, from its view, legal moves and trial plays."""
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    view = game.view(state, seat)
    if view["phase"] == "discard":
        _, crib_cards = select_hand(view["hand"])
        move = {"discard": crib_cards}
        return move if move in moves else moves[0]
    before = view["scores"][seat]
    count = view["count"]
    best, best_score = moves[0], None
    for move in moves:
        copy = game.clone(state)
        game.advance(copy, seat, move)
        after = game.result(copy) if game.is_over(copy) else game.view(copy, None)
        gain = after["scores"][seat] - before
        new_count = after.get("count", 0)
        score = 10.0 * gain
        if new_count in (5, 21):
            score -= 4
        elif 5 < new_count < 15 or 21 < new_count < 31:
            score -= 1
        if new_count > count:
            score += 0.1 * (new_count - count)  # shed high cards first
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best
