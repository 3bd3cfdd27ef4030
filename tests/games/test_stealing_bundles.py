"""Stealing Bundles' rules (RULES.md "Stealing Bundles"), each from a hand-arranged deal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.cards import CARD_NAMES, shuffled, sort_names
from games.engine import GameOverError, OptionsError
from games.stealing_bundles import GAME, StealingBundlesState
from tests.support.cards import laid_out, play_cards

DECK = set(CARD_NAMES)


def arranged(
    hands: list[list[str]],
    bundles: list[list[str]] | None = None,
    pool: list[str] = (),  # type: ignore[assignment]
    stock: list[str] | None = None,
    dealer: int = 0,
    leftovers: str = "last_capturer",
    last_capturer: int | None = None,
) -> StealingBundlesState:
    """Return a game laid out exactly so: hands, bundles (bottom first), pool and stock (top first).

    ``stock`` defaults to empty, so the game ends when the hands are played out.
    """
    players = len(hands)
    bundles = bundles or [[] for _ in hands]
    stock = stock or []
    every = [c for h in hands for c in h] + [c for b in bundles for c in b] + list(pool) + stock
    assert len(every) == len(set(every)) and set(every) <= DECK
    return laid_out(
        GAME,
        players,
        {"leftovers": leftovers},
        hands=[sort_names(h) for h in hands],
        dealt=[sort_names(h) for h in hands],
        bundles=[list(b) for b in bundles],
        pool=sort_names(pool),
        dealt_pool=sort_names(pool),
        stock=list(stock),
        dealer=dealer,
        turn=(dealer + 1) % players,
        last=None,
        last_take=None,
        last_capturer=last_capturer,
    )


def play(state: StealingBundlesState, *cards: str) -> list[Any]:
    """Play ``cards`` in turn order from the seat to act; return the events of the last."""
    return play_cards(GAME, state, *cards)


def bundles(state: StealingBundlesState) -> list[list[str]]:
    """Every seat's bundle, bottom first."""
    return GAME.to_json(state)["bundles"]


def random_game(players: int, options: dict, seed: int, moves: int | None = None) -> StealingBundlesState:
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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_is_four_each_and_four_face_up_to_the_pool(players: int) -> None:
    for seed in range(10):
        state = GAME.new(players, {}, seed)
        data = GAME.to_json(state)
        assert [len(h) for h in data["hands"]] == [4] * players
        assert len(data["pool"]) == 4
        assert len(data["stock"]) == 52 - 4 - 4 * players
        every = [c for h in data["hands"] for c in h] + data["pool"] + data["stock"]
        assert len(every) == 52 and set(every) == DECK
        view = GAME.view(state, None)
        assert view["pool"] == data["pool"] and view["stock_count"] == 48 - 4 * players
        assert view["bundles"] == [{"top": None, "size": 0}] * players


def test_the_deal_event_carries_the_pool_and_cards_come_one_at_a_time() -> None:
    state = GAME.new(4, {}, 7)
    order = [CARD_NAMES[c] for c in shuffled(list(range(52)), 7, 0)]
    first = (state.dealer + 1) % 4
    event = GAME.deal_event(state)["deal"]
    assert event["dealer"] == state.dealer
    assert event["hands"] == [sort_names(order[(s - first) % 4 : 16 : 4]) for s in range(4)]
    assert event["pool"] == order[16:20]
    assert event["stock"] == order[20:]
    assert event["crib"] == []
    assert GAME.to_act(state) == [first]


def test_the_first_dealer_comes_from_the_seed() -> None:
    assert {GAME.new(3, {}, seed).dealer for seed in range(30)} == {0, 1, 2}


def test_any_card_in_hand_is_legal() -> None:
    state = arranged([["2C", "KD"], ["3C", "4C"]], dealer=1)
    assert GAME.legal_moves(state, 0) == [{"play": "2C"}, {"play": "KD"}]
    assert GAME.legal_moves(state, 1) == []


# Taking


def test_no_match_puts_the_card_in_the_pool() -> None:
    state = arranged([["2C", "KD"], ["3C", "4C"]], bundles=[[], ["9S"]], pool=["5H"], dealer=1)
    events = play(state, "KD")
    assert events == []
    assert GAME.view(state, 1)["pool"] == ["KD", "5H"]
    assert bundles(state) == [[], ["9S"]]
    assert GAME.view(state, 1)["last_capturer"] is None
    assert GAME.view(state, 1)["last_take"] == {"seat": 0, "card": "KD", "stole": [], "pool": []}


