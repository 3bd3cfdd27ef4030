"""This process's open websockets: how many one player holds, and which are really open.

Presence must be right whatever happens to a socket (docs/security.md S2). A
consumer can end without its ``disconnect`` running: it may crash sending on a
socket the client has just aborted, or Daphne may cancel it as "took too long
to shut down". So each socket is listed here with the task that serves it:

- the heartbeat refreshes the presence row only of a socket that is open (not
  closed, and its task still running);
- a socket whose consumer has ended is released: its row goes, and if it was a
  seated human's last connection the grace starts. The consumer releases its
  socket when it ends however it ends; the heartbeat releases any it finds dead;
- one player holds at most ``WS_PER_TABLE`` sockets at a table and
  ``WS_PER_PLAYER`` in the process; a socket beyond that is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from django.conf import settings

from cardtable.tables.authority import presence
from cardtable.tables.dbthreads import db_call
from cardtable.tables.events import SeatAway, emit

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Socket:
    """One websocket of this process at a table."""

    channel: str
    table_id: str
    player_id: int | None
    task: asyncio.Task | None
    closed: bool = False
    joining: asyncio.Future | None = None  # the presence row being written
    released: bool = False
    hooks: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    def is_open(self) -> bool:
        """Whether the socket still counts: not closed, and its consumer still running."""
        return not self.closed and not self.released and (self.task is None or not self.task.done())


_sockets: dict[str, Socket] = {}
# The same sockets by player: a connect counts its player's own, not every socket of the process.
_by_player: dict[int, dict[str, Socket]] = {}
_releasing: set[asyncio.Task] = set()  # kept until done: a task nobody references may vanish


def admit(channel: str, table_id: str, player_id: int | None) -> Socket | None:
    """List a new socket, or return ``None`` when its player already holds too many.

    Runs without awaiting, so sockets opening at once cannot all pass the count.
    """
    if player_id is not None:
        mine = _by_player.get(player_id, {})
        here = sum(1 for s in mine.values() if s.table_id == table_id)
        if here >= settings.WS_PER_TABLE or len(mine) >= settings.WS_PER_PLAYER:
            return None
    try:
        task = asyncio.current_task()
    except RuntimeError:
        task = None
    sock = _sockets[channel] = Socket(channel, table_id, player_id, task)
    if player_id is not None:
        _by_player.setdefault(player_id, {})[channel] = sock
    return sock


def _unlist(sock: Socket) -> None:
    _sockets.pop(sock.channel, None)
    mine = _by_player.get(sock.player_id) if sock.player_id is not None else None
    if mine is not None:
        mine.pop(sock.channel, None)
        if not mine:
            del _by_player[sock.player_id]


def open_channels() -> list[str]:
    """The channels of every socket that is really open: the only rows the heartbeat refreshes."""
    return [channel for channel, sock in _sockets.items() if sock.is_open()]


def reap() -> int:
    """Release every listed socket whose consumer has ended; return how many."""
    dead = [sock for sock in _sockets.values() if not sock.is_open()]
    for sock in dead:
        release_soon(sock)
    return len(dead)


def release_soon(sock: Socket) -> asyncio.Task:
    """Release a socket in a task of its own, which a cancelled consumer cannot stop halfway."""
    # A fresh context: the consumer's would make asgiref take the release's database
    # calls for a deadlock.
    task = asyncio.get_running_loop().create_task(release(sock), context=contextvars.Context())
    _releasing.add(task)
    task.add_done_callback(_releasing.discard)
    return task


async def release(sock: Socket) -> None:
    """Forget a socket: its presence row goes, and a seated human left with none gets a grace.

    Runs once per socket however often it is asked (``disconnect``, the consumer's
    end, the heartbeat's reaper).
    """
    if sock.released:
        return
    sock.released, sock.closed = True, True
    _unlist(sock)
    if sock.joining is not None:  # a row still being written would outlive the leave
        with contextlib.suppress(BaseException):  # whatever became of the write, the row must go
            await sock.joining
    for hook in sock.hooks:
        try:
            await hook()
        except Exception:  # a lost channel layer must not keep the presence row
            log.warning("releasing %s: a hook failed", sock.channel, exc_info=True)
    try:
        away = await db_call(presence.leave)(sock.channel)
    except Exception:
        log.exception("could not remove the presence row of %s; it expires on its own", sock.channel)
        return
    if away is not None:
        emit(SeatAway(*away, settings.DISCONNECT_GRACE))


def count() -> int:
    """How many sockets are listed (open or about to be released)."""
    return len(_sockets)


def clear() -> None:
    """Forget every socket without touching the database (tests, a stopping process)."""
    _sockets.clear()
    _by_player.clear()
