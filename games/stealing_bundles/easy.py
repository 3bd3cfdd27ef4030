"""Stealing Bundles' easy player: steal the biggest haul, leave no easy target.

A person takes whatever gains the most cards (bundles whose top matches, pool
cards of the rank); between equal hauls, the card whose rank has fewest copies
still unseen, since the played card becomes the top of their bundle and any
seat holding that rank could steal it all. With nothing to take, they put down
a card they hold a pair of (to take it back next turn) or whose rank is mostly
seen already. Hauls are read from the view after trying the card on a copy.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine import Game, Move


def _seen_ranks(view: dict[str, Any]) -> Counter:
    """Count the ranks the seat can see: its hand, the pool and the bundles' tops."""
    seen = Counter(card[0] for card in view["hand"])
    seen.update(card[0] for card in view["pool"])
    seen.update(b["top"][0] for b in view["bundles"] if b["top"])
    return seen


def choose(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """Return the easy move for ``seat``: the biggest safe steal, else a careful discard."""
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    view = game.view(state, seat)
    size = view["bundles"][seat]["size"]
    seen = _seen_ranks(view)
    in_hand = Counter(card[0] for card in view["hand"])
    best, best_score = moves[0], None
    for move in moves:
        rank = move["play"][0]
        copy = game.clone(state)
        game.advance(copy, seat, move)
        after = game.result(copy) if game.is_over(copy) else game.view(copy, None)
        haul = after["scores"][seat] - size
        unseen = 4 - seen[rank]
        # A take: the cards, less the risk of the bundle (now topped by this rank) being
        # stolen. A discard: a rank held twice (to take it back), or one mostly seen.
        steal = 100 + haul - unseen * (size + haul) / 8
        score = steal if haul > 0 else 2 * (in_hand[rank] - 1) - unseen
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best
