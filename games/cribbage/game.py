"""Cribbage for 2, 3 or 4 players (four as partners 0 & 2 against 1 & 3): RULES.md, "Cribbage".

A deal: everyone discards to the crib at once; the start card is cut from the
stock (his heels); the play pegs around the table with go, 31 and last card; then
the show is scored at once in order (the seat after the dealer first, the dealer,
then the crib) and stays on the table in phase ``show`` until the next dealer
gathers the cards (``{"next": true}``) and deals. The game ends as soon as a side
reaches the target, wherever that happens, once the scoring event that took it
there has counted whole. docs/rules.md records the choices.

This module deals, moves and pegs. The option is in ``info.py``, the state and
its JSON, copies and determinizations in ``state.py``, what a seat sees in
``view.py``; the points of the play and of the show in ``play.py`` and ``scoring.py``.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from games.cards import (
    CARD_INDEX,
    CARD_NAMES,
    JACK,
    PLAY_MOVES,
    cards_in,
    deal_order,
    deal_round,
)
from games.cards import play_moves as card_play_moves
from games.cards import shuffled as shuffled_deck
from games.cribbage.info import INFO
from games.cribbage.play import FITS, peg_items
from games.cribbage.scoring import VALUES, score_cards
from games.cribbage.state import (
    CribbageState,
    clone_state,
    determinize_state,
    state_from_json,
    state_to_json,
)
from games.cribbage.view import discard_seen_by, seat_view
from games.engine import (
    NO_EVENTS,
    Event,
    Game,
    Move,
    deal_record,
    noted_deal,
)

GO: Move = {"go": True}
NEXT: Move = {"next": True}  # the next dealer gathers the cards after the show
DISCARD_ONE: tuple[Move, ...] = tuple({"discard": [name]} for name in CARD_NAMES)
DISCARD_TWO: dict[tuple[int, int], Move] = {
    (a, b): {"discard": [CARD_NAMES[a], CARD_NAMES[b]]} for a, b in combinations(range(52), 2)
}


class Cribbage(Game):
    """The Cribbage rules behind the game contract."""

    info = INFO

    def _new(self, players: int, options: dict[str, Any], seed: int) -> CribbageState:
        state = self.start_state(CribbageState(), players, options, seed)
        state.target = options["target"]
        state.sides = 2 if players == 4 else players
        state.scores = [0] * state.sides
        state.back = [0] * state.sides
        state.history = []
        state.deal_number = 0
        self._deal(state)
        return state

    def _deal(self, state: CribbageState) -> None:
        n = state.players
        stock = shuffled_deck(list(range(52)), state.seed, state.deal_number)
        dealt = 6 if n == 2 else 5
        # One card at a time from the seat after the dealer; three-handed, one to the crib.
        hands = deal_round(stock, dealt * n, deal_order(state.dealer, n), n)
        used = dealt * n
        state.crib_dealt = stock[used : used + 1] if n == 3 else []
        used += len(state.crib_dealt)
        state.hands = hands
        state.dealt = list(hands)
        state.kept = [0] * n
        state.crib = sum(1 << c for c in state.crib_dealt)
        state.stock = stock[used:]
        state.phase = "discard"
        state.waiting = (1 << n) - 1
        state.start = None
        state.turn = None
        state.count = 0
        state.pile = []
        state.pile_seats = []
        state.gone = 0
        state.barred = [0] * n
        state.last = None
        state.pegged = []
        state.show = None
        state.last_count = None

    # Who acts and what they may do.

    def to_act(self, state: CribbageState) -> list[int]:
        """Return every seat still to discard, the one seat to play, or none once over."""
        if state.phase == "discard":
            return [s for s in range(state.players) if state.waiting >> s & 1]
        return [] if state.phase == "over" else [state.turn]

    def legal_moves(self, state: CribbageState, seat: int) -> list[Move]:
        """Return ``seat``'s moves: its discards, the cards that fit under 31, or go."""
        if state.phase == "discard":
            if not state.waiting >> seat & 1:
                return []
            cards = cards_in(state.hands[seat])
            if state.players == 2:
                return [DISCARD_TWO[pair] for pair in combinations(cards, 2)]
            return [DISCARD_ONE[c] for c in cards]
        if state.phase == "show" and seat == state.turn:
            return [NEXT]
        if state.phase != "play" or seat != state.turn:
            return []
        fits = state.hands[seat] & FITS[31 - state.count]
        return card_play_moves(fits) if fits else [GO]

    def random_move(self, state: CribbageState, seat: int, rng: random.Random) -> Move:
        """Return a uniformly random legal move; a two-card discard is drawn, not listed.

        Two distinct cards of the hand drawn without replacement, put in card
        order, make each of its 15 pairs equally likely: the law of a uniform
        choice among ``legal_moves``' discards.
        """
        if state.phase == "discard" and state.players == 2 and seat in (0, 1) and state.waiting >> seat & 1:
            cards = cards_in(state.hands[seat])
            if len(cards) >= 2:  # else a hand-made state: the base class refuses
                a = cards.pop(int(rng.random() * len(cards)))
                b = cards[int(rng.random() * len(cards))]
                return DISCARD_TWO[(a, b) if a < b else (b, a)]
        return super().random_move(state, seat, rng)

    def why_illegal(self, state: CribbageState, seat: int, move: Move) -> str:
        """Name the rule a refused move breaks."""
        hand = state.hands[seat]
        if state.phase == "show":
            return 'the show is scored: {"next": true} gathers the cards and deals again'
        if state.phase == "discard":
            size = 2 if state.players == 2 else 1
            cards = move.get("discard")
            if not isinstance(cards, list) or not all(isinstance(c, str) and c in CARD_INDEX for c in cards):
                return f'discard first: {{"discard": [{size} card(s)]}}, not {move}'
            if len(cards) != size:
                return f"discard exactly {size} card(s) to the crib"
            if any(not hand >> CARD_INDEX[c] & 1 for c in cards):
                return f"you do not hold all of {cards}"
            return f"list the discarded cards once each, in card order: {move} is not legal"
        if "go" in move:
            if move != GO:
                return 'go is {"go": true}'
            return "you can play a card, so you may not say go"
        if self.legal_moves(state, seat) == [GO]:
            return f'none of your cards fits under 31 (the count is {state.count}): say {{"go": true}}'
        card = move.get("play")
        if not isinstance(card, str) or card not in CARD_INDEX:
            return f'in the play a move is {{"play": CARD}} or {{"go": true}}, not {move}'
        if not hand >> CARD_INDEX[card] & 1:
            return f"{card} is not in your hand"
        return f"{card} would take the count past 31 (it is {state.count})"

    # Making moves.

    def advance(self, state: CribbageState, seat: int, move: Move) -> tuple[Event, ...] | list[Event]:
        """Make a move known to be legal; cut, peg, show and deal as it sets off."""
        state.pegged = []
        if "next" in move:
            return self.deal_again(state)
        if "play" in move:
            return self._play(state, seat, CARD_INDEX[move["play"]])
        if "go" in move:
            state.last = [seat, GO]
            state.gone |= 1 << seat
            state.barred[seat] |= FITS[31 - state.count]
            return self._next_turn(state, seat)
        discard = [CARD_INDEX[c] for c in move["discard"]]
        for card in discard:
            state.hands[seat] ^= 1 << card
            state.crib |= 1 << card
        state.waiting &= ~(1 << seat)
        state.last = [seat, move]
        return NO_EVENTS if state.waiting else self._cut(state)

    def _peg(self, state: CribbageState, seat: int, points: int, kind: str) -> None:
        """Add points to ``seat``'s side and note them in ``pegged``; the game ends only after the event."""
        side = seat % state.sides
        # The back peg leapfrogs to where the front was: once a move, however many items it scores.
        if points and not any(s % state.sides == side for s, _, _ in state.pegged):
            state.back[side] = state.scores[side]
        state.scores[side] += points
        state.pegged.append([seat, kind, points])

    def _won(self, state: CribbageState) -> bool:
        """End the game if a side has reached the target; called once a scoring event is whole.

        An event scores one side only (a card with its go or last card, his heels,
        one hand or the crib), so at most one side can be at the target.
        """
        if max(state.scores) < state.target:
            return False
        state.phase = "over"
        state.turn = None
        return True

    def _cut(self, state: CribbageState) -> list[Event]:
        state.kept = list(state.hands)
        start = state.start = state.stock[0]
        state.stock = state.stock[1:]
        state.phase = "play"
        state.turn = (state.dealer + 1) % state.players
        if start % 13 == JACK:
            self._peg(state, state.dealer, 2, "his heels")
            self._won(state)
        return [{"starter": CARD_NAMES[start]}]

    def _play(self, state: CribbageState, seat: int, card: int) -> tuple[Event, ...] | list[Event]:
        state.hands[seat] ^= 1 << card
        state.count += VALUES[card % 13]
        state.pile.append(card)
        state.pile_seats.append(seat)
        state.last = [seat, PLAY_MOVES[card]]
        for kind, points in peg_items(state.pile, state.count):
            self._peg(state, seat, points, kind)
        # The card's go or last card (if the count ends on it) belongs to the same event.
        return self._next_turn(state, seat)

    def _next_turn(self, state: CribbageState, seat: int) -> tuple[Event, ...] | list[Event]:
        """Pass the turn on from ``seat``; end the count when no seat can play.

        The move's event is whole here (a card's pegs plus the go or last card it
        earns), so this is where the game ends if a side has reached the target.
        """
        n = state.players
        hands = state.hands
        fits = FITS[31 - state.count]
        if any(hands[s] & fits and not state.gone >> s & 1 for s in range(n)):
            if self._won(state):
                return NO_EVENTS
            # The next seat still in the count; it plays, or says go if nothing fits.
            for i in range(1, n + 1):
                s = (seat + i) % n
                if hands[s] and not state.gone >> s & 1:
                    state.turn = s
                    return NO_EVENTS
        last = state.pile_seats[-1]
        cards_out = not any(hands)
        if state.count != 31:
            self._peg(state, last, 1, "last card" if cards_out else "go")
        if self._won(state):
            return NO_EVENTS
        # The finished count stays on the table until the next one begins.
        go = [[s, kind, points] for s, kind, points in state.pegged if kind in ("go", "last card")]
        names = [[s, CARD_NAMES[c]] for s, c in zip(state.pile_seats, state.pile, strict=True)]
        state.last_count = [names, go[0] if go else None]
        state.count = 0
        state.pile = []
        state.pile_seats = []
        state.gone = 0
        for i in range(1, n + 1):
            s = (last + i) % n
            if hands[s]:
                state.turn = s
                return NO_EVENTS
        return self._show(state)

    def _show(self, state: CribbageState) -> tuple[Event, ...] | list[Event]:
        """Score each hand in order, then the crib, each whole; stop after the one that reaches the target."""
        n = state.players
        start = state.start
        state.show = []
        state.phase = "show"
        state.turn = (state.dealer + 1) % n
        order = [(state.dealer + i) % n for i in range(1, n + 1)]  # the dealer last
        shows = [(seat, False, state.kept[seat]) for seat in order]
        for seat, is_crib, mask in [*shows, (state.dealer, True, state.crib)]:
            points = score_cards(cards_in(mask), start, is_crib)
            state.show.append([seat, is_crib, mask, start, points])
            if points:  # a hand and a crib are pegged apart: the back peg moves for each
                state.back[seat % state.sides] = state.scores[seat % state.sides]
            state.scores[seat % state.sides] += points
            if self._won(state):
                break
        scores = [state.scores[s % state.sides] for s in range(n)]
        state.history = noted_deal(state.history, state.deal_number + 1, scores, dealer=state.dealer)
        return NO_EVENTS

    # What each seat sees.

    def move_seen_by(self, state: CribbageState, mover: int, move: Move, viewer: int | None) -> Move:
        """Cards put in the crib stay face down for all but their owner (the show turns the crib up)."""
        return discard_seen_by(state, mover, move, viewer)

    def view(self, state: CribbageState, seat: int | None) -> dict[str, Any]:
        """Return the table as ``seat`` sees it: its hand, the count, the start card, the show."""
        return seat_view(self, state, seat)

    def is_over(self, state: CribbageState) -> bool:
        """Return whether a side has reached the target."""
        return state.phase == "over"

    def result(self, state: CribbageState) -> dict[str, Any] | None:
        """Return each seat's side score and every seat of the winning side, once over."""
        if state.phase != "over":
            return None
        scores = [state.scores[s % state.sides] for s in range(state.players)]
        return {"scores": scores, "winners": self.info.winners(scores)}

    def to_json(self, state: CribbageState) -> dict[str, Any]:
        """Return the state as plain JSON (cards as strings)."""
        return state_to_json(state)

    def from_json(self, data: dict[str, Any]) -> CribbageState:
        """Rebuild a state from ``to_json``'s output."""
        return state_from_json(data)

    def clone(self, state: CribbageState) -> CribbageState:
        """Return an independent copy."""
        return clone_state(state)

    def determinize(self, state: CribbageState, seat: int, rng: random.Random) -> CribbageState:
        """Deal every card ``seat`` has not seen at random: others' hands, the crib, the stock.

        A seat has seen its own hand and discards, every card played, the start
        card once cut and, in the show, the crib; a seat that said go holds no
        card that fitted then.
        """
        return determinize_state(state, seat, rng)

    def deal_event(self, state: CribbageState) -> Event:
        """Return the current deal as laid out: hands as dealt, stock top first, the crib's dealt card."""
        return deal_record(state.dealer, state.dealt, state.stock, crib=state.crib_dealt)


GAME = Cribbage()
