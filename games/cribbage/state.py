"""The Cribbage state, its plain-JSON form, its copies and its determinizations.

Hands, the crib and the kept hands are card bitmasks; the stock and the current
count's pile are lists of card indexes. Scores are kept per side: a seat's side is
``seat % sides`` (two sides of partners with four players, one per seat otherwise).
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import CARD_INDEX, CARD_NAMES, FULL_DECK_MASK, CardFields, cards_in, mask_of, names_in
from games.engine import deal_hidden


class CribbageState:
    """One game of Cribbage, from the deal to the show, deal after deal."""

    __slots__ = (
        "players",
        "options",
        "seed",
        "target",
        "sides",
        "deal_number",
        "dealer",
        "phase",
        "hands",
        "kept",
        "dealt",
        "crib",
        "crib_dealt",
        "stock",
        "waiting",
        "start",
        "count",
        "pile",
        "pile_seats",
        "gone",
        "turn",
        "barred",
        "scores",
        "last",
        "pegged",
        "show",
        "last_count",
        "history",
        "back",
    )

    players: int
    options: dict[str, Any]
    seed: int
    target: int
    sides: int  # 2 with four players (partners), else one side per seat
    deal_number: int
    dealer: int
    phase: str  # "discard", "play", "show" (scored, waiting for the next deal) or "over"
    hands: list[int]  # the cards each seat holds now
    kept: list[int]  # the four each seat kept, for the show (0 before the cut)
    dealt: list[int]  # the hands as dealt, for the log
    crib: int
    crib_dealt: list[int]  # three-handed: the stock card dealt to the crib
    stock: list[int]  # the undealt cards, top first; the cut takes the start card off the top
    waiting: int  # mask of the seats still to discard
    start: int | None
    count: int  # the running count of the play
    pile: list[int]  # the current count's cards, in play order
    pile_seats: list[int]  # who played each of them
    gone: int  # mask of the seats that said go in this count
    turn: int | None
    barred: list[int]  # per seat, the cards its go showed it does not hold this deal
    scores: list[int]  # per side
    last: list | None  # [seat, move] of the last move this deal
    pegged: list[list]  # [[seat, kind, points]] scored by the last move
    show: list[list] | None  # [[seat, is_crib, mask, start, points]] of the last show
    last_count: list | None  # the previous count of this deal: [[seat, card name], ...], then the go
    history: list[dict[str, Any]]  # one record per finished deal (deals.noted_deal), never mutated
    back: list[int]  # per side, the score before its latest points: where the back peg stands


# ``start``, ``last``, ``pegged`` and ``show`` are converted by hand.
FIELDS = CardFields(
    CribbageState.__slots__,
    masks=("crib",),
    mask_lists=("hands", "kept", "dealt"),
    card_lists=("stock", "pile", "crib_dealt"),
    copied=("scores", "barred", "pile_seats", "back"),
)


def state_to_json(state: CribbageState) -> dict[str, Any]:
    """Return the whole state as plain JSON, cards as strings."""
    data = FIELDS.to_json(state)
    data["pegged"] = [list(item) for item in state.pegged]
    data["last"] = None if state.last is None else [state.last[0], dict(state.last[1])]
    data["start"] = None if state.start is None else CARD_NAMES[state.start]
    if state.show is not None:
        data["show"] = [
            [seat, is_crib, names_in(mask), CARD_NAMES[start], points]
            for seat, is_crib, mask, start, points in state.show
        ]
    return {"game": "cribbage", **data}


def state_from_json(data: dict[str, Any]) -> CribbageState:
    """Rebuild a state from ``state_to_json``'s output."""
    state = CribbageState()
    # States saved before these fields: no count kept, no history, the back pegs at the scores.
    FIELDS.from_json(state, {"last_count": None, "history": [], "back": list(data["scores"]), **data})
    state.start = None if data["start"] is None else CARD_INDEX[data["start"]]
    if data["show"] is not None:
        state.show = [
            [seat, is_crib, mask_of(CARD_INDEX[c] for c in names), CARD_INDEX[start], points]
            for seat, is_crib, names, start, points in data["show"]
        ]
    return state


def clone_state(state: CribbageState) -> CribbageState:
    """Return an independent copy (the declared lists copied; ints and shared records kept)."""
    return FIELDS.clone(state)


def determinize_state(state: CribbageState, seat: int, rng: random.Random) -> CribbageState:
    """Deal every card ``seat`` has not seen at random: others' hands, the crib, the stock.

    A seat has seen its own hand and discards, every card played, the start
    card once cut and, in the show, the crib; a seat that said go holds no
    card that fitted then.
    """
    copy = clone_state(state)
    n = state.players
    # In the show the whole crib is face up; before it, a seat knows its own discards.
    own_crib = state.crib if state.phase == "show" else state.dealt[seat] & state.crib
    played = [state.kept[s] & ~state.hands[s] for s in range(n)]
    seen = state.hands[seat] | own_crib | sum(played)
    if state.start is not None:
        seen |= 1 << state.start
    sizes = [0 if s == seat else state.hands[s].bit_count() for s in range(n)]
    sizes += [(state.crib & ~own_crib).bit_count(), len(state.stock)]
    forbidden = [0 if s == seat else state.barred[s] for s in range(n)] + [0, 0]
    dealt = deal_hidden(cards_in(FULL_DECK_MASK & ~seen), sizes, forbidden, rng)
    copy.kept = list(state.kept)
    copy.dealt = list(state.dealt)
    for s in range(n):
        if s != seat:
            copy.hands[s] = dealt[s]
            copy.kept[s] = dealt[s] | played[s] if state.start is not None else 0
            copy.dealt[s] = dealt[s] | played[s]
    copy.crib = own_crib | dealt[n]
    copy.crib_dealt = cards_in(dealt[n])[: len(state.crib_dealt)]
    stock = cards_in(dealt[n + 1])
    rng.shuffle(stock)
    copy.stock = stock
    copy.seed = rng.getrandbits(32)  # later deals are unknown too
    return copy
