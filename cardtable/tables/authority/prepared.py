"""A cursor for the one statement of the move path that PostgreSQL should parse and plan only once.

Django binds parameters on the client and turns psycopg's prepared statements
off (``prepare_threshold=None``), for poolers that cannot keep them. The
known-version move (``known._write_known``) is one statement run on every
move, and after a pause PostgreSQL spends about 0.45 ms of its 1.7 ms parsing
and planning it again (docs/performance.md, "The move path"). This cursor binds
on the server and prepares every statement it runs, once per connection, while
Django's own cursors stay as they are. A pooler in front of PostgreSQL must
then keep prepared statements (pgbouncer 1.21 or later with
``max_prepared_statements``, or session pooling): docs/deploy.md.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper

# A threshold no query reaches: psycopg then prepares only what asks for it (prepare=True).
_ONLY_WHEN_ASKED = 2**31


class _PreparingCursor(psycopg.Cursor):
    """A server-binding psycopg cursor that prepares every statement it executes."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Any:
        """Run ``query`` as a prepared statement (prepared on this connection's first run of it)."""
        return super().execute(query, params, prepare=True, binary=binary)


def prepared_cursor(connection: BaseDatabaseWrapper) -> CursorWrapper:
    """A Django cursor (errors, query logging and wrappers as usual) whose statements are prepared.

    PostgreSQL with psycopg 3 only. Django's own cursors on the connection keep
    binding on the client and never prepare. While Django logs queries (DEBUG,
    a test capturing them) it is Django's own cursor: psycopg tells no prepared
    statement's text, and the log should show what ran.
    """
    if connection.queries_logged:
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        raw.prepare_threshold = _ONLY_WHEN_ASKED
    with connection.wrap_database_errors:
        return connection._prepare_cursor(_PreparingCursor(raw))
