"""The gate in front of every websocket (cardtable/tables/live/admission.py), in process.

Behind it stands an application that holds each connect until the test lets
it go, so the test decides how busy the process is.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import time

import pytest
from channels.testing import WebsocketCommunicator

from cardtable.tables.live import admission
from cardtable.tables.live.admission import REFUSED_CODE, Admission, Gate


class Held:
    """An ASGI websocket app that accepts, waits for ``release``, then sends one frame (its 'state')."""

    def __init__(self) -> None:
        self.started = 0
        self.release = asyncio.Event()

    async def __call__(self, scope: dict, receive, send) -> None:
        """Do the connect's 'work' only once released."""
        assert (await receive())["type"] == "websocket.connect"
        self.started += 1
        await send({"type": "websocket.accept"})  # the gate has accepted already: this one is dropped
        await self.release.wait()
        await send({"type": "websocket.send", "text": json.dumps({"type": "state"})})
        while (await receive())["type"] != "websocket.disconnect":
            pass


class Echo(Held):
    """``Held``, then echoes each text frame back."""

    async def __call__(self, scope: dict, receive, send) -> None:
        """Send the 'state' once released, then echo."""
        assert (await receive())["type"] == "websocket.connect"
        self.started += 1
        await self.release.wait()
        await send({"type": "websocket.send", "text": json.dumps({"type": "state"})})
        while (message := await receive())["type"] != "websocket.disconnect":
            await send({"type": "websocket.send", "text": message["text"]})


async def _refusal(comm: WebsocketCommunicator) -> dict:
    connected, _ = await comm.connect(timeout=5)
    assert connected
    error = json.loads(await comm.receive_from(timeout=5))
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": REFUSED_CODE}
    return error


async def _until(check, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_beyond_its_turns_and_its_wait_a_handshake_is_refused_at_once_with_spread_retry_times() -> None:
    # Two turns of a second each serve two handshakes a second: 5 s of waiting holds nine.
    door = admission._gates[asyncio.get_running_loop()] = Gate(2, 5.0)
    door.turn = 1.0
    app = Held()
    gate = Admission(app)
    working = [WebsocketCommunicator(gate, "/ws/tables/x/") for _ in range(2)]
    for comm in working:
        assert (await comm.connect(timeout=5))[0]
    await _until(lambda: app.started == 2)
    waiting = [WebsocketCommunicator(gate, "/ws/tables/x/") for _ in range(9)]
    tasks = [asyncio.ensure_future(comm.connect(timeout=30)) for comm in waiting]
    await _until(lambda: len(door.waiting) == 9)
    refused = []
    for _ in range(6):
        refused.append(await _refusal(WebsocketCommunicator(gate, "/ws/tables/x/")))
    assert all(e["type"] == "error" and e["code"] == "rate_limited" for e in refused)
    times = [e["retry_after"] for e in refused]
    # Each a later slot than the one before, a quarter second apart (twice the rate: early rather
    # than late), from halfway through the five seconds the nine held have to wait.
    assert times == sorted(times) and 2.5 <= times[0] <= 3.0, times
    assert all(0.15 <= b - a <= 0.35 for a, b in itertools.pairwise(times)), times
    assert app.started == 2  # no refused handshake reached the application
    app.release.set()
    for comm in working:
        assert json.loads(await comm.receive_from(timeout=5)) == {"type": "state"}
        await comm.disconnect()
    for comm, task in zip(waiting, tasks, strict=True):  # the waiting ones are served in turn
        assert (await task)[0]
        assert json.loads(await comm.receive_from(timeout=10)) == {"type": "state"}
        await comm.disconnect()
    assert app.started == 11
    assert door.counts["refused"] == 6 and door.counts["expired"] == 0


async def test_a_handshake_held_past_its_hold_is_refused_before_any_work(settings) -> None:
    settings.CONNECT_CONCURRENCY, settings.CONNECT_WAIT, settings.CONNECT_HOLD = 1, 1.0, 0.3
    app = Held()
    gate = Admission(app)
    first = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await first.connect(timeout=5))[0]
    second = WebsocketCommunicator(gate, "/ws/tables/x/")  # held for the one turn...
    error = await _refusal(second)  # ...which does not come within 0.3 s
    assert error["retry_after"] > 0
    assert app.started == 1
    assert admission.gate().counts["expired"] == 1
    app.release.set()
    assert json.loads(await first.receive_from(timeout=5)) == {"type": "state"}
    # The turn is free again: the next handshake is served.
    third = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await third.connect(timeout=5))[0]
    assert json.loads(await third.receive_from(timeout=5)) == {"type": "state"}
    assert app.started == 2
    await first.disconnect()
    await third.disconnect()


