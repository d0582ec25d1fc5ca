"""The limits a web table server holds strangers to: message rates, and connections per client address.

A rate kept per connection is reset by reconnecting, so what a person could
repeat through new connections (chat lines) is limited per seat instead, on
the table (:class:`RateLimit` kept by the hub), and the connections themselves
per client address (:class:`AddressCounter`).
"""

from __future__ import annotations

import time


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.dropped = 0
        self.last_warning = 0.0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False

    def warn_now(self) -> bool:
        """Whether to tell the client about dropped messages (at most once a second, so a flood is not echoed)."""
        now = time.monotonic()
        if now - self.last_warning >= 1.0:
            self.last_warning = now
            return True
        return False


class AddressCounter:
    """Open connections per client address, each refused beyond ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Count one more connection from ``address``; False (and nothing counted) when it already has ``limit``."""
        count = self._open.get(address, 0)
        if count >= self.limit:
            return False
        self._open[address] = count + 1
        return True

    def give_back(self, address: str) -> None:
        """A connection counted by :meth:`take` has closed."""
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)

    def open(self, address: str) -> int:
        return self._open.get(address, 0)
