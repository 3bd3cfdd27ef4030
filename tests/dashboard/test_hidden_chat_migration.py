"""Moving ``HiddenChat`` from the dashboard app to the tables app keeps every hidden line."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tables", "0002_match_plural"), ("dashboard", "0001_initial")]
AFTER = [("tables", "0003_hiddenchat_from_dashboard"), ("dashboard", "0002_hiddenchat_to_tables")]


def _migrate(targets: list[tuple[str, str]]):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def test_hidden_lines_move_to_the_tables_app_with_their_text_and_time() -> None:
    apps = _migrate(BEFORE)
    try:
        table = apps.get_model("tables", "Table").objects.create(id="abcdefghij", game="agram", players=2)
        line = apps.get_model("tables", "ChatMessage").objects.create(
            table=table, name="Ann", text="(message hidden by staff)"
        )
        old = apps.get_model("dashboard", "HiddenChat")
        old.objects.create(message=line, text="rude words")
        when = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
        old.objects.update(at=when)
        apps = _migrate(AFTER)
        moved = apps.get_model("tables", "HiddenChat").objects.get()
        assert (moved.message_id, moved.text, moved.by_id, moved.at) == (line.pk, "rude words", None, when)
        assert "dashboard_hiddenchat" not in connection.introspection.table_names()
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
