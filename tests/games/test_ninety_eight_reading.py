"""Ninety-Eight's determinize reads the plays: a seat that passed over safe number cards holds none."""

from __future__ import annotations

import random

import pytest

from games.cards import CARD_INDEX, CARD_NAMES, cards_in
from games.ninety_eight import GAME
from games.ninety_eight.reading import _fits, last_plays, numbers_mask, passed_over
from tests.games.test_ninety_eight import arranged

NUMBERS = numbers_mask(1, 9)


def _after_a_jack_at_nine():
    """Seat 0 plays 9C (total 9), seat 1 plays JD though it could have played a number card."""
    state = arranged(
        [
            ["9C", "KS", "QS", "TS"],
            ["JD", "2D", "3D", "4D"],
            ["5H", "6H", "7H", "8H"],
            ["AS", "2S", "3S", "4S"],
        ],
        dealer=3,
    )
    GAME.apply(state, 0, {"play": "9C"})
    GAME.apply(state, 1, {"play": "JD"})
    return state


def test_passed_over_is_what_the_easy_reading_would_have_played_instead() -> None:
    jack, five, king = CARD_INDEX["JD"], CARD_INDEX["5C"], CARD_INDEX["KH"]
    # A J at 92: no number card from A to 6.
    assert {CARD_NAMES[c][0] for c in cards_in(passed_over(92, jack))} == set("A23456")
    # A 5 at 90: no 6, 7 or 8 (a higher card that was still safe).
    assert {CARD_NAMES[c][0] for c in cards_in(passed_over(90, five))} == set("678")
    # A K at 98: no J, Q or T (the escapes given up first), no number card fits anyway.
    assert {CARD_NAMES[c][0] for c in cards_in(passed_over(98, king))} == set("JQT")


def test_last_plays_follow_the_public_turn_order() -> None:
    state = _after_a_jack_at_nine()
    marks = last_plays(state)
    assert set(marks) == {0, 1}
    assert marks[0] == (3, 0)  # a 9 at 0: nothing higher exists
    assert marks[1] == (3, NUMBERS)  # a J with every number card safe


def test_a_seat_that_passed_over_number_cards_is_dealt_at_most_its_draw_among_them() -> None:
    state = _after_a_jack_at_nine()
    seat_one_numbers, seat_zero_numbers = set(), set()
    for i in range(40):
        guess = GAME.determinize(state, 2, random.Random(i))
        held = guess.hands[1] & NUMBERS
        assert held.bit_count() <= 1  # only the card drawn after the J may be one
        assert guess.hands[2] == state.hands[2]
        seat_one_numbers.add(held.bit_count())
        seat_zero_numbers.add((guess.hands[0] & NUMBERS).bit_count())
    assert seat_one_numbers == {0, 1}  # the drawn card is left free
    assert max(seat_zero_numbers) >= 2  # seat 0 showed nothing: its hand is not marked


def test_the_read_deal_is_the_same_whatever_the_hidden_cards() -> None:
    state = _after_a_jack_at_nine()
    twin = GAME.determinize(state, 2, random.Random(99))
    for i in range(10):
        a = GAME.to_json(GAME.determinize(state, 2, random.Random(i)))
        b = GAME.to_json(GAME.determinize(twin, 2, random.Random(i)))
        assert a == b


def test_marks_no_deal_can_fit_are_dropped() -> None:
    unseen = NUMBERS | (1 << CARD_INDEX["KH"])
    assert _fits(unseen, [(1, NUMBERS)])
    assert not _fits(unseen, [(1, NUMBERS), (1, NUMBERS)])  # two slots, one card they may take
    assert not _fits(unseen, [(2, NUMBERS)])


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_last_plays_name_the_seat_that_really_played(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(6):
        state = GAME.new(players, {"lives": 3}, seed)
        plays: dict[int, tuple[int, int]] = {}  # seat -> (kept, avoided) of its last play this deal
        while not GAME.is_over(state):
            seat, deal, total = state.turn, state.deal_number, state.total
            held = state.hands[seat].bit_count()
            move = GAME.random_move(state, seat, rng)
            GAME.advance(state, seat, move)
            avoided = passed_over(total, CARD_INDEX[move["play"]]) if held > 1 else 0
            plays = {} if state.deal_number != deal else {**plays, seat: (held - 1, avoided)}
            if GAME.is_over(state) or not state.pile:
                continue
            assert last_plays(state) == plays
            checked += 1
    assert checked > 50
