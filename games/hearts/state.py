"""Hearts' state, its tables, and the state's JSON form, copies and determinizations.

The rules that change a state are in ``games.hearts``; this module holds what a
state is and the ways it is stored, copied and guessed at (``determinize``).
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import (
    CARD_INDEX,
    CARD_NAMES,
    HEARTS,
    PLAY_MOVES,
    SUIT_MASKS,
    CardFields,
    cards_in,
    mask_of,
    names_in,
)
from games.cards import deck as make_deck
from games.engine import deal_hidden

QUEEN_OF_SPADES = CARD_INDEX["QS"]
HEARTS_MASK = SUIT_MASKS[HEARTS]
POINT_CARDS = HEARTS_MASK | 1 << QUEEN_OF_SPADES
MOON = 26
POINTS = tuple(1 if c // 13 == HEARTS else 13 if c == QUEEN_OF_SPADES else 0 for c in range(52))
# Per player count: the deck, and the lowest club in play (it leads with two_of_clubs).
DECKS = {3: tuple(make_deck(["2D"])), 4: tuple(make_deck()), 5: tuple(make_deck(["2D", "2C"]))}
DECK_MASKS = {n: mask_of(cards) for n, cards in DECKS.items()}
LOWEST_CLUB = {3: CARD_INDEX["2C"], 4: CARD_INDEX["2C"], 5: CARD_INDEX["3C"]}
# Pass directions by deal number: the seat offset a pass goes to (0: no pass).
DIRECTIONS = {3: (1, 2, 0), 4: (1, 3, 2, 0), 5: (1, 4, 0)}

PASS, PLAY, OVER = "pass", "play", "over"


def direction_name(offset: int, players: int) -> str:
    """Name a pass's seat offset: left is the next seat, right the previous one."""
    if offset == 0:
        return "none"
    if offset == 1:
        return "left"
    return "right" if offset == players - 1 else "across"


class HeartsState:
    """One game of Hearts. Hands, ``pending``, ``passed`` and ``received`` are bitmasks."""

    __slots__ = (
        "players",
        "options",
        "seed",
        "target",
        "deal_number",
        "dealer",
        "phase",
        "direction",
        "hands",
        "pending",
        "passed",
        "received",
        "trick",
        "leader",
        "turn",
        "tricks_done",
        "broken",
        "taken",
        "scores",
        "last",
        "last_trick",
        "last_deal",
        "voids",
        "played",
        "dealt",
        "history",
        "queen",
    )

    players: int
    options: dict[str, Any]
    seed: int
    target: int
    deal_number: int
    dealer: int
    phase: str  # "pass", "play" or "over"
    direction: int  # this deal's pass goes from seat s to s + direction (0: no pass)
    hands: list[int]
    pending: list[int | None]  # in the pass: the cards a seat has passed, None until it has
    passed: list[int]  # the cards each seat passed this deal (0 before the exchange)
    received: list[int]  # the cards each seat received this deal
    trick: list[int]
    leader: int
    turn: int
    tricks_done: int
    broken: bool
    taken: list[int]  # points taken this deal per seat
    scores: list[int]
    last: tuple[int, dict] | None  # (seat, move) of the last move this deal
    last_trick: tuple[int, list[int], int] | None  # (leader, cards, winner)
    last_deal: dict[str, Any] | None  # {"points", "moon"} of the deal before this one
    voids: list[int]  # per seat, a mask of the suits it has shown it lacks
    played: int  # every card played to a trick this deal
    dealt: list[int]  # the hands as dealt, for the log
    history: list[dict[str, Any]]  # one record per finished deal (deals.noted_deal), never mutated
    queen: int | None  # who took the queen of spades this deal


# ``pending`` (masks or None), ``last``, ``last_trick`` and ``last_deal`` are converted by hand.
FIELDS = CardFields(
    HeartsState.__slots__,
    masks=("played",),
    mask_lists=("hands", "passed", "received", "dealt"),
    card_lists=("trick",),
    copied=("scores", "taken", "voids"),
    lists=("pending",),
)


