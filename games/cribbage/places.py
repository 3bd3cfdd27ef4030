"""Where Cribbage keeps its cards in ``to_json`` (see ``games.places``)."""

from __future__ import annotations

from typing import Any

from games.places import FULL_DECK, CardPlaces, Places, hands


def _places(data: dict[str, Any]) -> Places:
    places = {**hands(data), "crib": list(data["crib"]), "stock": list(data["stock"])}
    # ``kept`` is the four cards each seat keeps for the show; those not in hand are played.
    for seat, kept in enumerate(data["kept"]):
        places[f"played:{seat}"] = [c for c in kept if c not in data["hands"][seat]]
    if data["start"] is not None:
        places["start"] = [data["start"]]
    return places


def _known(data: dict[str, Any], seat: int | None) -> set[str]:
    # A seat knows the cards it put in the crib.
    return set() if seat is None else set(data["crib"]) & set(data["dealt"][seat])


def _max_moves(players: int, options: dict[str, Any]) -> int:
    # Every deal scores at least the last card, so a side reaches the target within
    # sides * target deals; a deal is the discards, four plays a seat, at most a go
    # from each seat between two plays, and the show's one move.
    sides = 2 if players == 4 else players
    return sides * options["target"] * (players + 4 * players + 4 * players * players + 1)


PLACES = CardPlaces(deck=lambda n: FULL_DECK, places=_places, max_moves=_max_moves, known=_known)
