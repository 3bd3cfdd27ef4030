"""Abuse limits: frame size, and token-bucket rate limits per connection or per player."""

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


_SHARED: dict[tuple, TokenBucket] = {}
_SHARED_MAX = 10_000  # buckets kept before idle, full ones are forgotten


def shared_bucket(key: tuple, rate: float, burst: float) -> TokenBucket:
    """Return the bucket for ``key`` (say, one player's chat) shared by all its connections here.

    Several tabs of one player then share one allowance in this process instead of
    each bringing its own. When there are too many buckets, the refilled ones are
    dropped: they are as good as new.
    """
    bucket = _SHARED.get(key)
    if bucket is None:
        if len(_SHARED) >= _SHARED_MAX:
            for stale in [k for k, b in _SHARED.items() if b.refilled()]:
                del _SHARED[stale]
        bucket = _SHARED[key] = TokenBucket(rate, burst)
    return bucket


def reset_shared() -> None:
    """Forget every shared bucket (tests; a fresh process starts without any)."""
    _SHARED.clear()
