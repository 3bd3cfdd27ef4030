"""Cards, decks and card sets, shared by every game.

Inside the engine a card is a small integer, ``suit * 13 + rank`` with suits in
the order C, D, H, S and ranks A (0) low to K (12), so sorting the integers gives
the project's card order. A set of cards (a hand, a pile) is an ``int`` bitmask
with bit ``card`` set; the tables below turn masks into sorted card lists and
ready-made ``{"play": ...}`` moves without a Python loop over the bits.

Outside the engine a card is the two-character string of PROTOCOL.md: rank then
suit, ``"TD"`` for the ten of diamonds. Only this module converts between them.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Sequence
from hashlib import shake_128
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RANK_NAMES = (
    "Ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "Jack",
    "Queen",
    "King",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, TEN, JACK, QUEEN, KING = 0, 9, 10, 11, 12

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
FULL_DECK_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
BITS: tuple[int, ...] = tuple(1 << c for c in range(52))
_BIG_ENDIAN = sys.byteorder == "big"

# For each suit, for each 13-bit pattern of ranks: the cards it holds, ascending.
_SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(13 * s + r for r in range(13) if pattern >> r & 1) for pattern in range(1 << 13))
    for s in range(4)
)

# Moves are shared, read-only dicts: legal_moves hands out these very objects so
# the hot path allocates nothing. Callers must not mutate a move they are given.
PLAY_MOVES: tuple[dict, ...] = tuple({"play": name} for name in CARD_NAMES)
_PLAY_MOVE_LISTS: tuple[tuple[tuple[dict, ...], ...], ...] = tuple(
    tuple(tuple(PLAY_MOVES[c] for c in cards) for cards in suit_table) for suit_table in _SUIT_CARDS
)


def suit_of(card: int) -> int:
    """Return the suit (0..3, C D H S) of a card index."""
    return card // 13


def rank_of(card: int) -> int:
    """Return the rank (0 = A .. 12 = K) of a card index."""
    return card % 13


def parse_card(text: object) -> int:
    """Turn ``"QS"`` into its card index; raise ``ValueError`` naming bad input."""
    try:
        return CARD_INDEX[text]  # type: ignore[index]
    except (KeyError, TypeError):
        raise ValueError(f"{text!r} is not a card (expected e.g. 'QS', 'TD', '2C')") from None


def card_name(card: int) -> str:
    """Return the two-character string of a card index."""
    return CARD_NAMES[card]


def spoken_name(card: int) -> str:
    """Return a card's name as a person says it: ``"Queen of spades"``."""
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def mask_of(cards: Iterable[int]) -> int:
    """Return the bitmask holding the given card indexes."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> list[int]:
    """Return the card indexes of a bitmask, in card order."""
    return [
        *_SUIT_CARDS[0][mask & 0x1FFF],
        *_SUIT_CARDS[1][mask >> 13 & 0x1FFF],
        *_SUIT_CARDS[2][mask >> 26 & 0x1FFF],
        *_SUIT_CARDS[3][mask >> 39 & 0x1FFF],
    ]


def suit_cards(mask: int, suit: int) -> tuple[int, ...]:
    """Return the cards of one suit in a bitmask, in card order."""
    return _SUIT_CARDS[suit][mask >> (13 * suit) & 0x1FFF]


def names_in(mask: int) -> list[str]:
    """Return the card strings of a bitmask, in card order."""
    return [CARD_NAMES[c] for c in cards_in(mask)]


def play_moves(mask: int) -> list[dict]:
    """Return the shared ``{"play": card}`` moves for every card of a bitmask."""
    return [
        *_PLAY_MOVE_LISTS[0][mask & 0x1FFF],
        *_PLAY_MOVE_LISTS[1][mask >> 13 & 0x1FFF],
        *_PLAY_MOVE_LISTS[2][mask >> 26 & 0x1FFF],
        *_PLAY_MOVE_LISTS[3][mask >> 39 & 0x1FFF],
    ]


def suit_play_moves(mask: int, suit: int) -> list[dict]:
    """Return the shared ``{"play": card}`` moves for one suit of a bitmask."""
    return list(_PLAY_MOVE_LISTS[suit][mask >> (13 * suit) & 0x1FFF])


def count(mask: int) -> int:
    """Return how many cards a bitmask holds."""
    return mask.bit_count()


def sort_names(names: Iterable[str]) -> list[str]:
    """Sort card strings in card order (suit C D H S, then rank A low .. K)."""
    return sorted(names, key=CARD_INDEX.__getitem__)


def deck(exclude: Iterable[str] = ()) -> list[int]:
    """Return a fresh deck in card order, without the excluded card strings."""
    skip = {parse_card(name) for name in exclude}
    return [c for c in range(52) if c not in skip]


# By player count, then dealer: the dealing order, made once so a deal builds no list for it.
_DEAL_ORDERS = tuple(tuple(tuple((d + 1 + k) % p for k in range(p)) for d in range(p)) for p in range(9))


def deal_order(dealer: int, players: int) -> tuple[int, ...]:
    """Return the seats in dealing order: from the seat after ``dealer`` round to the dealer."""
    if players < len(_DEAL_ORDERS):
        return _DEAL_ORDERS[players][dealer]
    return tuple((dealer + 1 + k) % players for k in range(players))


def deal_round(cards: list[int], count: int, seats: Sequence[int], players: int) -> list[int]:
    """Deal the first ``count`` of ``cards`` one at a time to ``seats`` in turn, the first seat first.

    Returns every seat's hand as a bitmask (0 for a seat not in ``seats``).
    """
    # The k-th seat gets every len(seats)-th card from the k-th: one slice and
    # a sum a seat, not a Python step a card.
    hands = [0] * players
    step = len(seats)
    bit = BITS.__getitem__
    for k, seat in enumerate(seats):
        hands[seat] = sum(map(bit, cards[k:count:step]))
    return hands


def shuffled(cards: list[int], seed: int, deal_number: int) -> list[int]:
    """Return ``cards`` (card indexes) shuffled for one deal of a game, fixed by seed and deal.

    Each deal gathers the whole deck and shuffles it anew; deriving the shuffle
    from (seed, deal number) means a state needs no RNG of its own to be
    rebuilt from JSON, and a seed with its moves replays exactly.
    """
    # SHAKE-128 of "seed:deal" gives each card a 64-bit key; sorting by random
    # keys is a uniform shuffle (a tie, about 1 in 10**16 a deal, keeps card
    # order). Both steps run in C: a third of the cost of seeding a
    # random.Random and shuffling, which showed in every deal of a playout.
    keys = array("Q", shake_128(b"%d:%d" % (seed, deal_number)).digest(8 * 52))
    if _BIG_ENDIAN:
        keys.byteswap()  # the same keys, so the same deals, on every machine
    return sorted(cards, key=keys.__getitem__)


class CardFields:
    """How a slotted state's card fields turn into JSON and back, declared by field name.

    ``masks`` hold one card set (a bitmask), ``mask_lists`` one per seat,
    ``card_lists`` cards in order, ``seat_cards`` a ``[seat, card]`` pair or
    ``None``; ``copied`` are plain lists copied so a snapshot and its state share
    nothing. ``options`` is always copied. Every other slot is kept as it is, for
    the game to convert what has a shape of its own.

    ``clone`` copies a state from the same declaration: every list field above,
    plus ``lists`` (other lists a move changes in place, which the game converts
    itself) and ``nested`` (lists of lists), so a new field cannot escape the copy
    unless it is declared nowhere.
    """

    __slots__ = (
        "slots",
        "masks",
        "mask_lists",
        "card_lists",
        "seat_cards",
        "copied",
        "lists",
        "nested",
        "_flat",
    )

    def __init__(
        self,
        slots: tuple[str, ...],
        *,
        masks: tuple[str, ...] = (),
        mask_lists: tuple[str, ...] = (),
        card_lists: tuple[str, ...] = (),
        seat_cards: tuple[str, ...] = (),
        copied: tuple[str, ...] = (),
        lists: tuple[str, ...] = (),
        nested: tuple[str, ...] = (),
    ) -> None:
        """Declare the fields; every name must be one of ``slots``."""
        unknown = {*masks, *mask_lists, *card_lists, *seat_cards, *copied, *lists, *nested} - set(slots)
        if unknown:
            raise ValueError(f"CardFields: no slot named {', '.join(sorted(unknown))}")
        self.slots = slots
        self.masks = masks
        self.mask_lists = mask_lists
        self.card_lists = card_lists
        self.seat_cards = seat_cards
        self.copied = copied
        self.lists = lists
        self.nested = nested
        self._flat = (*mask_lists, *card_lists, *copied, *lists)

    def clone(self, state: Any) -> Any:
        """Return an independent copy of ``state``: every declared list copied, the rest shared.

        Ints, strings and the records a move replaces whole (``last``, ``options``)
        are shared; a move never changes them in place.
        """
        copy = state.__class__()
        for name in self.slots:
            setattr(copy, name, getattr(state, name))
        for name in self._flat:
            setattr(copy, name, list(getattr(state, name)))
        for name in self.nested:
            setattr(copy, name, [list(inner) for inner in getattr(state, name)])
        return copy

    def to_json(self, state: object) -> dict:
        """Return every slot of ``state``, the declared fields as card strings or copies."""
        data = {name: getattr(state, name) for name in self.slots}
        data["options"] = dict(data["options"])
        for name in self.copied:
            data[name] = list(data[name])
        for name in self.masks:
            data[name] = names_in(data[name])
        for name in self.mask_lists:
            data[name] = [names_in(mask) for mask in data[name]]
        for name in self.card_lists:
            data[name] = [CARD_NAMES[c] for c in data[name]]
        for name in self.seat_cards:
            pair = data[name]
            data[name] = None if pair is None else [pair[0], CARD_NAMES[pair[1]]]
        return data

    def from_json(self, state: object, data: dict) -> None:
        """Set every slot of ``state`` from ``to_json``'s output, the declared fields converted back."""
        for name in self.slots:
            setattr(state, name, data[name])
        state.options = dict(data["options"])
        for name in self.copied:
            setattr(state, name, list(data[name]))
        for name in self.masks:
            setattr(state, name, mask_of(CARD_INDEX[c] for c in data[name]))
        for name in self.mask_lists:
            setattr(state, name, [mask_of(CARD_INDEX[c] for c in names) for names in data[name]])
        for name in self.card_lists:
            setattr(state, name, [CARD_INDEX[c] for c in data[name]])
        for name in self.seat_cards:
            pair = data[name]
            setattr(state, name, None if pair is None else [pair[0], CARD_INDEX[pair[1]]])
