"""Rating farming (issue 40): throwaway players who leave at once are no win to collect.

The report's sequence, through the authority: a registered host opens a four-seat
Agram table, three guests of their own sit, the game starts, the guests leave at
once and the host plays random moves to the end while the stand-ins play the
guests' seats. Four such games raised the host's rating 3.0, 5.9, 8.6, 11.2; now
they change nothing, and the same with registered throwaway accounts lowers only
the accounts' ratings.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.ratings.models import RatedMatch, Rating, RatingChange
from cardtable.tables.authority import seating
from cardtable.tables.models import Match, Player, Table
from games import get_game
from tests.ratings.helpers import guest, member
from tests.server.seatchanges import step

pytestmark = pytest.mark.django_db


def farm(host: Player, others: list[Player], seed: int, bot: str | None = None, leave: bool = True) -> Match:
    """One game of the sequence: ``others`` sit (and a ``bot`` in the last seat), leave after the start."""
    rng = random.Random(seed)
    table = seating.create_table(host, "agram", 4, {})
    for index, other in enumerate(others, start=1):
        seating.sit(table.pk, other, index)
    if bot is not None:
        seating.add_bot(table.pk, host, 3, bot)
    seating.start(table.pk, host)
    if leave:
        for other in others:
            seating.leave(table.pk, other)
    while Table.objects.get(pk=table.pk).status == Table.PLAYING:
        step(table.pk, rng, careful=False)
    return Match.objects.get(table=table)


def test_guests_leaving_at_the_start_do_not_raise_the_hosts_rating(
    django_capture_on_commit_callbacks: Any,
) -> None:
    host = member("Host")
    with django_capture_on_commit_callbacks(execute=True):
        for game in range(4):
            match = farm(host, [guest(f"G{game}{i}") for i in range(3)], seed=game)
            assert match.result["left"] == [1, 2, 3]
    # Nobody else held a seat to the end: there was no one to be rated against.
    assert not Rating.objects.filter(player=host).exists() and not RatedMatch.objects.exists()


def test_registered_throwaways_leaving_lower_only_their_own_ratings(
    django_capture_on_commit_callbacks: Any,
) -> None:
    host = member("Host")
    throwaways = [member(f"Alt{i}") for i in range(12)]
    with django_capture_on_commit_callbacks(execute=True):
        for game in range(4):
            farm(host, throwaways[3 * game : 3 * game + 3], seed=10 + game)
    assert not Rating.objects.filter(player=host).exists()
    for alt in throwaways:
        (change,) = RatingChange.objects.filter(player=alt)
        assert change.rank == 4 and change.mu < change.mu_before  # they left: last, and they lost
    assert RatedMatch.objects.count() == 4


def test_guests_who_stay_are_not_rated_opponents(django_capture_on_commit_callbacks: Any) -> None:
    host = member("Host")
    with django_capture_on_commit_callbacks(execute=True):
        farm(host, [guest(f"G{i}") for i in range(3)], seed=20, leave=False)
    assert not Rating.objects.filter(player=host).exists()


def test_with_nobody_else_to_the_end_the_host_is_rated_against_the_bot_only(
    django_capture_on_commit_callbacks: Any,
) -> None:
    host = member("Host")
    with django_capture_on_commit_callbacks(execute=True):
        match = farm(host, [guest("G1"), guest("G2")], seed=30, bot="hard")
    (change,) = RatingChange.objects.filter(rated__match=match)
    ranks = get_game("agram").info.ranks(match.result["scores"])
    assert match.result["left"] == [1, 2]
    # The two seats the guests left are out; a place level with the hard bot or above it raises mu.
    assert change.player_id == host.pk and (change.mu > change.mu_before) == (ranks[0] <= ranks[3])
