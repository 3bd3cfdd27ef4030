"""Ninety-Eight's bot settings: the search scores a seat's own change (a bust costs only the buster).

The search's playouts use ``playout``, the easy player's choice computed from
the game's card values directly (the easy player itself reads them from trial
moves on copies, which costs most of a playout): the same move, many times
cheaper, so the same think time buys several times the playouts.
"""

from __future__ import annotations

import random

from games.bots.search import own_reward
from games.bots.settings import GameSettings
from games.cards import PLAY_MOVES, cards_in
from games.engine import Game, Move
from games.ninety_eight import easy
from games.ninety_eight.game import GAME, LIMIT, NinetyEightState, total_after

# easy.ESCAPE_ORDER by rank index (T, J, Q, K); number cards are not escapes.
_ESCAPE_RANK = {9: 1, 10: 0, 11: 0, 12: 2}


def playout(game: Game, state: NinetyEightState, seat: int, rng: random.Random) -> Move:
    """Return ``easy.choose``'s move for ``seat``, from the card values (for playouts in a sampled deal)."""
    total = state.total
    best_number, best_total = -1, -100
    best_escape, escape_order = -1, 9
    bust = -1
    for card in cards_in(state.hands[seat]):
        after = total_after(total, card)
        rank = card % 13
        if after > LIMIT:
            if bust < 0:
                bust = card
        elif rank in _ESCAPE_RANK:
            if _ESCAPE_RANK[rank] < escape_order:
                best_escape, escape_order = card, _ESCAPE_RANK[rank]
        elif after > best_total:
            best_number, best_total = card, after
    if best_number >= 0:
        return PLAY_MOVES[best_number]
    return PLAY_MOVES[best_escape if best_escape >= 0 else bust]


SETTINGS = GameSettings(
    easy=easy.choose,
    playout=playout,
    reward=own_reward(GAME.info.score_sign(), 1.0),
    budgets={"normal": (1000, 0.25), "hard": (4000, 1.0)},
)
