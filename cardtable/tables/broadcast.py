"""Waking connections after a change: the channel layer carries "look again", never the truth.

A message on a table's group says only that the table changed (and its new
version); each connection then reads the table from the database and builds the
state for its own seat. A connection that missed a wake gets the truth on
``sync`` or reconnect.

What else must hear of a change in this process (the bot driver) subscribes with
``on_table_changed`` at startup, so this transport knows nothing of bots.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

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


def table_changed(table_id: str, version: int) -> None:
    """Wake every connection of the table (from sync code, after commit) and tell the listeners.

    ``wake`` names this one broadcast, so the connections it reaches in one
    process can share a single read of the table (``state.shared_snapshot``).
    """
    _send(table_id, {"type": "table.changed", "version": version, "wake": secrets.token_hex(8)})
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
        log.exception("could not wake table %s", table_id)
