"""Bursts of racing moves on one table: exactly one wins each race, every loser gets an error.

Each seated player holds several websockets to the table (as with several browser
tabs open) and they all fire at once. In Hearts' pass, where all seats act at
once, every seat's first pass is accepted and its duplicates refused; in the
play, one move at the current version wins and every other message (the same
seat's duplicates, and the other seats moving out of turn) is refused. The
PostgreSQL case splits the sockets over two Daphne processes sharing the
database and a Redis, as in a scaled deployment.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest

from tests.ops.conftest import POSTGRES_ADMIN_URL, require_binary
from tests.ops.harness import (
    Conn,
    DaphneServer,
    Database,
    FreshPostgres,
    Player,
    RedisServer,
    is_error,
    replay,
    seat_table,
    settle,
    state_at_least,
)

pytestmark = pytest.mark.slow

SOCKETS_PER_SEAT = 3
PLAY_RACES = 8


@pytest.fixture(
    scope="module",
    params=["sqlite-1-process", pytest.param("postgres-2-processes", marks=[pytest.mark.postgres])],
)
def servers(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple]:
    """One Daphne on SQLite, or two Daphnes sharing a fresh PostgreSQL database and a private Redis."""
    if request.param.startswith("sqlite"):
        env = {"SQLITE_PATH": str(tmp_path_factory.mktemp("db") / "db.sqlite3")}
        server = DaphneServer(env)
        server.migrate()
        server.start()
        try:
            yield [server], Database(env)
        finally:
            server.kill()
        return
    require_binary("redis-server")
    redis = RedisServer()
    redis.start()
    try:
        with FreshPostgres(POSTGRES_ADMIN_URL, f"cardtable_ops_races_{id(request)}") as url:
            env = {"DATABASE_URL": url, "REDIS_URL": redis.url}
            first, second = DaphneServer(env), DaphneServer(env)
            first.migrate()
            first.start()
            second.start()
            try:
                yield [first, second], Database(env)
            finally:
                first.kill()
                second.kill()
    finally:
        redis.stop()


async def _fire(shots: list[tuple[Conn, dict]]) -> list[int]:
    """Send every message at once; return each connection's message count before it."""
    marks = [len(conn.messages) for conn, _ in shots]
    await asyncio.gather(*(conn.send(msg) for conn, msg in shots))
    return marks


async def _errors_for(shots: list[tuple[Conn, dict]], marks: list[int], expected: int) -> dict[str, dict]:
    """Wait until `expected` of the shots have an error echoing their id; return them by id."""
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        found = {}
        for (conn, msg), mark in zip(shots, marks, strict=True):
            for reply in conn.messages[mark:]:
                if is_error(reply) and reply.get("id") == msg["id"]:
                    found[msg["id"]] = reply
        if len(found) >= expected or asyncio.get_running_loop().time() > deadline:
            await asyncio.sleep(0.3)  # room for a wrong extra error to show up
            return found
        await asyncio.sleep(0.02)


