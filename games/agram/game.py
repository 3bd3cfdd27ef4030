"""Agram: six tricks from a 35-card deck; whoever wins the sixth trick wins the deal.

RULES.md, "Agram". The state keeps hands as card bitmasks and the trick as a list
of card indexes, so a random playout is a few dozen integer operations a move.
"""

from __future__ import annotations

import random
from typing import Any

from games.agram import guide
from games.cards import (
    CARD_INDEX,
    CARD_NAMES,
    PLAY_MOVES,
    SUIT_MASKS,
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
    played_card,
    redeal_unseen,
)
from games.tricks import follow_moves, must_follow, trick_view, trick_winner

DECK = tuple(make_deck(exclude=[r + s for s in "CDHS" for r in "2JQK"] + ["AS"]))
DECK_MASK = mask_of(DECK)
TRICKS_PER_DEAL = 6


class AgramState:
    """One game of Agram. Hands and ``played`` are bitmasks; ``trick`` is in play order."""

    __slots__ = (
        "history",
        "players",
        "options",
        "seed",
        "target",
        "deal_number",
        "dealer",
        "hands",
        "trick",
        "leader",
        "turn",
        "tricks_done",
        "scores",
        "over",
        "last",
        "last_trick",
        "deal_winner",
        "voids",
        "played",
        "dealt",
        "stock",
    )

    players: int
    options: dict[str, Any]
    seed: int
    target: int
    deal_number: int
    dealer: int
    hands: list[int]
    trick: list[int]
    leader: int
    turn: int
    tricks_done: int
    scores: list[int]
    over: bool
    last: list | None  # [seat, card] of the last play this deal
    last_trick: list | None  # [leader, cards, winner] of the trick just taken
    deal_winner: int | None  # who won the previous deal
    voids: list[int]  # per seat, a mask of the suits it has shown it lacks
    played: int  # every card played this deal
    dealt: list[int]  # the hands as dealt, for the log
    stock: list[int]  # the undealt cards, top first
    history: list[dict[str, Any]]  # one record per finished deal (deals.noted_deal), never mutated


# ``last_trick`` ([leader, cards, winner]) is converted by hand.
FIELDS = CardFields(
    AgramState.__slots__,
    masks=("played",),
    mask_lists=("hands", "dealt"),
    card_lists=("trick", "stock"),
    seat_cards=("last",),
    copied=("scores", "voids"),
)


