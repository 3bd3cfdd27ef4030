"""The tables app's one seam: typed events that the authority and the transport emit.

The authority (a change committed, a deadline set, a chat line posted) and the
live connection (a socket arrived at a table, a seated player's last socket
went, the server stopping) say what happened here; the fan-out and the bot
driver subscribe in ``TablesConfig.ready``. So no emitter imports a subscriber:
a move reads as one line, consumer, authority, rules, commit, event, fan-out,
each seat.

Handlers run in the emitter's thread, in the order they subscribed. One
handler's failure is logged and does not keep the others from the event: an
event tells of something done (a committed change), which must not be undone
or hidden by a listener.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TableChanged:
    """A change to a table committed (after commit). ``snapshot``: the committed table, after a move.

    ``joined``: the connection whose arrival this is (a presence change), which its
    own connect has sent the state already.
    """

    table_id: str
    version: int
    snapshot: Any = None
    joined: str | None = None


@dataclass(frozen=True, slots=True)
class MoveCommitting:
    """A move's write is committing: its frames may be built now, and sent only on its ``TableChanged``."""

    snapshot: Any


@dataclass(frozen=True, slots=True)
class ChatPosted:
    """A chat message (a line, or a line hidden by staff) for every connection of the table (after commit)."""

    table_id: str
    message: dict


@dataclass(frozen=True, slots=True)
class DeadlineSet:
    """A clocked table's turn deadline is ``deadline`` (``None``: no deadline now)."""

    table_id: str
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class TableOpened:
    """A socket arrived at a table: a table whose bots were paused with nobody there plays on.

    ``snapshot`` is what the connect read (after its presence row was written),
    when it has it (a ``state.Snapshot``): the bot driver then reads nothing for a table only people play.
    """

    table_id: str
    snapshot: Any = None


@dataclass(frozen=True, slots=True)
class SeatAway:
    """A seated player's last socket went: after ``grace`` seconds a stand-in plays ``seat``."""

    table_id: str
    seat: int
    grace: float


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A game at a table reached its end and its result was committed (not an abandoned one)."""

    table_id: str
    match_id: int


@dataclass(frozen=True, slots=True)
class ServerStopping:
    """The server is stopping: work in flight may take ``timeout`` seconds to finish, and none starts."""

    timeout: float


Event = (
    TableChanged
    | MoveCommitting
    | ChatPosted
    | DeadlineSet
    | TableOpened
    | SeatAway
    | MatchFinished
    | ServerStopping
)
E = TypeVar("E", bound=Event)
Handler = Callable[[Any], "Awaitable[None] | None"]

_handlers: dict[type, list[Handler]] = {}


def subscribe(kind: type[E], handler: Callable[[E], Awaitable[None] | None]) -> None:
    """Call ``handler(event)`` for every event of ``kind`` emitted in this process (once per handler)."""
    handlers = _handlers.setdefault(kind, [])
    if handler not in handlers:
        handlers.append(handler)


def handlers(kind: type) -> list[Handler]:
    """The handlers subscribed to ``kind``, in order."""
    return list(_handlers.get(kind, ()))


def emit(event: Event) -> None:
    """Tell every handler of the event's kind, from sync code; a failing handler is logged and passed."""
    for handler in _handlers.get(type(event), ()):
        try:
            handler(event)
        except Exception:
            log.exception("a handler of %s failed", type(event).__name__)


async def emit_and_wait(event: Event) -> None:
    """Tell every handler of the event's kind and wait for those that return an awaitable."""
    for handler in _handlers.get(type(event), ()):
        try:
            outcome = handler(event)
            if inspect.isawaitable(outcome):
                await outcome
        except Exception:
            log.exception("a handler of %s failed", type(event).__name__)
