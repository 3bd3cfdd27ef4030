"""Ninety-Eight: refused moves, JSON round trips, views and determinization (the contract's promises)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.cards import CARD_NAMES
from games.engine import GameError, GameOverError, IllegalMoveError, NotYourTurnError, OptionsError
from games.ninety_eight import GAME
from tests.games.test_ninety_eight import DECK, arranged, random_game

# Bad moves


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"play": "9H"}, "9H is not in your hand"),
        ({"play": "ZZ"}, '{"play": CARD}'),
        ({"play": ["2C"]}, '{"play": CARD}'),
        ({"pass": "2C"}, '{"play": CARD}'),
        ({"play": "2C", "extra": 1}, "one key"),
        ("2C", "one key"),
        (None, "one key"),
    ],
)
def test_a_bad_move_is_refused_with_a_reason_and_changes_nothing(move: Any, words: str) -> None:
    state = arranged([["2C", "KD", "TH", "QS"], ["3C", "4C", "5C", "6C"]], dealer=1)
    before = json.dumps(GAME.to_json(state))
    with pytest.raises(IllegalMoveError) as error:
        GAME.apply(state, 0, move)
    assert words in str(error.value)
    assert error.value.code == "illegal_move"
    assert json.dumps(GAME.to_json(state)) == before


def test_a_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    state = arranged([["2C", "KD", "TH", "QS"], ["3C", "4C", "5C", "6C"]], dealer=1)
    before = json.dumps(GAME.to_json(state))
    with pytest.raises(NotYourTurnError, match="not seat 1's turn"):
        GAME.apply(state, 1, {"play": "3C"})
    assert json.dumps(GAME.to_json(state)) == before


def test_game_errors_carry_protocol_codes() -> None:
    assert issubclass(GameOverError, GameError)
    assert GameOverError.code == "game_not_running"
    assert OptionsError.code == "bad_options"


# State, views and determinization


@pytest.mark.parametrize("lives", [1, 3])
def test_json_round_trip_mid_game_continues_identically(lives: int) -> None:
    checked = 0
    for seed in range(10):
        state = random_game(4, {"lives": lives}, seed, moves=4)
        if GAME.is_over(state):
            continue
        checked += 1
        data = GAME.to_json(state)
        assert json.loads(json.dumps(data)) == data and data["game"] == "ninety_eight"
        copy = GAME.from_json(json.loads(json.dumps(data)))
        assert GAME.to_json(copy) == data
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not GAME.is_over(state):
            (seat,) = GAME.to_act(state)
            assert GAME.to_act(copy) == [seat]
            assert GAME.legal_moves(copy, seat) == GAME.legal_moves(state, seat)
            move = GAME.random_move(state, seat, rng_a)
            assert GAME.random_move(copy, seat, rng_b) == move
            assert list(GAME.apply(state, seat, move)) == list(GAME.apply(copy, seat, move))
            assert GAME.to_json(copy) == GAME.to_json(state)
        assert GAME.result(copy) == GAME.result(state)
    assert checked >= 3


def test_clone_is_independent() -> None:
    state = random_game(4, {"lives": 3}, 2, moves=5)
    copy = GAME.clone(state)
    before = GAME.to_json(state)
    (seat,) = GAME.to_act(copy)
    GAME.apply(copy, seat, GAME.legal_moves(copy, seat)[0])
    assert GAME.to_json(state) == before
    assert GAME.to_json(copy) != before


def _cards_in(value: Any) -> set[str]:
    """Every card string anywhere in a JSON value."""
    found = set()
    text = json.dumps(value)
    for card in CARD_NAMES:
        if f'"{card}"' in text:
            found.add(card)
    return found


@pytest.mark.parametrize("lives", [1, 3])
def test_a_view_never_shows_another_seats_hand_or_the_stock(lives: int) -> None:
    for seed in range(5):
        state = GAME.new(4, {"lives": lives}, seed)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            data = GAME.to_json(state)
            for seat in (None, 0, 1, 2, 3):
                view = GAME.view(state, seat)
                assert "stock" not in view and "hands" not in view
                public = set(data["pile"]) | ({data["last_deal"][2]} if data["last_deal"] else set())
                own = set(data["hands"][seat]) if seat is not None else set()
                assert _cards_in(view) <= public | own
                if seat is not None:
                    assert view["hand"] == data["hands"][seat]
                else:
                    assert "hand" not in view
                assert view["hand_counts"] == [len(h) for h in data["hands"]]
            (seat,) = GAME.to_act(state)
            GAME.apply(state, seat, GAME.random_move(state, seat, rng))


def test_determinize_keeps_the_seats_hand_and_the_public_cards() -> None:
    state = random_game(4, {"lives": 5}, 11, moves=5)
    assert not GAME.is_over(state) and state.pile
    seat = 2
    before = GAME.to_json(state)
    others = set()
    for i in range(20):
        guess = GAME.determinize(state, seat, random.Random(i))
        data = GAME.to_json(guess)
        assert data["hands"][seat] == before["hands"][seat]
        assert data["pile"] == before["pile"] and data["total"] == before["total"]
        assert [len(h) for h in data["hands"]] == [len(h) for h in before["hands"]]
        assert len(data["stock"]) == len(before["stock"])
        every = [c for h in data["hands"] for c in h] + data["stock"] + data["pile"]
        assert len(every) == 52 and set(every) == DECK
        others.add(tuple(data["hands"][0]))
        # The guess is a full, playable state.
        (to_act,) = GAME.to_act(guess)
        GAME.apply(guess, to_act, GAME.legal_moves(guess, to_act)[0])
    assert len(others) > 1  # the hidden cards really are dealt at random
    assert GAME.to_json(state) == before


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    a = random_game(5, {"lives": 3}, 9)
    b = random_game(5, {"lives": 3}, 9)
    assert GAME.to_json(a) == GAME.to_json(b)
