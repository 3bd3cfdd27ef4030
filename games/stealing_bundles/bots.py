"""Stealing Bundles' bot settings: the search plays the whole game out (its re-deals are one hand).

The search's playouts use ``playout``, the easy player's choice computed from
the state's bundles and pool directly (the easy player itself reads its hauls
from trial moves on copies, most of a playout's cost): the same moves, so the
search decides as before, in a fraction of the time.
"""

from __future__ import annotations

import random

from games.bots.search import winner_reward
from games.bots.settings import GameSettings
from games.cards import PLAY_MOVES, cards_in
from games.engine import Game, Move
from games.stealing_bundles import easy
from games.stealing_bundles.game import RANK_MASKS, StealingBundlesState


def _haul(state: StealingBundlesState, seat: int, card: int) -> int:
    """Return how many cards ``seat``'s bundle gains by playing ``card`` (the game's end included)."""
    rank = card % 13
    bundles = state.bundles
    stolen = sum(len(b) for s, b in enumerate(bundles) if s != seat and b and b[-1] % 13 == rank)
    taken = state.pool & RANK_MASKS[rank]
    captured = bool(stolen or taken)
    haul = stolen + taken.bit_count() + 1 if captured else 0
    last_card = not state.stock and sum(h.bit_count() for h in state.hands) == 1
    if last_card and state.options["leftovers"] == "last_capturer":
        capturer = seat if captured else state.last_capturer
        if capturer == seat:  # the pool left over goes to the last to capture
            haul += (state.pool & ~taken if captured else state.pool | 1 << card).bit_count()
    return haul


def playout(game: Game, state: StealingBundlesState, seat: int, rng: random.Random) -> Move:
    """Return ``easy.choose``'s move for ``seat``, from the state (for playouts in a sampled deal)."""
    hand = cards_in(state.hands[seat])
    if len(hand) == 1:
        return PLAY_MOVES[hand[0]]
    seen = [0] * 13
    in_hand = [0] * 13
    for card in hand:
        seen[card % 13] += 1
        in_hand[card % 13] += 1
    for card in cards_in(state.pool):
        seen[card % 13] += 1
    for bundle in state.bundles:
        if bundle:
            seen[bundle[-1] % 13] += 1
    size = len(state.bundles[seat])
    best, best_score = hand[0], None
    for card in hand:
        rank = card % 13
        haul = _haul(state, seat, card)
        unseen = 4 - seen[rank]
        score = 100 + haul - unseen * (size + haul) / 8 if haul > 0 else 2 * (in_hand[rank] - 1) - unseen
        if best_score is None or score > best_score:
            best, best_score = card, score
    return PLAY_MOVES[best]


SETTINGS = GameSettings(
    easy=easy.choose,
    playout=playout,
    reward=winner_reward,
    stop_at_deal=False,
    budgets={"normal": (500, 0.25), "hard": (2000, 1.0)},
)
