"""Trick-taking machinery shared by Agram and Hearts: following suit, winning tricks."""

from __future__ import annotations

from games.cards import CARD_NAMES, SUIT_MASKS, play_moves, suit_play_moves


def ace_high(card: int) -> int:
    """Return a card's strength within its suit with the ace high (2 = 0 .. A = 12)."""
    return (card % 13 - 1) % 13


def follow_moves(hand: int, led_suit: int | None) -> list[dict]:
    """Return the plays open to a hand: the led suit if it holds any, else anything."""
    if led_suit is None or not hand & SUIT_MASKS[led_suit]:
        return play_moves(hand)
    return suit_play_moves(hand, led_suit)


def trick_winner(trick: list[int], leader: int, seats: int) -> int:
    """Return the seat that wins ``trick`` (cards in play order from ``leader``).

    The highest card of the led suit wins; there are no trumps.
    """
    led_suit = trick[0] // 13
    best = 0
    for i in range(1, len(trick)):
        card = trick[i]
        if card // 13 == led_suit and ace_high(card) > ace_high(trick[best]):
            best = i
    return (leader + best) % seats


def trick_view(trick: list[int], leader: int, seats: int) -> list[dict]:
    """Return a trick as the view shows it: ``[{"seat", "card"}]`` in play order."""
    return [{"seat": (leader + i) % seats, "card": CARD_NAMES[c]} for i, c in enumerate(trick)]
