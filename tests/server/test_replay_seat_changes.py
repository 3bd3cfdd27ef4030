"""Every finished game replays to its recorded result, whatever seat changes it had (issue 40).

Each of the five games, and a RECYCLE game staff added, is played through the
authority with a leave and a take-back with no stand-in move between, a stand-in's
move, a take-back after the bot moved, a takeover by another player, a timeout's
move, staff moves and a restart (``seatchanges.py``); its replay must end with
the very result recorded, ``manage.py checkreplays`` must find it sound, and a
seat taken back by its own player is not recorded as left (a player staff
removed is).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from cardtable.dashboard import recycle_games
from cardtable.dashboard.models import StoredGame
from cardtable.tables.authority import seating
from cardtable.tables.models import Match, MoveRecord, Player, Table
from cardtable.tables.replay import walk
from games import get_game
from games.recycle import library
from tests.server.seatchanges import acting, play_with_seat_changes, step, until

pytestmark = pytest.mark.django_db

STORED = "recycle_replay_whist"


@pytest.fixture
def people() -> dict[str, Player]:
    """Ann, Bob, Cy and Dee: guests."""
    return {name: Player.objects.create(name=name) for name in ("Ann", "Bob", "Cy", "Dee")}


@pytest.fixture
def stored_whist() -> Iterator[str]:
    """The library's Whist stored as a RECYCLE game staff added; return its id."""
    StoredGame.objects.create(
        game_id=STORED, name="Replay Whist", text=library()["whist"].read_text(), players=4
    )
    yield STORED
    recycle_games.forget(STORED)


def check_replays(match: Match) -> Any:
    """Replay ``match`` (checked move by move and against its result); return the final state."""
    *_, (_record, state, _new_deal) = walk(match)
    return state


@pytest.mark.parametrize(
    "game_id", ["agram", "ninety_eight", "stealing_bundles", "hearts", "cribbage", STORED]
)
def test_a_game_with_every_seat_change_replays_to_its_recorded_result(
    game_id: str, people: dict[str, Player], monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    if game_id == STORED:
        request.getfixturevalue("stored_whist")
    played = play_with_seat_changes(game_id, people, monkeypatch)
    assert played.steps == [
        "taken back, no stand-in move between",
        "stand-in move",
        "taken back after the bot moved",
        "taken over by another player",
        "timeout move",
        "staff moves",
        "restart",
    ]
    match = played.match()
    kinds = set(match.moves.values_list("by", flat=True))
    assert kinds == {
        MoveRecord.HUMAN,
        MoveRecord.BOT,
        MoveRecord.STAND_IN,
        MoveRecord.TIMEOUT,
        MoveRecord.ADMIN,
    }
    final = check_replays(match)
    table = Table.objects.get(pk=played.table_id)
    assert get_game(game_id).to_json(final) == table.state
    # Bob took his own seat back and held it to the end: he did not leave. Cy left seat 2
    # for good (Dee took it over), and Dee, removed by staff, did not hold it at the end.
    assert match.result["left"] == [2]
    assert [(d["seat"], d["player"]) for d in match.left] == [
        (1, people["Bob"].pk),
        (2, people["Cy"].pk),
        (2, people["Dee"].pk),
    ]
    out = call_command_output("checkreplays")
    assert "1 finished game replays to its recorded result" in out


def call_command_output(*args: str) -> str:
    """Run a management command; return what it wrote."""
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_a_seat_taken_back_two_moves_later_replays_and_is_not_a_departure(people: dict[str, Player]) -> None:
    """The report's game: Ninety-Eight, a leave after some moves, the seat taken back two moves later."""
    rng = random.Random(23)
    ann, bob = people["Ann"], people["Bob"]
    table = seating.create_table(ann, "ninety_eight", 3, {"lives": 3})
    seating.sit(table.pk, bob, 1)
    seating.add_bot(table.pk, ann, 2, "random")
    seating.start(table.pk, ann)
    for _ in range(6):
        step(table.pk, rng)
    until(table.pk, rng, lambda now: now == [2])
    seating.leave(table.pk, bob)
    for _ in range(2):  # two moves by the others; Bob is back before the bot moves for him
        if 1 in acting(table.pk):
            break
        step(table.pk, rng)
    seating.takeover(table.pk, bob, 1)
    for _ in range(3000):
        current = Table.objects.get(pk=table.pk)
        if current.status != Table.PLAYING:
            break
        step(table.pk, rng, careful=False)
    match = Match.objects.get(table=table)
    assert match.left[0]["taken_by"] == bob.pk and match.moves.filter(seat=1, by=MoveRecord.BOT).count() == 0
    assert "left" not in match.result
    check_replays(match)
