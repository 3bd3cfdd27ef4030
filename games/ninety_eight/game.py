"""Ninety-Eight: play a card onto the pile, keep the total at 98 or under.

RULES.md, "Ninety-Eight"; the choices it leaves open are in docs/rules.md. Hands
are card bitmasks, the pile a list in play order and the stock a list with its
top card last (so a draw is ``pop()``), so a random playout is a few integer
operations a move.
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import (
    CARD_INDEX,
    CARD_NAMES,
    FULL_DECK_MASK,
    PLAY_MOVES,
    CardFields,
    cards_in,
    deal_order,
    deal_round,
    mask_of,
    names_in,
    shuffled,
)
from games.cards import deck as make_deck
from games.engine import (
    NO_EVENTS,
    Event,
    GameInfo,
    Move,
    OneSeatGame,
    Option,
    cardstock_help,
    deal_record,
    noted_deal,
)
from games.ninety_eight import guide
from games.ninety_eight.reading import deal_read

DECK = tuple(make_deck())
HAND_SIZE = 4
LIMIT = 98
KING, TEN = 12, 9
# What each rank adds to the total: A..9 their value, T takes 10 away, J Q add 0.
# The king is handled apart: it sets the total to 98.
RANK_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, -10, 0, 0, 0)
CARD_VALUE = tuple(RANK_VALUE[c % 13] for c in range(52))


def total_after(total: int, card: int) -> int:
    """Return the pile's total once ``card`` is played on ``total`` (a king makes it 98)."""
    return LIMIT if card % 13 == KING else total + CARD_VALUE[card]


class NinetyEightState:
    """One game of Ninety-Eight: hands are bitmasks, ``stock`` has its top card last."""

    __slots__ = (
        "history",
        "players",
        "options",
        "seed",
        "deal_number",
        "dealer",
        "hands",
        "dealt",
        "stock",
        "pile",
        "total",
        "turn",
        "lives",
        "over",
        "last",
        "deal_loser",
        "last_deal",
    )

    players: int
    options: dict[str, Any]
    seed: int
    deal_number: int
    dealer: int
    hands: list[int]
    dealt: list[int]  # the hands as dealt, for the log
    stock: list[int]  # undealt cards, top card LAST
    pile: list[int]  # cards played this deal, in play order (top last)
    total: int
    turn: int
    lives: list[int]  # lives left per seat; a seat with 0 sits out
    over: bool
    last: list | None  # [seat, card] of the last play this deal
    deal_loser: int | None  # who lost the last finished deal (None: no loser, or none yet)
    last_deal: list | None  # [loser | None, total, last card] of the last finished deal
    history: list[dict[str, Any]]  # one record per finished deal (deals.noted_deal), never mutated


# ``stock`` (stored top first, kept top last) and ``last_deal`` are converted by hand.
FIELDS = CardFields(
    NinetyEightState.__slots__,
    mask_lists=("hands", "dealt"),
    card_lists=("pile",),
    seat_cards=("last",),
    copied=("lives",),
    lists=("stock",),
)


