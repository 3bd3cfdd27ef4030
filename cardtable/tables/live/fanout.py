"""Fan-out per process: one hub per server process wakes that process's connections.

Each process has one ``Hub`` on its event loop, so a four-seat move is one
layer message per process, not one per socket:

- it keeps ``table_id -> the connections of this process at that table``
  (``join``/``leave``, called by the consumers);
- a change this process commits (``publish``, from the committing thread) is
  delivered to its own connections directly on the event loop, from the
  snapshot the move already holds (no read, no layer);
- its link (``layerlink.py``) holds the process's ONE layer channel, in the
  group of each table the hub serves: it sends a committed change once to the
  group, and hands the hub each wake it hears from another process (or any
  group message), which the hub fans out to the local connections.

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

The layer is never the truth: if it fails, local delivery goes on, and once it
answers again the link has the hub bring every local connection up to date
with one read per table.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import uuid
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, get_channel_layer

from cardtable.tables.authority.state import Snapshot, from_wake, remember, snapshot
from cardtable.tables.dbthreads import db_call
from cardtable.tables.events import DeadlineSet, emit
from cardtable.tables.live import broadcast
from cardtable.tables.live.layerlink import LayerLink

log = logging.getLogger(__name__)


def connection_name() -> str:
    """A unique name for a websocket (its presence row's key): no layer channel is made for it."""
    return f"ws.{uuid.uuid4().hex}"


class Connection(Protocol):
    """What the hub needs of a websocket (``consumers.TableConsumer``)."""

    table_id: str
    sent_version: int
    channel_name: str  # the name a presence wake's ``joined`` gives

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
        self.local: dict[str, dict[Connection, None]] = {}  # insertion-ordered sets
        # The link reads ``local`` live: the hub never replaces it.
        self.link = LayerLink(loop, layer, self.local, self._deliver)
        self._tails: dict[str, asyncio.Task[None]] = {}  # each table's last wake being delivered
        # A move being committed: its snapshot and its frames by viewer (``prepare``).
        self._prepared: dict[str, tuple[Snapshot, dict[int | None, str]]] = {}
        # Tables with a wake that will read the table and has not begun to: the newest
        # version it stands for, and the connection it passes by (``_deliver``).
        self._unread: dict[str, list[Any]] = {}

    # Starting and stopping

    async def start(self) -> None:
        """Start the hub's link: its layer channel, its receive and send loops (once)."""
        await self.link.start()

    def stop(self) -> None:
        """Cancel the hub's tasks (a test's loop ending, or another layer taking over)."""
        self.link.stop()
        for task in self._tails.values():
            task.cancel()
        self._tails = {}
        self._unread.clear()

    # Connections

    async def join(self, conn: Connection) -> None:
        """Serve ``conn``: local wakes reach it from now on, and the hub hears its table's group."""
        self.local.setdefault(conn.table_id, {})[conn] = None
        await self.link.membership(conn.table_id)

    async def leave(self, conn: Connection) -> None:
        """Stop serving ``conn``; the hub leaves the table's group with the table's last connection."""
        conns = self.local.get(conn.table_id)
        if conns is None or conn not in conns:
            return
        del conns[conn]
        if not conns:
            del self.local[conn.table_id]
            self._prepared.pop(conn.table_id, None)
            await self.link.membership(conn.table_id)

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
        if not self.link.local_only:
            snap.to_wake()  # the text the wake carries to the other processes, made once

    def _publish(self, table_id: str, event: dict[str, Any], snap: Snapshot | None) -> None:
        prepared = self._prepared.pop(table_id, None)
        # Calls from the committing thread keep their order: a prepare comes before its publish.
        frames = prepared[1] if prepared is not None and snap is not None and prepared[0] is snap else None
        self._deliver(table_id, event, snap, frames)
        self.link.send(table_id, event)

    # Delivery to this process's connections

    def _deliver(
        self,
        table_id: str,
        event: dict[str, Any],
        snap: Snapshot | None = None,
        frames: dict[int | None, str] | None = None,
    ) -> None:
        """Start one task for this wake or chat line, after the table's previous one (per-table order)."""
        if table_id not in self.local:
            return
        kind = event.get("type")
        previous = self._tails.get(table_id)
        if kind == "table.changed":
            version = event.get("version")
            joined = event.get("joined")
            if joined is not None and all(c.channel_name == joined for c in self.local[table_id]):
                return  # a connection's arrival, and nobody else here to tell of it
            if snap is None and event.get("snapshot") is None:
                waiting = self._unread.get(table_id)
                if waiting is not None:
                    # A wake that will read the table after this change waits already: it shows
                    # this one too. Four seats coming back at once make one read, not four.
                    newer = isinstance(version, int) and isinstance(waiting[0], int)
                    waiting[0] = max(version, waiting[0]) if newer else None  # None: read whatever
                    if waiting[1] != joined:
                        waiting[1] = None  # it now tells every connection here
                    return
                self._unread[table_id] = [version, joined]
            coro = self._wake(table_id, version, snap, event.get("snapshot"), previous, frames, joined)
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
        joined: str | None = None,
    ) -> None:
        """Resolve the wake's snapshot; after the table's previous wake, show it to each connection here.

        ``joined`` is the connection whose arrival the change is, which the wake passes by.
        """
        own = snap is not None
        if snap is None and carried is None and table_id in self._unread:
            # The versions of the wakes folded into this one; a change committed from now on
            # needs a read of its own.
            version, joined = self._unread.pop(table_id)
        if snap is None:
            conns = [conn for conn in self.local.get(table_id, ()) if conn.channel_name != joined]
            old_news = isinstance(version, int) and all(conn.sent_version > version for conn in conns)
            if not conns or old_news:
                snap = None  # nobody here to tell, or old news for everyone here: no read
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
            if joined is not None and conn.channel_name == joined:
                continue  # its connect sent it the state
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
