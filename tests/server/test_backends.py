"""Each run uses the backends it was given.

`make test` runs the server suite twice: on SQLite and the in-memory channel
layer, then on PostgreSQL and Redis (``python -m tests.on_services``, which sets
``DATABASE_URL`` and ``REDIS_URL``). This test fails if a run silently fell back
to other backends than the environment names.
"""

from __future__ import annotations

import os

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection


def test_the_configured_backends_are_the_ones_in_use() -> None:
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith("postgres") else "sqlite" if not url else connection.vendor
    assert connection.vendor == expected
    layer = type(get_channel_layer()).__name__
    redis = "RedisChannelLayer" if os.environ.get("REDIS_LAYER") == "core" else "RedisPubSubChannelLayer"
    assert layer == (redis if os.environ.get("REDIS_URL") else "InMemoryChannelLayer")
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith(layer)
