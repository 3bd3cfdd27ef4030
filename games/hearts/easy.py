"""Hearts' easy player, the way a careful person plays.

- Pass: the Q of spades (unless spades are long enough to guard it), the A and K
  of spades, high hearts, then the highest cards left.
- Follow: duck under the card that is winning the trick; when the trick must be
  taken, the last seat takes it with its highest card, others with their lowest
  (never the Q of spades when a spade would do).
- Void: dump the Q of spades, then the highest heart, then the A or K of spades,
  then the highest card of the shortest suit.
- Lead: the lowest card, from the shortest suit, never the Q, K or A of spades.

It reads only the seat's ``view`` and ``legal_moves``.
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import CARD_INDEX, PLAY_MOVES, sort_names
from games.engine import Game, Move
from games.tricks import ace_high

HEARTS, SPADES = 2, 3
QUEEN_SPADES = CARD_INDEX["QS"]
HIGH_SPADES = (CARD_INDEX["AS"], CARD_INDEX["KS"])


def pass_danger(card: int, spades: int) -> float:
    """How much a person wants to be rid of ``card`` in the pass (higher: pass first)."""
    strength = ace_high(card)
    suit = card // 13
    if card == QUEEN_SPADES:
        return 100 if spades < 5 else 0
    if card in HIGH_SPADES:
        return 60 if spades < 5 else 5
    if suit == SPADES:
        return strength - 20  # low spades guard the queen: keep them
    if suit == HEARTS:
        return strength + 4
    return strength


def choose_pass(hand: list[int]) -> list[int]:
    """Return the three cards of ``hand`` an easy player passes."""
    spades = sum(1 for c in hand if c // 13 == SPADES)
    ranked = sorted(hand, key=lambda c: (-pass_danger(c, spades), c))
    return ranked[:3]


def opening(game: Game, state: Any, seat: int, rng: random.Random) -> Move | None:
    """Return the pass in the pass phase (search bots pass like the easy player), else None."""
    view = game.view(state, seat)
    if view["phase"] != "pass":
        return None
    cards = choose_pass([CARD_INDEX[c] for c in view["hand"]])
    move = {"pass": sort_names(c for c in (_name(x) for x in cards))}
    moves = game.legal_moves(state, seat)
    return move if move in moves else moves[0]


def _name(card: int) -> str:
    return PLAY_MOVES[card]["play"]


def choose(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """Return the easy move for ``seat``, from its view and legal moves only."""
    view = game.view(state, seat)
    if view["phase"] == "pass":
        return opening(game, state, seat, rng)  # type: ignore[return-value]
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    legal = [CARD_INDEX[m["play"]] for m in moves]
    hand = [CARD_INDEX[c] for c in view["hand"]]
    suit_len = [0, 0, 0, 0]
    for c in hand:
        suit_len[c // 13] += 1
    trick = [CARD_INDEX[p["card"]] for p in view["trick"]]
    if not trick:
        safe = [c for c in legal if c != QUEEN_SPADES and c not in HIGH_SPADES] or legal
        return PLAY_MOVES[min(safe, key=lambda c: (ace_high(c), suit_len[c // 13]))]
    led = trick[0] // 13
    following = [c for c in legal if c // 13 == led]
    if not following:
        if QUEEN_SPADES in legal:
            return PLAY_MOVES[QUEEN_SPADES]
        hearts = [c for c in legal if c // 13 == HEARTS]
        if hearts:
            return PLAY_MOVES[max(hearts, key=ace_high)]
        for card in HIGH_SPADES:
            if card in legal:
                return PLAY_MOVES[card]
        return PLAY_MOVES[max(legal, key=lambda c: (ace_high(c), -suit_len[c // 13]))]
    winning = max((c for c in trick if c // 13 == led), key=ace_high)
    under = [c for c in following if ace_high(c) < ace_high(winning)]
    if under:
        return PLAY_MOVES[max(under, key=ace_high)]
    last = (
        len(trick) == view["players"] - 1 if "players" in view else len(trick) == len(view["hand_counts"]) - 1
    )
    over = [c for c in following if c != QUEEN_SPADES] or following
    return PLAY_MOVES[max(over, key=ace_high) if last else min(over, key=ace_high)]
