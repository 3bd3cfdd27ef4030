"""A bot's answer time does not tell how many legal moves it had (docs/security.md S6).

The bot's own computation is replaced by an instant one, so the test sees only
the wait the driver adds: it must be drawn from the level's think budget
whatever the position. The waits are read as requested, not timed.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from cardtable.tables.authority import seating
from cardtable.tables.autoplay import driver as bots
from cardtable.tables.autoplay import turns
from cardtable.tables.models import Connection, Table
from games import get_game
from tests.server.conftest import make_player

pytestmark = pytest.mark.django_db(transaction=True)


def bot_table() -> tuple[str, int]:
    """A two-seat Agram table: two hard bots, started; return its id and Ann's (the host's) id."""
    ann, _ = make_player("Ann")
    table = seating.create_table(ann, "agram", 2, {}, seated=False)
    for seat in range(2):
        seating.add_bot(table.pk, ann, seat, "hard")
    seating.start(table.pk, ann)
    return table.pk, ann.pk


async def test_a_bot_waits_its_drawn_think_time_whatever_its_number_of_legal_moves(
    settings, monkeypatch
) -> None:
    settings.BOT_THINK_SECONDS = {"normal": 0.25, "hard": 0.5}
    settings.BOT_PAUSE = 0
    waits: list[float] = []
    legal_counts: list[int] = []
    real_sleep = asyncio.sleep

    async def spy_sleep(delay: float, *args: object) -> None:
        if delay > 0:
            waits.append(delay)
        await real_sleep(0)

    def instant(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict:
        game = get_game(game_id)
        legal = game.legal_moves(game.from_json(state_json), seat)
        legal_counts.append(len(legal))
        return legal[0]

    async def search(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict:
        return instant(game_id, state_json, seat, level, seed)

    monkeypatch.setattr(turns, "search", search)
    monkeypatch.setattr(bots.asyncio, "sleep", spy_sleep)
    table_id, _ = await database_sync_to_async(bot_table)()
    # Someone watches (a table nobody is at pauses its bots).
    await database_sync_to_async(Connection.objects.create)(
        channel="watcher!1", table_id=table_id, player=None, seen=timezone.now()
    )
    bots.driver.ensure_started()
    async with asyncio.timeout(60):
        while (await database_sync_to_async(Table.objects.get)(pk=table_id)).status == Table.PLAYING:
            await real_sleep(0.01)
    assert 1 in legal_counts and max(legal_counts) > 1  # both kinds of position were played
    think = [w for w in waits if w >= 0.4]  # the driver's waits (other sleeps here are short retries)
    assert len(think) >= len(legal_counts)
    # Each answer waited a time drawn from [budget, 1.25 budget], with no trace of the position.
    assert all(0.45 <= w <= 0.5 * 1.25 for w in think)
