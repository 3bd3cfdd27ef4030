"""Hearts: pass three cards, then avoid taking hearts and the queen of spades.

RULES.md, "Hearts"; the choices it left open are in docs/rules.md. Hands are card
bitmasks and the legal plays are one mask computed by ``_legal_mask``, shared by
``legal_moves`` and the checked ``apply``, so a random playout costs a few integer
operations a card. The pass is simultaneous: every seat that has not passed acts.
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
    GameInfo,
    GameOverError,
    IllegalMoveError,
    Move,
    NotYourTurnError,
    Option,
    cardstock_help,
    deal_record,
    noted_deal,
)
from games.hearts import guide
from games.hearts.state import (
    DECKS,
    DIRECTIONS,
    HEARTS_MASK,
    LOWEST_CLUB,
    MOON,
    OVER,
    PASS,
    PLAY,
    POINT_CARDS,
    POINTS,
    QUEEN_OF_SPADES,
    HeartsState,
    clone_state,
    determinize_state,
    direction_name,
    state_from_json,
    state_to_json,
)
from games.tricks import follow_mask, follow_moves, must_follow, trick_view, trick_winner


class Hearts(Game):
    """The Hearts rules behind the game contract."""

    info = GameInfo(
        id="hearts",
        name="Hearts",
        min_players=3,
        max_players=5,
        default_players=4,
        options={
            "passing": Option(
                "rotate",
                ("rotate", "none"),
                "Whether everyone passes three cards before the play of a deal.",
                {
                    "rotate": "With 4 players pass left, right, across, then no pass, and round again; "
                    "with 3 or 5 players left, right, then no pass.",
                    "none": "Nobody ever passes.",
                },
                label="Passing",
                choice_labels={"rotate": "Rotating", "none": "No passing"},
            ),
            "first_lead": Option(
                "two_of_clubs",
                ("two_of_clubs", "left_of_dealer"),
                "Who leads the first trick of a deal.",
                {
                    "two_of_clubs": "Whoever holds the lowest club in play (the 2, or the 3 with 5 players) "
                    "must lead it.",
                    "left_of_dealer": "The player after the dealer leads any card the usual rules allow.",
                },
                label="First lead",
                choice_labels={
                    "two_of_clubs": "Lowest club leads",
                    "left_of_dealer": "Left of the dealer leads",
                },
            ),
            "first_trick_points": Option(
                False,
                (False, True),
                "Whether hearts and the queen of spades may be played to the first trick.",
                {
                    "false": "Not while you have anything else you may play.",
                    "true": "Yes, as on any other trick.",
                },
                label="Points on first trick",
            ),
            "moon": Option(
                "add_to_others",
                ("add_to_others", "subtract_self"),
                "How a deal scores when one player takes all 26 points (shoots the moon).",
                {
                    "add_to_others": "Every other player scores 26 and the shooter 0.",
                    "subtract_self": "The shooter scores -26 and the others 0.",
                },
                label="Shooting the moon",
                choice_labels={
                    "add_to_others": "Others get 26",
                    "subtract_self": "Shooter gets minus 26",
                },
            ),
            "target": Option(
                100,
                (50, 100),
                (
                    "The score that ends the game: after the deal in which someone reaches "
                    "it, the lowest score wins."
                ),
                label="Play to",
            ),
        },
        presets={
            "cardstock": {
                "passing": "none",
                "first_lead": "left_of_dealer",
                "first_trick_points": True,
                "moon": "subtract_self",
                "target": 100,
            }
        },
        low_score_wins=True,
        goal=guide.GOAL,
        how_to_play=guide.HOW_TO_PLAY,
        glossary=guide.GLOSSARY,
        tips=guide.TIPS,
        preset_help={
            "cardstock": cardstock_help(
                "no passing, the player after the dealer leads first, points may be played to the "
                "first trick, shooting the moon scores -26 for the shooter, and the game goes to 100."
            )
        },
    )

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

    def _legal_mask(self, state: HeartsState, hand: int) -> int:
        """Return the cards of ``hand`` its holder may play to the trick now."""
        trick = state.trick
        if trick:
            legal = follow_mask(hand, trick[0] // 13)
        elif state.tricks_done == 0 and state.options["first_lead"] == "two_of_clubs":
            return 1 << LOWEST_CLUB[state.players]
        elif state.broken:
            legal = hand
        else:
            legal = hand & ~HEARTS_MASK or hand
        if state.tricks_done == 0 and not state.options["first_trick_points"]:
            # No points on the first trick unless nothing else may be played.
            return legal & ~POINT_CARDS or legal
        return legal

    def legal_moves(self, state: HeartsState, seat: int) -> list[Move]:
        """Return ``seat``'s moves: every sorted triple in the pass, the allowed plays after."""
        if state.phase == PLAY:
            if seat != state.turn:
                return []
            trick = state.trick
            if trick and state.tricks_done:
                # The common case, past the first trick: follow suit if you can.
                return follow_moves(state.hands[seat], trick[0] // 13)
            return play_moves(self._legal_mask(state, state.hands[seat]))
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
                legal = self._legal_mask(state, hand)
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
                    elif self._legal_mask(state, hand) >> card & 1:
                        return
        else:
            if type(seat) is not int or not 0 <= seat < state.players:
                raise NotYourTurnError(f"there is no seat {seat!r} to pass")
            if state.pending[seat] is not None:
                raise NotYourTurnError(f"it is not seat {seat}'s turn: it has passed already")
            if isinstance(move, dict) and len(move) == 1 and self._pass_mask(state, seat, move) is not None:
                return
        if not isinstance(move, dict) or len(move) != 1:
            raise IllegalMoveError('a move is a JSON object with one key, such as {"play": "QS"}')
        raise IllegalMoveError(self.why_illegal(state, seat, move))

    def _pass_mask(self, state: HeartsState, seat: int, move: Move) -> int | None:
        """Return the mask of a well-formed pass of cards in ``seat``'s hand, else None."""
        cards = move.get("pass")
        if not isinstance(cards, list) or len(cards) != 3:
            return None
        a, b, c = (CARD_INDEX.get(name) if isinstance(name, str) else None for name in cards)
        if a is None or b is None or c is None or not a < b < c:
            return None
        mask = 1 << a | 1 << b | 1 << c
        return mask if state.hands[seat] & mask == mask else None

    def why_illegal(self, state: HeartsState, seat: int, move: Move) -> str:
        """Name the rule a refused move breaks."""
        if state.phase == PASS:
            return self._why_bad_pass(state, seat, move)
        if "play" not in move:
            return f'a move in the play is {{"play": CARD}}, not {move}'
        name = move["play"]
        card = CARD_INDEX.get(name) if isinstance(name, str) else None
        if card is None:
            return f"{name!r} is not a card (expected e.g. 'QS', 'TD', '2C')"
        hand = state.hands[seat]
        if not hand >> card & 1:
            return f"{CARD_NAMES[card]} is not in your hand"
        trick = state.trick
        refused = must_follow(hand, trick, card)
        if refused:
            return refused
        if not trick and state.tricks_done == 0 and state.options["first_lead"] == "two_of_clubs":
            return f"the first trick is led with {CARD_NAMES[LOWEST_CLUB[state.players]]}"
        if not trick and card // 13 == HEARTS and not state.broken and hand & ~HEARTS_MASK:
            return "you may not lead a heart before hearts are broken"
        return "no heart and no queen of spades on the first trick while you may play something else"

    def _why_bad_pass(self, state: HeartsState, seat: int, move: Move) -> str:
        cards = move.get("pass")
        if "play" in move:
            return "this is the pass: choose three cards to pass, not a card to play"
        if not isinstance(cards, list) or len(cards) != 3:
            return f'a pass is {{"pass": [three cards]}}, not {move}'
        indexes = []
        for name in cards:
            if not isinstance(name, str) or name not in CARD_INDEX:
                return f"{name!r} is not a card (expected e.g. 'QS', 'TD', '2C')"
            indexes.append(CARD_INDEX[name])
        if len(set(indexes)) != 3:
            return "pass three different cards"
        for card in indexes:
            if not state.hands[seat] >> card & 1:
                return f"{CARD_NAMES[card]} is not in your hand"
        return "list the passed cards in card order: " + ", ".join(CARD_NAMES[c] for c in sorted(indexes))

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
        cards = move.get("pass")
        if not isinstance(cards, list) or viewer == mover:
            return move
        receiver = (mover + state.direction) % state.players
        if viewer == receiver and state.received[viewer]:
            return move
        return {"pass": len(cards)}

    def view(self, state: HeartsState, seat: int | None) -> dict[str, Any]:
        """Return the table as ``seat`` sees it: its own hand and passes, the trick, the scores."""
        n = state.players
        acting = self.to_act(state)
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
            view["result"] = self.result(state)
        return view

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
