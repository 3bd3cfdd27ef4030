"""``manage.py rebuild_ratings`` gives back the updated ratings to the last bit."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import call_command

from cardtable.ratings.models import RatedMatch, Rating, RatingChange
from cardtable.tables import events
from cardtable.tables.models import Match, Player
from games.bots import LEVELS
from tests.ratings.helpers import guest, member, record

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[list[tuple[Any, ...]], ...]:
    """Every stored figure: the ratings (floats compared exactly) and each rated game's changes."""
    ratings = sorted(
        Rating.objects.values_list("player_id", "game", "mu", "sigma", "ordinal", "games", "updated")
    )
    rated = sorted(RatedMatch.objects.values_list("match_id", "game", "finished"))
    changes = sorted(
        RatingChange.objects.values_list(
            "rated__match_id", "player_id", "rank", "mu_before", "sigma_before", "mu", "sigma"
        )
    )
    return ratings, rated, changes


def season(rng: random.Random, emit: bool) -> list[Match]:
    """Forty finished games of Hearts and Cribbage: members, guests, bots, ties, leavers, abandoned ones."""
    members = [member(f"M{i}") for i in range(6)]
    guests = [guest(f"G{i}") for i in range(2)]
    matches = []
    for minute in range(40):
        game, seats = ("hearts", rng.choice([3, 4])) if rng.random() < 0.7 else ("cribbage", 2)
        people: list[Player] = rng.sample(members + guests, rng.randint(0, seats))
        holders: list[Player | str] = [*people, *(rng.choice(LEVELS) for _ in range(seats - len(people)))]
        rng.shuffle(holders)
        scores = [rng.choice([0, 10, 20, 20, 30]) for _ in holders]  # ties are common
        left = []
        humans = [i for i, h in enumerate(holders) if isinstance(h, Player)]
        if humans and rng.random() < 0.3:
            index = rng.choice(humans)
            departure = {"seat": index, "player": holders[index].pk, "name": "x", "moves": 3}
            outsiders = [m for m in members if m not in people]
            if rng.random() < 0.5 and outsiders:
                departure |= {"taken_by": rng.choice(outsiders).pk, "taken_after": 5}
            left.append(departure)
        abandoned = rng.random() < 0.1
        matches.append(
            record(game, holders, scores, minute=minute, left=left, abandoned=abandoned, emit=emit)
        )
    return matches


def rebuilt() -> str:
    """Run the command; return what it printed."""
    out = io.StringIO()
    call_command("rebuild_ratings", stdout=out)
    return out.getvalue()


def test_the_rebuild_equals_the_updates_bit_for_bit() -> None:
    season(random.Random(34), emit=True)
    updated = snapshot()
    assert len(updated[0]) >= 8 and len(updated[1]) >= 20  # the season rated a good deal
    Rating.objects.update(mu=0.0, sigma=1.0)  # spoil them: the rebuild must not start from these
    printed = rebuilt()
    assert snapshot() == updated
    assert printed == f"rated {len(updated[1])} finished games\n"


def test_games_told_out_of_order_are_rated_in_order_of_finish() -> None:
    matches = season(random.Random(7), emit=False)
    shuffled = list(matches)
    random.Random(1).shuffle(shuffled)
    for match in shuffled:  # two tables' results committed in the other order, and so on
        events.emit(events.MatchFinished(match.table_id, match.pk))
    told = snapshot()
    rebuilt()
    assert snapshot() == told
    # In order of finish time: each player's game starts from the rating their previous game left.
    last: dict[tuple[int, str], tuple[float, float]] = {}
    for change in RatingChange.objects.select_related("rated").order_by("rated__finished", "rated__match"):
        key = (change.player_id, change.rated.game)
        assert (change.mu_before, change.sigma_before) == last.get(key, (25.0, 25.0 / 3))
        last[key] = (change.mu, change.sigma)
    assert len(last) >= 8


def test_a_game_committed_late_winds_back_only_the_games_after_it() -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    first = record("hearts", [ann, bob, "easy"], [10, 90, 50], minute=0)
    # Its result committed last, though it finished before the third game: unfinished till then.
    late = record("hearts", [bob, cy, "hard"], [10, 90, 50], minute=1, emit=False)
    Match.objects.filter(pk=late.pk).update(finished=None)
    third = record("hearts", [cy, ann, "normal"], [10, 90, 50], minute=2)
    kept, replaced = RatedMatch.objects.get(match=first).pk, RatedMatch.objects.get(match=third).pk
    assert Rating.objects.get(player=bob).games == 1
    Match.objects.filter(pk=late.pk).update(finished=late.finished)
    events.emit(events.MatchFinished(late.table_id, late.pk))
    assert RatedMatch.objects.get(match=first).pk == kept  # before it: left as it was
    assert RatedMatch.objects.get(match=third).pk != replaced  # after it: rated again
    assert Rating.objects.get(player=bob).games == 2
    told = snapshot()
    rebuilt()
    assert snapshot() == told


def test_a_rebuild_of_one_game_leaves_the_others() -> None:
    ann, bob = member("Ann"), member("Bob")
    record("hearts", [ann, bob, "easy"], [10, 90, 50], minute=0)
    record("cribbage", [ann, bob], [121, 90], minute=1)
    before = snapshot()
    Rating.objects.filter(game="cribbage").update(mu=1.0)
    call_command("rebuild_ratings", "hearts", stdout=io.StringIO())
    assert Rating.objects.get(player=ann, game="cribbage").mu == 1.0
    call_command("rebuild_ratings", "cribbage", stdout=io.StringIO())
    assert snapshot() == before
