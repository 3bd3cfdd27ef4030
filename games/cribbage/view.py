"""What a seat sees of a Cribbage table: its view, and another seat's discard as it may see it.

Every view of the game is built here. A seat sees its own hand, the count and
its cards with what each pegged, the start card, the pegs and the show; the
cards others put in the crib stay face down until the show turns the crib up.
"""

from __future__ import annotations

from typing import Any

from games.cards import CARD_INDEX, CARD_NAMES, cards_in, names_in
from games.cribbage.play import peg_items
from games.cribbage.scoring import VALUES, breakdown_cards
from games.cribbage.state import CribbageState
from games.engine import Game, Move


def count_cards(seats: list[int], cards: list[int]) -> list[dict[str, Any]]:
    """Return a count's cards in play order, each with the count after it and what it pegged."""
    shown, count = [], 0
    for i, (seat, card) in enumerate(zip(seats, cards, strict=True)):
        count += VALUES[card % 13]
        pegged = [{"kind": kind, "points": points} for kind, points in peg_items(cards[: i + 1], count)]
        shown.append({"seat": seat, "card": CARD_NAMES[card], "count": count, "pegged": pegged})
    return shown


def discard_seen_by(state: CribbageState, mover: int, move: Move, viewer: int | None) -> Move:
    """Cards put in the crib stay face down for all but their owner (the show turns the crib up)."""
    cards = move.get("discard")
    if not isinstance(cards, list) or viewer == mover:
        return move
    return {"discard": len(cards)}


def seat_view(game: Game, state: CribbageState, seat: int | None) -> dict[str, Any]:
    """Return the table as ``seat`` sees it: its hand, the count, the start card, the show.

    ``game`` (Cribbage) says who is to act and, once it is over, the result.
    """
    n = state.players
    playing = state.start is not None
    seats = game.to_act(state)
    view: dict[str, Any] = {
        "phase": state.phase,
        "turn": seats[0] if len(seats) == 1 else None,
        "hand_counts": [h.bit_count() for h in state.hands],
        "scores": [state.scores[s % state.sides] for s in range(n)],
        "dealer": state.dealer,
        "deal_number": state.deal_number + 1,
        "target": state.target,
        "sides": [[s for s in range(n) if s % state.sides == side] for side in range(state.sides)],
        "to_discard": [s for s in range(n) if state.waiting >> s & 1],
        "crib_size": state.crib.bit_count(),
        "start": CARD_NAMES[state.start] if playing else None,
        "count": state.count,
        "pile": [
            {"seat": s, "card": CARD_NAMES[c]} for s, c in zip(state.pile_seats, state.pile, strict=True)
        ],
        "gone": [s for s in range(n) if state.gone >> s & 1],
        "played": [names_in(state.kept[s] & ~state.hands[s]) if playing else [] for s in range(n)],
        "pegged": [{"seat": s, "kind": kind, "points": points} for s, kind, points in state.pegged],
        "show": None,
        "last": None,
        # Each card of this count with the count after it and what it pegged.
        "count_cards": count_cards(state.pile_seats, state.pile),
        # Per side, the front peg (the score) and the back peg (the score before its latest points).
        "pegs": [[state.back[side], state.scores[side]] for side in range(state.sides)],
        "last_count": None,
        "history": [dict(record) for record in state.history],
    }
    if state.last_count is not None and playing:
        names, go = state.last_count
        seats, cards = [s for s, _ in names], [CARD_INDEX[c] for _, c in names]
        view["last_count"] = {
            "cards": count_cards(seats, cards),
            "go": None if go is None else {"seat": go[0], "kind": go[1], "points": go[2]},
        }
    if seat is not None:
        view["hand"] = names_in(state.hands[seat])
    if state.last is not None:
        who, move = state.last
        if "discard" in move and who != seat:
            move = {"discard": len(move["discard"])}  # others' discards stay face down
        view["last"] = {"seat": who, "move": move}
    if state.show is not None:
        view["show"] = [
            {
                "seat": owner,
                "crib": is_crib,
                "cards": names_in(mask),
                "start": CARD_NAMES[start],
                "items": breakdown_cards(cards_in(mask), start, is_crib),
                "total": points,
            }
            for owner, is_crib, mask, start, points in state.show
        ]
    if state.phase == "over":
        view["result"] = game.result(state)
    return view
