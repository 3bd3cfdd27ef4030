"""A player who took their own seat back and held it to the end did not leave it (issue 40).

Read the same way by the recorded result, the ratings, the player's page and the
dashboard's win rates: the game of ``seatchanges.play_with_seat_changes``, where
Bob leaves and takes seat 1 back twice, Cy leaves seat 2 to Dee, and staff remove
Dee before the end.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.accounts.players import line_of
from cardtable.dashboard.stats import bot_level_results
from cardtable.tables.models import MatchPlayer
from games import get_game
from tests.ratings.helpers import member, ranks_rated
from tests.server.seatchanges import play_with_seat_changes

pytestmark = pytest.mark.django_db


def test_a_seat_taken_back_is_rated_and_shown_as_its_players(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    people = {name: member(name) for name in ("Ann", "Bob", "Cy", "Dee")}
    with django_capture_on_commit_callbacks(execute=True):
        played = play_with_seat_changes("agram", people, monkeypatch, seed=3)
    match = played.match()
    info = get_game("agram").info
    ranks = info.ranks(match.result["scores"])
    ann, bob, cy, dee = (people[name].pk for name in ("Ann", "Bob", "Cy", "Dee"))
    assert match.result["left"] == [2]
    # Bob is rated at his seat's place; Cy and Dee, who did not hold seat 2 at the end, last.
    assert ranks_rated(match) == {ann: ranks[0], bob: ranks[1], cy: 4, dee: 4}
    lines = {row.player_id: line_of(row, info) for row in MatchPlayer.objects.filter(match=match)}
    assert not lines[bob].left and not lines[ann].left
    assert lines[cy].left and lines[dee].left and lines[dee].took_over
    _games, rows = bot_level_results()
    seats = {row["level"]: row["cells"]["agram"]["seats"] for row in rows}
    assert seats["human"] == 2 and seats["left"] == 1  # Ann and Bob played theirs; seat 2 was left
