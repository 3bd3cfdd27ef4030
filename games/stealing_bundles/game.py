"""Stealing Bundles: match a rank to take pool cards and steal whole bundles.

RULES.md, "Stealing Bundles"; the choices it leaves open are in docs/rules.md.
Hands and the pool are card bitmasks (taking a rank from the pool is one AND);
bundles are lists with the top card last, since their order is what is stolen.
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
    redeal_unseen,
)
from games.stealing_bundles import guide

DECK = tuple(make_deck())
HAND_SIZE = 4
POOL_SIZE = 4
# For each rank, the mask of its four cards.
RANK_MASKS = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))


class StealingBundlesState:
    """One game of Stealing Bundles: hands and pool are bitmasks, bundles lists (top last)."""

    __slots__ = (
        "history",
        "players",
        "options",
        "seed",
        "dealer",
        "round",
        "hands",
        "dealt",
        "dealt_pool",
        "stock",
        "pool",
        "bundles",
        "turn",
        "over",
        "last",
        "last_capturer",
        "last_take",
    )

    players: int
    options: dict[str, Any]
    seed: int
    dealer: int
    round: int  # how many times four cards each have been dealt, less one
    hands: list[int]
    dealt: list[int]  # the hands as dealt this round, for the log
    dealt_pool: list[int]  # the pool as dealt this round (empty after the first)
    stock: list[int]  # undealt cards, top first
    pool: int
    bundles: list[list[int]]  # per seat, bottom first, top last
    turn: int
    over: bool
    last: list | None  # [seat, card] of the last play this round
    last_capturer: int | None  # the last seat that took anything
    last_take: list | None  # [seat, card, stolen seats, pool mask taken] of the last play
    history: list[dict[str, Any]]  # one record per finished deal (deals.noted_deal), never mutated


# ``bundles`` (card lists per seat) and ``last_take`` are converted by hand.
FIELDS = CardFields(
    StealingBundlesState.__slots__,
    masks=("pool",),
    mask_lists=("hands", "dealt"),
    card_lists=("dealt_pool", "stock"),
    seat_cards=("last",),
    nested=("bundles",),
)


class StealingBundles(OneSeatGame):
    """The Stealing Bundles rules behind the game contract."""

    info = GameInfo(
        id="stealing_bundles",
        name="Stealing Bundles",
        min_players=2,
        max_players=4,
        default_players=4,
        options={
            "leftovers": Option(
                "last_capturer",
                ("last_capturer", "stay"),
                "Where the cards still in the pool go when the game ends.",
                {
                    "last_capturer": "Onto the bundle of the last player who took anything, "
                    "counting for them.",
                    "stay": "They stay in the pool and count for nobody.",
                },
                label="Pool at the end",
                choice_labels={"last_capturer": "To the last taker", "stay": "Stays in the pool"},
            )
        },
        presets={"cardstock": {"leftovers": "stay"}},
        goal=guide.GOAL,
        how_to_play=guide.HOW_TO_PLAY,
        glossary=guide.GLOSSARY,
        preset_help={
            "cardstock": cardstock_help(
                "the cards left in the pool at the end stay there and count for nobody."
            )
        },
    )

    def _new(self, players: int, options: dict[str, Any], seed: int) -> StealingBundlesState:
        state = self.start_state(StealingBundlesState(), players, options, seed)
        state.over = False
        state.round = 0
        state.history = []
        state.bundles = [[] for _ in range(players)]
        state.last_capturer = None
        state.last_take = None
        state.stock = shuffled(list(DECK), seed, 0)
        self._deal_hands(state)
        # The pool is laid out after the hands, face up.
        pool = state.stock[:POOL_SIZE]
        state.stock = state.stock[POOL_SIZE:]
        state.pool = mask_of(pool)
        state.dealt_pool = pool
        return state

    def _deal_hands(self, state: StealingBundlesState) -> None:
        """Deal four to each seat from the stock, one at a time from the seat after the dealer."""
        n = state.players
        stock = state.stock
        count = min(HAND_SIZE * n, len(stock))
        hands = deal_round(stock, count, deal_order(state.dealer, n), n)
        state.hands = hands
        state.dealt = list(hands)
        state.dealt_pool = []
        state.stock = stock[count:]
        state.turn = (state.dealer + 1) % n
        state.last = None

    def advance(self, state: StealingBundlesState, seat: int, move: Move) -> tuple[Event, ...] | list[Event]:
        """Play a card known to be legal: steal, take from the pool, or add to it."""
        card = CARD_INDEX[move["play"]]
        rank = card % 13
        hands = state.hands
        hands[seat] ^= 1 << card
        bundles = state.bundles
        mine = bundles[seat]
        n = state.players
        stolen = 0
        for i in range(1, n):
            other = (seat + i) % n
            bundle = bundles[other]
            if bundle and bundle[-1] % 13 == rank:
                mine.extend(bundle)
                bundles[other] = []
                stolen |= 1 << other
        taken = state.pool & RANK_MASKS[rank]
        if taken:
            mine.extend(cards_in(taken))
            state.pool ^= taken
        if stolen or taken:
            mine.append(card)
            state.last_capturer = seat
        else:
            state.pool |= 1 << card
        state.last = [seat, card]
        state.last_take = [seat, card, stolen, taken]
        nxt = (seat + 1) % n
        if hands[nxt]:
            state.turn = nxt
            return NO_EVENTS
        for i in range(2, n + 1):  # hands are even; this only matters if a re-deal ran short
            if hands[(seat + i) % n]:
                state.turn = (seat + i) % n
                return NO_EVENTS
        if state.stock:
            state.history = noted_deal(state.history, state.round + 1, [len(b) for b in bundles])
            state.round += 1
            self._deal_hands(state)
            return [self.deal_event(state)]
        state.over = True
        if state.options["leftovers"] == "last_capturer" and state.last_capturer is not None:
            bundles[state.last_capturer].extend(cards_in(state.pool))
            state.pool = 0
        state.history = noted_deal(state.history, state.round + 1, [len(b) for b in bundles])
        return NO_EVENTS

    def view(self, state: StealingBundlesState, seat: int | None) -> dict[str, Any]:
        """Return the table as ``seat`` sees it: its hand, the pool, every bundle's top and size."""
        n = state.players
        view: dict[str, Any] = {
            "phase": "over" if state.over else "play",
            "turn": None if state.over else state.turn,
            "hand_counts": [h.bit_count() for h in state.hands],
            "history": [dict(record) for record in state.history],
            "scores": [len(b) for b in state.bundles],
            "dealer": state.dealer,
            "round": state.round + 1,
            "pool": names_in(state.pool),
            "bundles": [{"top": CARD_NAMES[b[-1]] if b else None, "size": len(b)} for b in state.bundles],
            "stock_count": len(state.stock),
            "last_capturer": state.last_capturer,
            "last_take": None,
            "last": None,
        }
        if seat is not None:
            view["hand"] = names_in(state.hands[seat])
        if state.last is not None:
            view["last"] = {"seat": state.last[0], "move": PLAY_MOVES[state.last[1]]}
        if state.last_take is not None:
            who, card, stolen, taken = state.last_take
            # The seats stolen from, in the order taken: play order from the seat after ``who``.
            order = [(who + i) % n for i in range(1, n)]
            view["last_take"] = {
                "seat": who,
                "card": CARD_NAMES[card],
                "stole": [s for s in order if stolen >> s & 1],
                "pool": names_in(taken),
            }
        if state.over:
            view["result"] = self.result(state)
        return view

    def is_over(self, state: StealingBundlesState) -> bool:
        """Return whether every card has been played."""
        return state.over

    def result(self, state: StealingBundlesState) -> dict[str, Any] | None:
        """Return the bundle sizes and the seats with the largest, once over."""
        if not state.over:
            return None
        scores = [len(b) for b in state.bundles]
        return {"scores": scores, "winners": self.info.winners(scores)}

    def to_json(self, state: StealingBundlesState) -> dict[str, Any]:
        """Return the state as plain JSON (cards as strings; bundles bottom first)."""
        data = FIELDS.to_json(state)
        data["bundles"] = [[CARD_NAMES[c] for c in b] for b in state.bundles]
        if state.last_take is not None:
            who, card, stolen, taken = state.last_take
            data["last_take"] = [who, CARD_NAMES[card], stolen, names_in(taken)]
        return {"game": "stealing_bundles", **data}

    def from_json(self, data: dict[str, Any]) -> StealingBundlesState:
        """Rebuild a state from ``to_json``'s output."""
        state = StealingBundlesState()
        FIELDS.from_json(state, {"history": [], **data})  # states saved before it
        state.bundles = [[CARD_INDEX[c] for c in b] for b in data["bundles"]]
        if data["last_take"] is not None:
            who, card, stolen, taken = data["last_take"]
            state.last_take = [who, CARD_INDEX[card], stolen, mask_of(CARD_INDEX[c] for c in taken)]
        return state

    def clone(self, state: StealingBundlesState) -> StealingBundlesState:
        """Return an independent copy (the declared lists copied; ints and records shared)."""
        return FIELDS.clone(state)

    def determinize(self, state: StealingBundlesState, seat: int, rng: random.Random) -> StealingBundlesState:
        """Deal every card ``seat`` has not seen (other hands, the stock) at random.

        The pool and every bundle are public and stay as they are.
        """
        copy = self.clone(state)
        seen = state.hands[seat] | state.pool
        for bundle in state.bundles:
            seen |= mask_of(bundle)
        unseen = cards_in(FULL_DECK_MASK & ~seen)
        redeal_unseen(copy, seat, unseen, rng)
        return copy

    def deal_event(self, state: StealingBundlesState) -> Event:
        """Return the current round as dealt: the hands, the stock left, the pool laid out."""
        return deal_record(state.dealer, state.dealt, state.stock, pool=state.dealt_pool)


GAME = StealingBundles()
