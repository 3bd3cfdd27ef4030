"""Fixtures for the dashboard tests: staff and plain users, tables played through the service."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cardtable.tables.authority import moving, seating
from cardtable.tables.models import MoveRecord, Player, Table
from games import get_game
from tests.server.helpers import short_options


@pytest.fixture
def staff_client(db: Any) -> Client:
    """A browser logged in as a staff superuser."""
    user = User.objects.create_user("staff", password="pw", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    client.user = user  # type: ignore[attr-defined]
    return client


@pytest.fixture
def plain_client(db: Any) -> Client:
    """A browser logged in as a user who is not staff."""
    client = Client()
    client.force_login(User.objects.create_user("plain", password="pw"))
    return client


def new_table(game_id: str, humans: int = 0, level: str = "random", start: bool = True) -> Table:
    """A table of ``game_id`` (shortest options) with ``humans`` guest players first, bots after."""
    host = Player.objects.create(name="Host")
    table = seating.create_table(host, game_id, None, short_options(game_id), seated=humans > 0)
    for index in range(table.players):
        if index < humans:
            player = host if index == 0 else Player.objects.create(name=f"P{index}")
            seating.sit(table.pk, player, index)
        else:
            seating.add_bot(table.pk, host, index, level)
    if start:
        seating.start(table.pk, host)
    return Table.objects.get(pk=table.pk)


def play(table_id: str, rng: random.Random, moves: int | None = None) -> dict[int, Any]:
    """Make random legal moves through ``apply_move`` until the game ends (or ``moves`` are made).

    Returns the stored state JSON after the start and after every move, by table version.
    """
    table = Table.objects.get(pk=table_id)
    states = {table.version: table.state}
    made = 0
    while table.status == Table.PLAYING and (moves is None or made < moves):
        game = get_game(table.game)
        state = game.from_json(table.state)
        seat = game.to_act(state)[0]
        move = rng.choice(game.legal_moves(state, seat))
        moving.apply_move(table_id, move, table.version, seat=seat, by=MoveRecord.BOT)
        table = Table.objects.get(pk=table_id)
        states[table.version] = table.state
        made += 1
    return states


def run_checks() -> int:
    """Run every queued playability check of an uploaded RECYCLE game now, in this thread, as the
    job's supervisor thread would (each in its child process); return how many ran. A test that
    does not commit needs it: no other thread sees its rows."""
    from django.test import override_settings

    from cardtable.dashboard import checkjobs

    ran = 0
    # Not niced, and given time: the test waits for it, on a machine other tests keep busy.
    with override_settings(RECYCLE_CHECK_NICENESS=0, RECYCLE_CHECK_TIMEOUT=900):
        while (row := checkjobs.QUEUE.claim()) is not None:
            checkjobs.run(row)
            ran += 1
    return ran
