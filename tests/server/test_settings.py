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
    "'engine': settings.DATABASES['default']['ENGINE'],"
    "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], 'secure': settings.SESSION_COOKIE_SECURE,"
    "'pause': settings.BOT_PAUSE, 'grace': settings.DISCONNECT_GRACE}))"
)


def probe(**env: str) -> subprocess.CompletedProcess:
    """Load the settings in a fresh process with ``env`` (and no inherited service URLs)."""
    base = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY")
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


def test_defaults_need_no_other_service() -> None:
    result = probe()
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["debug"] is True and loaded["engine"].endswith("sqlite3")
    assert loaded["layer"].endswith("InMemoryChannelLayer")
    assert loaded["pause"] == 0.7 and loaded["grace"] == 30


def test_service_urls_switch_the_backends() -> None:
    result = probe(DATABASE_URL="postgres://u@db.example:5432/cards", REDIS_URL="redis://r.example:6379/2",
                   BOT_PAUSE="0", DISCONNECT_GRACE="5")  # fmt: skip
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["engine"] == "django.db.backends.postgresql"
    assert loaded["layer"] == "channels_redis.core.RedisChannelLayer"
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
