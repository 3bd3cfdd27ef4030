"""The passes a searching Hearts bot weighs: a shortlist around the easy pass.

All 286 triples of a hand are too many to play out in a second, and most are
plainly bad (passing low spades that guard the queen, low cards that duck
tricks). The shortlist is what a player would hesitate between: every triple
of the five cards the easy player most wants rid of, and passing all of a
short suit (three cards or fewer, topped up with the most dangerous cards) to
make a void early.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.cards import CARD_INDEX, CARD_NAMES, sort_names
from games.engine import Game, Move
from games.hearts.easy import SPADES, pass_danger

# How many of the most dangerous cards the shortlist's triples are drawn from:
# C(5, 3) = 10 triples, so ``hard``'s 900 playouts give each about 90 sampled deals.
TOP = 5


def shortlist(game: Game, state: Any, seat: int, ruled: Move) -> list[Move]:
    """Return the passes worth searching for ``seat``, the ruled (easy) pass ``ruled`` first."""
    hand = [CARD_INDEX[c] for c in game.view(state, seat)["hand"]]
    spades = sum(1 for c in hand if c // 13 == SPADES)
    ranked = sorted(hand, key=lambda c: (-pass_danger(c, spades), c))
    triples = [tuple(t) for t in combinations(ranked[:TOP], 3)]
    for suit in range(4):
        cards = [c for c in ranked if c // 13 == suit]
        if 0 < len(cards) <= 3:
            fill = [c for c in ranked if c not in cards]
            triples.append(tuple(cards + fill[: 3 - len(cards)]))
    out = [ruled]
    for triple in triples:
        move = {"pass": sort_names(CARD_NAMES[c] for c in triple)}
        if move not in out:
            out.append(move)
    return out
