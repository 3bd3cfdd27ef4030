"""Which plays and passes Hearts allows, as card masks, and why a refused move is refused.

``legal_mask`` is the one computation of the legal plays: ``legal_moves``,
``random_move`` and the checked ``apply`` in ``game.py`` all read it, so a
random playout costs a few integer operations a card.
"""

from __future__ import annotations

from games.cards import CARD_INDEX, CARD_NAMES, HEARTS
from games.engine import Move
from games.hearts.state import HEARTS_MASK, LOWEST_CLUB, PASS, POINT_CARDS, HeartsState
from games.tricks import follow_mask, must_follow


def legal_mask(state: HeartsState, hand: int) -> int:
    """Return the cards of ``hand`` its holder may play to the trick now."""
    trick = state.trick
    if trick:
        legal = follow_mask(hand, trick[0] // 13)
    elif state.tricks_done == 0 and state.options["first_lead"] == "two_of_clubs":
        return 1 << LOWEST_CLUB[state.players]
    elif state.broken:
        legal = hand
    else:
        legal = hand & ~HEARTS_MASK or hand
    if state.tricks_done == 0 and not state.options["first_trick_points"]:
        # No points on the first trick unless nothing else may be played.
        return legal & ~POINT_CARDS or legal
    return legal


def pass_mask(state: HeartsState, seat: int, move: Move) -> int | None:
    """Return the mask of a well-formed pass of cards in ``seat``'s hand, else None."""
    cards = move.get("pass")
    if not isinstance(cards, list) or len(cards) != 3:
        return None
    a, b, c = (CARD_INDEX.get(name) if isinstance(name, str) else None for name in cards)
    if a is None or b is None or c is None or not a < b < c:
        return None
    mask = 1 << a | 1 << b | 1 << c
    return mask if state.hands[seat] & mask == mask else None


def why_refused(state: HeartsState, seat: int, move: Move) -> str:
    """Name the rule a refused move breaks."""
    if state.phase == PASS:
        return why_bad_pass(state, seat, move)
    if "play" not in move:
        return f'a move in the play is {{"play": CARD}}, not {move}'
    name = move["play"]
    card = CARD_INDEX.get(name) if isinstance(name, str) else None
    if card is None:
        return f"{name!r} is not a card (expected e.g. 'QS', 'TD', '2C')"
    hand = state.hands[seat]
    if not hand >> card & 1:
        return f"{CARD_NAMES[card]} is not in your hand"
    trick = state.trick
    refused = must_follow(hand, trick, card)
    if refused:
        return refused
    if not trick and state.tricks_done == 0 and state.options["first_lead"] == "two_of_clubs":
        return f"the first trick is led with {CARD_NAMES[LOWEST_CLUB[state.players]]}"
    if not trick and card // 13 == HEARTS and not state.broken and hand & ~HEARTS_MASK:
        return "you may not lead a heart before hearts are broken"
    return "no heart and no queen of spades on the first trick while you may play something else"


def why_bad_pass(state: HeartsState, seat: int, move: Move) -> str:
    """Name what is wrong with a refused pass: its form, its cards, or their order."""
    cards = move.get("pass")
    if "play" in move:
        return "this is the pass: choose three cards to pass, not a card to play"
    if not isinstance(cards, list) or len(cards) != 3:
        return f'a pass is {{"pass": [three cards]}}, not {move}'
    indexes = []
    for name in cards:
        if not isinstance(name, str) or name not in CARD_INDEX:
            return f"{name!r} is not a card (expected e.g. 'QS', 'TD', '2C')"
        indexes.append(CARD_INDEX[name])
    if len(set(indexes)) != 3:
        return "pass three different cards"
    for card in indexes:
        if not state.hands[seat] >> card & 1:
            return f"{CARD_NAMES[card]} is not in your hand"
    return "list the passed cards in card order: " + ", ".join(CARD_NAMES[c] for c in sorted(indexes))
