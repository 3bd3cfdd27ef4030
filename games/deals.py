"""The deal helpers every game shares: its log event, its record in the history, hidden cards dealt.

``deal_record`` lays a deal out for the log, ``noted_deal`` adds a finished
deal to a state's history, and ``deal_hidden`` and ``redeal_unseen`` deal the
cards a seat has not seen at random, for ``determinize``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.cards import CARD_NAMES, cards_in, names_in
from games.protocol import Event, GameError


def noted_deal(
    history: list[dict[str, Any]],
    deal: int,
    scores: Sequence[int],
    start: Sequence[int] | None = None,
    **extra: Any,
) -> list[dict[str, Any]]:
    """Return ``history`` with one more finished deal: its number, what each seat gained, the scores after.

    A new list (never the old one changed): copies of a state share their history.
    ``points`` is the change since the previous deal, or since ``start`` (zeros when not given).
    """
    before = history[-1]["scores"] if history else list(start if start is not None else [0] * len(scores))
    points = [now - then for now, then in zip(scores, before, strict=True)]
    return [*history, {"deal": deal, "points": points, "scores": list(scores), **extra}]


def deal_record(
    dealer: int,
    hands: Sequence[int],
    stock: Sequence[int],
    pool: Sequence[int] = (),
    crib: Sequence[int] = (),
) -> Event:
    """Build a ``deal`` log event from masks/lists of card indexes.

    ``hands`` are bitmasks; ``stock`` is a list with its top card first; the
    ``pool`` and ``crib`` lists are laid out the same way, empty in a game
    without them (every deal event carries both keys).
    """
    return {
        "deal": {
            "dealer": dealer,
            "hands": [names_in(hand) for hand in hands],
            "stock": [CARD_NAMES[c] for c in stock],
            "pool": [CARD_NAMES[c] for c in pool],
            "crib": [CARD_NAMES[c] for c in crib],
        }
    }


def deal_hidden(
    unseen: list[int],
    sizes: Sequence[int],
    forbidden: Sequence[int],
    rng: random.Random,
) -> list[int]:
    """Deal ``unseen`` cards into hands of ``sizes`` at random, as bitmasks.

    ``forbidden[seat]`` is a mask of cards that seat cannot hold (suits it has
    shown void in). Cards are placed most-constrained first, so a valid deal is
    found whenever one exists; a determinization is then uniform enough for
    search, though not exactly the posterior. Raises ``GameError`` at once when
    the sizes do not add up to the unseen cards (no deal could fit: the search
    would try every placement before saying so).
    """
    if len(forbidden) != len(sizes):
        raise GameError(f"deal_hidden: {len(sizes)} hand sizes but {len(forbidden)} forbidden masks")
    if sum(sizes) != len(unseen) or min(sizes, default=0) < 0:
        raise GameError(
            f"deal_hidden: hands of sizes {list(sizes)} cannot hold exactly {len(unseen)} unseen cards"
        )
    cards = list(unseen)
    rng.shuffle(cards)
    # Cards fewer seats may hold go first; ties keep the shuffled order.
    cards.sort(key=lambda c: sum(1 for s, size in enumerate(sizes) if size and not forbidden[s] >> c & 1))
    hands = [0] * len(sizes)
    room = list(sizes)
    if _place(cards, 0, hands, room, forbidden, rng):
        return hands
    raise GameError("no deal of the unseen cards fits what this seat has seen")


def redeal_unseen(
    state: Any,
    seat: int,
    unseen: list[int],
    rng: random.Random,
    voids: Sequence[int] | None = None,
) -> None:
    """Deal ``unseen`` at random, in place, into the other seats' hands and the stock.

    For a determinized copy whose ``hands`` (bitmasks) and ``stock`` (a list)
    are its own: each other hand keeps its size and the stock its length, in a
    random order. ``voids[s]``, when given, masks the cards seat ``s`` has shown
    it cannot hold.
    """
    hands = state.hands
    sizes = [0 if s == seat else h.bit_count() for s, h in enumerate(hands)]
    sizes.append(len(state.stock))
    forbidden = [0] * len(sizes) if voids is None else [*voids, 0]
    forbidden[seat] = 0
    dealt = deal_hidden(unseen, sizes, forbidden, rng)
    for s in range(len(hands)):
        if s != seat:
            hands[s] = dealt[s]
    stock = cards_in(dealt[-1])
    rng.shuffle(stock)
    state.stock = stock


def _place(
    cards: list[int],
    index: int,
    hands: list[int],
    room: list[int],
    forbidden: Sequence[int],
    rng: random.Random,
) -> bool:
    if index == len(cards):
        return True
    card = cards[index]
    seats = [s for s in range(len(hands)) if room[s] and not forbidden[s] >> card & 1]
    # Weight by room left so a seat with many open places takes more cards.
    rng.shuffle(seats)
    seats.sort(key=lambda s: -room[s] * rng.random())
    for seat in seats:
        hands[seat] |= 1 << card
        room[seat] -= 1
        if _place(cards, index + 1, hands, room, forbidden, rng):
            return True
        hands[seat] &= ~(1 << card)
        room[seat] += 1
    return False
