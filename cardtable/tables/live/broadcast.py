"""Waking connections after a change: the channel layer carries "look again", never the truth.

A change (and its new version) reaches every connection of the table, in every
process; each connection builds the state for its own seat. This is the one
entry point; the per-process hub (``fanout.py``) does the delivering:

- in a server process (its hub's event loop running) the hub hands the change
  to this process's own connections directly, and sends it once to the
  table's group, where each other process's hub hears it and fans it out to
  its connections;
- a process without a running hub (a management command such as ``playbots``,
  a script) sends the wake through the channel layer alone, so the server
  processes still hear of it.

After a move the wake carries the committed snapshot (``state.Snapshot``):
this process's connections take it as is, other processes get it as JSON text
(``Snapshot.to_wake``) and need no read. Wakes without one (a seat taken, a
game started, presence) make a process's connections share one read of the
table. A connection that missed a wake gets the truth on ``sync`` or reconnect.

The authority does not call this module: it emits ``events.TableChanged``,
``events.MoveCommitting`` and ``events.ChatPosted``, and ``TablesConfig.ready``
subscribes the handlers below (``on_table_changed``, ``on_move_committing``,
``on_chat``), beside the bot driver's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from cardtable.tables.events import ChatPosted, MoveCommitting, TableChanged

log = logging.getLogger(__name__)

_GROUP_PREFIX = "table."


class Snapshot(Protocol):
    """A committed table as ``state.Snapshot`` holds it (this module does not import state)."""

    def to_wake(self) -> str:
        """The snapshot as JSON text, for a wake to carry."""


class Hub(Protocol):
    """This process's hub as seen from here (``fanout.Hub``)."""

    def publish(self, table_id: str, event: dict[str, Any], snap: Snapshot | None = None) -> None:
        """Deliver a committed change or chat line to this process's connections and send it on."""

    def prepare(self, snap: Any) -> None:
        """Build this process's seats' frames of a move whose write is committing; send nothing."""


def _no_hub() -> Hub | None:
    return None


_running_hub: Callable[[], Hub | None] = _no_hub


def use_hub(running: Callable[[], Hub | None]) -> None:
    """Find the running hub with ``running`` (``fanout`` registers it: this module imports no hub)."""
    global _running_hub
    _running_hub = running


def group_name(table_id: str) -> str:
    """Return the channel-layer group of a table (the hubs of the processes serving it are in it)."""
    return f"{_GROUP_PREFIX}{table_id}"


def table_of(group: str) -> str | None:
    """Return the table whose group is ``group``, or ``None``."""
    return group[len(_GROUP_PREFIX) :] if group.startswith(_GROUP_PREFIX) else None


def table_changed(
    table_id: str, version: int, *, snapshot: Snapshot | None = None, joined: str | None = None
) -> None:
    """Wake every connection of the table, in this process and the others (from sync code, after commit).

    The connections it reaches in one process share a single read of the table
    (the hub reads once per wake). ``snapshot`` is the committed table: this process's connections take it
    as is, and the wake carries it to the others as JSON text (if the layer
    refuses the wake with it, the wake goes without). ``joined`` names the connection
    whose arrival the change is: its own connect sends it the state, so the wake
    passes it by, and a process with no other connection at the table reads nothing.
    """
    message: dict[str, Any] = {"type": "table.changed", "version": version}
    if joined is not None:
        message["joined"] = joined
    hub = _running_hub()
    if snapshot is not None and not isinstance(get_channel_layer(), InMemoryChannelLayer | None):
        # An in-memory layer reaches only this process, which holds the snapshot already.
        message["snapshot"] = snapshot.to_wake()
    if not _published(hub, table_id, message, snapshot):
        _send(table_id, message)


def on_table_changed(event: TableChanged) -> None:
    """The fan-out's handler of a committed change: ``table_changed``."""
    table_changed(event.table_id, event.version, snapshot=event.snapshot, joined=event.joined)


def on_move_committing(event: MoveCommitting) -> None:
    """The fan-out's handler of a move whose write is committing: ``prepare``."""
    prepare(event.snapshot)


def on_chat(event: ChatPosted) -> None:
    """The fan-out's handler of a chat message: ``chat``."""
    chat(event.table_id, event.message)


def prepare(snapshot: Any) -> None:
    """Let this process's hub build a move's frames while the database commits it (nothing is sent).

    ``snapshot`` is the ``state.Snapshot`` the move will commit; only a
    ``table_changed`` for that very snapshot, after the commit, sends the frames.
    """
    hub = _running_hub()
    if hub is not None:
        hub.prepare(snapshot)


def chat(table_id: str, message: dict) -> None:
    """Send a chat line to every connection of the table (from sync code, after commit)."""
    event = {"type": "table.chat", "message": message}
    hub = _running_hub()
    if not _published(hub, table_id, event, None):
        _send(table_id, event)


def _published(hub: Hub | None, table_id: str, event: dict[str, Any], snapshot: Snapshot | None) -> bool:
    """Hand the change to the process's hub; ``False`` if there is none (or its loop just closed)."""
    if hub is None:
        return False
    try:
        hub.publish(table_id, event, snapshot)
    except RuntimeError:  # the loop closed since: a committed change must not raise here
        return False
    return True


def _send(table_id: str, message: dict) -> None:
    """Through the layer alone, waiting for it: a process without a hub (sync callers, commands)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(table_id), message)
    except Exception:  # a lost wake is repaired by sync/reconnect; never undo a committed move
        if "snapshot" in message:  # without it the wake is small and plain: the readers read
            log.exception("could not send table %s's snapshot; waking it without", table_id)
            _send(table_id, {key: value for key, value in message.items() if key != "snapshot"})
        else:
            log.exception("could not wake table %s", table_id)
