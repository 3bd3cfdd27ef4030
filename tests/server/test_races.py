"""Racing moves: exactly one wins; simultaneous phases accept older versions as documented."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from cardtable.tables.authority import moving, seating
from cardtable.tables.errors import TableError
from cardtable.tables.models import MoveRecord, Table
from games import GAMES, get_game
from tests.server.conftest import Client, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def humans_table(game_id: str, seats: int) -> tuple[Table, list]:
    """A started table whose every seat is a human; the first player is the host."""
    people = [make_player(f"P{i}") for i in range(seats)]
    table = seating.create_table(people[0][0], game_id, seats, {})
    for index, (player, _) in enumerate(people):
        seating.sit(table.pk, player, index)
    seating.start(table.pk, people[0][0])
    return Table.objects.get(pk=table.pk), people


def state_of(table: Table):
    """The table's game state object."""
    return get_game(table.game).from_json(table.state)


async def test_two_tabs_of_one_player_race_and_exactly_one_move_is_applied() -> None:
    table, people = await database_sync_to_async(humans_table)("agram", 2)
    game = get_game("agram")
    seat = game.to_act(state_of(table))[0]
    tabs = [await Client(table.pk, people[seat][1]).connect() for _ in range(2)]
    for tab in tabs:
        await tab.quiet()
    moves = tabs[0].state["legal_moves"]
    version = tabs[0].state["version"]
    first, second = moves[0], moves[-1] if len(moves) > 1 else moves[0]
    await asyncio.gather(
        tabs[0].send({"type": "move", "move": first, "version": version, "id": "a"}),
        tabs[1].send({"type": "move", "move": second, "version": version, "id": "b"}),
    )
    # Both tabs hear of the winning move; the loser also gets its error.
    for tab in tabs:
        await tab.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
    async with asyncio.timeout(10):
        while not (errors := [m for tab in tabs for m in tab.messages if m["type"] == "error"]):
            await asyncio.gather(*(tab.quiet(0.1) for tab in tabs))
    await asyncio.gather(*(tab.quiet(0.2) for tab in tabs))
    errors = [m for tab in tabs for m in tab.messages if m["type"] == "error"]
    assert len(errors) == 1 and errors[0]["code"] in ("stale_version", "not_your_turn")
    after = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert after.version == version + 1
    assert await database_sync_to_async(MoveRecord.objects.filter(match__table=table).count)() == 1
    for tab in tabs:
        assert tab.state["version"] == version + 1


def test_threads_racing_through_the_service_apply_exactly_one() -> None:
    table, _ = humans_table("agram", 3)
    game = get_game("agram")
    state = state_of(table)
    seat = game.to_act(state)[0]
    moves = game.legal_moves(state, seat)
    outcomes: list[str] = []
    barrier = threading.Barrier(6)

    def race(move: dict) -> None:
        barrier.wait()
        try:
            moving.apply_move(table.pk, move, table.version, seat=seat)
            outcomes.append("applied")
        except TableError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(moves[i % len(moves)],)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("applied") == 1, outcomes
    assert set(outcomes) <= {"applied", "stale_version", "not_your_turn"}
    after = Table.objects.get(pk=table.pk)
    assert after.version == table.version + 1
    assert list(MoveRecord.objects.filter(match__table=table).values_list("seq", flat=True)) == [1]


def _simultaneous_games() -> list[str]:
    """Games whose first phase has several seats acting at once (Hearts' pass, Cribbage's discard)."""
    found = []
    for game_id, game in GAMES.items():
        for seed in range(5):
            if len(game.to_act(game.new(game.info.default_players, {}, seed))) > 1:
                found.append(game_id)
                break
    return found


@pytest.mark.parametrize("game_id", _simultaneous_games())
def test_in_a_simultaneous_phase_other_seats_moves_do_not_make_yours_stale(game_id: str) -> None:
    game = get_game(game_id)
    table, people = humans_table(game_id, game.info.default_players)
    seen = table.version
    acting = game.to_act(state_of(table))
    assert len(acting) > 1
    # Every acting seat moves with the version it saw before anyone moved.
    for count, seat in enumerate(acting):
        state = state_of(Table.objects.get(pk=table.pk))
        if seat not in game.to_act(state):
            break
        move = game.legal_moves(state, seat)[0]
        version = moving.apply_move(table.pk, move, seen, player=people[seat][0])
        assert version == seen + count + 1
        # A second move by a seat that has acted: refused, not applied twice.
        with pytest.raises(TableError) as error:
            moving.apply_move(table.pk, move, seen, player=people[seat][0])
        assert error.value.code in ("not_your_turn", "stale_version", "illegal_move")
    table = Table.objects.get(pk=table.pk)
    assert MoveRecord.objects.filter(match__table=table).count() == table.version - seen


def test_outside_a_simultaneous_phase_an_older_version_is_stale() -> None:
    table, people = humans_table("agram", 3)
    game = get_game("agram")
    seen = table.version
    first = game.to_act(state_of(table))[0]
    moving.apply_move(table.pk, game.legal_moves(state_of(table), first)[0], seen, player=people[first][0])
    state = state_of(Table.objects.get(pk=table.pk))
    second = game.to_act(state)[0]
    with pytest.raises(TableError) as error:
        moving.apply_move(table.pk, game.legal_moves(state, second)[0], seen, player=people[second][0])
    assert error.value.code == "stale_version"


def test_an_admin_move_goes_through_the_same_service_and_is_logged() -> None:
    table, _ = humans_table("agram", 2)
    game = get_game("agram")
    state = state_of(table)
    seat = game.to_act(state)[0]
    with pytest.raises(TableError) as error:
        moving.apply_move(table.pk, game.legal_moves(state, seat)[0], None, seat=1 - seat, by="admin")
    assert error.value.code == "not_your_turn"
    version = moving.apply_move(table.pk, game.legal_moves(state, seat)[0], None, seat=seat, by="admin")
    assert version == table.version + 1
    assert list(MoveRecord.objects.values_list("seat", "by", "version")) == [(seat, "admin", version)]


def test_a_stand_in_move_computed_before_its_human_returned_is_dropped() -> None:
    """A return does not change the version, so the service itself refuses the late stand-in move."""
    from cardtable.tables.authority import presence
    from cardtable.tables.models import Seat

    table, people = humans_table("agram", 2)
    game = get_game("agram")
    state = state_of(table)
    seat = game.to_act(state)[0]
    Seat.objects.filter(table=table, index=seat).update(stand_in=True, away_since=table.updated)
    move = game.legal_moves(state, seat)[0]  # the stand-in's choice, computed now...

    presence.join("tab-1", table.pk, people[seat][0].pk)  # ...while its human comes back
    with pytest.raises(TableError) as refused:
        moving.apply_move(table.pk, move, table.version, seat=seat, by=MoveRecord.STAND_IN)
    assert refused.value.code == "not_your_turn"
    assert Table.objects.get(pk=table.pk).version == table.version
    assert not MoveRecord.objects.filter(match__table=table).exists()

    # While the stand-in still holds the seat, its move goes through.
    Seat.objects.filter(table=table, index=seat).update(stand_in=True)
    moving.apply_move(table.pk, move, table.version, seat=seat, by=MoveRecord.STAND_IN)
    assert MoveRecord.objects.get(match__table=table).by == MoveRecord.STAND_IN
