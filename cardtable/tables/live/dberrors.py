"""What a websocket answers when the database cannot serve a request in time.

A database that does not answer, or a write lock held past the connection's
timeout (SQLite's ``database is locked``), is a fault the server can name: the
request gets the protocol's ``unavailable`` error, nothing has changed (the
request's transaction rolled back), and the connection stays open; a connect
that could not be recorded is closed with 4503, after which the client tries
again (docs/protocol.md). Never 1011 (docs/security.md, "A socket closed with an
internal error under load").
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, InterfaceError, OperationalError

from cardtable.tables.errors import TableError

log = logging.getLogger(__name__)

CODE = "unavailable"
# The close code of a connect the database could not record: "try again later", as HTTP's 503.
# (1013 says the same, but Daphne's websocket library lets a server close only with 1000 or 3000-4999.)
TRY_AGAIN_LATER = 4503


def unavailable(error: DatabaseError, doing: str) -> TableError:
    """The ``unavailable`` error for ``error`` met while ``doing``; logged (a bug's with its traceback)."""
    if isinstance(error, OperationalError | InterfaceError):  # busy, locked, unreachable: not a bug
        log.warning("database unavailable while %s: %s", doing, error)
    else:
        log.error("database error while %s", doing, exc_info=error)
    return TableError(CODE, "the server's database is busy; nothing changed. Try again in a moment.")