def test_a_match_takes_every_pool_card_of_that_rank_and_the_played_card_goes_on_top() -> None:
    state = arranged([["5S", "KD"], ["3C", "4C"]], bundles=[["2D"], []], pool=["5C", "9D", "5H"], dealer=1)
    play(state, "5S")
    assert bundles(state)[0] == ["2D", "5C", "5H", "5S"]
    view = GAME.view(state, 1)
    assert view["pool"] == ["9D"]
    assert view["bundles"][0] == {"top": "5S", "size": 4}
    assert view["scores"] == [4, 0]
    assert view["last_capturer"] == 0
    assert view["last_take"] == {"seat": 0, "card": "5S", "stole": [], "pool": ["5C", "5H"]}


def test_stealing_two_bundles_at_once_keeps_their_order_in_play_order_from_the_next_seat() -> None:
    # Seat 2 plays a 7: seat 3's bundle (top 7D) comes first, then seat 0's
    # (wrapping round), then seat 1's is not taken (its top is a 9).
    state = arranged(
        [["AC"], ["AD"], ["7C", "KS"], ["AH"]],
        bundles=[["3H", "7S"], ["4D", "9C"], ["QH"], ["2C", "8D", "7D"]],
        pool=["7H", "JC"],
        dealer=1,
    )
    assert GAME.to_act(state) == [2]
    play(state, "7C")
    assert bundles(state) == [
        [],
        ["4D", "9C"],
        ["QH", "2C", "8D", "7D", "3H", "7S", "7H", "7C"],
        [],
    ]
    view = GAME.view(state, 0)
    assert view["bundles"] == [
        {"top": None, "size": 0},
        {"top": "9C", "size": 2},
        {"top": "7C", "size": 8},
        {"top": None, "size": 0},
    ]
    assert view["pool"] == ["JC"]
    assert view["last_take"] == {"seat": 2, "card": "7C", "stole": [3, 0], "pool": ["7H"]}


def test_the_steal_order_starts_after_the_player_not_at_seat_zero() -> None:
    state = arranged(
        [["AC"], ["QC"], ["AD"]], bundles=[["2S", "QH"], [], ["5S", "QD"]], dealer=0
    )  # seat 1 plays: seat 2 then seat 0
    play(state, "QC")
    assert bundles(state)[1] == ["5S", "QD", "2S", "QH", "QC"]


def test_stealing_alone_is_a_take_and_the_card_goes_on_top() -> None:
    state = arranged([["9H"], ["AD"]], bundles=[["KC"], ["3C", "9C"]], pool=["2H"], dealer=1)
    play(state, "9H")
    assert bundles(state) == [["KC", "3C", "9C", "9H"], []]
    assert GAME.view(state, 0)["pool"] == ["2H"]


def test_your_own_bundle_is_not_taken_by_a_match_on_its_top() -> None:
    state = arranged([["9H", "2D"], ["AD", "3S"]], bundles=[["KC", "9C"], []], pool=["2H"], dealer=1)
    play(state, "9H")
    assert bundles(state)[0] == ["KC", "9C"]
    assert GAME.view(state, 0)["pool"] == ["2H", "9H"]


# Rounds and the end


def test_when_hands_are_empty_and_the_stock_is_not_four_more_are_dealt_to_each() -> None:
    stock = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"]
    state = arranged([["KS"], ["QS"]], pool=["JD"], stock=stock, dealer=0)
    assert play(state, "QS") == []
    events = play(state, "KS")
    assert len(events) == 1
    deal = events[0]["deal"]
    assert deal == {
        "dealer": 0,
        "hands": [["2C", "4C", "6C", "8C"], ["AC", "3C", "5C", "7C"]],
        "stock": ["9C", "TC"],
        "pool": [],
        "crib": [],
    }
    assert GAME.deal_event(state) == events[0]
    view = GAME.view(state, 1)
    assert view["hand"] == ["AC", "3C", "5C", "7C"]
    assert view["stock_count"] == 2 and view["round"] == 2
    assert view["pool"] == ["JD", "QS", "KS"]  # the pool stays between rounds
    assert view["last"] is None and view["last_take"]["card"] == "KS"
    assert GAME.to_act(state) == [1] and state.dealer == 0
    assert not GAME.is_over(state)


