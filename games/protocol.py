"""What passes between a game and its callers: moves, chance events, and refusals.

A move and a chance event are JSON objects. Every refusal is a ``GameError``
whose ``code`` is the one the protocol sends back (docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

Move = dict[str, Any]
Event = dict[str, Any]
NO_EVENTS: tuple[Event, ...] = ()


class GameError(ValueError):
    """Something asked of a game that it cannot do; ``code`` is the protocol's."""

    code = "bad_request"


class OptionsError(GameError):
    """Unknown option, bad option value or player count, given to ``new``."""

    code = "bad_options"


class IllegalMoveError(GameError):
    """A move that is malformed or not legal now; the state is untouched."""

    code = "illegal_move"


class NotYourTurnError(IllegalMoveError):
    """A move from a seat that is not to act."""

    code = "not_your_turn"


class GameOverError(IllegalMoveError):
    """A move after the game has ended."""

    code = "game_not_running"
