"""Rate limits per player and per client address (docs/security.md S5).

Each kind of action (``settings.RATE_LIMITS``: new guests, tables created, chat
lines, syncs) has a token bucket per player and one per address, shared by all
of their requests and sockets in this server process. An action needs a token
in every bucket that applies; when one is empty it is refused with
``rate_limited`` (HTTP 429) and spends nothing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from cardtable.tables.errors import TableError
from cardtable.tables.models import Player
from cardtable.tables.players.limits import TokenBucket, shared_bucket


class Allowance:
    """The buckets one action draws on: check them all, then spend one token from each."""

    def __init__(self, buckets: list[TokenBucket]) -> None:
        self.buckets = buckets

    def check(self, what: str) -> None:
        """Raise ``rate_limited`` unless every bucket has a token (spends nothing)."""
        if not all(bucket.has_token() for bucket in self.buckets):
            raise TableError("rate_limited", f"too many {what}; wait a moment and try again")

    def spend(self) -> None:
        """Spend one token from every bucket (after ``check``)."""
        for bucket in self.buckets:
            bucket.take()

    def take(self, what: str) -> None:
        """``check`` then ``spend``."""
        self.check(what)
        self.spend()


def allowance(kind: str, player: Player | None, address: str | None) -> Allowance:
    """Return the buckets of ``kind`` for this player and this address (none when limits are off)."""
    if not settings.RATE_LIMITS_ON:
        return Allowance([])
    limits = settings.RATE_LIMITS.get(kind, {})
    buckets = []
    # The creation time is in the key: a test database that reuses ids gets fresh buckets.
    if "player" in limits and player is not None:
        buckets.append(shared_bucket((kind, "player", player.pk, player.created), *limits["player"]))
    if "address" in limits and address:
        buckets.append(shared_bucket((kind, "address", address), *limits["address"]))
    return Allowance(buckets)


def request_address(request: Any) -> str | None:
    """The client's address of an HTTP request (the proxy's ``X-Forwarded-For`` under ``--proxy-headers``)."""
    return request.META.get("REMOTE_ADDR") or None


def scope_address(scope: dict) -> str | None:
    """The client's address of a websocket."""
    client = scope.get("client")
    return str(client[0]) if client else None
