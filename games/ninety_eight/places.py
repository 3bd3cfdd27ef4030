"""Where Ninety-Eight keeps its cards in ``to_json`` (see ``games.places``)."""

from __future__ import annotations

from typing import Any

from games.places import FULL_DECK, CardPlaces, Places, hands


def _places(data: dict[str, Any]) -> Places:
    return {**hands(data), "pile": list(data["pile"]), "stock": list(data["stock"])}


def _known(data: dict[str, Any], seat: int | None) -> set[str]:
    # The view recalls the card that ended the last deal; that deal's cards are dealt anew.
    return set() if data["last_deal"] is None else {data["last_deal"][2]}


def _max_moves(players: int, options: dict[str, Any]) -> int:
    # Every deal plays at most the whole deck; a deal with a loser costs a life,
    # and a deal with none (rare in random play) is dealt again.
    return 52 * (players * options["lives"] + 30)


PLACES = CardPlaces(deck=lambda n: FULL_DECK, places=_places, max_moves=_max_moves, known=_known)
