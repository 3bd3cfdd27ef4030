"""Stealing Bundles: refused moves, JSON round trips, views and determinization (the contract's promises)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.cards import CARD_NAMES
from games.engine import IllegalMoveError, NotYourTurnError
from games.stealing_bundles import GAME
from tests.games.test_stealing_bundles import DECK, arranged, random_game

# Bad moves


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"play": "9H"}, "9H is not in your hand"),
        ({"play": "1C"}, '{"play": CARD}'),
        ({"play": 5}, '{"play": CARD}'),
        ({"take": "2C"}, '{"play": CARD}'),
        ({"play": "2C", "also": "KD"}, "one key"),
        (["2C"], "one key"),
    ],
)
def test_a_bad_move_is_refused_with_a_reason_and_changes_nothing(move: Any, words: str) -> None:
    state = arranged([["2C", "KD"], ["3C", "4C"]], bundles=[["5D"], ["2S"]], pool=["2H"], dealer=1)
    before = json.dumps(GAME.to_json(state))
    with pytest.raises(IllegalMoveError) as error:
        GAME.apply(state, 0, move)
    assert words in str(error.value)
    assert json.dumps(GAME.to_json(state)) == before


def test_a_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    state = arranged([["2C", "KD"], ["3C", "4C"]], dealer=1)
    before = json.dumps(GAME.to_json(state))
    with pytest.raises(NotYourTurnError) as error:
        GAME.apply(state, 1, {"play": "3C"})
    assert error.value.code == "not_your_turn"
    assert json.dumps(GAME.to_json(state)) == before


# State, views and determinization


@pytest.mark.parametrize("players", [2, 4])
def test_json_round_trip_mid_game_continues_identically(players: int) -> None:
    for seed in range(4):
        state = random_game(players, {}, seed, moves=7 + seed * 5)
        data = GAME.to_json(state)
        assert data["game"] == "stealing_bundles" and json.loads(json.dumps(data)) == data
        copy = GAME.from_json(json.loads(json.dumps(data)))
        assert GAME.to_json(copy) == data
        assert GAME.view(copy, 0) == GAME.view(state, 0)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not GAME.is_over(state):
            (seat,) = GAME.to_act(state)
            assert GAME.to_act(copy) == [seat]
            move = GAME.random_move(state, seat, rng_a)
            assert GAME.random_move(copy, seat, rng_b) == move
            assert list(GAME.apply(state, seat, move)) == list(GAME.apply(copy, seat, move))
            assert GAME.to_json(copy) == GAME.to_json(state)
        assert GAME.result(copy) == GAME.result(state)


def test_clone_is_independent() -> None:
    state = random_game(3, {}, 4, moves=10)
    before = GAME.to_json(state)
    copy = GAME.clone(state)
    while not GAME.is_over(copy):
        (seat,) = GAME.to_act(copy)
        GAME.apply(copy, seat, GAME.legal_moves(copy, seat)[0])
    assert GAME.to_json(state) == before


def _cards_in(value: Any) -> set[str]:
    """Every card string anywhere in a JSON value."""
    text = json.dumps(value)
    return {card for card in CARD_NAMES if f'"{card}"' in text}


def test_a_view_never_shows_another_seats_hand_or_the_stock() -> None:
    for seed in range(4):
        state = GAME.new(4, {}, seed)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            data = GAME.to_json(state)
            in_bundles = {c for b in data["bundles"] for c in b}
            for seat in (None, 0, 1, 2, 3):
                view = GAME.view(state, seat)
                assert "stock" not in view and "hands" not in view
                own = set(data["hands"][seat]) if seat is not None else set()
                assert _cards_in(view) <= set(data["pool"]) | in_bundles | own
                assert view["hand_counts"] == [len(h) for h in data["hands"]]
                if seat is None:
                    assert "hand" not in view
                else:
                    assert view["hand"] == data["hands"][seat]
            (seat,) = GAME.to_act(state)
            GAME.apply(state, seat, GAME.random_move(state, seat, rng))


def test_determinize_keeps_the_seats_hand_the_pool_and_every_bundle() -> None:
    state = random_game(4, {}, 3, moves=22)
    assert not GAME.is_over(state)
    before = GAME.to_json(state)
    seat = GAME.to_act(state)[0]
    guesses = set()
    for i in range(20):
        guess = GAME.determinize(state, seat, random.Random(i))
        data = GAME.to_json(guess)
        assert data["hands"][seat] == before["hands"][seat]
        assert data["pool"] == before["pool"] and data["bundles"] == before["bundles"]
        assert [len(h) for h in data["hands"]] == [len(h) for h in before["hands"]]
        assert len(data["stock"]) == len(before["stock"])
        every = [c for h in data["hands"] for c in h] + data["stock"] + data["pool"]
        every += [c for b in data["bundles"] for c in b]
        assert len(every) == 52 and set(every) == DECK
        guesses.add(tuple(data["stock"]))
        while not GAME.is_over(guess):  # the guess plays out as a full game
            (to_act,) = GAME.to_act(guess)
            GAME.apply(guess, to_act, GAME.legal_moves(guess, to_act)[0])
    assert len(guesses) > 1
    assert GAME.to_json(state) == before
