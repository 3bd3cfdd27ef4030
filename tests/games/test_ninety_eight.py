"""Ninety-Eight's rules (RULES.md "Ninety-Eight"), each from a hand-arranged deal where it matters."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.cards import CARD_NAMES, shuffled, sort_names
from games.engine import GameOverError, OptionsError
from games.ninety_eight import GAME, NinetyEightState
from tests.support.cards import laid_out, play_cards

DECK = set(CARD_NAMES)


def arranged(
    hands: list[list[str]],
    stock: list[str] | None = None,
    dealer: int = 0,
    lives: int | list[int] = 1,
    total: int = 0,
    turn: int | None = None,
) -> NinetyEightState:
    """Return a game whose current deal has exactly these hands and stock (top first).

    ``stock`` defaults to every other card in card order; ``lives`` may be the
    option (every seat starts with it) or a list of lives left per seat, the
    option then being the largest choice that covers them.
    """
    players = len(hands)
    option = lives if isinstance(lives, int) else (1 if max(lives) <= 1 else 5)
    held = [card for hand in hands for card in hand]
    if stock is None:
        stock = sort_names(DECK - set(held))
    assert len(held) + len(stock) == len(set(held) | set(stock)) and set(held) | set(stock) <= DECK
    return laid_out(
        GAME,
        players,
        {"lives": option},
        hands=[sort_names(h) for h in hands],
        dealt=[sort_names(h) for h in hands],
        stock=list(stock),
        pile=[],
        total=total,
        dealer=dealer,
        turn=(dealer + 1) % players if turn is None else turn,
        lives=[option] * players if isinstance(lives, int) else list(lives),
    )


def play(state: NinetyEightState, *cards: str) -> list[Any]:
    """Play ``cards`` in turn order from the seat to act; return the events of the last."""
    return play_cards(GAME, state, *cards)


def random_game(players: int, options: dict, seed: int, moves: int | None = None) -> NinetyEightState:
    """Play random legal moves from ``seed``: ``moves`` of them, or to the end."""
    state = GAME.new(players, options, seed)
    rng = random.Random(seed)
    done = 0
    while not GAME.is_over(state) and (moves is None or done < moves):
        (seat,) = GAME.to_act(state)
        GAME.apply(state, seat, GAME.random_move(state, seat, rng))
        done += 1
    return state


# The deal


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_deal_is_four_cards_each_from_52_and_the_rest_is_the_stock(players: int) -> None:
    for seed in range(10):
        state = GAME.new(players, {}, seed)
        data = GAME.to_json(state)
        assert [len(h) for h in data["hands"]] == [4] * players
        assert len(data["stock"]) == 52 - 4 * players
        every = [c for h in data["hands"] for c in h] + data["stock"]
        assert len(set(every)) == 52 and set(every) == DECK
        view = GAME.view(state, 0)
        assert view["total"] == 0 and view["pile"] == [] and view["stock_count"] == 52 - 4 * players


def test_the_first_dealer_comes_from_the_seed_and_the_next_seat_plays_first() -> None:
    dealers = set()
    for seed in range(40):
        state = GAME.new(4, {}, seed)
        dealer = GAME.view(state, None)["dealer"]
        dealers.add(dealer)
        assert GAME.to_act(state) == [(dealer + 1) % 4]
    assert dealers == {0, 1, 2, 3}


def test_cards_are_dealt_one_at_a_time_from_the_seat_after_the_dealer() -> None:
    state = GAME.new(3, {}, 5)
    order = [CARD_NAMES[c] for c in shuffled(list(range(52)), 5, 0)]
    first = (state.dealer + 1) % 3
    expected = [sort_names(order[(s - first) % 3 : 12 : 3]) for s in range(3)]
    event = GAME.deal_event(state)["deal"]
    assert event["dealer"] == state.dealer
    assert event["hands"] == expected == GAME.to_json(state)["hands"]
    assert event["stock"] == order[12:] == GAME.to_json(state)["stock"]
    assert event["pool"] == [] and event["crib"] == []
    # The first draw takes the stock's top card.
    (seat,) = GAME.to_act(state)
    GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    if not GAME.is_over(state):
        assert order[12] in GAME.view(state, seat)["hand"]


def test_any_card_in_hand_is_legal() -> None:
    state = arranged([["2C", "KD", "TH", "QS"], ["3C", "4C", "5C", "6C"]], dealer=1)
    assert GAME.to_act(state) == [0]
    assert GAME.legal_moves(state, 0) == [{"play": c} for c in ["2C", "KD", "TH", "QS"]]
    assert GAME.legal_moves(state, 1) == []


# The total


def test_ace_to_nine_add_their_value() -> None:
    state = arranged([["AC", "9D", "5H", "2S"], ["3C", "4C", "8C", "7C"]], dealer=1)
    play(state, "AC")
    assert state.total == 1
    play(state, "8C")
    assert state.total == 9
    play(state, "9D")
    assert state.total == 18
    assert GAME.view(state, 1)["total"] == 18


def test_jack_and_queen_add_nothing() -> None:
    state = arranged([["JC", "5D", "5H", "2S"], ["QC", "4C", "8C", "7C"]], dealer=1, total=40)
    play(state, "JC")
    assert state.total == 40
    play(state, "QC")
    assert state.total == 40


def test_ten_takes_ten_away_and_the_total_may_go_below_zero() -> None:
    state = arranged([["TC", "5D", "5H", "2S"], ["TD", "4C", "8C", "7C"]], dealer=1, total=4)
    play(state, "TC")
    assert state.total == -6
    play(state, "TD")
    assert state.total == -16
    play(state, "5D")
    assert state.total == -11
    assert GAME.view(state, None)["total"] == -11


def test_king_sets_the_total_to_98_from_above_or_below() -> None:
    state = arranged([["KC", "TD", "5H", "2S"], ["KD", "4C", "8C", "7C"]], dealer=1, total=3)
    play(state, "KC")
    assert state.total == 98
    play(state, "KD")  # a king never busts, even at 98
    assert state.total == 98 and not GAME.is_over(state)
    play(state, "TD")
    assert state.total == 88
    state = arranged([["KC", "TD", "5H", "2S"], ["KD", "4C", "8C", "7C"]], dealer=1, total=-30)
    play(state, "KC")
    assert state.total == 98


def test_the_pile_is_public_in_play_order() -> None:
    state = arranged([["AC", "9D", "5H", "2S"], ["3C", "4C", "8C", "7C"]], dealer=1)
    play(state, "AC", "8C", "9D")
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert view["pile"] == ["AC", "8C", "9D"]
        assert view["last"] == {"seat": 0, "move": {"play": "9D"}}


# Losing the deal


def test_going_over_98_loses_the_deal_and_with_one_life_the_game() -> None:
    state = arranged([["2C", "KD", "3H", "QS"], ["3C", "4C", "5C", "6C"], ["7H", "8H", "9H", "AH"]], total=95)
    assert GAME.to_act(state) == [1]
    play(state, "3C")  # 98: not over
    assert state.total == 98 and not GAME.is_over(state)
    play(state, "AH")  # 99: over
    assert GAME.is_over(state)
    assert GAME.to_act(state) == []
    assert GAME.result(state) == {"scores": [0, 0, -1], "winners": [0, 1]}
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["turn"] is None
    assert view["deal_loser"] == 2
    assert view["last_deal"] == {"loser": 2, "total": 99, "card": "AH"}
    assert view["result"] == {"scores": [0, 0, -1], "winners": [0, 1]}
    with pytest.raises(GameOverError):
        GAME.apply(state, 0, {"play": "2C"})


def test_a_hand_of_only_busting_cards_must_play_one_and_loses() -> None:
    state = arranged([["QC", "JD", "TH", "KS"], ["5C", "6C", "7C", "8C"]], dealer=1, total=95)
    play(state, "QC")  # seat 0 stays at 95
    assert GAME.to_act(state) == [1]
    # Every card seat 1 holds takes 95 over 98: all are still legal.
    assert GAME.legal_moves(state, 1) == [{"play": c} for c in ["5C", "6C", "7C", "8C"]]
    play(state, "7C")
    assert GAME.is_over(state)
    assert GAME.result(state) == {"scores": [0, -1], "winners": [0]}


def test_the_loser_does_not_draw() -> None:
    state = arranged(
        [["QC", "JD", "TH", "KS"], ["5C", "6C", "7C", "8C"]], dealer=1, total=95, stock=["2D", "3D"]
    )
    play(state, "QC")
    assert GAME.view(state, 0)["hand"] == ["2D", "JD", "TH", "KS"]
    play(state, "5C")
    assert GAME.view(state, 1)["hand"] == ["6C", "7C", "8C"]
    assert GAME.view(state, 1)["stock_count"] == 1


# The stock


def test_after_playing_you_draw_the_top_of_the_stock() -> None:
    state = arranged([["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]], dealer=1, stock=["9S", "8S", "7S"])
    play(state, "AC")
    assert GAME.view(state, 0)["hand"] == ["2C", "3C", "4C", "9S"]
    assert GAME.view(state, 0)["stock_count"] == 2
    play(state, "AD")
    assert GAME.view(state, 1)["hand"] == ["2D", "3D", "4D", "8S"]
    assert GAME.view(state, 1)["stock_count"] == 1


def test_when_the_stock_runs_out_hands_are_played_down() -> None:
    state = arranged([["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]], dealer=1, stock=["9S"])
    play(state, "AC")  # draws the last card
    assert GAME.view(state, 0)["hand_counts"] == [4, 4]
    play(state, "AD")  # nothing left to draw
    assert GAME.view(state, 0)["hand_counts"] == [4, 3]
    play(state, "2C")
    assert GAME.view(state, 0)["hand_counts"] == [3, 3]
    assert GAME.view(state, 0)["stock_count"] == 0


def test_a_seat_with_no_cards_left_is_skipped() -> None:
    state = arranged([["JC"], ["2C", "3C", "4C"]], dealer=0, stock=[])
    play(state, "2C", "JC", "3C")
    assert GAME.to_act(state) == [1]  # seat 0 is empty: seat 1 plays again
    assert GAME.view(state, 0)["turn"] == 1


def test_every_hand_played_out_with_no_one_over_98_is_a_deal_without_loser() -> None:
    state = arranged([["JC"], ["2C", "3C", "4C"], ["TD"]], dealer=0, stock=[])
    play(state, "2C", "TD", "JC", "3C", "4C")
    assert GAME.is_over(state)
    assert state.total == -1
    assert GAME.result(state) == {"scores": [0, 0, 0], "winners": [0, 1, 2]}
    assert GAME.view(state, 1)["deal_loser"] is None
    assert GAME.view(state, 1)["last_deal"] == {"loser": None, "total": -1, "card": "4C"}


# Lives


def test_with_lives_a_loss_costs_one_and_a_new_deal_passes_left() -> None:
    state = arranged([["9C", "2D", "2H", "2S"], ["3C", "4C", "5C", "6C"], ["7H", "8H", "9H", "AH"]], lives=3)
    state.total = 92
    events = play(state, "3C", "7H")  # 95, then 102: seat 2 loses a life
    assert not GAME.is_over(state)
    assert GAME.view(state, 0)["lives"] == [3, 3, 2]
    assert GAME.view(state, 0)["scores"] == [3, 3, 2]
    assert GAME.view(state, 0)["deal_loser"] == 2
    assert len(events) == 1 and set(events[0]) == {"deal"}
    deal = events[0]["deal"]
    assert deal["dealer"] == 1 and state.dealer == 1
    assert [len(h) for h in deal["hands"]] == [4, 4, 4]
    assert deal["hands"] == GAME.to_json(state)["hands"]
    assert deal["stock"] == GAME.to_json(state)["stock"] and len(deal["stock"]) == 40
    # A new deal starts afresh: an empty pile, no last move, the seat after the dealer to play.
    view = GAME.view(state, 2)
    assert view["total"] == 0 and view["pile"] == [] and view["last"] is None
    assert GAME.to_act(state) == [2]
    assert view["deal_number"] == 2


def test_the_new_deal_gathers_and_reshuffles_the_whole_deck() -> None:
    state = arranged([["9C", "2D", "2H", "2S"], ["3C", "4C", "5C", "6C"]], lives=3, total=95, dealer=1)
    play(state, "9C")
    data = GAME.to_json(state)
    every = [c for h in data["hands"] for c in h] + data["stock"]
    assert len(every) == 52 and set(every) == DECK


def test_a_seat_without_lives_sits_out_and_is_skipped() -> None:
    # Seat 0 has one life left and loses it: it is dealt no more cards.
    hands = [["9C", "2D", "2H", "2S"], ["3C", "4C", "5C", "6C"], ["7H", "8H", "9H", "AH"]]
    state = arranged(hands, lives=[1, 2, 3], dealer=2, total=95)
    assert GAME.to_act(state) == [0]
    events = play(state, "9C")
    assert GAME.view(state, 1)["lives"] == [0, 2, 3]
    deal = events[0]["deal"]
    assert deal["hands"][0] == [] and len(deal["hands"][1]) == len(deal["hands"][2]) == 4
    assert len(deal["stock"]) == 52 - 8
    # The deal passes from seat 2 to seat 0, which is out, so to seat 1; seat 2 plays first.
    assert state.dealer == 1 and GAME.to_act(state) == [2]
    assert GAME.view(state, 0)["hand"] == [] and GAME.view(state, 0)["hand_counts"][0] == 0
    rng = random.Random(1)
    while state.deal_number == 1 and not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        assert seat != 0
        GAME.apply(state, seat, GAME.random_move(state, seat, rng))


def test_the_last_seat_with_a_life_wins_and_scores_are_lives_left() -> None:
    hands = [[], ["9C", "2D", "2H", "2S"], ["3C", "4C", "5C", "6C"]]
    state = arranged(hands, lives=[0, 1, 2], dealer=0, total=95)
    assert GAME.to_act(state) == [1]
    events = play(state, "9C")
    assert events == []
    assert GAME.is_over(state)
    assert GAME.result(state) == {"scores": [0, 0, 2], "winners": [2]}
    assert GAME.view(state, None)["scores"] == [0, 0, 2]


def test_with_lives_a_deal_without_loser_is_dealt_again() -> None:
    state = arranged([["JC"], ["2C"]], dealer=0, stock=[], lives=3)
    events = play(state, "2C", "JC")
    assert not GAME.is_over(state)
    assert len(events) == 1 and events[0]["deal"]["dealer"] == 1
    assert GAME.view(state, 0)["lives"] == [3, 3]
    assert GAME.view(state, 0)["deal_loser"] is None
    assert GAME.view(state, 0)["hand_counts"] == [4, 4]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("lives", [1, 3, 5])
def test_random_games_end_with_the_scores_the_rules_give(players: int, lives: int) -> None:
    for seed in range(8):
        state = random_game(players, {"lives": lives}, seed)
        result = GAME.result(state)
        assert result is not None
        if lives == 1:
            assert sorted(result["scores"])[1:] == [0] * (players - 1)
            assert result["scores"].count(-1) <= 1
        else:
            alive = [s for s, left in enumerate(result["scores"]) if left > 0]
            assert result["winners"] == alive and len(alive) == 1


# Options


def test_the_cardstock_preset_plays_one_life() -> None:
    state = GAME.new(4, {"preset": "cardstock"}, 3)
    assert state.options == {"lives": 1, "preset": "cardstock"}
    assert GAME.new(4, {"preset": "cardstock", "lives": 3}, 3).lives == [3] * 4
    lives = GAME.info.to_json()["options"]["lives"]
    assert {key: lives[key] for key in ("default", "choices")} == {"default": 1, "choices": [1, 3, 5]}


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {}),
        (7, {}),
        ("4", {}),
        (4, {"lives": 2}),
        (4, {"lives": "3"}),
        (4, {"target": 1}),
        (4, {"preset": "x"}),
    ],
)
def test_bad_options_and_player_counts_raise_options_error(players: Any, options: Any) -> None:
    with pytest.raises(OptionsError):
        GAME.new(players, options, 0)


def test_the_default_is_four_players() -> None:
    assert GAME.new(None, None, 0).players == 4
