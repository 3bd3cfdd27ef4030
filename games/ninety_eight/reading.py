"""What Ninety-Eight's table shows about the hidden hands, for the search's sampled deals.

Every play is public, and so is who made it: the turn passes to the next seat
with cards, from the seat after the dealer, so the pile in play order tells each
seat's plays and the total before each. A seat that played a card when it could
have played a better one (by the easy player's reading: the highest number card
that keeps the total at 98 or under, escapes only when no number card is safe)
most likely held none of those: a seat that played a J at 92 held no card from
A to 6. Of the hand it holds now, the cards it kept at its last play carry that
mark; the one it drew after is unmarked. ``determinize`` deals the unseen cards
under those marks when some deal fits them (checked by Hall's condition, so a
seat that played otherwise than the model never makes the deal impossible).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from games.cards import cards_in, deal_order
from games.deals import deal_hidden

HAND_SIZE = 4
LIMIT = 98
NUMBER_RANKS = 9  # A..9 are the number cards: rank index 0..8, value index + 1
TEN, JACK, QUEEN, KING = 9, 10, 11, 12
# Escapes the easy player gives up before this one (J and Q first, then T, the K last).
EARLIER_ESCAPES = {TEN: (JACK, QUEEN), KING: (JACK, QUEEN, TEN), JACK: (), QUEEN: ()}


def numbers_mask(low: int, high: int) -> int:
    """Return the mask of every number card whose value lies in ``low..high`` (all four suits)."""
    mask = 0
    for value in range(max(1, low), min(NUMBER_RANKS, high) + 1):
        for suit in range(4):
            mask |= 1 << (suit * 13 + value - 1)
    return mask


def ranks_mask(ranks: Sequence[int]) -> int:
    """Return the mask of every card of ``ranks`` (rank indexes), all four suits."""
    return sum(1 << (suit * 13 + rank) for rank in ranks for suit in range(4))


def passed_over(total: int, card: int) -> int:
    """Return the cards a seat playing ``card`` on ``total`` held none of, by the easy player's reading."""
    rank = card % 13
    room = LIMIT - total
    if rank < NUMBER_RANKS:
        return numbers_mask(rank + 2, room)  # a higher safe number card would have been played
    return numbers_mask(1, room) | ranks_mask(EARLIER_ESCAPES[rank])


def last_plays(state: Any) -> dict[int, tuple[int, int]]:
    """Return, per seat that has played this deal, ``(cards kept from its last play, mask they avoid)``.

    Replays the pile's public order: the seat after the dealer (still in) leads,
    every play draws from the stock while it lasts, the turn goes to the next
    seat with cards.
    """
    n = state.players
    seated = [s for s in deal_order(state.dealer, n) if state.lives[s] > 0]
    counts = [HAND_SIZE if s in seated else 0 for s in range(n)]
    stock = 52 - HAND_SIZE * len(seated)
    total, turn = 0, seated[0]
    marks: dict[int, tuple[int, int]] = {}
    for card in state.pile:
        held = counts[turn]
        avoided = passed_over(total, card) if held > 1 else 0
        total = LIMIT if card % 13 == KING else total + (card % 13 + 1 if card % 13 < NUMBER_RANKS else 0)
        if card % 13 == TEN:
            total -= 10
        if stock:
            stock -= 1
        else:
            counts[turn] -= 1
        marks[turn] = (held - 1, avoided)
        nxt = (turn + 1) % n
        while not counts[nxt] and nxt != turn:
            nxt = (nxt + 1) % n
        turn = nxt
    return marks


def _fits(unseen: int, slots: list[tuple[int, int]]) -> bool:
    """Hall's condition: every group of marked slots finds enough unseen cards they may take."""
    for size in range(1, len(slots) + 1):
        for group in combinations(slots, size):
            allowed = 0
            for _, avoided in group:
                allowed |= unseen & ~avoided
            if allowed.bit_count() < sum(kept for kept, _ in group):
                return False
    return True


def deal_read(state: Any, copy: Any, seat: int, unseen_mask: int, rng: random.Random) -> None:
    """Deal ``unseen_mask`` into ``copy``'s other hands and stock, under the marks of their last plays.

    Each marked hand is dealt as two parts: the cards kept at its last play
    (none of the cards it passed over) and the rest (unmarked). When no deal
    fits every mark (a seat played otherwise than the reading), no mark is used.
    """
    n = state.players
    marks = {s: mark for s, mark in last_plays(state).items() if s != seat and mark[1]}
    slots = []
    for s, (kept, avoided) in marks.items():
        kept = min(kept, state.hands[s].bit_count())
        marks[s] = (kept, avoided)
        slots.append((kept, avoided))
    if not _fits(unseen_mask, slots):
        marks = {}
    sizes, forbidden, owner = [], [], []
    for s in range(n):
        size = 0 if s == seat else state.hands[s].bit_count()
        kept, avoided = marks.get(s, (0, 0))
        sizes += [kept, size - kept]
        forbidden += [avoided, 0]
        owner += [s, s]
    sizes.append(len(state.stock))
    forbidden.append(0)
    dealt = deal_hidden(cards_in(unseen_mask), sizes, forbidden, rng)
    hands = [0] * n
    for part, s in zip(dealt, owner, strict=False):
        hands[s] |= part
    for s in range(n):
        if s != seat:
            copy.hands[s] = hands[s]
    stock = cards_in(dealt[-1])
    rng.shuffle(stock)
    copy.stock = stock
