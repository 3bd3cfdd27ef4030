"""Where Hearts keeps its cards in ``to_json`` (see ``games.places``)."""

from __future__ import annotations

from typing import Any

from games.cards import CARD_NAMES
from games.hearts.state import DECKS
from games.places import CardPlaces, Places, hands


def _deck(players: int) -> frozenset[str]:
    return frozenset(CARD_NAMES[c] for c in DECKS[players])


def _places(data: dict[str, Any]) -> Places:
    trick = list(data["trick"])
    assert set(trick) <= set(data["played"]), "hearts: a card in the trick is not marked played"
    places = {**hands(data), "trick": trick, "out": [c for c in data["played"] if c not in trick]}
    # In the pass, a seat that has passed holds its three cards apart until all have passed.
    for seat, cards in enumerate(data["pending"]):
        if cards is not None:
            places[f"private:{seat}:pass"] = list(cards)
    return places


def _known(data: dict[str, Any], seat: int | None) -> set[str]:
    # A seat knows the cards it passed, now in another hand. Everyone saw the
    # last deal's final trick, which the view recalls; that deal's cards are dealt anew.
    known = set() if seat is None else set(data["passed"][seat])
    last_deal = data["last_deal"]
    if last_deal is not None and last_deal.get("trick"):
        known |= {play["card"] for play in last_deal["trick"]["cards"]}
    return known


def _max_moves(players: int, options: dict[str, Any]) -> int:
    # A deal is every card played plus a pass each; a deal without a moon adds 26
    # points, so random play ends within a few dozen deals.
    return 60 * (52 + players)


PLACES = CardPlaces(deck=_deck, places=_places, max_moves=_max_moves, known=_known)