class Agram(OneSeatGame):
    """The Agram rules behind the game contract."""

    info = GameInfo(
        id="agram",
        name="Agram",
        min_players=2,
        max_players=5,
        default_players=4,
        options={
            "target": Option(
                1,
                (1, 3, 5, 7),
                "How many deals a player must win to win the game.",
                {"1": "A single deal decides the game."},
                label="Deals to win",
            )
        },
        presets={"cardstock": {"target": 1}},
        goal=guide.GOAL,
        how_to_play=guide.HOW_TO_PLAY,
        glossary=guide.GLOSSARY,
        preset_help={"cardstock": cardstock_help("a single deal decides the game (target 1).")},
    )

    def _new(self, players: int, options: dict[str, Any], seed: int) -> AgramState:
        state = self.start_state(AgramState(), players, options, seed)
        state.target = options["target"]
        state.scores = [0] * players
        state.history = []
        state.over = False
        state.deal_winner = None
        state.last_trick = None
        state.deal_number = 0
        self._deal(state)
        return state

    def _deal(self, state: AgramState) -> None:
        stock = shuffled(list(DECK), state.seed, state.deal_number)
        n = state.players
        # One card at a time round the table from the seat after the dealer.
        hands = deal_round(stock, TRICKS_PER_DEAL * n, deal_order(state.dealer, n), n)
        state.hands = hands
        state.dealt = list(hands)
        state.stock = stock[TRICKS_PER_DEAL * n :]
        state.trick = []
        state.leader = state.turn = (state.dealer + 1) % n
        state.tricks_done = 0
        # ``last_trick`` stays: the view shows how the last deal ended after the next is dealt.
        state.last = None
        state.voids = [0] * n
        state.played = 0

    def legal_moves(self, state: AgramState, seat: int) -> list[Move]:
        """Return the plays open to ``seat``: follow the led suit if you can."""
        if state.over or seat != state.turn:
            return []
        led = state.trick[0] // 13 if state.trick else None
        return follow_moves(state.hands[seat], led)

    def why_illegal(self, state: AgramState, seat: int, move: Move) -> str:
        """Name the rule a refused play breaks."""
        card = played_card(move)
        if card is None:
            return f'a move in Agram is {{"play": CARD}}, not {move}'
        hand = state.hands[seat]
        if hand >> card & 1:
            return must_follow(hand, state.trick, card) or super().why_illegal(state, seat, move)
        return super().why_illegal(state, seat, move)

    def advance(self, state: AgramState, seat: int, move: Move) -> tuple[Event, ...] | list[Event]:
        """Play a card known to be legal; settle the trick, the deal and the game."""
        card = CARD_INDEX[move["play"]]
        bit = 1 << card
        state.hands[seat] ^= bit
        state.played |= bit
        trick = state.trick
        if trick and card // 13 != trick[0] // 13:
            state.voids[seat] |= SUIT_MASKS[trick[0] // 13]
        trick.append(card)
        state.last = [seat, card]
        n = state.players
        if len(trick) < n:
            state.turn = (seat + 1) % n
            return NO_EVENTS
        winner = trick_winner(trick, state.leader, n)
        state.last_trick = [state.leader, trick, winner]
        state.trick = []
        state.leader = state.turn = winner
        state.tricks_done += 1
        if state.tricks_done < TRICKS_PER_DEAL:
            return NO_EVENTS
        state.scores[winner] += 1
        state.deal_winner = winner
        state.history = noted_deal(state.history, state.deal_number + 1, state.scores, winner=winner)
        if state.scores[winner] >= state.target:
            state.over = True
            return NO_EVENTS
        return self.deal_again(state)

    def view(self, state: AgramState, seat: int | None) -> dict[str, Any]:
        """Return the table as ``seat`` sees it: its own hand, the trick, the scores."""
        n = state.players
        view: dict[str, Any] = {
            "phase": "over" if state.over else "play",
            "turn": None if state.over else state.turn,
            "hand_counts": [h.bit_count() for h in state.hands],
            "history": [dict(record) for record in state.history],
            "scores": list(state.scores),
            "dealer": state.dealer,
            "deal_number": state.deal_number + 1,
            "target": state.target,
            "trick": trick_view(state.trick, state.leader, n),
            "leader": state.leader,
            "tricks_played": state.tricks_done,
            "last_trick": None,
            "deal_winner": state.deal_winner,
            "last": None,
        }
        if seat is not None:
            view["hand"] = names_in(state.hands[seat])
        if state.last is not None:
            view["last"] = {"seat": state.last[0], "move": PLAY_MOVES[state.last[1]]}
        if state.last_trick is not None:
            leader, cards, winner = state.last_trick
            view["last_trick"] = {"cards": trick_view(cards, leader, n), "winner": winner}
        if state.over:
            view["result"] = self.result(state)
        return view

    def is_over(self, state: AgramState) -> bool:
        """Return whether a seat has reached the target."""
        return state.over

    def result(self, state: AgramState) -> dict[str, Any] | None:
        """Return the deals won per seat and the winners, once over."""
        if not state.over:
            return None
        return {"scores": list(state.scores), "winners": self.info.winners(state.scores)}

    def to_json(self, state: AgramState) -> dict[str, Any]:
        """Return the state as plain JSON (cards as strings)."""
        data = FIELDS.to_json(state)
        if state.last_trick is not None:
            leader, cards, winner = state.last_trick
            data["last_trick"] = [leader, [CARD_NAMES[c] for c in cards], winner]
        return {"game": "agram", **data}

    def from_json(self, data: dict[str, Any]) -> AgramState:
        """Rebuild a state from ``to_json``'s output."""
        state = AgramState()
        FIELDS.from_json(state, {"history": [], **data})  # states saved before it
        if data["last_trick"] is not None:
            leader, cards, winner = data["last_trick"]
            state.last_trick = [leader, [CARD_INDEX[c] for c in cards], winner]
        return state

    def clone(self, state: AgramState) -> AgramState:
        """Return an independent copy (the declared lists copied; ints and records shared)."""
        return FIELDS.clone(state)

    def determinize(self, state: AgramState, seat: int, rng: random.Random) -> AgramState:
        """Deal every card ``seat`` has not seen at random, respecting the voids it saw."""
        copy = self.clone(state)
        unseen = cards_in(DECK_MASK & ~state.played & ~state.hands[seat])
        redeal_unseen(copy, seat, unseen, rng, voids=state.voids)
        copy.seed = rng.getrandbits(32)  # later deals are unknown too
        return copy

    def deal_event(self, state: AgramState) -> Event:
        """Return the current deal as laid out, for the simulation log."""
        return deal_record(state.dealer, state.dealt, state.stock)


GAME = Agram()
