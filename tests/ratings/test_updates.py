"""Ratings follow finished games: who goes up and down, what is not rated, ties, and a game rated once."""

from __future__ import annotations

import pytest

from cardtable.ratings import rating as updates
from cardtable.ratings.models import RatedMatch, Rating
from cardtable.ratings.rating import MODEL, bot_rating
from cardtable.ratings.summary import bot_rows
from tests.ratings.helpers import guest, member, ranks_rated, record

pytestmark = pytest.mark.django_db


def rating(player: object, game: str = "hearts") -> Rating:
    """The stored rating of a player in a game."""
    return Rating.objects.get(player=player, game=game)


def test_the_winner_goes_up_the_loser_down_and_the_bots_stay() -> None:
    references = bot_rows()
    ann, bob = member("Ann"), member("Bob")
    # Hearts: the lowest score wins.
    record("hearts", [ann, "easy", bob, "hard"], [10, 40, 90, 50])
    assert rating(ann).mu > MODEL.mu > rating(bob).mu
    assert rating(ann).ordinal > rating(bob).ordinal
    assert rating(ann).games == rating(bob).games == 1
    # Bots are never stored, and their reference rows are what they were.
    assert Rating.objects.count() == 2
    assert bot_rows() == references
    assert bot_rating("hard") == (28.0, 1.0) and bot_rating("normal") == (MODEL.mu, 1.0)
    assert RatedMatch.objects.count() == 1
    assert ranks_rated() == {ann.pk: 0, bob.pk: 3}


def test_beating_a_stronger_bot_gains_more_than_a_weaker_one() -> None:
    ann, bob = member("Ann"), member("Bob")
    record("hearts", [ann, "random", "random"], [0, 50, 60], minute=0)
    record("hearts", [bob, "hard", "hard"], [0, 50, 60], minute=1)
    assert rating(bob).mu > rating(ann).mu > MODEL.mu


def test_a_game_of_bots_only_is_not_rated() -> None:
    record("hearts", ["easy", "normal", "hard", "random"], [10, 20, 30, 40])
    assert not RatedMatch.objects.exists()
    assert not Rating.objects.exists()


def test_a_game_of_guests_and_bots_changes_nothing() -> None:
    record("hearts", [guest("Gus"), "easy", "hard"], [10, 20, 30])
    assert not RatedMatch.objects.exists() and not Rating.objects.exists()


def test_an_abandoned_game_is_not_rated() -> None:
    ann, bob = member("Ann"), member("Bob")
    record("hearts", [ann, bob, "easy"], [0, 0, 0], abandoned=True)
    assert not RatedMatch.objects.exists() and not Rating.objects.exists()


def test_a_game_is_rated_once() -> None:
    ann, bob = member("Ann"), member("Bob")
    match = record("hearts", [ann, bob, "easy"], [10, 90, 50])
    first = (rating(ann).mu, rating(ann).sigma, rating(bob).mu)
    updates.rate_finished(match.pk)
    updates.rate_finished(match.pk)
    assert (rating(ann).mu, rating(ann).sigma, rating(bob).mu) == first
    assert rating(ann).games == 1 and RatedMatch.objects.count() == 1


def test_a_guest_is_no_rated_opponent() -> None:
    ann, gus = member("Ann"), guest("Gus")
    record("hearts", [ann, gus, "easy"], [90, 10, 50])
    assert rating(ann).mu < MODEL.mu
    assert not Rating.objects.filter(player=gus).exists()
    # Gus is left out (a throwaway name is no opponent): as if Ann had lost to the bot alone.
    cy = member("Cy")
    record("hearts", [cy, "easy"], [90, 50], minute=1)
    assert rating(cy).mu == rating(ann).mu and rating(cy).sigma == rating(ann).sigma
    # Beating guests alone rates nothing.
    record("hearts", [member("Dee"), guest("Gil"), guest("Gwen")], [0, 60, 70], minute=2)
    assert RatedMatch.objects.count() == 2


def test_tied_players_share_a_rank() -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    record("hearts", [ann, bob, cy], [20, 20, 70])
    assert rating(ann).mu == rating(bob).mu > MODEL.mu > rating(cy).mu
    assert ranks_rated() == {ann.pk: 0, bob.pk: 0, cy.pk: 2}


def test_a_tie_is_not_a_win() -> None:
    ann, bob, cy, dee = member("Ann"), member("Bob"), member("Cy"), member("Dee")
    record("hearts", [ann, bob, "easy"], [20, 20, 70], minute=0)
    record("hearts", [cy, dee, "easy"], [10, 20, 70], minute=1)
    assert rating(cy).mu > rating(ann).mu > rating(dee).mu


def test_the_highest_score_wins_where_the_game_says_so() -> None:
    ann, bob = member("Ann"), member("Bob")
    # Cribbage: the highest score wins.
    record("cribbage", [ann, bob], [121, 100])
    assert rating(ann, "cribbage").mu > MODEL.mu > rating(bob, "cribbage").mu
    assert not Rating.objects.filter(game="hearts").exists()


def test_each_game_has_its_own_rating() -> None:
    ann, bob = member("Ann"), member("Bob")
    record("hearts", [ann, bob, "easy"], [10, 90, 50], minute=0)
    record("cribbage", [ann, bob], [100, 121], minute=1)
    assert rating(ann, "hearts").mu > MODEL.mu > rating(ann, "cribbage").mu