async def test_a_held_handshake_is_accepted_at_once_and_keeps_what_its_client_sends() -> None:
    door = admission._gates[asyncio.get_running_loop()] = Gate(1, 5.0)
    app = Echo()
    gate = Admission(app)
    first = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await first.connect(timeout=5))[0]
    await _until(lambda: app.started == 1)
    second = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await second.connect(timeout=1))[0]  # open while held: Daphne's handshake timeout can't cut it
    await second.send_to(text_data="sent while held")
    await _until(lambda: len(door.waiting) == 1)
    assert app.started == 1
    app.release.set()
    assert json.loads(await first.receive_from(timeout=5)) == {"type": "state"}
    assert json.loads(await second.receive_from(timeout=5)) == {"type": "state"}
    assert await second.receive_from(timeout=5) == "sent while held"  # read while held, handed on
    assert app.started == 2
    await first.disconnect()
    await second.disconnect()


async def test_a_held_client_that_leaves_gives_up_its_place_before_any_work() -> None:
    door = admission._gates[asyncio.get_running_loop()] = Gate(1, 5.0)
    app = Held()
    gate = Admission(app)
    first = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await first.connect(timeout=5))[0]
    await _until(lambda: app.started == 1)
    leaving = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await leaving.connect(timeout=1))[0]
    await _until(lambda: len(door.waiting) == 1)
    await leaving.disconnect()
    await _until(lambda: door.counts["left"] == 1)
    third = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await third.connect(timeout=1))[0]
    app.release.set()
    assert json.loads(await first.receive_from(timeout=5)) == {"type": "state"}
    assert json.loads(await third.receive_from(timeout=5)) == {"type": "state"}  # the one gone is skipped
    assert app.started == 2
    assert door.counts["served"] == 2 and door.working == 0 and not door.waiting
    await first.disconnect()
    await third.disconnect()


async def test_a_handshake_cancelled_while_it_waits_loses_no_turn() -> None:
    door = Gate(1, 5.0)
    assert door.enter(time.monotonic()) is None  # the one turn, taken
    waiting = door.enter(time.monotonic())
    assert isinstance(waiting, asyncio.Future) and len(door.waiting) == 1
    door.give_up(waiting, "left")  # as when Daphne cancels an application whose client has gone
    door.leave(time.monotonic(), True)
    assert door.working == 0  # the turn was not handed to the one that left
    assert door.enter(time.monotonic()) is None  # and the next handshake has it at once


def test_a_refusal_past_the_longest_retry_takes_no_slot() -> None:
    door = Gate(1, 1.0)
    door.turn = 10.0  # a turn every ten seconds, slots called back at twice that rate: five fit in 30 s
    door.working = 1
    now = time.monotonic()
    times = [door.retry_after(now) for _ in range(8)]
    assert times[:5] == pytest.approx([10.0, 15.0, 20.0, 25.0, 30.0]), times
    assert times[5:] == [admission.MAX_RETRY_AFTER] * 3, times
    assert door.next_slot - now == pytest.approx(35.0)  # the refusals past the limit took no slot


def test_a_new_gate_holds_on_its_guess_through_its_slow_first_rounds_and_seconds() -> None:
    # A new process's first connects are slow (cold connections, every handshake of the storm
    # read on the same loop): timed as they come, 600 held would look like a minute's wait.
    door = Gate(2, 10.0)
    first = admission.FIRST_TURN
    for _ in range(admission.WARM_ROUNDS * 2):
        door.working = 1
        door.leave(time.monotonic() - 1.0, timed=True)  # a turn of a second
    assert door.turn == first and door.counts["served"] == 4
    door.working, door.waiting = 2, collections.deque([None] * 200)  # only counted here
    assert door.expected_wait() == pytest.approx(201 * first / 2)  # by the guess, within 10 s: held
    door.working, door.waiting = 1, collections.deque()
    door.leave(time.monotonic() - 1.0, timed=True)  # past the first rounds, but not the first seconds
    assert door.turn == first
    door.born -= admission.WARM_SECONDS
    door.working = 1
    door.leave(time.monotonic() - 1.0, timed=True)  # past both, turns are measured
    assert door.turn == pytest.approx(0.8 * first + 0.2 * 1.0, abs=0.01)
