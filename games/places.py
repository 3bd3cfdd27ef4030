"""Where a game keeps its cards in its ``to_json``: what the property tests check a game by.

Each game states its own in ``games/<game>/places.py`` (``PLACES``), beside its
state, so a field that moves a card cannot be forgotten by a reader elsewhere.
The property tests (tests/games/test_properties.py) follow every card through
these places at every step of random games, and check each view hides what it must.

Place names say who may see a place:

- ``hand:S`` and ``private:S:...``: only seat S (and anyone in ``show`` or ``over``);
- ``stock``: nobody, ever (its cards and order are secret), top card first;
- ``crib``: nobody before the ``show`` (seats still see the cards they put there,
  through ``known``);
- anything else (``trick``, ``pile``, ``pool``, ``bundle:S``, ``out`` ...): public.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.cards import CARD_NAMES

Places = dict[str, list[str]]
FULL_DECK = frozenset(CARD_NAMES)


def _nothing_known(data: dict[str, Any], seat: int | None) -> set[str]:
    return set()


@dataclass(frozen=True)
class CardPlaces:
    """How to find every card of one game's state, and how long a game may run."""

    deck: Callable[[int], frozenset[str]]  # players -> every card in play
    places: Callable[[dict[str, Any]], Places]  # to_json -> place name -> cards
    max_moves: Callable[[int, dict[str, Any]], int]  # players, options -> a bound on moves per game
    # state, seat (None: a spectator) -> cards in hidden places that this viewer may still name:
    # cards it put there itself, or cards it saw in an earlier deal.
    known: Callable[[dict[str, Any], int | None], set[str]] = field(default=_nothing_known)
    # Whether every deal after the first gathers the whole deck (Stealing Bundles deals on from the stock).
    redeals_whole_deck: bool = True


def hands(data: dict[str, Any]) -> Places:
    """Return the ``hand:S`` places of a state whose ``hands`` list holds each seat's cards."""
    return {f"hand:{s}": list(hand) for s, hand in enumerate(data["hands"])}
