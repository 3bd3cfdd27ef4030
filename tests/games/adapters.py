"""Where each game keeps its cards, read from its ``to_json`` (one adapter per game id).

The property tests need to know, at every step, where every card is. Rather than
add a method to the game contract, each game states its places in
``games/<game>/places.py`` (``games.places`` describes them); the adapter adds the
game's facts from its ``GameInfo``. A game in ``games.GAMES`` without places fails
to load here, so a new game cannot slip past the property tests.

Place names say who may see a place:

- ``hand:S`` and ``private:S:...``: only seat S (and anyone in ``show`` or ``over``);
- ``stock``: nobody, ever (its cards and order are secret), top card first;
- ``crib``: nobody before the ``show`` (seats still see the cards they put there,
  through ``known``);
- anything else (``trick``, ``pile``, ``pool``, ``bundle:S``, ``out`` ...): public.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from games import GAMES
from games.places import CardPlaces, Places

__all__ = ["ADAPTERS", "Adapter", "Places", "hidden_places"]


@dataclass(frozen=True)
class Adapter(CardPlaces):
    """How the property tests read one game's state: its places, and which way scores win."""

    lowest_wins: bool = False


def _adapter(game_id: str) -> Adapter:
    places = importlib.import_module(f"games.{game_id}.places").PLACES
    return Adapter(**vars(places), lowest_wins=GAMES[game_id].info.low_score_wins)


ADAPTERS: dict[str, Adapter] = {game_id: _adapter(game_id) for game_id in GAMES}


def hidden_places(places: Places, seat: int | None, phase: str) -> list[str]:
    """Return the names of the places whose cards ``seat``'s view may not show."""
    revealed = phase in ("show", "over")
    hidden = []
    for name in places:
        if name == "stock":
            hidden.append(name)
        elif name == "crib":
            if not revealed:
                hidden.append(name)
        elif name.startswith(("hand:", "private:")):
            owner = int(name.split(":")[1])
            if owner != seat and not revealed:
                hidden.append(name)
    return hidden