async def test_racing_moves_on_one_table(servers: tuple) -> None:
    processes, db = servers
    first = processes[0]
    table, players, primary = await seat_table(first.base, first.ws_base, "hearts", 4)
    # Extra sockets per seat, spread over the processes (same session cookie: another tab).
    socks: list[list[Conn]] = [[conn] for conn in primary]
    for seat, player in enumerate(players):
        for k in range(1, SOCKETS_PER_SEAT):
            server = processes[(seat + k) % len(processes)]
            socks[seat].append(await Conn.open(server.ws_base, table["ws"], player))
    everyone = [conn for seat_socks in socks for conn in seat_socks]
    for conn in everyone:
        await conn.wait_for(lambda m: m.get("type") == "state")
    rng = random.Random(7)

    # The pass: all seats act at once. Every socket of every seat fires a pass at version v.
    v = await settle(everyone)
    assert primary[0].state["view"]["phase"] == "pass"
    shots = []
    for seat, seat_socks in enumerate(socks):
        legal = seat_socks[0].state["legal_moves"]
        for k, conn in enumerate(seat_socks):
            move = rng.choice(legal)
            shots.append((conn, {"type": "move", "move": move, "version": v, "id": f"p{seat}.{k}"}))
    marks = await _fire(shots)
    errors = await _errors_for(shots, marks, len(shots) - 4)
    assert len(errors) == len(shots) - 4, sorted(errors)
    refused = {"not_your_turn", "stale_version", "illegal_move"}
    assert all(e["code"] in refused for e in errors.values()), errors
    winners = [(int(msg["id"][1]), msg["move"]) for conn, msg in shots if msg["id"] not in errors]
    assert sorted(seat for seat, _ in winners) == [0, 1, 2, 3], "exactly one pass per seat"
    row, log = replay(db, table["id"])
    assert row["version"] == v + 4 and row["replayed"] == row["state"]
    assert sorted((r["seat"], r["move"]) for r in log) == sorted(winners)

    # The play: one seat to act. All its sockets fire (different legal moves), the others fire out of turn.
    for race in range(PLAY_RACES):
        v = await settle(everyone)
        state = primary[0].state
        assert state["view"]["phase"] == "play" and len(state["to_act"]) == 1, state["to_act"]
        mover = state["to_act"][0]
        shots = []
        for seat, seat_socks in enumerate(socks):
            if seat == mover:
                legal = seat_socks[0].state["legal_moves"]
                moves = [rng.choice(legal) for _ in seat_socks]
            else:
                moves = [{"play": rng.choice(seat_socks[0].state["view"]["hand"])} for _ in seat_socks]
            for k, conn in enumerate(seat_socks):
                msg = {"type": "move", "move": moves[k], "version": v, "id": f"r{race}.{seat}.{k}"}
                shots.append((conn, msg))
        rng.shuffle(shots)
        log_before = len(log)
        marks = await _fire(shots)
        errors = await _errors_for(shots, marks, len(shots) - 1)
        assert len(errors) == len(shots) - 1, f"race {race}: {len(shots) - len(errors)} winners"
        (winner,) = [msg for _, msg in shots if msg["id"] not in errors]
        assert int(winner["id"].split(".")[1]) == mover
        # Losers: the mover's other sockets are stale; the others are out of turn, or stale once
        # the winner's move made it their turn.
        assert all(e["code"] in {"stale_version", "not_your_turn"} for e in errors.values()), errors
        for conn in everyone:  # the one new state reaches every socket, on both processes
            await conn.wait_for(state_at_least(v + 1), 10)
        row, log = replay(db, table["id"])
        assert row["version"] == v + 1 and row["replayed"] == row["state"]
        assert len(log) == log_before + 1 and log[-1]["move"] == winner["move"] and log[-1]["seat"] == mover

    for conn in everyone:
        await conn.close()


async def test_two_players_racing_for_one_seat(servers: tuple) -> None:
    processes, db = servers
    host = Player(processes[0].base)
    await asyncio.to_thread(host.login, "host")
    table = await asyncio.to_thread(host.create_table, "hearts", 4)
    rivals = [Player(processes[i % len(processes)].base) for i in range(8)]
    await asyncio.gather(*(asyncio.to_thread(p.login, f"r{i}") for i, p in enumerate(rivals)))
    conns = [
        await Conn.open(processes[i % len(processes)].ws_base, table["ws"], p) for i, p in enumerate(rivals)
    ]
    for conn in conns:
        await conn.wait_for(lambda m: m.get("type") == "state")
    shots = [(conn, {"type": "sit", "seat": 2, "id": f"s{i}"}) for i, conn in enumerate(conns)]
    marks = await _fire(shots)
    errors = await _errors_for(shots, marks, len(shots) - 1)
    assert len(errors) == len(shots) - 1
    assert {e["code"] for e in errors.values()} == {"seat_taken"}
    (winner,) = [i for i, (_, msg) in enumerate(shots) if msg["id"] not in errors]
    seated = await conns[winner].wait_for(lambda m: m.get("type") == "state" and m["you"]["seat"] == 2)
    assert seated["table"]["seats"][2]["name"] == f"r{winner}"
    assert db.table(table["id"])["version"] == seated["version"]
    for conn in conns:
        await conn.close()
