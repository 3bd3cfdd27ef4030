"""Per-connection limits: frame size and token-bucket rate limits."""

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

    def take(self) -> bool:
        """Spend one token; return False (and spend nothing) when none is left."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
