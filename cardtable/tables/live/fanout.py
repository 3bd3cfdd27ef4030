"""Fan-out per process: one hub per server process wakes that process's connections.

A change used to reach every socket through the channel layer: a table's group
held one layer channel per socket, so a four-seat move was four layer messages,
four receives and four consumer dispatches in every process. Now each process
has one ``Hub`` on its event loop:

- it keeps ``table_id -> the connections of this process at that table``
  (``join``/``leave``, called by the consumers);
- a change this process commits (``publish``, from the committing thread) is
  delivered to its own connections directly on the event loop, from the
  snapshot the move already holds (no read, no layer);
- the hub owns ONE layer channel, which is in a table's group
  (``group_name(table_id)``) while this process has a connection at that table.
  A committed change is sent once to the group, in order, by a sender task (the
  committing thread never waits on Redis), carrying the snapshot as JSON text
  and the hub's ``origin`` so the sender ignores its own echo. The in-memory
  layer reaches only this process, so nothing is sent on it;
- its one receive loop fans a wake from another process (or any group message,
  which names its group: ``layers.py``) out to the local connections.

Every wake is one task: it resolves the snapshot once (the committer's own, the
one the wake carries, or one read of the table), waits for the table's previous
wake to be delivered (per-table order), and gives it to each connection, which
builds its own seat's message (``state.message_for``) and never sends an older
version after a newer one.

A move made on the known version (``known.apply_on_known``) tells the hub
its snapshot while the database is still committing it (``prepare``): the
event loop builds the frames of this process's seats in that wait, and the
wake sends them once the commit is published, for that very snapshot only. A
write the guard refuses sends nothing of them.

The layer is never the truth. If it fails (Redis down) the receive loop keeps
retrying, local delivery goes on, nothing is sent to other processes, and once
the layer answers again (``_recover``, every ``LAYER_RETRY`` seconds) the hub
re-adds its groups (a restarted Redis forgot them) and brings every local
connection up to date with one read per table.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import threading
import uuid
from collections import deque
from collections.abc import Coroutine
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer

from cardtable.tables.authority.state import Snapshot, from_wake, remember, snapshot
from cardtable.tables.dbthreads import db_call
from cardtable.tables.events import DeadlineSet, emit
from cardtable.tables.live import broadcast
from cardtable.tables.live.broadcast import group_name, table_of

log = logging.getLogger(__name__)

# Seconds between tries to reach a lost channel layer (Redis down): wakes from
# other processes stop meanwhile, play goes on.
LAYER_RETRY = 1.0
# Seconds between the hub's checks that the layer still answers (a message to its own
# channel). The pub/sub layer's receive does not fail while Redis is down, so without
# it a process that only listens would not notice an outage, nor catch up after one.
LAYER_PROBE = 2.0
# How long a wake waits before it goes to the layer: any delay above zero is a timer,
# which the loop runs after the I/O of its next pass, where Twisted writes the frames
# already given to the local sockets, so redis-py's work no longer comes before
# the first frame (docs/performance.md, "The move path").
AFTER_WRITES = 1e-6


def connection_name() -> str:
    """A unique name for a websocket (its presence row's key): no layer channel is made for it."""
    return f"ws.{uuid.uuid4().hex}"


class Connection(Protocol):
    """What the hub needs of a websocket (``consumers.TableConsumer``)."""

    table_id: str
    sent_version: int

    @property
    def viewer(self) -> int | None:
        """Whose eyes the connection's frames are built for: its player's id (``None``: a spectator)."""

    def frame_for(self, snap: Snapshot) -> str:
        """The state frame this connection would send for ``snap``, as text (nothing is sent)."""

    async def show_state(self, snap: Snapshot, frame: str | None = None) -> None:
        """Send this connection's seat's state built from ``snap`` (unless it sent a newer one).

        ``frame`` is that state already built (``frame_for``), or ``None``.
        """

    async def show_chat(self, message: dict[str, Any]) -> None:
        """Send a chat line."""


async def _read(table_id: str) -> Snapshot:
    return await db_call(snapshot)(table_id)


class Hub:
    """One process's connections by table, its one layer channel, and the tasks that serve them."""

    def __init__(self, loop: asyncio.AbstractEventLoop, layer: BaseChannelLayer | None) -> None:
        self.loop = loop
        self.layer = layer
        self.thread = threading.get_ident()
        self.origin = secrets.token_hex(8)  # tells this hub's own messages from other processes'
        # The in-memory layer reaches this process only, which the hub serves directly.
        self.local_only = layer is None or isinstance(layer, InMemoryChannelLayer)
        self.local: dict[str, dict[Connection, None]] = {}  # insertion-ordered sets
        self.joined: set[str] = set()  # tables whose group holds this hub's channel
        self.channel: str | None = None
        self.layer_down = False
        self._locks: dict[str, list[Any]] = {}  # table -> [its membership lock, its users]
        self._tails: dict[str, asyncio.Task[None]] = {}  # each table's last wake being delivered
        # A move being committed: its snapshot and its frames by viewer (``prepare``).
        self._prepared: dict[str, tuple[Snapshot, dict[int | None, str]]] = {}
        self._outbox: deque[tuple[str, dict[str, Any]]] = deque()
        self._outbox_ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._recovering: asyncio.Task[None] | None = None
        self._starting: asyncio.Task[None] | None = None

    # Starting and stopping

    async def start(self) -> None:
        """Make the hub's layer channel and start its receive and send loops (once)."""
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
        """Cancel the hub's tasks (a test's loop ending, or another layer taking over)."""
        for task in [*self._tasks, *self._tails.values()]:
            task.cancel()
        if self._recovering is not None:
            self._recovering.cancel()
        self._tasks, self._tails = [], {}

    # Connections

    async def join(self, conn: Connection) -> None:
        """Serve ``conn``: local wakes reach it from now on, and the hub hears its table's group."""
        self.local.setdefault(conn.table_id, {})[conn] = None
        await self._membership(conn.table_id)

    async def leave(self, conn: Connection) -> None:
        """Stop serving ``conn``; the hub leaves the table's group with the table's last connection."""
        conns = self.local.get(conn.table_id)
        if conns is None or conn not in conns:
            return
        del conns[conn]
        if not conns:
            del self.local[conn.table_id]
            self._prepared.pop(conn.table_id, None)
            await self._membership(conn.table_id)

    async def _membership(self, table_id: str) -> None:
        """Make the group's membership match whether this process serves the table (one change at a time)."""
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
        wanted, held = table_id in self.local, table_id in self.joined
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

    def publish(self, table_id: str, event: dict[str, Any], snap: Snapshot | None = None) -> None:
        """Deliver a change or chat line this process committed (from any thread), and send it on.

        ``event`` is the layer message (``table.changed`` or ``table.chat``);
        ``snap`` the committed snapshot, which this process's connections take as is.
        """
        if threading.get_ident() == self.thread:
            self._publish(table_id, event, snap)
        else:  # a fresh context: the committing thread's would make asgiref see a deadlock
            self.loop.call_soon_threadsafe(
                self._publish, table_id, event, snap, context=contextvars.Context()
            )

    def prepare(self, snap: Snapshot) -> None:
        """Build the local seats' frames of a move while its write is committing (from the writing thread).

        Nothing is sent here. The frames go out only with the wake ``publish``
        starts for this very snapshot, after the commit; a refused write leaves
        them unused, and the table's next publish drops them. On the loop's own
        thread there is no wait to fill, so nothing is built ahead.
        """
        if threading.get_ident() != self.thread and snap.table_id in self.local:
            self.loop.call_soon_threadsafe(self._prepare, snap, context=contextvars.Context())

    def _prepare(self, snap: Snapshot) -> None:
        frames: dict[int | None, str] = {}
        for conn in list(self.local.get(snap.table_id, ())):
            if conn.viewer not in frames:
                frames[conn.viewer] = conn.frame_for(snap)
        if frames:
            self._prepared[snap.table_id] = (snap, frames)
        if not self.local_only:
            snap.to_wake()  # the text the wake carries to the other processes, made once

    def _publish(self, table_id: str, event: dict[str, Any], snap: Snapshot | None) -> None:
        prepared = self._prepared.pop(table_id, None)
        # Calls from the committing thread keep their order: a prepare comes before its publish.
        frames = prepared[1] if prepared is not None and snap is not None and prepared[0] is snap else None
        self._deliver(table_id, event, snap, frames)
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
        if table_id is not None and table_id in self.local:
            self._deliver(table_id, message, None)

    # Delivery to this process's connections

    def _deliver(
        self,
        table_id: str,
        event: dict[str, Any],
        snap: Snapshot | None,
        frames: dict[int | None, str] | None = None,
    ) -> None:
        """Start one task for this wake or chat line, after the table's previous one (per-table order)."""
        if table_id not in self.local:
            return
        kind = event.get("type")
        previous = self._tails.get(table_id)
        if kind == "table.changed":
            coro = self._wake(table_id, event.get("version"), snap, event.get("snapshot"), previous, frames)
        elif kind == "table.chat":
            coro = self._chat(table_id, event["message"], previous)
        else:
            return
        task = self.loop.create_task(coro, context=contextvars.Context())
        self._tails[table_id] = task
        task.add_done_callback(
            lambda done: self._tails.pop(table_id, None) if self._tails.get(table_id) is done else None
        )

    async def _wake(
        self,
        table_id: str,
        version: int | None,
        snap: Snapshot | None,
        carried: str | None,
        previous: asyncio.Task[None] | None,
        frames: dict[int | None, str] | None = None,
    ) -> None:
        own = snap is not None
        if snap is None:
            conns = self.local.get(table_id, {})
            if isinstance(version, int) and all(conn.sent_version > version for conn in conns):
                snap = None  # old news for everyone here: no read
            else:
                try:
                    snap = remember(from_wake(carried)) if carried is not None else await _read(table_id)
                except Exception:  # a missed wake is repaired by sync or reconnect
                    log.warning(
                        "could not resolve the snapshot of table %s for a wake", table_id, exc_info=True
                    )
        if previous is not None and not previous.done():
            await asyncio.wait([previous])
        if snap is None:
            return
        if not own and snap.clock:  # another process's change: watch its deadline here too
            emit(DeadlineSet(table_id, snap.deadline))
        for conn in list(self.local.get(table_id, ())):
            frame = frames.get(conn.viewer) if frames is not None else None
            try:
                await conn.show_state(snap, frame)
            except Exception:  # one closing socket must not keep the others from the change
                log.debug("could not send table %s's state to a connection", table_id, exc_info=True)

    async def _chat(
        self, table_id: str, message: dict[str, Any], previous: asyncio.Task[None] | None
    ) -> None:
        if previous is not None and not previous.done():
            await asyncio.wait([previous])
        for conn in list(self.local.get(table_id, ())):
            try:
                await conn.show_chat(message)
            except Exception:
                log.debug("could not send table %s's chat line to a connection", table_id, exc_info=True)

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
                for table_id in list(self.local):
                    await self.layer.group_add(group_name(table_id), self.channel)
                    self.joined.add(table_id)
            except Exception:
                continue
            break
        self.layer_down = False
        log.warning("channel layer is back; the hub rejoined the groups of %d tables", len(self.local))
        for table_id in list(self.local):  # what the other processes did meanwhile: one read per table
            self._deliver(table_id, {"type": "table.changed", "version": None}, None)


_hub: Hub | None = None


async def attach() -> Hub:
    """The hub of the running event loop and channel layer, started (the first connection starts it)."""
    global _hub
    loop, layer = asyncio.get_running_loop(), get_channel_layer()
    hub = _hub
    if hub is None or hub.loop is not loop or hub.layer is not layer:
        if hub is not None and hub.loop is loop:
            hub.stop()
        hub = _hub = Hub(loop, layer)
    await hub.start()
    return hub


def running() -> Hub | None:
    """The hub whose event loop runs in this process now, for the current layer, or ``None``.

    ``None`` in a process without one (a management command, a script) or whose
    loop has ended: its changes then go through the layer alone.
    """
    hub = _hub
    if (
        hub is None
        or hub.loop.is_closed()
        or not hub.loop.is_running()
        or hub.layer is not get_channel_layer()
    ):
        return None
    return hub


def reset() -> None:
    """Forget the hub (tests)."""
    global _hub
    if _hub is not None and not _hub.loop.is_closed():
        try:
            if asyncio.get_running_loop() is _hub.loop:
                _hub.stop()
        except RuntimeError:
            pass
    _hub = None


broadcast.use_hub(running)