class NinetyEight(OneSeatGame):
    """The Ninety-Eight rules behind the game contract."""

    info = GameInfo(
        id="ninety_eight",
        name="Ninety-Eight",
        min_players=2,
        max_players=6,
        default_players=4,
        options={
            "lives": Option(
                1,
                (1, 3, 5),
                "How many deals a player may lose before they are out.",
                {
                    "1": "One deal is the whole game: whoever takes the total over 98 loses, "
                    "everyone else wins.",
                    "3": "Everyone starts with 3 lives; the last player with a life left wins.",
                    "5": "Everyone starts with 5 lives; the last player with a life left wins.",
                },
                label="Lives",
            )
        },
        presets={"cardstock": {"lives": 1}},
        goal=guide.GOAL,
        how_to_play=guide.HOW_TO_PLAY,
        glossary=guide.GLOSSARY,
        preset_help={"cardstock": cardstock_help("one life, so a single deal decides the game.")},
    )

    def _new(self, players: int, options: dict[str, Any], seed: int) -> NinetyEightState:
        state = self.start_state(NinetyEightState(), players, options, seed)
        state.lives = [options["lives"]] * players
        state.history = []
        state.over = False
        state.deal_loser = None
        state.last_deal = None
        state.deal_number = 0
        self._deal(state)
        return state

    def _deal(self, state: NinetyEightState) -> None:
        """Shuffle the whole deck and deal four to every seat still in, one at a time."""
        stock = shuffled(list(DECK), state.seed, state.deal_number)
        n = state.players
        lives = state.lives
        seated = [s for s in deal_order(state.dealer, n) if lives[s] > 0]
        hands = deal_round(stock, HAND_SIZE * len(seated), seated, n)
        state.hands = hands
        state.dealt = list(hands)
        rest = stock[HAND_SIZE * len(seated) :]
        rest.reverse()
        state.stock = rest
        state.pile = []
        state.total = 0
        state.turn = seated[0]
        state.last = None

    def advance(self, state: NinetyEightState, seat: int, move: Move) -> tuple[Event, ...] | list[Event]:
        """Play a card known to be legal; draw, or settle the deal and the game."""
        card = CARD_INDEX[move["play"]]
        hands = state.hands
        hands[seat] ^= 1 << card
        state.pile.append(card)
        state.last = [seat, card]
        if card % 13 == KING:
            state.total = LIMIT
        else:
            state.total += CARD_VALUE[card]
            if state.total > LIMIT:
                return self._end_deal(state, seat)
        if state.stock:
            hands[seat] |= 1 << state.stock.pop()
        n = state.players
        nxt = (seat + 1) % n
        while not hands[nxt]:
            if nxt == seat:
                return self._end_deal(state, None)  # every hand is empty
            nxt = (nxt + 1) % n
        state.turn = nxt
        return NO_EVENTS

    def _end_deal(self, state: NinetyEightState, loser: int | None) -> tuple[Event, ...] | list[Event]:
        """Settle a finished deal; deal again unless the game is over."""
        state.deal_loser = loser
        state.last_deal = [loser, state.total, state.pile[-1]]
        lives = state.lives
        before = self.scores(state)
        if loser is not None:
            lives[loser] -= 1
        record = {"loser": loser, "total": state.total}
        state.history = noted_deal(state.history, state.deal_number + 1, self.scores(state), before, **record)
        if state.options["lives"] == 1 or sum(1 for left in lives if left > 0) <= 1:
            state.over = True
            return NO_EVENTS
        # More lives and at least two seats still in: deal again, a deal with no
        # loser included. The deal passes to the next seat still in.
        n = state.players
        dealer = (state.dealer + 1) % n
        while not lives[dealer]:
            dealer = (dealer + 1) % n
        return self.deal_again(state, dealer)

    def scores(self, state: NinetyEightState) -> list[int]:
        """Return the scores: with one life 0, or -1 for the loser; otherwise lives left."""
        if state.options["lives"] == 1:
            return [left - 1 for left in state.lives]
        return list(state.lives)

    def view(self, state: NinetyEightState, seat: int | None) -> dict[str, Any]:
        """Return the table as ``seat`` sees it: its own hand, the pile and its total."""
        view: dict[str, Any] = {
            "phase": "over" if state.over else "play",
            "turn": None if state.over else state.turn,
            "hand_counts": [h.bit_count() for h in state.hands],
            "history": [dict(record) for record in state.history],
            "scores": self.scores(state),
            "dealer": state.dealer,
            "deal_number": state.deal_number + 1,
            "total": state.total,
            "pile": [CARD_NAMES[c] for c in state.pile],
            "stock_count": len(state.stock),
            "lives": list(state.lives),
            "deal_loser": state.deal_loser,
            "last_deal": None,
            "last": None,
        }
        view["limit"] = LIMIT
        view["effects"] = []
        if seat is not None:
            view["hand"] = names_in(state.hands[seat])
            if not state.over and seat == state.turn:
                # What each card in hand would do, so a page can warn before a losing play.
                for card in cards_in(state.hands[seat]):
                    after = total_after(state.total, card)
                    view["effects"].append({"card": CARD_NAMES[card], "total": after, "loses": after > LIMIT})
        if state.last is not None:
            view["last"] = {"seat": state.last[0], "move": PLAY_MOVES[state.last[1]]}
        if state.last_deal is not None:
            loser, total, card = state.last_deal
            view["last_deal"] = {"loser": loser, "total": total, "card": CARD_NAMES[card]}
        if state.over:
            view["result"] = self.result(state)
        return view

    def is_over(self, state: NinetyEightState) -> bool:
        """Return whether the game has ended."""
        return state.over

    def result(self, state: NinetyEightState) -> dict[str, Any] | None:
        """Return the scores and the seats sharing the best one, once over."""
        if not state.over:
            return None
        scores = self.scores(state)
        return {"scores": scores, "winners": self.info.winners(scores)}

    def to_json(self, state: NinetyEightState) -> dict[str, Any]:
        """Return the state as plain JSON (cards as strings, the stock top first)."""
        data = FIELDS.to_json(state)
        data["stock"] = [CARD_NAMES[c] for c in reversed(state.stock)]
        if state.last_deal is not None:
            loser, total, card = state.last_deal
            data["last_deal"] = [loser, total, CARD_NAMES[card]]
        return {"game": "ninety_eight", **data}

    def from_json(self, data: dict[str, Any]) -> NinetyEightState:
        """Rebuild a state from ``to_json``'s output."""
        state = NinetyEightState()
        FIELDS.from_json(state, {"history": [], **data})  # states saved before it
        state.stock = [CARD_INDEX[c] for c in reversed(data["stock"])]
        if data["last_deal"] is not None:
            loser, total, card = data["last_deal"]
            state.last_deal = [loser, total, CARD_INDEX[card]]
        return state

    def clone(self, state: NinetyEightState) -> NinetyEightState:
        """Return an independent copy (the declared lists copied; ints and records shared)."""
        return FIELDS.clone(state)

    def determinize(self, state: NinetyEightState, seat: int, rng: random.Random) -> NinetyEightState:
        """Deal every card ``seat`` has not seen (other hands, the stock) at random.

        Under what the plays showed: a hand holds none of the cards its seat
        passed over at its last play, except the card drawn since (``reading``).
        """
        copy = self.clone(state)
        deal_read(state, copy, seat, FULL_DECK_MASK & ~state.hands[seat] & ~mask_of(state.pile), rng)
        copy.seed = rng.getrandbits(32)  # later deals are unknown too
        return copy

    def deal_event(self, state: NinetyEightState) -> Event:
        """Return the current deal as laid out, for the simulation log."""
        return deal_record(state.dealer, state.dealt, state.stock[::-1])


GAME = NinetyEight()