def test_a_short_stock_is_dealt_out_as_far_as_it_goes() -> None:
    state = arranged([["KS"], ["QS"]], stock=["AC", "2C", "3C"], dealer=0)
    events = play(state, "QS", "KS")
    assert events[0]["deal"]["hands"] == [["2C"], ["AC", "3C"]]
    assert GAME.view(state, 0)["hand_counts"] == [1, 2] and GAME.view(state, 0)["stock_count"] == 0
    play(state, "AC", "2C", "3C")
    assert GAME.is_over(state)


def test_leftovers_go_to_the_last_seat_that_took_anything() -> None:
    state = arranged([["5S", "9C"], ["2D", "KH"]], pool=["5C", "JH"], dealer=1)
    play(state, "5S", "2D", "9C", "KH")
    assert GAME.is_over(state)
    assert bundles(state) == [["5C", "5S", "9C", "2D", "JH", "KH"], []]
    assert GAME.view(state, 0)["pool"] == []
    assert GAME.result(state) == {"scores": [6, 0], "winners": [0]}


def test_leftovers_stay_in_the_pool_with_the_stay_option() -> None:
    state = arranged([["5S", "9C"], ["2D", "KH"]], pool=["5C", "JH"], dealer=1, leftovers="stay")
    play(state, "5S", "2D", "9C", "KH")
    assert GAME.is_over(state)
    assert bundles(state) == [["5C", "5S"], []]
    assert GAME.view(state, 1)["pool"] == ["9C", "2D", "JH", "KH"]
    assert GAME.result(state) == {"scores": [2, 0], "winners": [0]}


def test_leftovers_stay_when_no_seat_ever_took_anything() -> None:
    state = arranged([["9C"], ["2D"]], pool=["JH"], dealer=1)
    play(state, "9C", "2D")
    assert GAME.is_over(state)
    assert GAME.view(state, 0)["pool"] == ["9C", "2D", "JH"]
    assert GAME.result(state) == {"scores": [0, 0], "winners": [0, 1]}


def test_the_largest_bundle_wins_and_ties_share_it() -> None:
    state = arranged(
        [["4C"], ["6D"], ["AS"]],
        bundles=[["2C", "3C"], ["2D", "3D", "5D"], ["2H", "3H"]],
        pool=["6H"],
        dealer=2,
        leftovers="stay",
    )
    play(state, "4C", "6D", "AS")  # seat 1 takes the 6H: 3 + 2 = 5
    result = GAME.result(state)
    assert result == {"scores": [2, 5, 2], "winners": [1]}
    state = arranged(
        [["4C"], ["6D"]], bundles=[["2C", "3C", "5C"], ["2D"]], pool=["6H"], dealer=1, leftovers="stay"
    )
    play(state, "4C", "6D")
    assert GAME.result(state) == {"scores": [3, 3], "winners": [0, 1]}
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["turn"] is None and view["result"] == GAME.result(state)
    with pytest.raises(GameOverError):
        GAME.apply(state, 0, {"play": "4C"})


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("leftovers", ["last_capturer", "stay"])
def test_random_games_play_every_card(players: int, leftovers: str) -> None:
    for seed in range(6):
        state = GAME.new(players, {"leftovers": leftovers}, seed)
        rng = random.Random(seed)
        rounds = 1
        while not GAME.is_over(state):
            (seat,) = GAME.to_act(state)
            rounds += len(GAME.apply(state, seat, GAME.random_move(state, seat, rng)))
        assert rounds == 48 // (4 * players)
        data = GAME.to_json(state)
        every = [c for b in data["bundles"] for c in b] + data["pool"]
        assert len(every) == 52 and set(every) == DECK
        result = GAME.result(state)
        assert result["scores"] == [len(b) for b in data["bundles"]]
        if leftovers == "last_capturer" and state.last_capturer is not None:
            assert data["pool"] == []


# Options


def test_the_cardstock_preset_leaves_leftovers_in_the_pool() -> None:
    assert GAME.new(4, {"preset": "cardstock"}, 0).options == {"leftovers": "stay", "preset": "cardstock"}
    assert GAME.new(4, {}, 0).options["leftovers"] == "last_capturer"
    assert GAME.new(None, None, 0).players == 4


@pytest.mark.parametrize(
    ("players", "options"),
    [(1, {}), (5, {}), (4, {"leftovers": "dealer"}), (4, {"lives": 1}), (4, {"preset": "pagat"})],
)
def test_bad_options_and_player_counts_raise_options_error(players: Any, options: Any) -> None:
    with pytest.raises(OptionsError):
        GAME.new(players, options, 0)
