"""Hearts: pass three cards, then avoid taking hearts and the queen of spades.

RULES.md, "Hearts"; the choices it left open are in docs/rules.md. Hands are card
bitmasks and the legal plays are one mask computed by ``rules.legal_mask``, shared
by ``legal_moves``, ``random_move`` and the checked ``apply``, so a random playout
costs a few integer operations a card. The pass is simultaneous: every seat that
has not passed acts.

This module deals, moves and scores. The options are in ``info.py``, the state and
its JSON, copies and determinizations in ``state.py``, the legal masks and the
reasons for a refusal in ``rules.py``, and what a seat sees in ``view.py``.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from games.cards import (
    BITS,
    CARD_INDEX,
    CARD_NAMES,
    HEARTS,
    PLAY_MOVES,
    SUIT_MASKS,
    cards_in,
    deal_order,
    deal_round,
    names_in,
    play_moves,
    shuffled,
)
from games.engine import (
    NO_EVENTS,
    Event,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    NotYourTurnError,
    deal_record,
    noted_deal,
)
from games.hearts.info import INFO
from games.hearts.rules import legal_mask, pass_mask, why_refused
from games.hearts.state import (
    DECKS,
    DIRECTIONS,
    LOWEST_CLUB,
    MOON,
    OVER,
    PASS,
    PLAY,
    POINTS,
    QUEEN_OF_SPADES,
    HeartsState,
    clone_state,
    determinize_state,
    state_from_json,
    state_to_json,
)
from games.hearts.view import pass_seen_by, seat_view
from games.tricks import follow_mask, follow_moves, trick_view, trick_winner


class Hearts(Game):
    """The Hearts rules behind the game contract."""

    info = INFO

    def _new(self, players: int, options: dict[str, Any], seed: int) -> HeartsState:
        state = self.start_state(HeartsState(), players, options, seed)
        state.target = options["target"]
        state.scores = [0] * players
        state.last_deal = None
        state.history = []
        state.deal_number = 0
        self._deal(state)
        return state

    def _deal(self, state: HeartsState) -> None:
        n = state.players
        stock = shuffled(list(DECKS[n]), state.seed, state.deal_number)
        # One card at a time round the table from the seat after the dealer.
        hands = deal_round(stock, len(stock), deal_order(state.dealer, n), n)
        state.hands = hands
        state.dealt = list(hands)
        state.passed = [0] * n
        state.received = [0] * n
        state.trick = []
        state.tricks_done = 0
        state.broken = False
        state.taken = [0] * n
        state.last = None
        state.last_trick = None
        state.queen = None
        state.voids = [0] * n
        state.played = 0
        rotate = state.options["passing"] == "rotate"
        cycle = DIRECTIONS[n]
        state.direction = cycle[state.deal_number % len(cycle)] if rotate else 0
        if state.direction:
            state.phase = PASS
            state.pending = [None] * n
            state.leader = state.turn = -1
        else:
            state.pending = []
            self._start_play(state)

    def _start_play(self, state: HeartsState) -> None:
        state.phase = PLAY
        n = state.players
        if state.options["first_lead"] == "two_of_clubs":
            bit = 1 << LOWEST_CLUB[n]
            state.leader = next(s for s in range(n) if state.hands[s] & bit)
        else:
            state.leader = (state.dealer + 1) % n
        state.turn = state.leader

    def to_act(self, state: HeartsState) -> list[int]:
        """Return the seats to act: all that have not passed in the pass, else the one to play."""
        if state.phase == PLAY:
            return [state.turn]
        if state.phase == PASS:
            return [s for s, cards in enumerate(state.pending) if cards is None]
        return []

    def legal_moves(self, state: HeartsState, seat: int) -> list[Move]:
        """Return ``seat``'s moves: every sorted triple in the pass, the allowed plays after."""
        if state.phase == PLAY:
            if seat != state.turn:
                return []
            trick = state.trick
            if trick and state.tricks_done:
                # The common case, past the first trick: follow suit if you can.
                return follow_moves(state.hands[seat], trick[0] // 13)
            return play_moves(legal_mask(state, state.hands[seat]))
        if state.phase == PASS and seat in range(state.players) and state.pending[seat] is None:
            # Made afresh: a shared table of all 22,100 triples is slower (its
            # entries are scattered in memory) and holds 8 MB for nothing.
            return [{"pass": [a, b, c]} for a, b, c in combinations(names_in(state.hands[seat]), 3)]
        return []

    def random_move(self, state: HeartsState, seat: int, rng: random.Random) -> Move:
        """Return a uniformly random legal move, drawn without listing the moves.

        In the play it picks the k-th legal card, as the base class would pick
        ``legal_moves``' k-th move for the same draw. In the pass,
        three distinct cards drawn uniformly without replacement, then put in card
        order, make every 3-card subset of the hand equally likely: the same law
        as a uniform choice among ``legal_moves``' triples.
        """
        if state.phase == PLAY and seat == state.turn:
            hand = state.hands[seat]
            trick = state.trick
            if trick and state.tricks_done:
                legal = follow_mask(hand, trick[0] // 13)
            else:
                legal = legal_mask(state, hand)
            if not legal:  # an empty hand (a hand-made state): the base class refuses
                return super().random_move(state, seat, rng)
            # The k-th lowest card of the mask is legal_moves' k-th move: clear
            # the k lowest bits rather than build the list (no call, no list).
            k = int(rng.random() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            return PLAY_MOVES[(legal & -legal).bit_length() - 1]
        if state.phase == PASS and seat in range(state.players) and state.pending[seat] is None:
            cards = cards_in(state.hands[seat])
            if len(cards) < 3:  # a hand-made state: no pass to draw, the base class refuses
                return super().random_move(state, seat, rng)
            rnd = rng.random
            a = cards.pop(int(rnd() * len(cards)))
            b = cards.pop(int(rnd() * len(cards)))
            c = cards[int(rnd() * len(cards))]
            # Card order by a few comparisons, cheaper than a call to sorted.
            if a > b:
                a, b = b, a
            if c < a:
                a, b, c = c, a, b
            elif c < b:
                b, c = c, b
            return {"pass": [CARD_NAMES[a], CARD_NAMES[b], CARD_NAMES[c]]}
        return super().random_move(state, seat, rng)

    def check_move(self, state: HeartsState, seat: int, move: Move) -> None:
        """Raise the error that explains why ``seat`` may not make ``move`` now.

        The same checks as the base class's ``move in legal_moves``, made
        directly on the masks so the checked path stays fast.
        """
        phase = state.phase
        if phase == OVER:
            raise GameOverError("the game is over")
        if phase == PLAY:
            if seat != state.turn:
                raise NotYourTurnError(f"it is not seat {seat}'s turn")
            if isinstance(move, dict) and len(move) == 1:
                name = move.get("play")
                card = CARD_INDEX.get(name) if isinstance(name, str) else None
                if card is not None:
                    hand = state.hands[seat]
                    trick = state.trick
                    if trick and state.tricks_done:
                        # Past the first trick a follower must only follow suit if it can.
                        if follow_mask(hand, trick[0] // 13) >> card & 1:
                            return
                    elif legal_mask(state, hand) >> card & 1:
                        return
        else:
            if type(seat) is not int or not 0 <= seat < state.players:
                raise NotYourTurnError(f"there is no seat {seat!r} to pass")
            if state.pending[seat] is not None:
                raise NotYourTurnError(f"it is not seat {seat}'s turn: it has passed already")
            if isinstance(move, dict) and len(move) == 1 and pass_mask(state, seat, move) is not None:
                return
        if not isinstance(move, dict) or len(move) != 1:
            raise IllegalMoveError('a move is a JSON object with one key, such as {"play": "QS"}')
        raise IllegalMoveError(self.why_illegal(state, seat, move))

    def why_illegal(self, state: HeartsState, seat: int, move: Move) -> str:
        """Name the rule a refused move breaks."""
        return why_refused(state, seat, move)

    def advance(self, state: HeartsState, seat: int, move: Move) -> tuple[Event, ...] | list[Event]:
        """Make a move known to be legal; settle the pass, the trick, the deal and the game."""
        if state.phase == PASS:
            self._pass(state, seat, move)
            return NO_EVENTS
        card = CARD_INDEX[move["play"]]
        bit = BITS[card]
        state.hands[seat] ^= bit
        state.played |= bit
        suit = card // 13
        trick = state.trick
        if trick:
            led = trick[0] // 13
            if suit != led:
                state.voids[seat] |= SUIT_MASKS[led]
                if suit == HEARTS:
                    state.broken = True
            # Following a led heart changes nothing: its lead broke them.
        elif suit == HEARTS:
            state.broken = True
        trick.append(card)
        state.last = (seat, PLAY_MOVES[card])
        n = state.players
        if len(trick) < n:
            state.turn = (seat + 1) % n
            return NO_EVENTS
        winner = trick_winner(trick, state.leader, n)
        points = sum(map(POINTS.__getitem__, trick))
        if points:
            state.taken[winner] += points
        state.last_trick = (state.leader, trick, winner)
        if QUEEN_OF_SPADES in trick:
            state.queen = winner
        state.trick = []
        state.leader = state.turn = winner
        state.tricks_done += 1
        if state.hands[winner]:
            return NO_EVENTS
        return self._end_deal(state)

    def _pass(self, state: HeartsState, seat: int, move: Move) -> None:
        names = move["pass"]
        triple = (CARD_INDEX[names[0]], CARD_INDEX[names[1]], CARD_INDEX[names[2]])
        mask = 1 << triple[0] | 1 << triple[1] | 1 << triple[2]
        state.hands[seat] &= ~mask
        state.pending[seat] = mask
        state.last = (seat, {"pass": [CARD_NAMES[c] for c in triple]})
        if None in state.pending:
            return
        # Everyone has passed: the cards change hands at once.
        n = state.players
        for giver, cards in enumerate(state.pending):
            taker = (giver + state.direction) % n
            state.hands[taker] |= cards
            state.passed[giver] = cards
            state.received[taker] = cards
        state.pending = []
        self._start_play(state)

    def _end_deal(self, state: HeartsState) -> list[Event] | tuple[Event, ...]:
        """Score the deal (the moon per the option), then end the game or deal again."""
        taken = state.taken
        n = state.players
        moon = taken.index(MOON) if MOON in taken else None
        if moon is None:
            points = list(taken)
        elif state.options["moon"] == "add_to_others":
            points = [0 if s == moon else MOON for s in range(n)]
        else:
            points = [-MOON if s == moon else 0 for s in range(n)]
        for s in range(n):
            state.scores[s] += points[s]
        leader, cards, winner = state.last_trick
        # The deal's final trick stays readable in the summary, with who took the queen.
        last = {"cards": trick_view(cards, leader, n), "winner": winner}
        state.last_deal = {"points": points, "moon": moon, "queen": state.queen, "trick": last}
        state.history = noted_deal(
            state.history, state.deal_number + 1, state.scores, moon=moon, queen=state.queen
        )
        if max(state.scores) >= state.target:
            state.phase = OVER
            return NO_EVENTS
        return self.deal_again(state)

    def move_seen_by(self, state: HeartsState, mover: int, move: Move, viewer: int | None) -> Move:
        """A pass's cards are seen by the passer, and by the receiver once the cards are theirs."""
        return pass_seen_by(state, mover, move, viewer)

    def view(self, state: HeartsState, seat: int | None) -> dict[str, Any]:
        """Return the table as ``seat`` sees it: its own hand and passes, the trick, the scores."""
        return seat_view(self, state, seat)

    def is_over(self, state: HeartsState) -> bool:
        """Return whether a deal has ended with a seat at or past the target."""
        return state.phase == OVER

    def result(self, state: HeartsState) -> dict[str, Any] | None:
        """Return the points per seat and the winners (the lowest), once over."""
        if state.phase != OVER:
            return None
        return {"scores": list(state.scores), "winners": self.info.winners(state.scores)}

    def moons(self, state: HeartsState) -> list[int]:
        """Return, per seat, the deals so far in which it shot the moon (took all 26 points)."""
        return moons_in(state.history, state.players)

    def to_json(self, state: HeartsState) -> dict[str, Any]:
        """Return the state as plain JSON (cards as strings)."""
        return state_to_json(state)

    def from_json(self, data: dict[str, Any]) -> HeartsState:
        """Rebuild a state from ``to_json``'s output."""
        return state_from_json(data)

    def clone(self, state: HeartsState) -> HeartsState:
        """Return an independent copy of the state."""
        return clone_state(state)

    def determinize(self, state: HeartsState, seat: int, rng: random.Random) -> HeartsState:
        """Deal every card ``seat`` cannot place at random, keeping what it knows.

        It knows its hand, the cards played, the suits others showed void in,
        and where the three cards it passed went (until they are played).
        """
        return determinize_state(state, seat, rng)

    def deal_event(self, state: HeartsState) -> Event:
        """Return the current deal as laid out, for the simulation log."""
        return deal_record(state.dealer, state.dealt, [])


GAME = Hearts()


def moons_in(history: list[dict[str, Any]], players: int) -> list[int]:
    """Count, per seat, the deals of ``history`` (``noted_deal`` records) whose shooter it was."""
    counts = [0] * players
    for record in history:
        if record.get("moon") is not None:
            counts[record["moon"]] += 1
    return counts
