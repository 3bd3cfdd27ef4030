"""A game played through the authority to its end is rated by the app's own subscription."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.ratings.models import RatedMatch, Rating, RatingChange
from cardtable.tables import events
from cardtable.tables.authority import seating
from cardtable.tables.models import Match, Table
from games import get_game
from tests.ratings.helpers import member, ranks_rated
from tests.server.helpers import hearts_with_a_takeover, play, short_options

pytestmark = pytest.mark.django_db


def test_a_game_played_with_a_takeover_is_rated_as_recorded(django_capture_on_commit_callbacks: Any) -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    with django_capture_on_commit_callbacks(execute=True):
        table = hearts_with_a_takeover(ann, bob, cy)
        play(table.pk, random.Random(4))
    match = Match.objects.get(table=table)
    assert match.result is not None and match.left[0]["taken_by"] == cy.pk
    ranks = get_game("hearts").info.ranks(match.result["scores"])
    assert ranks_rated(match) == {ann.pk: ranks[0], cy.pk: ranks[1], bob.pk: 3}
    changes = {c.player_id: c for c in RatingChange.objects.filter(rated__match=match)}
    stored = {r.player_id: r for r in Rating.objects.filter(game="hearts")}
    assert set(stored) == {ann.pk, bob.pk, cy.pk}
    for player, held in stored.items():
        assert held.games == 1 and (held.mu, held.sigma) == (changes[player].mu, changes[player].sigma)
    assert stored[bob.pk].mu < 25.0  # leaving lost


def test_a_game_with_no_registered_player_played_to_its_end_is_not_rated(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        host = member("Ann")  # registered, but watching: only the seats are rated
        table = seating.create_table(host, "hearts", 3, short_options("hearts"), seated=False)
        for index in range(3):
            seating.add_bot(table.pk, host, index, "random")
        seating.start(table.pk, host)
        play(table.pk, random.Random(5))
    assert Match.objects.get(table=table).result is not None
    assert not RatedMatch.objects.exists() and not Rating.objects.exists()


def test_the_final_state_goes_out_before_the_game_is_rated(
    django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    heard: list[tuple[str, int]] = []
    changed, finished = ("changed", lambda e: e.version), ("finished", lambda e: 0)
    for kind, (name, number) in ((events.TableChanged, changed), (events.MatchFinished, finished)):
        monkeypatch.setitem(events._handlers, kind, [lambda e, n=name, f=number: heard.append((n, f(e)))])
    ann = member("Ann")
    with django_capture_on_commit_callbacks(execute=True):
        table = seating.create_table(ann, "hearts", 3, short_options("hearts"))
        seating.add_bot(table.pk, ann, 1, "random")
        seating.add_bot(table.pk, ann, 2, "random")
        seating.start(table.pk, ann)
        play(table.pk, random.Random(6))
    final = Table.objects.get(pk=table.pk).version
    assert heard[-2:] == [("changed", final), ("finished", 0)]
