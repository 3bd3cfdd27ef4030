"""Hearts' rules (RULES.md "Hearts"), each from a hand-arranged deal where it matters."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.cards import CARD_NAMES, sort_names
from games.engine import GameOverError, IllegalMoveError, NotYourTurnError, OptionsError
from games.hearts import GAME
from games.hearts.state import HeartsState

FULL_DECK = frozenset(CARD_NAMES)
DECK = {3: FULL_DECK - {"2D"}, 4: FULL_DECK, 5: FULL_DECK - {"2D", "2C"}}

# A full four-handed deal: seat 2 has no clubs, seat 1 no spades, seat 3 no hearts.
LAYOUT = [
    "AC KC 2C 2D 3D 4D 5D 6D 2S 3S 4S 5S 6S",
    "3C 4C 7D 8D 9D TD 2H 3H 4H 5H 6H 7H 8H",
    "JD QD KD AD 9H TH JH QH KH AH QS KS AS",
    "5C 6C 7C 8C 9C TC JC QC 7S 8S 9S TS JS",
]


def cards(text: str) -> list[str]:
    """Return the cards of a space-separated list, in card order."""
    return sort_names(text.split())


def position(
    hands: list[str],
    leader: int,
    trick: str = "",
    tricks_done: int = 0,
    broken: bool = False,
    taken: list[int] | None = None,
    scores: list[int] | None = None,
    **options: Any,
) -> HeartsState:
    """Return a deal in its play with exactly these hands; every other card is out."""
    n = len(hands)
    data = GAME.to_json(GAME.new(n, {"passing": "none", **options}, seed=0))
    held = [c for hand in hands for c in hand.split()] + trick.split()
    assert len(held) == len(set(held)) and set(held) <= DECK[n]
    data.update(
        hands=[cards(h) for h in hands],
        dealt=[cards(h) for h in hands],
        leader=leader,
        turn=(leader + len(trick.split())) % n,
        trick=trick.split(),
        tricks_done=tricks_done,
        broken=broken,
        played=sort_names(DECK[n] - {c for hand in hands for c in hand.split()}),
        taken=taken or [0] * n,
        scores=scores or [0] * n,
    )
    return GAME.from_json(data)


def in_pass(hands: list[str], dealer: int = 0, **options: Any) -> HeartsState:
    """Return the first deal, still in its pass (to the left), with exactly these hands."""
    data = GAME.to_json(GAME.new(len(hands), {"passing": "rotate", **options}, seed=0))
    assert data["phase"] == "pass"
    data.update(hands=[cards(h) for h in hands], dealt=[cards(h) for h in hands], dealer=dealer)
    return GAME.from_json(data)


def plays(state: HeartsState, seat: int) -> list[str]:
    """Return the cards ``seat`` may play now, as the legal moves list them."""
    return [move["play"] for move in GAME.legal_moves(state, seat)]


def play(state: HeartsState, *played: str) -> list[Any]:
    """Play cards in turn order from the seat to act; return the events of the last."""
    events: list[Any] = []
    for card in played:
        (seat,) = GAME.to_act(state)
        events = list(GAME.apply(state, seat, {"play": card}))
    return events


def pass_cards(state: HeartsState, seat: int, text: str) -> None:
    """Make ``seat``'s pass of these cards."""
    GAME.apply(state, seat, {"pass": cards(text)})


def refused(state: HeartsState, seat: int, move: Any, error: type[Exception] = IllegalMoveError) -> str:
    """Assert ``move`` is refused and changes nothing; return the error message."""
    before = GAME.to_json(state)
    with pytest.raises(error) as caught:
        GAME.apply(state, seat, move)
    assert GAME.to_json(state) == before
    return str(caught.value)


def random_step(state: HeartsState, rng: random.Random) -> list[Any]:
    """Make one random legal move; return [seat, move, events]."""
    seat = GAME.to_act(state)[0]
    moves = GAME.legal_moves(state, seat)
    move = moves[rng.randrange(len(moves))]
    return [seat, move, list(GAME.apply(state, seat, move))]


# The deck, the deal, the options


@pytest.mark.parametrize(("players", "size"), [(3, 17), (4, 13), (5, 10)])
def test_the_deal_uses_the_deck_for_the_player_count(players: int, size: int) -> None:
    for seed in range(10):
        data = GAME.to_json(GAME.new(players, {}, seed))
        hands = data["hands"]
        assert [len(h) for h in hands] == [size] * players
        every = [c for h in hands for c in h]
        assert len(every) == len(set(every))
        assert set(every) == DECK[players]
        assert all(h == sort_names(h) for h in hands)


def test_options_defaults_and_the_cardstock_preset() -> None:
    state = GAME.new(None, None, 3)
    assert state.players == 4
    assert {k: state.options[k] for k in GAME.info.options} == {
        "passing": "rotate",
        "first_lead": "two_of_clubs",
        "first_trick_points": False,
        "moon": "add_to_others",
        "target": 100,
    }
    cardstock = GAME.new(4, {"preset": "cardstock"}, 3)
    assert {k: cardstock.options[k] for k in GAME.info.options} == {
        "passing": "none",
        "first_lead": "left_of_dealer",
        "first_trick_points": True,
        "moon": "subtract_self",
        "target": 100,
    }
    # No pass in cardstock: the seat after the dealer leads at once.
    assert GAME.view(cardstock, None)["phase"] == "play"
    assert GAME.to_act(cardstock) == [(cardstock.dealer + 1) % 4]


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (6, {}), (4, {"target": 75}), (4, {"moon": "none"}), (4, {"first_trick_points": "yes"})],
)
def test_bad_options_and_player_counts_are_refused(players: int, options: dict) -> None:
    with pytest.raises(OptionsError):
        GAME.new(players, options, 0)


# Following suit and winning tricks


def test_followers_must_follow_the_led_suit_and_the_highest_of_it_wins() -> None:
    hands = [LAYOUT[0].replace("2C ", ""), *LAYOUT[1:]]
    state = position(hands, leader=0, trick="2C")
    assert GAME.to_act(state) == [1]
    assert plays(state, 1) == ["3C", "4C"]
    assert "must follow suit" in refused(state, 1, {"play": "7D"})
    play(state, "4C", "KD", "QC")
    view = GAME.view(state, 0)
    # The king of diamonds is off suit: the queen of clubs takes the trick.
    assert view["last_trick"] == {
        "cards": [
            {"seat": 0, "card": "2C"},
            {"seat": 1, "card": "4C"},
            {"seat": 2, "card": "KD"},
            {"seat": 3, "card": "QC"},
        ],
        "winner": 3,
    }
    assert view["leader"] == 3 and GAME.to_act(state) == [3]
    assert view["trick"] == []


def test_a_seat_without_the_led_suit_may_play_any_card_after_the_first_trick() -> None:
    hands = [h.split(" ", 1)[1] for h in LAYOUT]  # one card each already out
    state = position(hands, leader=3, trick="", tricks_done=1, broken=False)
    play(state, "7S", "6S")
    # Seat 1 has no spades: hearts and all, anything goes.
    assert plays(state, 1) == cards(hands[1])


# The first trick and its points


def test_the_first_trick_takes_no_points_unless_you_hold_nothing_else() -> None:
    hands = [LAYOUT[0].replace("2C ", ""), *LAYOUT[1:]]
    state = position(hands, leader=0, trick="2C")
    play(state, "3C")
    # Seat 2 has no clubs: neither its hearts nor the queen of spades may go.
    assert plays(state, 2) == cards("AD JD QD KD AS KS")
    assert "first trick" in refused(state, 2, {"play": "QS"})
    assert "first trick" in refused(state, 2, {"play": "9H"})


def test_with_first_trick_points_true_a_void_seat_may_play_points_on_the_first_trick() -> None:
    hands = [LAYOUT[0].replace("2C ", ""), *LAYOUT[1:]]
    state = position(hands, leader=0, trick="2C", first_trick_points=True)
    play(state, "3C")
    assert plays(state, 2) == cards(LAYOUT[2])
    play(state, "QS")
    assert GAME.view(state, 0)["trick"][-1] == {"seat": 2, "card": "QS"}


def test_the_first_trick_exception_a_hand_of_only_points_plays_them() -> None:
    hands = [
        "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "AH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS",
        "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    ]
    state = position(hands, leader=0)
    assert plays(state, 0) == ["2C"]
    play(state, "2C")
    # Seat 1 holds spades besides its heart: the heart may not go.
    assert plays(state, 1) == cards(hands[1].replace("AH ", ""))
    play(state, "AS")
    # Seat 2 holds nothing but hearts and the queen: any of them may go.
    assert plays(state, 2) == cards(hands[2])
    play(state, "QS", "AD")
    # Only the two of clubs followed the lead: seat 0 takes the queen.
    assert GAME.view(state, 0)["points"] == [13, 0, 0, 0]


def test_following_with_the_queen_as_the_only_card_of_the_suit_is_allowed_on_the_first_trick() -> None:
    hands = [
        "2S 3S AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
        "QS AH 2H 3H AD 2D 3D 4D 5D 6D 7D 8D 9D",
        "4S 5S 6S 7S 8S 9S TS JS KS AS KC QC TD",
        "4H 5H 6H 7H 8H 9H TH JH QH KH JD QD KD",
    ]
    state = position(hands, leader=0, first_lead="left_of_dealer")
    play(state, "2S")
    assert plays(state, 1) == ["QS"]


def test_a_first_leader_of_only_hearts_and_the_queen_must_lead_the_queen() -> None:
    hands = [
        "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS",
        "AH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS",
        "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    ]
    state = position(hands, leader=1, first_lead="left_of_dealer")
    # No heart may be led before hearts are broken; the queen is all that is left.
    assert plays(state, 1) == ["QS"]
    assert "may not lead a heart" in refused(state, 1, {"play": "2H"})


# Hearts broken


def test_hearts_may_not_be_led_until_broken() -> None:
    hands = [h.split(" ", 1)[1] for h in LAYOUT]
    state = position(hands, leader=1, tricks_done=1)
    assert plays(state, 1) == cards("4C 7D 8D 9D TD")
    assert "may not lead a heart before hearts are broken" in refused(state, 1, {"play": "2H"})
    broken = position(hands, leader=1, tricks_done=1, broken=True)
    assert plays(broken, 1) == cards(hands[1])


def test_a_hand_of_only_hearts_may_lead_one_before_they_are_broken() -> None:
    hands = ["2D 3D 4D 5D 6D 2S", "2H 3H 7D 8D 9D TD", "9H TH JH QH KH AH", "7S 8S 9S TS JS 7C"]
    state = position(hands, leader=2, tricks_done=7)
    assert GAME.view(state, 2)["hearts_broken"] is False
    assert plays(state, 2) == cards(hands[2])
    play(state, "9H")
    assert GAME.view(state, 0)["hearts_broken"] is True


def test_a_heart_played_off_suit_breaks_hearts_and_the_queen_does_not() -> None:
    hands = [h.split(" ", 1)[1] for h in LAYOUT]
    state = position(hands, leader=3, tricks_done=1)
    play(state, "7S", "6S")
    play(state, "2H")  # seat 1 has no spades
    assert GAME.view(state, 0)["hearts_broken"] is True
    queen = position(hands, leader=0, tricks_done=1)
    play(queen, "KC", "4C", "QS")  # seat 2 has no clubs
    assert GAME.view(queen, 0)["hearts_broken"] is False
    play(queen, "6C")
    assert GAME.view(queen, 0)["points"] == [13, 0, 0, 0]


# Who leads the first trick


@pytest.mark.parametrize(("players", "lowest"), [(3, "2C"), (4, "2C"), (5, "3C")])
def test_the_lowest_club_in_play_leads_the_first_trick(players: int, lowest: str) -> None:
    order = sort_names(DECK[players])
    # Dealt round in card order, the lowest club in play lands with seat 1.
    hands = [" ".join(order[s::players]) for s in range(players)]
    assert lowest in hands[1].split()
    state = in_pass(hands)
    for seat in range(players):
        # Seat 1 passes the lowest club on to seat 2, which must then lead it.
        chosen = [lowest, *hands[1].split()[-2:]] if seat == 1 else hands[seat].split()[-3:]
        pass_cards(state, seat, " ".join(chosen))
    assert GAME.view(state, None)["phase"] == "play"
    assert GAME.to_act(state) == [2]
    assert plays(state, 2) == [lowest]
    assert f"led with {lowest}" in refused(state, 2, {"play": hands[2].split()[-4]})
    play(state, lowest)
    assert GAME.view(state, 0)["trick"] == [{"seat": 2, "card": lowest}]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_without_a_pass_the_holder_of_the_lowest_club_leads(players: int) -> None:
    for seed in range(6):
        state = GAME.new(players, {"passing": "none"}, seed)
        lowest = "3C" if players == 5 else "2C"
        (leader,) = GAME.to_act(state)
        assert lowest in GAME.view(state, leader)["hand"]
        assert plays(state, leader) == [lowest]


def test_left_of_dealer_leads_the_first_trick_any_card_allowed() -> None:
    hands = [LAYOUT[1], LAYOUT[2], LAYOUT[3], LAYOUT[0]]  # the 2C with seat 3
    state = in_pass(hands, dealer=1, first_lead="left_of_dealer")
    for seat in range(4):
        pass_cards(state, seat, " ".join(hands[seat].split()[:3]))
    # Seat 2 (after the dealer) leads though seat 3 may hold the two of clubs.
    assert GAME.to_act(state) == [2]
    hand = GAME.view(state, 2)["hand"]
    assert plays(state, 2) == [c for c in hand if c[1] != "H" and c != "QS"]
    for seed in range(4):
        fresh = GAME.new(4, {"first_lead": "left_of_dealer", "passing": "none"}, seed)
        assert GAME.to_act(fresh) == [(fresh.dealer + 1) % 4]


# The pass


def play_out_deal(state: HeartsState, rng: random.Random) -> list[Any]:
    """Make random moves until the next deal is dealt; return that move's events."""
    while True:
        _, _, events = random_step(state, rng)
        if events:
            return events


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (4, ["left", "right", "across", "none", "left"]),
        (3, ["left", "right", "none", "left"]),
        (5, ["left", "right", "none", "left"]),
    ],
)
def test_pass_directions_cycle_over_the_deals(players: int, expected: list[str]) -> None:
    offsets = {"left": 1, "right": players - 1, "across": 2}
    state = GAME.new(players, {"target": 100}, seed=4)
    rng = random.Random(1)
    seen = []
    for deal in range(len(expected)):
        view = GAME.view(state, None)
        assert view["deal_number"] == deal + 1
        seen.append(view["pass_direction"])
        if view["pass_direction"] == "none":
            assert view["phase"] == "play"
            assert GAME.view(state, 0)["passed"] is None
        else:
            assert view["phase"] == "pass"
            assert GAME.to_act(state) == list(range(players))
            assert len(GAME.legal_moves(state, 0)) == {3: 680, 4: 286, 5: 120}[players]
            while GAME.view(state, None)["phase"] == "pass":
                random_step(state, rng)
            offset = offsets[view["pass_direction"]]
            for seat in range(players):
                giver = (seat - offset) % players
                assert GAME.view(state, seat)["received"] == GAME.view(state, giver)["passed"]
        dealer = state.dealer
        if deal < len(expected) - 1:
            play_out_deal(state, rng)
            assert not GAME.is_over(state)
            assert state.dealer == (dealer + 1) % players
    assert seen == expected


def test_pass_moves_are_every_sorted_triple_in_card_order() -> None:
    state = in_pass(LAYOUT)
    moves = GAME.legal_moves(state, 0)
    triples = [m["pass"] for m in moves]
    assert len(triples) == len({tuple(t) for t in triples}) == 286
    assert all(t == sort_names(t) and set(t) <= set(LAYOUT[0].split()) for t in triples)
    index = {c: i for i, c in enumerate(CARD_NAMES)}
    assert [[index[c] for c in t] for t in triples] == sorted([index[c] for c in t] for t in triples)
    assert triples[0] == ["AC", "2C", "KC"]


def test_passes_are_hidden_from_others_and_exchanged_when_all_have_passed() -> None:
    state = in_pass(LAYOUT)
    pass_cards(state, 0, "AC KC 6S")
    passed = ["AC", "KC", "6S"]
    assert GAME.to_act(state) == [1, 2, 3]
    assert GAME.legal_moves(state, 0) == []
    for viewer in (1, 2, 3, None):
        view = GAME.view(state, viewer)
        assert view["last"] == {"seat": 0, "move": {"pass": 3}}
        text = json.dumps(view)
        assert not any(f'"{card}"' in text for card in passed)
    mine = GAME.view(state, 0)
    assert mine["last"] == {"seat": 0, "move": {"pass": passed}}
    assert mine["passed"] == passed and mine["received"] is None
    assert not set(passed) & set(mine["hand"])
    assert mine["hand_counts"] == [10, 13, 13, 13] and mine["passed_seats"] == [0]
    # Nothing changes hands until every seat has passed.
    pass_cards(state, 1, "2H 3H 4H")
    pass_cards(state, 2, "QS KS AS")
    assert GAME.view(state, 1)["hand"] == cards("3C 4C 7D 8D 9D TD 5H 6H 7H 8H")
    assert GAME.view(state, 1)["received"] is None
    pass_cards(state, 3, "7S 8S 9S")
    one = GAME.view(state, 1)
    assert one["phase"] == "play"
    assert one["received"] == passed and set(passed) <= set(one["hand"])
    assert one["passed"] == cards("2H 3H 4H")
    # Seat 2 sees what it passed and got, never what seat 0 passed to seat 1.
    two = GAME.view(state, 2)
    assert two["received"] == cards("2H 3H 4H") and two["passed"] == cards("QS KS AS")
    assert two["last"] == {"seat": 3, "move": {"pass": 3}}
    assert not any(f'"{card}"' in json.dumps(two) for card in passed)
    assert GAME.view(state, 3)["received"] == cards("QS KS AS")
    # Seat 0 kept the two of clubs, so it leads the first trick.
    assert GAME.to_act(state) == [0] and plays(state, 0) == ["2C"]


def test_a_seat_that_has_passed_may_not_pass_again_and_play_waits_for_the_pass() -> None:
    state = in_pass(LAYOUT)
    pass_cards(state, 0, "AC KC 6S")
    assert "passed already" in refused(state, 0, {"pass": cards("2D 3D 4D")}, NotYourTurnError)
    assert "pass" in refused(state, 1, {"play": "3C"})


# Scoring, the moon, the end


def last_trick(lead_card: str, taken: list[int], scores: list[int], **options: Any) -> HeartsState:
    """Return a deal at its last trick: seat 0 leads ``lead_card``; the others hold 2C, 2D, 2S."""
    hands = [lead_card, "2C", "2D", "2S"]
    return position(hands, leader=0, tricks_done=12, broken=True, taken=taken, scores=scores, **options)


def test_points_are_a_point_a_heart_and_13_for_the_queen() -> None:
    state = last_trick("AH", taken=[12, 13, 0, 0], scores=[1, 2, 3, 4])
    events = play(state, "AH", "2C", "2D", "2S")
    assert GAME.view(state, 0)["last_deal"] == {"points": [13, 13, 0, 0], "moon": None}
    assert GAME.view(state, 0)["scores"] == [14, 15, 3, 4]
    # A new deal: the deal event, fresh points, no cards played yet.
    assert len(events) == 1 and [len(h) for h in events[0]["deal"]["hands"]] == [13] * 4
    view = GAME.view(state, 0)
    assert view["points"] == [0, 0, 0, 0] and view["last"] is None and view["deal_number"] == 2
    assert view["hearts_broken"] is False


def test_shooting_the_moon_adds_26_to_the_others_by_default() -> None:
    state = last_trick("AH", taken=[25, 0, 0, 0], scores=[10, 20, 30, 40])
    play(state, "AH", "2C", "2D", "2S")
    view = GAME.view(state, 2)
    assert view["last_deal"] == {"points": [0, 26, 26, 26], "moon": 0}
    assert view["scores"] == [10, 46, 56, 66]
    assert GAME.moons(state) == [1, 0, 0, 0]  # the player's page counts it


def test_a_deal_without_a_shooter_counts_no_moon() -> None:
    state = last_trick("AH", taken=[12, 13, 0, 0], scores=[10, 20, 30, 40])
    assert GAME.moons(state) == [0, 0, 0, 0]
    play(state, "AH", "2C", "2D", "2S")
    assert GAME.moons(state) == [0, 0, 0, 0]


def test_shooting_the_moon_with_subtract_self_takes_26_off_the_shooter() -> None:
    state = last_trick("AH", taken=[25, 0, 0, 0], scores=[10, 20, 30, 40], moon="subtract_self")
    play(state, "AH", "2C", "2D", "2S")
    view = GAME.view(state, 2)
    assert view["last_deal"] == {"points": [-26, 0, 0, 0], "moon": 0}
    assert view["scores"] == [-16, 20, 30, 40]


def test_the_game_ends_after_a_deal_that_reaches_the_target_and_the_lowest_wins() -> None:
    state = last_trick("AH", taken=[12, 13, 0, 0], scores=[90, 60, 99, 55])
    assert play(state, "AH", "2C", "2D", "2S") == []
    assert GAME.is_over(state)
    assert GAME.result(state) == {"scores": [103, 73, 99, 55], "winners": [3]}
    view = GAME.view(state, 1)
    assert view["phase"] == "over" and view["result"] == GAME.result(state)
    assert GAME.to_act(state) == [] and GAME.legal_moves(state, 1) == []
    assert "over" in refused(state, 1, {"play": "2C"}, GameOverError)


def test_every_seat_tied_lowest_wins() -> None:
    state = last_trick("AH", taken=[12, 13, 0, 0], scores=[90, 47, 50, 60], target=50)
    play(state, "AH", "2C", "2D", "2S")
    assert GAME.result(state) == {"scores": [103, 60, 50, 60], "winners": [2]}
    tie = last_trick("AH", taken=[12, 13, 0, 0], scores=[90, 37, 50, 50], target=50)
    play(tie, "AH", "2C", "2D", "2S")
    assert GAME.result(tie) == {"scores": [103, 50, 50, 50], "winners": [1, 2, 3]}


def test_below_the_target_the_game_goes_on() -> None:
    state = last_trick("AH", taken=[12, 13, 0, 0], scores=[80, 60, 90, 55])
    dealer = state.dealer
    events = play(state, "AH", "2C", "2D", "2S")
    assert not GAME.is_over(state) and GAME.result(state) is None
    assert events == [GAME.deal_event(state)]
    assert events[0]["deal"]["dealer"] == (dealer + 1) % 4


# Bad moves


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"play": "ZZ"}, "not a card"),
        ({"play": 5}, "not a card"),
        ({"play": ["2C"]}, "not a card"),
        ({"play": "AH"}, "not in your hand"),
        ({}, "one key"),
        ({"play": "2C", "also": 1}, "one key"),
        ("2C", "one key"),
        ({"pass": ["AC", "2C", "3C"]}, 'a move in the play is {"play": CARD}'),
    ],
)
def test_malformed_and_illegal_plays_are_refused_with_a_reason(move: Any, words: str) -> None:
    state = position([LAYOUT[0].replace("2C ", ""), *LAYOUT[1:]], leader=0, trick="2C")
    assert words in refused(state, 1, move)


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"pass": ["AC", "KC"]}, "three cards"),
        ({"pass": "AC KC 2D"}, "three cards"),
        ({"pass": ["AC", "KC", "XX"]}, "not a card"),
        ({"pass": ["AC", "AC", "KC"]}, "three different cards"),
        ({"pass": ["AC", "2C", "AH"]}, "AH is not in your hand"),
        ({"pass": ["KC", "AC", "2C"]}, "card order: AC, 2C, KC"),
        ({"pass": 3}, "three cards"),
        ({"play": "AC"}, "choose three cards to pass"),
    ],
)
def test_malformed_and_illegal_passes_are_refused_with_a_reason(move: Any, words: str) -> None:
    state = in_pass(LAYOUT)
    assert words in refused(state, 0, move)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {}),
        (3, {"first_trick_points": True}),
        (5, {"first_lead": "left_of_dealer"}),
        (4, {"preset": "cardstock"}),
    ],
)
def test_apply_accepts_exactly_the_legal_moves(players: int, options: dict) -> None:
    # ``apply`` checks plays on the masks, not by looking in legal_moves: they must agree.
    rng = random.Random(players)
    state = GAME.new(players, options, seed=8)
    for _ in range(2 * (52 + players)):
        for seat in GAME.to_act(state):
            legal = GAME.legal_moves(state, seat)
            hand = GAME.view(state, seat)["hand"]
            candidates = [{"play": c} for c in CARD_NAMES]
            if len(hand) >= 3:
                candidates += [{"pass": sort_names(rng.sample(hand, 3))} for _ in range(20)]
                candidates += [{"pass": hand[:3][::-1]}, {"pass": [*hand[:2], "2D"]}]
            for move in candidates:
                copy = GAME.clone(state)
                try:
                    GAME.apply(copy, seat, move)
                    accepted = True
                except IllegalMoveError:
                    accepted = False
                assert accepted == (move in legal), (move, legal)
        random_step(state, rng)


def test_a_move_out_of_turn_is_refused() -> None:
    state = position([LAYOUT[0].replace("2C ", ""), *LAYOUT[1:]], leader=0, trick="2C")
    assert "not seat 2's turn" in refused(state, 2, {"play": "KD"}, NotYourTurnError)
    assert "no seat 7" in refused(in_pass(LAYOUT), 7, {"pass": cards("AC 2C KC")}, NotYourTurnError)


# JSON, determinization


def test_to_json_round_trip_mid_game_continues_the_same() -> None:
    for stop in (2, 70, 300):  # in the pass, in the play, some deals on
        state = GAME.new(4, {}, seed=11)
        rng = random.Random(5)
        for _ in range(stop):
            random_step(state, rng)
        data = json.loads(json.dumps(GAME.to_json(state)))
        copy = GAME.from_json(data)
        assert GAME.to_json(copy) == GAME.to_json(state)
        for seat in [None, 0, 1, 2, 3]:
            assert GAME.view(copy, seat) == GAME.view(state, seat)
        rng_a, rng_b = random.Random(9), random.Random(9)
        log_a, log_b = [], []
        while not GAME.is_over(state):
            log_a.append(random_step(state, rng_a))
            log_b.append(random_step(copy, rng_b))
        assert log_a == log_b
        assert GAME.to_json(copy) == GAME.to_json(state)


def test_clone_is_independent() -> None:
    state = GAME.new(4, {"passing": "none"}, seed=2)
    copy = GAME.clone(state)
    rng = random.Random(1)
    before = GAME.to_json(state)
    for _ in range(30):
        random_step(copy, rng)
    assert GAME.to_json(state) == before


def test_determinize_keeps_the_hand_the_voids_and_where_the_passed_cards_went() -> None:
    state = GAME.new(4, {}, seed=21)
    rng = random.Random(3)
    seat = 0
    voids: dict[int, set[str]] = {s: set() for s in range(4)}
    played: set[str] = set()
    led = None
    # Play until some seat has shown a void, well into the deal.
    while GAME.view(state, None)["phase"] == "pass" or state.tricks_done < 6 or not any(voids.values()):
        trick = GAME.view(state, None)["trick"]
        who, move, _ = random_step(state, rng)
        if "play" in move:
            led = trick[0]["card"][1] if trick else move["play"][1]
            if move["play"][1] != led:
                voids[who].add(led)
            played.add(move["play"])
    mine = GAME.view(state, seat)
    passed_held = set(mine["passed"]) - played  # seat 0 passed left, to seat 1
    assert mine["passed"]
    results = set()
    for sample in range(40):
        copy = GAME.determinize(state, seat, random.Random(sample))
        data = GAME.to_json(copy)
        assert data["hands"][seat] == mine["hand"]
        assert [len(h) for h in data["hands"]] == GAME.view(state, None)["hand_counts"]
        every = [c for h in data["hands"] for c in h] + data["played"]
        assert len(every) == len(set(every)) and set(every) == FULL_DECK
        assert set(data["played"]) == played
        for other, suits in voids.items():
            assert not any(c[1] in suits for c in data["hands"][other])
        assert passed_held <= set(data["hands"][1])
        # What seat 0 cannot know is not in the copy: passes between others, the deal.
        assert data["passed"][0] == mine["passed"] and data["received"][0] == mine["received"]
        assert data["passed"][2] == data["passed"][1] == [] and data["received"][2] == []
        assert data["dealt"] == data["hands"]
        assert GAME.to_json(GAME.from_json(json.loads(json.dumps(data)))) == data
        results.add(tuple(tuple(h) for h in data["hands"]))
    assert len(results) > 1  # the hidden cards really are dealt at random


def test_determinize_in_the_pass_keeps_the_seats_own_pass() -> None:
    state = in_pass(LAYOUT)
    pass_cards(state, 0, "AC KC 6S")
    pass_cards(state, 2, "QS KS AS")
    for sample in range(20):
        copy = GAME.determinize(state, 0, random.Random(sample))
        data = GAME.to_json(copy)
        assert data["hands"][0] == GAME.view(state, 0)["hand"]
        assert data["pending"][0] == ["AC", "KC", "6S"] and data["pending"][1] is None
        # Seat 2's real pass (the last move) does not survive into seat 0's copy.
        assert data["last"] == [2, {"pass": 3}]
        assert len(data["pending"][2]) == 3 and [len(h) for h in data["hands"]] == [10, 13, 10, 13]
        every = [c for h in data["hands"] for c in h] + data["pending"][0] + data["pending"][2]
        assert set(every) == FULL_DECK
        # The copy plays on: once all have passed, the cards change hands.
        pass_cards(copy, 1, " ".join(data["hands"][1][:3]))
        pass_cards(copy, 3, " ".join(data["hands"][3][:3]))
        assert GAME.view(copy, 1)["received"] == ["AC", "KC", "6S"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_determinize_before_the_first_lead_leaves_the_lowest_club_with_the_leader(players: int) -> None:
    # Everyone knows who must lead the lowest club; a copy that dealt it elsewhere
    # would let the leader play a card it does not hold.
    lowest = "3C" if players == 5 else "2C"
    hands = GAME.to_json(GAME.new(players, {"passing": "none"}, seed=4))["hands"]
    leader = next(s for s, hand in enumerate(hands) if lowest in hand)
    state = position([" ".join(h) for h in hands], leader)
    for seat in range(players):
        for sample in range(10):
            copy = GAME.determinize(state, seat, random.Random(sample))
            assert lowest in GAME.view(copy, leader)["hand"]
            assert GAME.to_act(copy) == [leader]
            GAME.apply(copy, leader, {"play": lowest})


# The view and the log


def test_the_view_carries_the_protocol_keys() -> None:
    state = GAME.new(4, {}, seed=5)
    view = GAME.view(state, 1)
    for key in (
        "phase",
        "turn",
        "hand",
        "hand_counts",
        "scores",
        "dealer",
        "last",
        "trick",
        "leader",
        "hearts_broken",
        "pass_direction",
        "passed",
        "received",
        "points",
        "last_deal",
    ):
        assert key in view
    assert view["phase"] == "pass" and view["turn"] is None and view["last"] is None
    assert view["last_deal"] is None and view["pass_direction"] == "left"
    spectator = GAME.view(state, None)
    assert "hand" not in spectator and "passed" not in spectator
    for seat in range(3):
        GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    assert GAME.view(state, None)["turn"] == 3  # one seat left to pass


def test_simulated_games_end_with_a_seat_at_the_target_and_a_deal_event_per_deal() -> None:
    for players, options in [(3, {}), (4, {"target": 50}), (5, {"preset": "cardstock"})]:
        state = GAME.new(players, options, seed=players)
        rng = random.Random(players)
        deals = 1
        while not GAME.is_over(state):
            _, _, events = random_step(state, rng)
            deals += len(events)
        assert deals == state.deal_number + 1
        result = GAME.result(state)
        assert max(result["scores"]) >= state.target
        assert result["winners"] == [s for s, v in enumerate(result["scores"]) if v == min(result["scores"])]
