"""The move path's prepared cursor, on a real PostgreSQL: prepared once per connection, Django's ways kept."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import dj_database_url
import pytest
from django.db import ProgrammingError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import ConnectionHandler

from cardtable.tables.authority.prepared import prepared_cursor
from tests.conftest import POSTGRES_URL

pytestmark = pytest.mark.postgres


@pytest.fixture
def postgres(django_db_blocker: Any) -> Iterator[BaseDatabaseWrapper]:
    """A Django connection of its own to the test server, with Django's default options.

    Outside pytest-django's test database (this runs on SQLite too): only
    statements that read, on a connection nobody else uses.
    """
    handler = ConnectionHandler({"default": dj_database_url.parse(POSTGRES_URL)})
    wrapper = handler["default"]
    with django_db_blocker.unblock():
        try:
            yield wrapper
        finally:
            wrapper.close()


def prepared(wrapper: BaseDatabaseWrapper, text: str) -> list[tuple[str, int]]:
    """This session's prepared statements containing ``text``, with how often each was executed."""
    with wrapper.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE %s",
            [f"%{text}%"],
        )
        return cursor.fetchall()


def test_a_statement_is_prepared_once_and_reused(postgres: BaseDatabaseWrapper) -> None:
    for value in (1, 2, 3):
        with prepared_cursor(postgres) as cursor:
            cursor.execute("SELECT %s::int + 40", [value])
            assert cursor.fetchone() == (value + 40,)
    assert prepared(postgres, "+ 40") == [("SELECT $1::int + 40", 3)]


def test_django_s_own_cursors_still_never_prepare(postgres: BaseDatabaseWrapper) -> None:
    with prepared_cursor(postgres) as cursor:  # the connection now allows preparing when asked
        cursor.execute("SELECT %s::int + 50", [1])
    for value in range(10):
        with postgres.cursor() as cursor:
            cursor.execute("SELECT %s::int + 60", [value])
    assert prepared(postgres, "+ 60") == []


def test_errors_are_django_s(postgres: BaseDatabaseWrapper) -> None:
    with pytest.raises(ProgrammingError), prepared_cursor(postgres) as cursor:
        cursor.execute("SELECT no_such_column FROM pg_class WHERE relname = %s", ["x"])


def test_while_django_logs_queries_the_statement_runs_as_django_runs_it(
    postgres: BaseDatabaseWrapper,
) -> None:
    """psycopg tells Django no prepared statement's text: the log shows the SQL that ran instead."""
    postgres.force_debug_cursor = True
    with prepared_cursor(postgres) as cursor:
        cursor.execute("SELECT %s::int + 70", [1])
    assert [query["sql"] for query in postgres.queries] == ["SELECT 1::int + 70"]
    postgres.force_debug_cursor = False
    assert prepared(postgres, "+ 70") == []
