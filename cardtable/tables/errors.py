"""The protocol's error codes, in PROTOCOL.md's order of precedence.

Where several errors apply to one message, the one earliest in ``CODES`` is sent.
The checks in the consumer and the authority run in this order, so the first one
that fails is the one reported. ``wrong_status`` and ``seats_empty`` are this
project's additions (docs/protocol.md).
"""

from __future__ import annotations

CODES = (
    "too_large",
    "rate_limited",
    "bad_message",
    "no_player",
    "not_seated",
    "seat_taken",
    "not_host",
    "wrong_status",
    "seats_empty",
    "game_not_running",
    "not_your_turn",
    "stale_version",
    "illegal_move",
)


class TableError(Exception):
    """A refused request: ``code`` from ``CODES`` and a message a person can read."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self, message_id: object = None) -> dict:
        """Return the protocol's error message, echoing the client's ``id`` if any."""
        error = {"type": "error", "code": self.code, "message": self.message}
        if message_id is not None:
            error["id"] = message_id
        return error