def state_to_json(state: HeartsState) -> dict[str, Any]:
    """Return the state as plain JSON (cards as strings)."""
    data = FIELDS.to_json(state)
    data["pending"] = [None if p is None else names_in(p) for p in state.pending]
    if state.last is not None:
        who, move = state.last
        data["last"] = [
            who,
            {key: list(value) if isinstance(value, list) else value for key, value in move.items()},
        ]
    if state.last_deal is not None:
        data["last_deal"] = {**state.last_deal, "points": list(state.last_deal["points"])}
    if state.last_trick is not None:
        leader, cards, winner = state.last_trick
        data["last_trick"] = [leader, [CARD_NAMES[c] for c in cards], winner]
    return {"game": "hearts", **data}


def state_from_json(data: dict[str, Any]) -> HeartsState:
    """Rebuild a state from ``to_json``'s output."""
    state = HeartsState()
    FIELDS.from_json(state, {"history": [], "queen": None, **data})  # states saved before either
    state.pending = [None if p is None else mask_of(CARD_INDEX[c] for c in p) for p in data["pending"]]
    if data["last"] is not None:
        who, move = data["last"]
        if "play" in move:
            state.last = (who, PLAY_MOVES[CARD_INDEX[move["play"]]])
        else:  # a pass: its cards, or their number in a determinized copy
            cards = move["pass"]
            state.last = (who, {"pass": list(cards) if isinstance(cards, list) else cards})
    if data["last_trick"] is not None:
        leader, cards, winner = data["last_trick"]
        state.last_trick = (leader, [CARD_INDEX[c] for c in cards], winner)
    if data["last_deal"] is not None:
        state.last_deal = {**data["last_deal"], "points": list(data["last_deal"]["points"])}
    return state


def clone_state(state: HeartsState) -> HeartsState:
    """Return an independent copy (the declared lists copied; ints and shared records kept)."""
    return FIELDS.clone(state)


def determinize_state(state: HeartsState, seat: int, rng: random.Random) -> HeartsState:
    """Deal every card ``seat`` cannot place at random, keeping what it knows.

    It knows its hand, the cards played, the suits others showed void in,
    and where the three cards it passed went (until they are played).
    """
    copy = clone_state(state)
    n = state.players
    known = [0] * n  # cards seat knows another seat holds
    if state.phase == PLAY and state.direction:
        known[(seat + state.direction) % n] = state.passed[seat] & ~state.played
    first_lead = state.phase == PLAY and state.tricks_done == 0 and not state.trick
    if first_lead and state.options["first_lead"] == "two_of_clubs":
        # Everyone knows the seat to lead the first trick holds the lowest club.
        known[state.leader] |= 1 << LOWEST_CLUB[n]
    placed = state.hands[seat] | state.played
    if state.phase == PASS:
        placed |= state.pending[seat] or 0
    for cards in known:
        placed |= cards
    unseen = cards_in(DECK_MASKS[n] & ~placed)
    # In the pass, a seat that has passed holds its pass apart: deal hand and pass together.
    pending = state.pending if state.phase == PASS else [None] * n
    sizes = [0] * n
    for s in range(n):
        if s != seat:
            sizes[s] = state.hands[s].bit_count() - known[s].bit_count() + (pending[s] is not None) * 3
    forbidden = [0 if s == seat else state.voids[s] for s in range(n)]
    hands = deal_hidden(unseen, sizes, forbidden, rng)
    for s in range(n):
        if s == seat:
            continue
        if pending[s] is not None:
            cards = cards_in(hands[s])
            chosen = mask_of(rng.sample(cards, 3))
            copy.pending[s] = chosen
            hands[s] &= ~chosen
        copy.hands[s] = hands[s] | known[s]
    # What the seat cannot know leaves the copy: passes between other seats,
    # the hands as dealt, another seat's pass as the last move, later deals.
    giver = (seat - state.direction) % n
    taker = (seat + state.direction) % n
    copy.passed = [cards if s in (seat, giver) else 0 for s, cards in enumerate(state.passed)]
    copy.received = [cards if s in (seat, taker) else 0 for s, cards in enumerate(state.received)]
    copy.dealt = list(copy.hands)
    if state.last is not None and state.last[0] != seat and "pass" in state.last[1]:
        copy.last = (state.last[0], {"pass": 3})
    copy.seed = rng.getrandbits(32)
    return copy
