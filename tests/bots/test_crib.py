"""Crib tables: shipped data matches its script; discards weigh hand and crib."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games import GAMES
from games.cards import CARD_INDEX, CARD_NAMES
from games.cribbage.crib_discard import crib_value, discard_values, opening
from games.cribbage.crib_tables import exact_crib_value, tables
from games.cribbage.scoring import keep_totals


def test_tables_are_symmetric_and_plausible() -> None:
    pairs, singles = tables()["pairs"], tables()["singles"]
    assert len(pairs) == 13 and len(singles) == 13
    for r1 in range(13):
        for r2 in range(13):
            assert pairs[r1][r2] == pairs[r2][r1]
            assert 3.0 < pairs[r1][r2] < 9.5
    five = 4
    assert pairs[five][five] == max(max(row) for row in pairs)  # two fives make the richest crib
    assert singles[five] == max(singles)


@pytest.mark.parametrize(("r1", "r2"), [(4, 4), (0, 12), (4, 10)])
def test_shipped_pairs_match_the_script(r1: int, r2: int) -> None:
    assert tables()["pairs"][r1][r2] == pytest.approx(exact_crib_value((r1, 13 + r2), ()), abs=1e-4)


def test_exact_crib_value_of_a_known_case() -> None:
    # The crib holding 5C 5D, every other two crib cards and start from 50 cards.
    assert exact_crib_value((4, 17), ()) == pytest.approx(tables()["pairs"][4][4], abs=1e-4)


def test_discard_values_add_the_crib_for_the_dealer_and_take_it_away_otherwise() -> None:
    cards = [CARD_INDEX[c] for c in ("5C", "5D", "JH", "QS", "2C", "9D")]
    moves = [{"discard": [CARD_NAMES[a], CARD_NAMES[b]]} for a, b in combinations(cards, 2)]
    totals = {frozenset(k): t / 46 for t, k in keep_totals(cards)}
    for own, sign in ((True, 1), (False, -1)):
        for value, move in discard_values(cards, own, moves):
            thrown = [CARD_INDEX[c] for c in move["discard"]]
            kept = frozenset(c for c in cards if c not in thrown)
            assert value == pytest.approx(totals[kept] + sign * crib_value(thrown))


def test_dealer_and_pone_discard_differently_sometimes() -> None:
    game = GAMES["cribbage"]
    differ = 0
    rng = random.Random(5)
    for _ in range(30):
        state = game.new(2, None, rng.randrange(10**6))
        view = game.view(state, 0)
        dealer = view["dealer"]
        pone = 1 - dealer
        hand = [CARD_INDEX[c] for c in game.view(state, pone)["hand"]]
        moves = game.legal_moves(state, pone)
        as_pone = opening(game, state, pone, rng)
        as_dealer = max(discard_values(hand, True, moves), key=lambda vm: vm[0])[1]
        assert as_pone == max(discard_values(hand, False, moves), key=lambda vm: vm[0])[1]
        differ += as_pone != as_dealer
    assert differ >= 3


def test_opening_only_acts_in_the_discard_phase() -> None:
    game = GAMES["cribbage"]
    state = game.new(2, None, 1)
    for seat in (0, 1):
        game.apply(state, seat, opening(game, state, seat, random.Random(0)))
    assert game.view(state, 0)["phase"] == "play"
    assert opening(game, state, game.to_act(state)[0], random.Random(0)) is None
