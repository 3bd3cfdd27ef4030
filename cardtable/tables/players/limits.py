"""Abuse limits of one connection: its frame size, and a token bucket for its message rate.

Limits per player and per address are counted across processes: ``ratelimit.py``.
"""

from __future__ import annotations

import time

MAX_FRAME_BYTES = 16_384


class TokenBucket:
    """Allows ``burst`` actions at once and ``rate`` a second after that."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def has_token(self) -> bool:
        """Return whether a token is there to spend, spending nothing."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1

    def take(self) -> bool:
        """Spend one token; return False (and spend nothing) when none is left."""
        if not self.has_token():
            return False
        self.tokens -= 1
        return True

    def refilled(self) -> bool:
        """Return whether the bucket is full again (as good as a new one)."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst
