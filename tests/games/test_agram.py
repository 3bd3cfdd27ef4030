"""Agram's rules (RULES.md "Agram"), each from a hand-arranged deal where it matters."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.agram import GAME, AgramState
from games.cards import CARD_NAMES, sort_names
from games.engine import GameError, GameOverError, IllegalMoveError, NotYourTurnError, OptionsError
from games.tricks import ace_high, follow_moves, trick_winner
from tests.support.cards import laid_out, play_cards

AGRAM_DECK = {r + s for s in "CDHS" for r in "A3456789T"} - {"AS"}


def arranged(hands: list[list[str]], dealer: int = 0, target: int = 1) -> AgramState:
    """Return a game whose current deal has exactly these hands (the rest in the stock)."""
    players = len(hands)
    held = [card for hand in hands for card in hand]
    assert len(held) == len(set(held)) and set(held) <= AGRAM_DECK
    return laid_out(
        GAME,
        players,
        {"target": target},
        hands=[sort_names(h) for h in hands],
        dealt=[sort_names(h) for h in hands],
        stock=sort_names(AGRAM_DECK - set(held)),
        dealer=dealer,
        leader=(dealer + 1) % players,
        turn=(dealer + 1) % players,
    )


def play(state: AgramState, *cards: str) -> list[Any]:
    """Play ``cards`` in turn order from the seat to act; return the events of the last."""
    return play_cards(GAME, state, *cards)


# The deck and the deal


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal_is_six_cards_each_from_a_35_card_deck_without_the_ace_of_spades(players: int) -> None:
    for seed in range(20):
        state = GAME.new(players, {}, seed)
        data = GAME.to_json(state)
        hands = data["hands"]
        assert [len(h) for h in hands] == [6] * players
        assert len(data["stock"]) == 35 - 6 * players
        every = [c for h in hands for c in h] + data["stock"]
        assert len(every) == len(set(every)) == 35
        assert set(every) == AGRAM_DECK
        assert all(h == sort_names(h) for h in hands)


def test_the_first_dealer_comes_from_the_seed_and_the_next_seat_leads() -> None:
    dealers = set()
    for seed in range(40):
        state = GAME.new(4, {}, seed)
        dealer = GAME.view(state, None)["dealer"]
        dealers.add(dealer)
        assert GAME.to_act(state) == [(dealer + 1) % 4]
        assert GAME.new(4, {}, seed).dealer == dealer
    assert dealers == {0, 1, 2, 3}


def test_the_first_leader_may_lead_any_card() -> None:
    state = arranged([["AC", "3D", "9H", "TS", "5C", "6D"], ["4C", "5D", "6H", "7S", "8C", "9D"]], dealer=1)
    assert GAME.to_act(state) == [0]
    assert GAME.legal_moves(state, 0) == [
        {"play": c} for c in sort_names(["AC", "3D", "9H", "TS", "5C", "6D"])
    ]


def test_the_deal_event_lays_out_dealer_hands_and_stock() -> None:
    state = GAME.new(3, {}, seed=5)
    event = GAME.deal_event(state)
    assert set(event) == {"deal"}
    deal = event["deal"]
    assert set(deal) == {"dealer", "hands", "stock", "pool", "crib"}
    data = GAME.to_json(state)
    assert deal["dealer"] == data["dealer"]
    assert deal["hands"] == data["hands"]
    assert deal["stock"] == data["stock"]
    assert deal["pool"] == [] and deal["crib"] == []
    # The hands are as dealt, even after cards have been played.
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    assert GAME.deal_event(state) == event


def test_cards_are_dealt_one_at_a_time_from_the_top_of_the_stock() -> None:
    from games.agram import DECK
    from games.cards import shuffled

    state = GAME.new(4, {}, seed=9)
    order = shuffled(list(DECK), 9, 0)
    dealer = state.dealer
    for i in range(24):
        seat = (dealer + 1 + i) % 4
        assert CARD_NAMES[order[i]] in GAME.to_json(state)["hands"][seat]
    assert GAME.to_json(state)["stock"] == [CARD_NAMES[c] for c in order[24:]]


# Tricks


def test_ace_is_high_then_ten_down_to_three() -> None:
    order = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "AH"]
    strengths = [ace_high(CARD_NAMES.index(c)) for c in order]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)
    state = arranged([["TH", "3C"], ["AH", "4C"], ["9H", "5C"]], dealer=2)
    play(state, "TH", "AH", "9H")
    assert GAME.to_act(state) == [1]
    assert GAME.view(state, None)["last_trick"]["winner"] == 1


def test_highest_card_of_the_led_suit_wins_with_no_trumps() -> None:
    # 3C led; an ace and a ten of other suits do not beat it.
    state = arranged(
        [
            ["3C", "4D", "5D", "6D", "7D", "8D"],
            ["AH", "3H", "4H", "5H", "6H", "7H"],
            ["TS", "3S", "4S", "5S", "6S", "7S"],
        ],
        dealer=2,
    )
    play(state, "3C", "AH", "TS")
    view = GAME.view(state, None)
    assert view["last_trick"] == {
        "cards": [{"seat": 0, "card": "3C"}, {"seat": 1, "card": "AH"}, {"seat": 2, "card": "TS"}],
        "winner": 0,
    }
    assert GAME.to_act(state) == [0]


def test_you_must_follow_the_led_suit_when_you_can() -> None:
    state = arranged([["9C", "3D", "4D", "5D", "6D", "7D"], ["AC", "TC", "AH", "3H", "4H", "5H"]], dealer=1)
    play(state, "9C")
    assert GAME.legal_moves(state, 1) == [{"play": "AC"}, {"play": "TC"}]
    before = GAME.to_json(state)
    with pytest.raises(IllegalMoveError, match="follow suit"):
        GAME.apply(state, 1, {"play": "AH"})
    assert GAME.to_json(state) == before


def test_any_card_may_be_played_when_void_in_the_led_suit() -> None:
    state = arranged([["9C", "3D", "4D", "5D", "6D", "7D"], ["AH", "3H", "4H", "5H", "6H", "TS"]], dealer=1)
    play(state, "9C")
    assert GAME.legal_moves(state, 1) == [{"play": c} for c in ["AH", "3H", "4H", "5H", "6H", "TS"]]
    play(state, "TS")
    assert GAME.view(state, None)["last_trick"]["winner"] == 0


def test_the_trick_winner_leads_the_next_trick() -> None:
    state = arranged(
        [
            ["3C", "4C", "5D", "6D", "7D", "8D"],
            ["9C", "3H", "4H", "5H", "6H", "7H"],
            ["TC", "3S", "4S", "5S", "6S", "7S"],
        ],
        dealer=2,
    )
    play(state, "3C", "9C", "TC")
    assert GAME.to_act(state) == [2]
    assert GAME.view(state, 2)["leader"] == 2
    # The new leader may lead anything, and the others now follow that suit.
    play(state, "3S")
    assert GAME.legal_moves(state, 0) == [{"play": c} for c in ["4C", "5D", "6D", "7D", "8D"]]


def test_a_card_not_in_hand_or_a_malformed_move_is_refused() -> None:
    state = arranged([["9C", "3D", "4D", "5D", "6D", "7D"], ["AH", "3H", "4H", "5H", "6H", "TS"]], dealer=1)
    before = GAME.to_json(state)
    for move, message in [
        ({"play": "AH"}, "not in your hand"),
        ({"play": "AS"}, "not in your hand"),
        ({"play": "ZZ"}, "is"),
        ({"play": 5}, "is"),
        ({"go": True}, "is"),
        ({"play": "9C", "extra": 1}, "one key"),
        ("9C", "one key"),
    ]:
        with pytest.raises(IllegalMoveError, match=message):
            GAME.apply(state, 0, move)  # type: ignore[arg-type]
        assert GAME.to_json(state) == before
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 1, {"play": "AH"})
    # Only an int is a seat, though False == 0 in Python.
    for seat in (False, 0.0, "0", None, -2):
        with pytest.raises(NotYourTurnError):
            GAME.apply(state, seat, {"play": "9C"})  # type: ignore[arg-type]
    assert GAME.to_json(state) == before


# The deal and the game


SIX_TRICKS = [
    # Seat 0 leads clubs and wins the first five tricks; seat 1 wins the sixth.
    ["AC", "TC", "9C", "8C", "7C", "3D"],
    ["3C", "4C", "5C", "6C", "3H", "4D"],
]


def test_whoever_wins_the_sixth_trick_wins_the_deal_and_scores_one() -> None:
    state = arranged(SIX_TRICKS, dealer=1)
    play(state, "AC", "3C", "TC", "4C", "9C", "5C", "8C", "6C", "7C", "3H")
    assert GAME.view(state, None)["scores"] == [0, 0]
    assert GAME.view(state, None)["tricks_played"] == 5
    assert not GAME.is_over(state)
    events = play(state, "3D", "4D")
    assert events == []
    assert GAME.is_over(state)
    assert GAME.to_act(state) == []
    assert GAME.result(state) == {"scores": [0, 1], "winners": [1]}
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["turn"] is None
    assert view["result"] == {"scores": [0, 1], "winners": [1]}
    assert view["deal_winner"] == 1
    with pytest.raises(GameOverError):
        GAME.apply(state, 1, {"play": "4D"})


def test_a_higher_target_plays_more_deals_and_the_deal_passes_left() -> None:
    state = arranged(SIX_TRICKS, dealer=1, target=3)
    events = play(state, "AC", "3C", "TC", "4C", "9C", "5C", "8C", "6C", "7C", "3H", "3D", "4D")
    assert not GAME.is_over(state)
    assert GAME.view(state, None)["scores"] == [0, 1]
    assert len(events) == 1 and events[0] == GAME.deal_event(state)
    assert events[0]["deal"]["dealer"] == 0
    view = GAME.view(state, 0)
    assert view["dealer"] == 0 and view["deal_number"] == 2
    assert view["last"] is None and view["trick"] == [] and view["tricks_played"] == 0
    # The last deal's last trick stays in view, so a player sees how it ended.
    assert view["last_trick"] == {
        "cards": [{"seat": 0, "card": "3D"}, {"seat": 1, "card": "4D"}],
        "winner": 1,
    }
    assert view["hand_counts"] == [6, 6]
    assert GAME.to_act(state) == [1]


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("target", [3, 5, 7])
def test_deals_go_on_until_a_seat_reaches_the_target(players: int, target: int) -> None:
    rng = random.Random(players * 100 + target)
    state = GAME.new(players, {"target": target}, seed=players + target)
    dealer = state.dealer
    deals = 1
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        before = list(state.scores)
        events = GAME.apply(state, seat, GAME.random_move(state, seat, rng))
        if events:
            deals += 1
            dealer = (dealer + 1) % players
            assert [e["deal"]["dealer"] for e in events] == [dealer]
            winner = GAME.view(state, None)["deal_winner"]
            assert state.scores == [s + (i == winner) for i, s in enumerate(before)]
            assert GAME.to_act(state) == [(dealer + 1) % players]
            assert GAME.view(state, None)["hand_counts"] == [6] * players
    assert max(state.scores) == target
    assert state.scores.count(target) == 1
    assert sum(state.scores) == deals
    assert GAME.result(state) == {"scores": state.scores, "winners": [state.scores.index(target)]}


def test_the_cardstock_preset_plays_to_one() -> None:
    state = GAME.new(4, {"preset": "cardstock"}, seed=1)
    assert state.options == {"target": 1, "preset": "cardstock"}
    assert GAME.view(state, None)["target"] == 1
    # Options given beside a preset override it.
    assert GAME.new(4, {"preset": "cardstock", "target": 3}, seed=1).target == 3
    assert GAME.new(4, {}, seed=1).options == {"target": 1, "preset": "standard"}


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {}),
        (6, {}),
        (0, {}),
        ("4", {}),
        (4.0, {}),
        (True, {}),
        (4, {"target": 2}),
        (4, {"target": "3"}),
        (4, {"target": True}),
        (4, {"target": 3.0}),
        (4, {"targets": 3}),
        (4, {"preset": "fast"}),
        (4, {"preset": None}),
        (4, {"preset": ["cardstock"]}),
        (4, {"preset": {}}),
        (4, {"target": [1]}),
        (4, []),
        (4, "target=3"),
    ],
)
def test_bad_options_and_player_counts_raise_options_error_at_new(players: Any, options: Any) -> None:
    with pytest.raises(OptionsError) as caught:
        GAME.new(players, options, seed=1)
    assert caught.value.code == "bad_options"
    assert str(caught.value)


@pytest.mark.parametrize("seed", [None, "1", 1.5, True])
def test_a_seed_must_be_a_whole_number(seed: Any) -> None:
    with pytest.raises(OptionsError):
        GAME.new(4, {}, seed)


def test_the_default_is_four_players() -> None:
    assert GAME.new(None, None, seed=3).players == 4


# The view


def test_the_view_shows_a_seat_its_own_hand_only() -> None:
    state = arranged(
        [
            ["3C", "4D", "5D", "6D", "7D", "8D"],
            ["9C", "3H", "4H", "5H", "6H", "7H"],
            ["TC", "3S", "4S", "5S", "6S", "7S"],
        ],
        dealer=2,
    )
    play(state, "3C")
    view = GAME.view(state, 1)
    assert view["hand"] == ["9C", "3H", "4H", "5H", "6H", "7H"]
    assert view["hand_counts"] == [5, 6, 6]
    assert view["turn"] == 1 and view["phase"] == "play"
    assert view["last"] == {"seat": 0, "move": {"play": "3C"}}
    assert view["trick"] == [{"seat": 0, "card": "3C"}]
    assert "hand" not in GAME.view(state, None)
    assert "result" not in view
    text = repr(GAME.view(state, None))
    assert not any(card in text for card in ["9C", "4D", "TC", "3S"])


def test_determinize_keeps_the_seen_voids() -> None:
    state = arranged(
        [
            ["3C", "4D", "5D", "6D", "7D", "8D"],
            ["9C", "3H", "4H", "5H", "6H", "7H"],
            ["TC", "3S", "4S", "5S", "6S", "7S"],
        ],
        dealer=2,
    )
    play(state, "4D", "3H", "3S")  # seats 1 and 2 show they hold no diamonds
    rng = random.Random(1)
    for _ in range(50):
        det = GAME.determinize(state, 0, rng)
        hands = GAME.to_json(det)["hands"]
        assert hands[0] == GAME.to_json(state)["hands"][0]
        assert not any(card.endswith("D") for card in hands[1] + hands[2])


def test_trick_helpers() -> None:
    names = ["9H", "AH", "3S", "TH"]
    trick = [CARD_NAMES.index(c) for c in names]
    assert trick_winner(trick, leader=2, seats=4) == 3
    assert follow_moves(0, None) == []
    hand = sum(1 << CARD_NAMES.index(c) for c in ["AC", "3H"])
    assert follow_moves(hand, 1) == [{"play": "AC"}, {"play": "3H"}]
    assert follow_moves(hand, 2) == [{"play": "3H"}]


def test_game_errors_carry_protocol_codes() -> None:
    assert GameError("x").code == "bad_request"
    assert IllegalMoveError("x").code == "illegal_move"
    assert NotYourTurnError("x").code == "not_your_turn"
    assert GameOverError("x").code == "game_not_running"
    assert OptionsError("x").code == "bad_options"
