"""Errors of a RECYCLE description: where it is wrong, and why."""

from __future__ import annotations

from games.engine import GameError


class RecycleError(GameError):
    """A description that cannot be read or run, with its line and column (1-based)."""

    code = "bad_description"

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.reason = message
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(where + message)


class RecycleRuntimeError(RecycleError):
    """A description that ran past a bound while playing (a loop without a choice, too many moves)."""

    code = "game_failed"
