"""Waking connections after a change: the channel layer carries "look again", never the truth.

A message on a table's group says that the table changed (and its new
version); each connection then reads the table from the database and builds the
state for its own seat. After a move the wake also carries the committed
snapshot (``state.Snapshot.to_wake``), so other processes build their seats'
messages without that read; the process that made the move already holds it.
A connection that missed a wake gets the truth on ``sync`` or reconnect.

What else must hear of a change in this process (the bot driver) subscribes with
``on_table_changed`` at startup, so this transport knows nothing of bots.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)

Listener = Callable[[str], None]
_listeners: list[Listener] = []


def on_table_changed(listener: Listener) -> None:
    """Call ``listener(table_id)`` after every table change this process makes (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)


def group_name(table_id: str) -> str:
    """Return the channel-layer group of a table's connections."""
    return f"table.{table_id}"


def table_changed(
    table_id: str, version: int, *, wake: str | None = None, snapshot: Callable[[], str] | None = None
) -> None:
    """Wake every connection of the table (from sync code, after commit) and tell the listeners.

    ``wake`` names this one broadcast, so the connections it reaches in one
    process can share a single read of the table (``state.shared_snapshot``).
    ``snapshot`` gives the committed table as JSON text, which spares other
    processes that read; if the layer refuses the wake with it, the wake goes without.
    """
    message: dict[str, Any] = {
        "type": "table.changed",
        "version": version,
        "wake": wake or secrets.token_hex(8),
    }
    if snapshot is not None and not isinstance(get_channel_layer(), InMemoryChannelLayer):
        # An in-memory layer reaches only this process, which holds the snapshot already.
        message["snapshot"] = snapshot()
    _send(table_id, message)
    for listener in _listeners:
        try:
            listener(table_id)
        except Exception:  # a listener's failure must not undo or hide a committed change
            log.exception("a table-change listener failed for table %s", table_id)


def chat(table_id: str, message: dict) -> None:
    """Send a chat line to every connection of the table (from sync code, after commit)."""
    _send(table_id, {"type": "table.chat", "message": message})


def _send(table_id: str, message: dict) -> None:
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
