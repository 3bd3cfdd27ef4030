"""Settings come from the environment, with safe behaviour when DEBUG is off."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; from django.conf import settings; django.setup(); print(json.dumps({"
    "'debug': settings.DEBUG, 'hosts': settings.ALLOWED_HOSTS,"
    "'engine': settings.DATABASES['default']['ENGINE'], 'age': settings.DATABASES['default']['CONN_MAX_AGE'],"
    "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], 'secure': settings.SESSION_COOKIE_SECURE,"
    "'pause': settings.BOT_PAUSE, 'grace': settings.DISCONNECT_GRACE}))"
)


def probe(**env: str) -> subprocess.CompletedProcess:
    """Load the settings in a fresh process with ``env`` (and no inherited service URLs)."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "CONN_MAX_AGE")
    }
    base["DJANGO_SETTINGS_MODULE"] = "cardtable.settings"
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_is_off_unless_set_so_no_secret_refuses_to_start() -> None:
    """docs/security.md G6: a deploy that forgets DEBUG gets neither debug mode nor the dev key."""
    refused = probe()
    assert refused.returncode != 0 and "SECRET_KEY must be set when DEBUG is off" in refused.stderr
    result = probe(SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["debug"] is False and loaded["hosts"] == [] and loaded["secure"] is True


def test_make_run_and_the_tests_turn_debug_on() -> None:
    dry = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env={k: v for k, v in os.environ.items() if k != "DEBUG"})  # fmt: skip
    assert dry.returncode == 0, dry.stderr
    lines = dry.stdout.splitlines()
    commands = [line for line in lines if "manage.py migrate" in line or "cardtable.serve" in line]
    assert len(commands) == 2 and all(line.startswith("DEBUG=1 ") for line in commands), dry.stdout
    from django.conf import settings

    assert "testserver" in settings.ALLOWED_HOSTS  # tests/settings.py read the settings with DEBUG=1


def test_defaults_need_no_other_service() -> None:
    result = probe(DEBUG="1")
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["debug"] is True and loaded["engine"].endswith("sqlite3")
    assert loaded["layer"].endswith("InMemoryChannelLayer")
    assert loaded["pause"] == 0.7 and loaded["grace"] == 30
    # SQLite keeps its connections too: opening one around every database call cost ~2 ms a move.
    assert loaded["age"] == 60
    assert json.loads(probe(DEBUG="1", CONN_MAX_AGE="0").stdout)["age"] == 0


def test_service_urls_switch_the_backends() -> None:
    result = probe(DEBUG="1", DATABASE_URL="postgres://u@db.example:5432/cards", REDIS_URL="redis://r.example:6379/2",
                   BOT_PAUSE="0", DISCONNECT_GRACE="5")  # fmt: skip
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["engine"] == "django.db.backends.postgresql"
    assert (
        loaded["layer"] == "cardtable.tables.live.layers_redis.RedisPubSubChannelLayer"
    )  # channels_redis pub/sub
    assert loaded["pause"] == 0 and loaded["grace"] == 5


def test_production_needs_a_secret_and_names_its_hosts() -> None:
    refused = probe(DEBUG="0")
    assert refused.returncode != 0 and "SECRET_KEY" in refused.stderr
    result = probe(DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="cards.example")
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["debug"] is False and loaded["hosts"] == ["cards.example"] and loaded["secure"] is True
    assert (
        probe(DEBUG="0", SECRET_KEY="x" * 50).stdout
        and json.loads(probe(DEBUG="0", SECRET_KEY="x" * 50).stdout)["hosts"] == []
    )


# Readers that become writers in the same transaction, from several threads at once: the
# pattern of a move (read the table, then save it). On SQLite's defaults two of them
# deadlock upgrading their locks and one gets "database is locked" at once.
RACE = """
import json, threading, time, django
django.setup()
from django.db import connection, connections, transaction
with connection.cursor() as c:
    mode = c.execute("PRAGMA journal_mode").fetchone()[0]
    timeout = c.execute("PRAGMA busy_timeout").fetchone()[0]
    c.execute("CREATE TABLE race (n INTEGER)")
errors = []
def writer():
    try:
        for _ in range(15):
            with transaction.atomic(), connection.cursor() as c:
                c.execute("SELECT COUNT(*) FROM race").fetchone()
                time.sleep(0.002)
                c.execute("INSERT INTO race VALUES (1)")
    except Exception as error:
        errors.append(str(error))
    finally:
        connections.close_all()
threads = [threading.Thread(target=writer) for _ in range(6)]
[t.start() for t in threads]
[t.join() for t in threads]
with connection.cursor() as c:
    rows = c.execute("SELECT COUNT(*) FROM race").fetchone()[0]
print(json.dumps({"mode": mode, "timeout": timeout, "errors": errors[:3], "rows": rows}))
"""


def test_sqlite_runs_in_wal_mode_and_racing_writers_wait_instead_of_failing(tmp_path: Path) -> None:
    """docs/security.md G9: no "database is locked" when moves and presence writes race."""
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env = {**base, "DJANGO_SETTINGS_MODULE": "cardtable.settings", "DEBUG": "1",
           "SQLITE_PATH": str(tmp_path / "race.sqlite3")}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["mode"] == "wal" and result["timeout"] == 20_000, result
    assert result["errors"] == [] and result["rows"] == 6 * 15, result


def test_the_server_freezes_what_it_loaded_at_start() -> None:
    """The ASGI module leaves Django, the games and the routes out of every full collection,
    and collects the young generation rarely enough that few of a move's objects grow old."""
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")}
    code = "import gc, cardtable.asgi; print(gc.get_threshold()[0], gc.get_freeze_count())"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "cardtable.settings", "DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    young, frozen = (int(word) for word in done.stdout.split()[-2:])
    assert frozen > 50_000
    assert young == 20_000  # collecting the young less often: far fewer full collections


def test_the_redis_client_reads_replies_with_hiredis() -> None:
    """Every wake a process publishes or hears is a Redis reply, which hiredis parses in C.

    redis-py falls back to its pure-Python parser without a word when hiredis is
    missing (a PUBLISH and its receipt cost 111 instead of 96 us of CPU here:
    docs/performance.md), so the dependency is checked here.
    """
    from redis.asyncio.connection import DefaultParser

    assert DefaultParser.__name__ == "_AsyncHiredisParser"
