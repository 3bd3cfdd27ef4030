"""Where Agram keeps its cards in ``to_json`` (see ``games.places``)."""

from __future__ import annotations

from typing import Any

from games.agram.game import DECK, TRICKS_PER_DEAL
from games.cards import CARD_NAMES
from games.places import CardPlaces, Places, hands

AGRAM_DECK = frozenset(CARD_NAMES[c] for c in DECK)


def _places(data: dict[str, Any]) -> Places:
    trick = list(data["trick"])
    assert set(trick) <= set(data["played"]), "agram: a card in the trick is not marked played"
    return {
        **hands(data),
        "trick": trick,
        "out": [c for c in data["played"] if c not in trick],
        "stock": list(data["stock"]),
    }


def _known(data: dict[str, Any], seat: int | None) -> set[str]:
    # The view recalls the last deal's final trick; that deal's cards are dealt anew.
    if data["last_trick"] is None or data["tricks_done"]:
        return set()
    return set(data["last_trick"][1])


def _max_moves(players: int, options: dict[str, Any]) -> int:
    # Each deal gives one point; the game ends when a seat has ``target``.
    deals = players * (options["target"] - 1) + 1
    return deals * TRICKS_PER_DEAL * players


PLACES = CardPlaces(deck=lambda n: AGRAM_DECK, places=_places, max_moves=_max_moves, known=_known)
