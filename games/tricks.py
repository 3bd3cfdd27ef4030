"""Trick-taking machinery shared by Agram and Hearts: following suit, winning tricks.

Hands are card bitmasks and tricks lists of card indexes in play order, so the
hot paths of a random playout stay a few integer operations.
"""

from __future__ import annotations

from games.cards import CARD_NAMES, SUIT_MASKS, play_moves, suit_play_moves

# The words of every trick game, for its glossary (``GameInfo.glossary``).
TRICK_TERMS = (
    ("trick", "One card from each player in turn; the highest card of the led suit takes it."),
    ("lead", "Play the first card of a trick; its suit is the led suit."),
    ("follow suit", "Play a card of the led suit; you must when you hold one."),
)

# A card's strength within its suit with the ace high: 2 = 0 .. A = 12.
STRENGTH = tuple((c % 13 - 1) % 13 for c in range(52))


def ace_high(card: int) -> int:
    """Return a card's strength within its suit with the ace high (2 = 0 .. A = 12)."""
    return STRENGTH[card]


def follow_mask(hand: int, led_suit: int | None) -> int:
    """Return the cards of ``hand`` that may be played: the led suit if it holds any, else all."""
    if led_suit is None:
        return hand
    return hand & SUIT_MASKS[led_suit] or hand


def follow_moves(hand: int, led_suit: int | None) -> list[dict]:
    """Return the plays open to a hand: the led suit if it holds any, else anything."""
    if led_suit is None or not hand & SUIT_MASKS[led_suit]:
        return play_moves(hand)
    return suit_play_moves(hand, led_suit)


def must_follow(hand: int, trick: list[int], card: int) -> str | None:
    """Say why ``card`` may not follow ``trick`` (the hand holds the led suit), or ``None``."""
    if trick and hand & SUIT_MASKS[trick[0] // 13] and card // 13 != trick[0] // 13:
        return f"you must follow suit: {CARD_NAMES[trick[0]]} was led"
    return None


def trick_winner(trick: list[int], leader: int, seats: int) -> int:
    """Return the seat that wins ``trick`` (cards in play order from ``leader``).

    The highest card of the led suit wins; there are no trumps.
    """
    best = trick[0]
    led = best // 13
    at = 0
    for i in range(1, len(trick)):
        card = trick[i]
        if card // 13 == led and STRENGTH[card] > STRENGTH[best]:
            best = card
            at = i
    return (leader + at) % seats


def trick_view(trick: list[int], leader: int, seats: int) -> list[dict]:
    """Return a trick as the view shows it: ``[{"seat", "card"}]`` in play order."""
    return [{"seat": (leader + i) % seats, "card": CARD_NAMES[c]} for i, c in enumerate(trick)]
