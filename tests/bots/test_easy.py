"""The easy players behave as the issue describes, checked over many random states."""

from __future__ import annotations

import random

import pytest

from games import GAMES
from games.bots import make_bot
from games.cards import CARD_INDEX
from games.tricks import ace_high
from tests.bots.helpers import random_states


def easy_move(game, state, seat):
    return make_bot("easy", game, 0).choose(state, seat)


def _gain(game, state, seat, move) -> int:
    """The seat's public score change from ``move``, tried on a copy."""
    before = game.view(state, None)["scores"][seat]
    copy = game.clone(state)
    game.advance(copy, seat, move)
    after = game.result(copy) if game.is_over(copy) else game.view(copy, None)
    return after["scores"][seat] - before


@pytest.fixture
def hearts():
    return GAMES["hearts"]


def _hearts_plays(game, count):
    for state, seat in random_states(game, count, seed=41):
        view = game.view(state, seat)
        if view["phase"] == "play" and view["trick"] and len(game.legal_moves(state, seat)) > 1:
            yield state, seat, view


def test_hearts_ducks_under_the_winning_card(hearts) -> None:
    checked = 0
    for state, seat, view in _hearts_plays(hearts, 400):
        trick = [CARD_INDEX[p["card"]] for p in view["trick"]]
        led = trick[0] // 13
        winning = max((c for c in trick if c // 13 == led), key=ace_high)
        legal = [CARD_INDEX[m["play"]] for m in hearts.legal_moves(state, seat)]
        under = [c for c in legal if c // 13 == led and ace_high(c) < ace_high(winning)]
        if under:
            assert CARD_INDEX[easy_move(hearts, state, seat)["play"]] == max(under, key=ace_high)
            checked += 1
    assert checked >= 20


def test_hearts_dumps_the_queen_then_high_hearts_when_void(hearts) -> None:
    queens = hearts_dumped = 0
    for state, seat, view in _hearts_plays(hearts, 600):
        led = CARD_INDEX[view["trick"][0]["card"]] // 13
        legal = [CARD_INDEX[m["play"]] for m in hearts.legal_moves(state, seat)]
        if any(c // 13 == led for c in legal):
            continue
        played = CARD_INDEX[easy_move(hearts, state, seat)["play"]]
        if CARD_INDEX["QS"] in legal:
            assert played == CARD_INDEX["QS"]
            queens += 1
        elif any(c // 13 == 2 for c in legal):
            assert played == max((c for c in legal if c // 13 == 2), key=ace_high)
            hearts_dumped += 1
    assert queens + hearts_dumped >= 10


def test_hearts_passes_the_queen_of_spades_when_spades_are_short(hearts) -> None:
    passed = 0
    for i in range(60):
        state = hearts.new(4, None, i)
        if hearts.view(state, 0)["phase"] != "pass":
            continue
        hand = hearts.view(state, 0)["hand"]
        if "QS" in hand and sum(c[1] == "S" for c in hand) < 5:
            assert "QS" in easy_move(hearts, state, 0)["pass"]
            passed += 1
    assert passed >= 3


def test_agram_keeps_its_best_card_for_the_sixth_trick() -> None:
    game = GAMES["agram"]
    checked = 0
    for state, seat in random_states(game, 300, seed=43):
        view = game.view(state, seat)
        legal = [CARD_INDEX[m["play"]] for m in game.legal_moves(state, seat)]
        best = max((CARD_INDEX[c] for c in view["hand"]), key=ace_high)
        if view["tricks_played"] < 4 and len(legal) > 1 and best in legal:
            played = CARD_INDEX[easy_move(game, state, seat)["play"]]
            assert played != best
            assert played == min((c for c in legal if c != best), key=ace_high)
            checked += 1
    assert checked >= 20


def test_ninety_eight_plays_the_biggest_safe_number_and_holds_escapes() -> None:
    game = GAMES["ninety_eight"]
    checked = 0
    for state, seat in random_states(game, 300, seed=47):
        total = game.view(state, seat)["total"]
        moves = game.legal_moves(state, seat)
        numbers = [m for m in moves if m["play"][0] in "A23456789"]
        safe = [m for m in numbers if total + "A23456789".index(m["play"][0]) + 1 <= 98]
        if len(moves) > 1 and safe:
            move = easy_move(game, state, seat)
            assert move["play"][0] not in "TJQK"
            assert move["play"][0] == max((m["play"][0] for m in safe), key="A23456789".index)
            checked += 1
    assert checked >= 50


def test_ninety_eight_escapes_when_every_number_would_bust() -> None:
    game = GAMES["ninety_eight"]
    checked = 0
    for state, seat in random_states(game, 2000, seed=53):
        total = game.view(state, seat)["total"]
        ranks = [m["play"][0] for m in game.legal_moves(state, seat)]
        numbers = [r for r in ranks if r in "A23456789"]
        if (
            numbers
            and all(total + "A23456789".index(r) + 1 > 98 for r in numbers)
            and set(ranks) & set("TJQK")
        ):
            assert easy_move(game, state, seat)["play"][0] in "TJQK"
            checked += 1
    assert checked >= 3


def test_stealing_bundles_takes_when_it_can() -> None:
    game = GAMES["stealing_bundles"]
    checked = 0
    for state, seat in random_states(game, 300, seed=59):
        moves = game.legal_moves(state, seat)
        gains = [_gain(game, state, seat, m) for m in moves]
        if len(moves) > 1 and max(gains) > 0:
            assert _gain(game, state, seat, easy_move(game, state, seat)) > 0
            checked += 1
    assert checked >= 20


def test_cribbage_pegs_the_most_it_can() -> None:
    game = GAMES["cribbage"]
    checked = 0
    for state, seat in random_states(game, 400, seed=61):
        if game.view(state, seat)["phase"] != "play":
            continue
        moves = game.legal_moves(state, seat)
        gains = [_gain(game, state, seat, m) for m in moves]
        if len(moves) > 1 and max(gains) > 0:
            assert _gain(game, state, seat, easy_move(game, state, seat)) == max(gains)
            checked += 1
    assert checked >= 10


def test_cribbage_easy_discards_the_best_hand() -> None:
    from games.cribbage import select_hand

    game = GAMES["cribbage"]
    rng = random.Random(3)
    for _ in range(10):
        state = game.new(2, None, rng.randrange(10**6))
        hand = game.view(state, 0)["hand"]
        assert easy_move(game, state, 0) == {"discard": select_hand(hand)[1]}
