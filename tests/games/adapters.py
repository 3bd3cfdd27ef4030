"""Where each game keeps its cards, read from its ``to_json`` (one adapter per game id).

The property tests need to know, at every step, where every card is. Rather than
add a method to the game contract, each game gets a small adapter here that reads
its ``to_json``. A game in ``games.GAMES`` without an adapter fails every property
test, so a new game cannot slip past them.

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


@dataclass(frozen=True)
class Adapter:
    """How the property tests read one game's state."""

    deck: Callable[[int], frozenset[str]]  # players -> every card in play
    places: Callable[[dict[str, Any]], Places]  # to_json -> place name -> cards
    max_moves: Callable[[int, dict[str, Any]], int]  # players, options -> a bound on moves per game
    # state, seat (None: a spectator) -> cards in hidden places that this viewer may still name:
    # cards it put there itself, or cards it saw in an earlier deal.
    known: Callable[[dict[str, Any], int | None], set[str]] = field(default=lambda data, seat: set())
    lowest_wins: bool = False
    # Whether every deal after the first gathers the whole deck (Stealing Bundles deals on from the stock).
    redeals_whole_deck: bool = True


def _hands(data: dict[str, Any]) -> Places:
    return {f"hand:{s}": list(hand) for s, hand in enumerate(data["hands"])}


# Agram


AGRAM_DECK = frozenset(r + s for s in "CDHS" for r in "A3456789T") - {"AS"}


def _agram_places(data: dict[str, Any]) -> Places:
    trick = list(data["trick"])
    assert set(trick) <= set(data["played"]), "agram: a card in the trick is not marked played"
    return {
        **_hands(data),
        "trick": trick,
        "out": [c for c in data["played"] if c not in trick],
        "stock": list(data["stock"]),
    }


def _agram_known(data: dict[str, Any], seat: int | None) -> set[str]:
    # The view recalls the last deal's final trick; that deal's cards are dealt anew.
    if data["last_trick"] is None or data["tricks_done"]:
        return set()
    return set(data["last_trick"][1])


def _agram_max_moves(players: int, options: dict[str, Any]) -> int:
    # Each deal gives one point; the game ends when a seat has ``target``.
    deals = players * (options["target"] - 1) + 1
    return deals * 6 * players


# Ninety-Eight


def _ninety_eight_places(data: dict[str, Any]) -> Places:
    return {**_hands(data), "pile": list(data["pile"]), "stock": list(data["stock"])}


def _ninety_eight_known(data: dict[str, Any], seat: int | None) -> set[str]:
    # The view recalls the card that ended the last deal; that deal's cards are dealt anew.
    return set() if data["last_deal"] is None else {data["last_deal"][2]}


def _ninety_eight_max_moves(players: int, options: dict[str, Any]) -> int:
    # Every deal plays at most the whole deck; a deal with a loser costs a life,
    # and a deal with none (rare in random play) is dealt again.
    return 52 * (players * options["lives"] + 30)


# Stealing Bundles


def _stealing_bundles_places(data: dict[str, Any]) -> Places:
    places = {**_hands(data), "pool": list(data["pool"]), "stock": list(data["stock"])}
    for seat, bundle in enumerate(data["bundles"]):
        places[f"bundle:{seat}"] = list(bundle)
    return places


# Hearts


def _hearts_deck(players: int) -> frozenset[str]:
    return FULL_DECK - {3: {"2D"}, 4: set(), 5: {"2D", "2C"}}[players]


def _hearts_places(data: dict[str, Any]) -> Places:
    trick = list(data["trick"])
    assert set(trick) <= set(data["played"]), "hearts: a card in the trick is not marked played"
    places = {**_hands(data), "trick": trick, "out": [c for c in data["played"] if c not in trick]}
    # In the pass, a seat that has passed holds its three cards apart until all have passed.
    for seat, cards in enumerate(data["pending"]):
        if cards is not None:
            places[f"private:{seat}:pass"] = list(cards)
    return places


def _hearts_known(data: dict[str, Any], seat: int | None) -> set[str]:
    # A seat knows the cards it passed, now in another hand. Everyone saw the
    # last deal's final trick, which the view recalls; that deal's cards are dealt anew.
    known = set() if seat is None else set(data["passed"][seat])
    last_deal = data["last_deal"]
    if last_deal is not None and last_deal.get("trick"):
        known |= {play["card"] for play in last_deal["trick"]["cards"]}
    return known


def _hearts_max_moves(players: int, options: dict[str, Any]) -> int:
    # A deal is every card played plus a pass each; a deal without a moon adds 26
    # points, so random play ends within a few dozen deals.
    return 60 * (52 + players)


# Cribbage


def _cribbage_places(data: dict[str, Any]) -> Places:
    places = {**_hands(data), "crib": list(data["crib"]), "stock": list(data["stock"])}
    # ``kept`` is the four cards each seat keeps for the show; those not in hand are played.
    for seat, kept in enumerate(data["kept"]):
        places[f"played:{seat}"] = [c for c in kept if c not in data["hands"][seat]]
    if data["start"] is not None:
        places["start"] = [data["start"]]
    return places


def _cribbage_known(data: dict[str, Any], seat: int | None) -> set[str]:
    # A seat knows the cards it put in the crib.
    return set() if seat is None else set(data["crib"]) & set(data["dealt"][seat])


def _cribbage_max_moves(players: int, options: dict[str, Any]) -> int:
    # Every deal scores at least the last card, so a side reaches the target within
    # sides * target deals; a deal is the discards, four plays a seat, at most a go
    # from each seat between two plays, and the show's one move.
    sides = 2 if players == 4 else players
    return sides * options["target"] * (players + 4 * players + 4 * players * players + 1)


ADAPTERS: dict[str, Adapter] = {
    "agram": Adapter(
        deck=lambda n: AGRAM_DECK, places=_agram_places, max_moves=_agram_max_moves, known=_agram_known
    ),
    "ninety_eight": Adapter(
        deck=lambda n: FULL_DECK,
        places=_ninety_eight_places,
        max_moves=_ninety_eight_max_moves,
        known=_ninety_eight_known,
    ),
    "stealing_bundles": Adapter(
        deck=lambda n: FULL_DECK,
        places=_stealing_bundles_places,
        # Every card but the first four in the pool is played from a hand exactly once.
        max_moves=lambda n, options: 48,
        redeals_whole_deck=False,
    ),
    "hearts": Adapter(
        deck=_hearts_deck,
        places=_hearts_places,
        max_moves=_hearts_max_moves,
        known=_hearts_known,
        lowest_wins=True,
    ),
    "cribbage": Adapter(
        deck=lambda n: FULL_DECK,
        places=_cribbage_places,
        max_moves=_cribbage_max_moves,
        known=_cribbage_known,
    ),
}


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
