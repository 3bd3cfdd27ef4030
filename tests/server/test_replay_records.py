"""``manage.py checkreplays`` names what does not replay; results recorded by the old rule are rewritten."""

from __future__ import annotations

import importlib
import random
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from cardtable.dashboard.models import GameSummary
from cardtable.dashboard.stats import summarize, summarize_pending
from cardtable.tables.authority import departures, seating
from cardtable.tables.models import Match, Player, Table
from cardtable.tables.replay import ReplayError, walk
from tests.server.seatchanges import step

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("cardtable.tables.migrations.0011_result_left_for_good")
RESUMMARIZE = importlib.import_module("cardtable.dashboard.migrations.0008_resummarize_failed_replays")


def output(*args: str) -> str:
    """Run a management command; return what it wrote."""
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def finished_agram(seed: int) -> Match:
    """A two-seat Agram game of a guest and a bot, played at random to its end."""
    rng = random.Random(seed)
    ann = Player.objects.create(name=f"Ann{seed}")
    table = seating.create_table(ann, "agram", 2, {})
    seating.add_bot(table.pk, ann, 1, "random")
    seating.start(table.pk, ann)
    while Table.objects.get(pk=table.pk).status == Table.PLAYING:
        step(table.pk, rng, careful=False)
    return Match.objects.get(table=table)


def test_checkreplays_names_a_game_that_does_not_replay() -> None:
    match = finished_agram(5)
    finished_agram(6)
    assert output("checkreplays") == "2 finished games replay to their recorded results\n"
    assert output("checkreplays", "hearts") == "0 finished games replay to their recorded results\n"
    match.result = {**match.result, "scores": [s + 1 for s in match.result["scores"]]}
    match.save(update_fields=["result"])
    with pytest.raises(CommandError) as failed:
        output("checkreplays")
    message = str(failed.value)
    assert message.startswith("1 of 2 finished games do not replay")
    assert f"table {match.table_id} game 1 (agram)" in message and "scores" in message


def test_a_result_recorded_by_the_old_rule_is_rewritten_and_replays() -> None:
    match = finished_agram(7)
    # Seat 0's player left and took the seat back: the old rule still named it in the result.
    match.left = [{"seat": 0, "player": 1, "name": "Ann7", "moves": 2, "taken_by": 1, "taken_after": 3}]
    match.result = {**match.result, "left": [0]}
    match.save(update_fields=["left", "result"])
    with pytest.raises(ReplayError):
        list(walk(match))
    assert summarize(match).error  # the dashboard counted it among the logs that no longer replay
    MIGRATION.rewrite(apps, None)
    RESUMMARIZE.forget_failed(apps, None)
    match.refresh_from_db()
    assert "left" not in match.result
    list(walk(match))
    assert departures.left_seats(match.left) == []
    assert summarize_pending() == 1 and GameSummary.objects.get(match=match).error == ""


def test_the_seats_left_for_good() -> None:
    back = {"seat": 0, "player": 7, "moves": 2, "taken_by": 7, "taken_after": 4}
    assert departures.left_seats([back]) == []
    assert departures.left_seats([{"seat": 0, "player": 7, "moves": 2}]) == [0]  # a bot finished it
    assert departures.left_seats([{**back, "taken_by": 8}]) == [0]  # someone else took it over
    # 7 left, 9 took over and left, 7 took it back: 9 left it for good.
    again = [{**back, "taken_by": 9}, {"seat": 0, "player": 9, "moves": 5, "taken_by": 7, "taken_after": 6}]
    assert departures.left_seats(again) == [0] and departures.gone(again, 0) == [9]
    assert departures.recorded_result({"scores": [1, 2]}, [back]) == {"scores": [1, 2]}
