"""A hub's link to the other processes: its one channel on the channel layer.

The hub (``fanout.py``) delivers to this process's connections; its link carries
changes between processes:

- the link's one layer channel is in a table's group (``group_name(table_id)``)
  while the hub serves a connection at that table (``membership``, one change
  at a time per table);
- a change this process commits is sent once to the group, in order, by a
  sender task (``send``: the committing thread never waits on Redis), carrying
  the snapshot as JSON text and the link's ``origin`` so the sender ignores its
  own echo. The in-memory layer reaches only this process, so nothing is sent
  on it;
- its one receive loop hands a wake from another process (or any group
  message, which names its group: ``layers.py``) to the hub, which fans it out
  to the table's connections.

The layer is never the truth. If it fails (Redis down) the receive loop keeps
retrying, local delivery goes on, nothing is sent to other processes, and once
the layer answers again (``_recover``, every ``LAYER_RETRY`` seconds) the link
re-adds its groups (a restarted Redis forgot them) and has the hub bring every
local connection up to date with one read per table.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
from collections import deque
from collections.abc import Callable, Collection, Coroutine
from typing import Any

from channels.layers import BaseChannelLayer, InMemoryChannelLayer

from cardtable.tables.live.broadcast import group_name, table_of

log = logging.getLogger(__name__)

# Seconds between tries to reach a lost channel layer (Redis down): wakes from
# other processes stop meanwhile, play goes on.
LAYER_RETRY = 1.0
# Seconds between the link's checks that the layer still answers (a message to its own
# channel). The pub/sub layer's receive does not fail while Redis is down, so without
# it a process that only listens would not notice an outage, nor catch up after one.
LAYER_PROBE = 2.0
# How long a wake waits before it goes to the layer: any delay above zero is a timer,
# which the loop runs after the I/O of its next pass, where Twisted writes the frames
# already given to the local sockets, so redis-py's work no longer comes before
# the first frame (docs/performance.md, "The move path").
AFTER_WRITES = 1e-6


class LayerLink:
    """A hub's one layer channel: its groups, the changes it sends, the wakes it hears, its outages."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        layer: BaseChannelLayer | None,
        served: Collection[str],
        deliver: Callable[[str, dict[str, Any]], None],
    ) -> None:
        """Link a hub on ``loop`` to ``layer``.

        ``served`` is the hub's live collection of the tables it serves (read at
        each use); ``deliver`` hands a message heard for one of them to the hub.
        """
        self.loop = loop
        self.layer = layer
        self.served = served
        self.deliver = deliver
        self.origin = secrets.token_hex(8)  # tells this link's own messages from other processes'
        # The in-memory layer reaches this process only, which the hub serves directly.
        self.local_only = layer is None or isinstance(layer, InMemoryChannelLayer)
        self.joined: set[str] = set()  # tables whose group holds this link's channel
        self.channel: str | None = None
        self.layer_down = False
        self._locks: dict[str, list[Any]] = {}  # table -> [its membership lock, its users]
        self._outbox: deque[tuple[str, dict[str, Any]]] = deque()
        self._outbox_ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._recovering: asyncio.Task[None] | None = None
        self._starting: asyncio.Task[None] | None = None

    # Starting and stopping

    async def start(self) -> None:
        """Make the layer channel and start the receive and send loops (once)."""
        if self._starting is None:
            self._starting = self.loop.create_task(self._start(), context=contextvars.Context())
        await asyncio.shield(self._starting)

    async def _start(self) -> None:
        if self.layer is None:
            return
        try:
            self.channel = await self.layer.new_channel()
        except Exception as error:  # the pub/sub layer subscribes here: Redis down, retry later
            self._failed(error)
        self._spawn(self._receive_loop())
        if not self.local_only:
            self._spawn(self._send_loop())
            self._spawn(self._probe_loop())

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        self._tasks.append(self.loop.create_task(coro, context=contextvars.Context()))

    def stop(self) -> None:
        """Cancel the link's tasks."""
        for task in self._tasks:
            task.cancel()
        if self._recovering is not None:
            self._recovering.cancel()
        self._tasks = []

    # Groups

    async def membership(self, table_id: str) -> None:
        """Make the group's membership match whether the hub serves the table (one change at a time)."""
        if self.layer is None:
            return
        entry = self._locks.get(table_id)
        if entry is None:
            entry = self._locks[table_id] = [asyncio.Lock(), 0]
        entry[1] += 1  # callers of this lock, waiting or in it: it goes with the last
        try:
            async with entry[0]:
                await self._set_membership(table_id)
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[table_id]

    async def _set_membership(self, table_id: str) -> None:
        assert self.layer is not None
        wanted, held = table_id in self.served, table_id in self.joined
        try:
            if wanted and not held and self.channel is not None:
                await self.layer.group_add(group_name(table_id), self.channel)
                self.joined.add(table_id)
            elif held and not wanted:
                self.joined.discard(table_id)
                await self.layer.group_discard(group_name(table_id), self.channel)
        except Exception as error:  # Redis down: _recover joins the group once it is back
            self._failed(error)

    # Changes committed in this process

    def send(self, table_id: str, event: dict[str, Any]) -> None:
        """Queue a change or chat line this process committed for the table's group (on the loop).

        Nothing goes out on a layer that reaches no other process.
        """
        if not self.local_only:
            self._outbox.append((table_id, {**event, "origin": self.origin}))
            self._outbox_ready.set()

    async def _send_loop(self) -> None:
        """Send the outbox to the layer one message after the other: each table's wakes keep their order."""
        while True:
            if not self._outbox:
                self._outbox_ready.clear()
                await self._outbox_ready.wait()
                # The seats' frames of the change that woke us go out first: Twisted writes
                # them on the loop's next pass, and a timer runs after that pass's I/O.
                await asyncio.sleep(AFTER_WRITES)
                continue
            table_id, message = self._outbox.popleft()
            if self.layer_down:  # nothing reaches the others now; _recover brings everyone up to date
                continue
            try:
                await self.layer.group_send(group_name(table_id), message)
            except Exception as error:
                if "snapshot" not in message:
                    self._failed(error)
                    continue
                # The wake goes without the snapshot: the other processes read the table.
                log.warning("could not send table %s's snapshot (%r); waking it without", table_id, error)
                plain = {key: value for key, value in message.items() if key != "snapshot"}
                try:
                    await self.layer.group_send(group_name(table_id), plain)
                except Exception as again:
                    self._failed(again)

    # Changes heard from the layer

    async def _receive_loop(self) -> None:
        """Hear the groups' messages, one at a time; survive the layer failing (retry every second)."""
        while True:
            try:
                if self.channel is None:
                    await asyncio.sleep(LAYER_RETRY)  # _recover makes it
                    continue
                message = await self.layer.receive(self.channel)
            except Exception as error:
                self._failed(error)
                await asyncio.sleep(LAYER_RETRY)
                continue
            try:
                self._heard(message)
            except Exception:  # one malformed message must not stop the process's wakes
                log.exception("the hub could not handle a message: %.200r", message)

    async def _probe_loop(self) -> None:
        """Check every ``LAYER_PROBE`` seconds that the layer answers; a failure starts ``_recover``."""
        assert self.layer is not None
        while True:
            await asyncio.sleep(LAYER_PROBE)
            if self.layer_down or self.channel is None:
                continue
            try:
                await self.layer.send(self.channel, {"type": "hub.ping", "origin": self.origin})
            except Exception as error:
                self._failed(error)

    def _heard(self, message: dict[str, Any]) -> None:
        if message.get("origin") == self.origin:  # our own, delivered locally when committed
            return
        group = message.get("group")
        table_id = table_of(group) if isinstance(group, str) else None
        if table_id is not None and table_id in self.served:
            self.deliver(table_id, message)

    # The layer failing and coming back

    def _failed(self, error: Exception) -> None:
        if not self.layer_down:  # once per outage, not once per retry
            log.warning("channel layer failed (%r); the hub retries every %ss", error, LAYER_RETRY)
        self.layer_down = True
        if self._recovering is None or self._recovering.done():
            self._recovering = self.loop.create_task(self._recover(), context=contextvars.Context())

    async def _recover(self) -> None:
        """Every second until the layer answers: re-add every group, then bring each table up to date."""
        assert self.layer is not None
        while True:
            await asyncio.sleep(LAYER_RETRY)
            try:
                if self.channel is None:
                    self.channel = await self.layer.new_channel()
                # A round trip to Redis: the pub/sub layer's group_add may not make one.
                await self.layer.send(self.channel, {"type": "hub.ping", "origin": self.origin})
                for table_id in list(self.served):
                    await self.layer.group_add(group_name(table_id), self.channel)
                    self.joined.add(table_id)
            except Exception:
                continue
            break
        self.layer_down = False
        log.warning("channel layer is back; the hub rejoined the groups of %d tables", len(self.served))
        for table_id in list(self.served):  # what the other processes did meanwhile: one read per table
            self.deliver(table_id, {"type": "table.changed", "version": None})
