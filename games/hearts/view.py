"""What a seat sees of a Hearts table: its view, and another seat's pass as it may see it.

Every view of the game is built here. A seat sees its own hand and passes, the
trick, the scores and the deals so far; a pass's cards only by the passer and,
once they are theirs, the receiver.
"""

from __future__ import annotations

from typing import Any

from games.cards import names_in
from games.engine import Game, Move
from games.hearts.state import OVER, PLAY, HeartsState, direction_name
from games.tricks import trick_view


def pass_seen_by(state: HeartsState, mover: int, move: Move, viewer: int | None) -> Move:
    """A pass's cards are seen by the passer, and by the receiver once the cards are theirs."""
    cards = move.get("pass")
    if not isinstance(cards, list) or viewer == mover:
        return move
    receiver = (mover + state.direction) % state.players
    if viewer == receiver and state.received[viewer]:
        return move
    return {"pass": len(cards)}


def seat_view(game: Game, state: HeartsState, seat: int | None) -> dict[str, Any]:
    """Return the table as ``seat`` sees it: its own hand and passes, the trick, the scores.

    ``game`` (Hearts) says who is to act and, once it is over, the result.
    """
    n = state.players
    acting = game.to_act(state)
    view: dict[str, Any] = {
        "phase": state.phase,
        "turn": acting[0] if len(acting) == 1 else None,
        "hand_counts": [h.bit_count() for h in state.hands],
        "scores": list(state.scores),
        "dealer": state.dealer,
        "deal_number": state.deal_number + 1,
        "target": state.target,
        "pass_direction": direction_name(state.direction, n),
        "passed_seats": [s for s, cards in enumerate(state.pending) if cards is not None],
        "trick": trick_view(state.trick, state.leader, n) if state.phase == PLAY else [],
        "leader": state.leader if state.leader >= 0 else None,
        "hearts_broken": state.broken,
        "tricks_played": state.tricks_done,
        "points": list(state.taken),
        "last_trick": None,
        "last_deal": None,
        "last": None,
    }
    if seat is not None:
        view["hand"] = names_in(state.hands[seat])
        own = state.pending[seat] if state.pending else state.passed[seat]
        view["passed"] = names_in(own) if own else None
        view["received"] = names_in(state.received[seat]) if state.received[seat] else None
        # Who passed them: the seat the pass came from.
        view["received_from"] = (seat - state.direction) % n if state.received[seat] else None
    if state.last is not None:
        who, move = state.last
        if "pass" in move:
            # Only the passer sees its cards (a determinized copy may hold just
            # their number); the view gets its own copy.
            cards = move["pass"]
            move = {"pass": list(cards) if who == seat and isinstance(cards, list) else 3}
        view["last"] = {"seat": who, "move": move}
    if state.last_deal is not None:
        view["last_deal"] = {"points": list(state.last_deal["points"]), "moon": state.last_deal["moon"]}
    # The previous deal's final trick, shown before its summary (null before a deal has ended).
    view["final_trick"] = state.last_deal.get("trick") if state.last_deal is not None else None
    view["history"] = [dict(record) for record in state.history]
    if state.last_trick is not None:
        leader, cards, winner = state.last_trick
        view["last_trick"] = {"cards": trick_view(cards, leader, n), "winner": winner}
    if state.phase == OVER:
        view["result"] = game.result(state)
    return view
