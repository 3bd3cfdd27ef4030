"""The gate in front of every websocket (cardtable/tables/live/admission.py), in process.

Behind it stands an application that holds each connect until the test lets
it go, so the test decides how busy the process is.
"""

from __future__ import annotations

import asyncio
import json

from channels.testing import WebsocketCommunicator

from cardtable.tables.live.admission import REFUSED_CODE, Admission


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


async def _refusal(comm: WebsocketCommunicator) -> dict:
    connected, _ = await comm.connect(timeout=5)
    assert connected
    error = json.loads(await comm.receive_from(timeout=5))
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": REFUSED_CODE}
    return error


async def test_beyond_its_turns_and_its_wait_a_handshake_is_refused_at_once_with_spread_retry_times(
    settings,
) -> None:
    settings.CONNECT_CONCURRENCY, settings.CONNECT_WAIT = 2, 0.3
    app = Held()
    gate = Admission(app)
    working = [WebsocketCommunicator(gate, "/ws/tables/x/") for _ in range(2)]
    for comm in working:
        assert (await comm.connect(timeout=5))[0]
    await asyncio.sleep(0.05)
    assert app.started == 2
    # Until turns are timed, a turn counts as 50 ms: two turns serve 40 a second, so 0.3 s
    # of waiting holds 11 handshakes (12 / 40 = 0.3 s) and every later one is refused at once.
    refused = []
    for _ in range(20):
        comm = WebsocketCommunicator(gate, "/ws/tables/x/")
        task = asyncio.ensure_future(comm.connect(timeout=5))
        await asyncio.sleep(0.01)
        if task.done():
            error = json.loads(await comm.receive_from(timeout=5))
            refused.append(error)
            await comm.receive_output(timeout=5)
        else:
            task.cancel()
    assert 5 <= len(refused) <= 9  # fewer if a busy machine let some waits run out meanwhile
    assert all(e["type"] == "error" and e["code"] == "rate_limited" for e in refused)
    times = [e["retry_after"] for e in refused]
    assert times == sorted(times) and times[-1] > times[0] > 0  # each a later slot than the one before
    assert app.started == 2  # no refused handshake reached the application
    app.release.set()
    for comm in working:
        assert json.loads(await comm.receive_from(timeout=5)) == {"type": "state"}
        await comm.disconnect()


async def test_a_handshake_whose_wait_runs_out_is_refused_before_any_work(settings) -> None:
    settings.CONNECT_CONCURRENCY, settings.CONNECT_WAIT = 1, 0.2
    app = Held()
    gate = Admission(app)
    first = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await first.connect(timeout=5))[0]
    second = WebsocketCommunicator(gate, "/ws/tables/x/")  # waits for the one turn...
    error = await _refusal(second)  # ...which never comes within 0.2 s
    assert error["retry_after"] > 0
    assert app.started == 1
    app.release.set()
    assert json.loads(await first.receive_from(timeout=5)) == {"type": "state"}
    # The turn is free again: the next handshake is served.
    third = WebsocketCommunicator(gate, "/ws/tables/x/")
    assert (await third.connect(timeout=5))[0]
    assert json.loads(await third.receive_from(timeout=5)) == {"type": "state"}
    assert app.started == 2
    await first.disconnect()
    await third.disconnect()
