"""Where Stealing Bundles keeps its cards in ``to_json`` (see ``games.places``)."""

from __future__ import annotations

from typing import Any

from games.places import FULL_DECK, CardPlaces, Places, hands


def _places(data: dict[str, Any]) -> Places:
    places = {**hands(data), "pool": list(data["pool"]), "stock": list(data["stock"])}
    for seat, bundle in enumerate(data["bundles"]):
        places[f"bundle:{seat}"] = list(bundle)
    return places


PLACES = CardPlaces(
    deck=lambda n: FULL_DECK,
    places=_places,
    # Every card but the first four in the pool is played from a hand exactly once.
    max_moves=lambda n, options: 48,
    redeals_whole_deck=False,
)
