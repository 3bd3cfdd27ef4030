"""A seat someone left: who gets its result (docs/ratings.md), from the game's record alone."""

from __future__ import annotations

import pytest

from cardtable.ratings.entrants import BOT, PLAYER, Entrant, entrants, final_holder
from cardtable.ratings.models import Rating
from cardtable.ratings.rating import MODEL
from tests.ratings.helpers import member, ranks_rated, record, seat_of


def test_a_seat_nobody_left_is_its_first_holders() -> None:
    seats = [{"seat": 0, "player": 7, "level": None}, {"seat": 1, "player": None, "level": "easy"}]
    assert entrants(seats, [], [1, 0]) == [Entrant(PLAYER, 7, None, 1), Entrant(BOT, None, "easy", 0)]


def test_a_seat_taken_over_goes_to_its_last_holder_and_the_leaver_is_last() -> None:
    seats = [{"seat": 0, "player": 7, "level": None}, {"seat": 1, "player": 8, "level": None}]
    left = [{"seat": 0, "player": 7, "name": "A", "moves": 3, "taken_by": 9, "taken_after": 5}]
    assert entrants(seats, left, [0, 1]) == [
        Entrant(PLAYER, 9, None, 0),
        Entrant(PLAYER, 8, None, 1),
        Entrant(PLAYER, 7, None, 2, forfeit=True),
    ]


def test_a_seat_a_stand_in_finished_is_left_out_and_its_leaver_is_last() -> None:
    seats = [{"seat": 0, "player": 7, "level": None}, {"seat": 1, "player": 8, "level": None}]
    left = [{"seat": 0, "player": 7, "name": "A", "moves": 3}]
    assert entrants(seats, left, [0, 1]) == [
        Entrant(PLAYER, 8, None, 1),
        Entrant(PLAYER, 7, None, 2, forfeit=True),
    ]


def test_the_holder_at_the_end_is_the_latest_takeover() -> None:
    # 7 left, 9 took over and left, 7 took the seat back: 7 holds it at the end.
    left = [
        {"seat": 0, "player": 7, "moves": 2, "taken_by": 9, "taken_after": 4},
        {"seat": 0, "player": 9, "moves": 6, "taken_by": 7, "taken_after": 8},
    ]
    assert final_holder(left) == 7
    seats = [{"seat": 0, "player": 7, "level": None}, {"seat": 1, "player": None, "level": "hard"}]
    assert entrants(seats, left, [1, 0]) == [
        Entrant(PLAYER, 7, None, 1),
        Entrant(BOT, None, "hard", 0),
        Entrant(PLAYER, 9, None, 2, forfeit=True),
    ]
    # Reopened: 9 left again after taking it; nobody took it: a bot finished it.
    assert final_holder([{**left[0]}, {"seat": 0, "player": 9, "moves": 6}]) is None


def test_leavers_share_the_last_rank() -> None:
    seats = [{"seat": i, "player": 10 + i, "level": None} for i in range(3)]
    left = [{"seat": 0, "player": 10, "moves": 1}, {"seat": 2, "player": 12, "moves": 4}]
    assert entrants(seats, left, [2, 1, 0]) == [
        Entrant(PLAYER, 11, None, 1),
        Entrant(PLAYER, 10, None, 3, forfeit=True),
        Entrant(PLAYER, 12, None, 3, forfeit=True),
    ]
    # Two seats sharing a place still leave every seat ahead: the leaver's rank is the seat count.
    assert entrants(seats, left[:1], [1, 1, 0])[-1] == Entrant(PLAYER, 10, None, 3, forfeit=True)


@pytest.mark.django_db
def test_leaving_a_won_game_still_loses_and_the_taker_wins() -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    # Ann started in seat 0 and left; Cy took it over and it won.
    left = [{"seat": 0, "player": ann.pk, "name": "Ann", "moves": 3, "taken_by": cy.pk, "taken_after": 6}]
    match = record("hearts", [ann, bob, "easy"], [10, 60, 40], left=left)
    assert match.seats[0] == seat_of(0, ann)
    stored = {r.player_id: r for r in Rating.objects.filter(game="hearts")}
    assert stored[cy.pk].mu > MODEL.mu > stored[bob.pk].mu > stored[ann.pk].mu
    assert ranks_rated(match) == {cy.pk: 0, bob.pk: 2, ann.pk: 3}
