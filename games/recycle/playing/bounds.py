"""The bounds on one move's work: steps counted, the clock read every 64 steps, cards held.

Every loop, action and stage round counts a step (``tick``), so no description
runs without bound between two choices; past ``MAX_STEPS`` steps or
``MAX_SECONDS`` of CPU in one move the game stops with a located error.
"""

from __future__ import annotations

import time
from typing import Any

from games.recycle.compiling.fast import move_many
from games.recycle.errors import RecycleRuntimeError
from games.recycle.reading.syntax import Node

MAX_REPEAT = 10_000
MAX_HELD = 20_000  # cards in all locations together, remembered copies included
MAX_SECONDS = 5.0  # CPU time of one move (the setup and the play to the first choice count as one)
CLOCK_EVERY = 63  # the clock is read every 64 steps


def tick(st: Any, node: Node, limit: int) -> None:
    """Count one step of work; past ``limit`` steps or ``MAX_SECONDS`` in one move, stop the game
    with a located error."""
    st.steps += 1
    if st.steps > limit or not st.steps & CLOCK_EVERY:
        check_step(st, node, limit)


def check_step(st: Any, node: Node, limit: int) -> None:
    """The checks of a step counted inline: called when ``st.steps`` is past ``limit`` or a
    multiple of 64 (the clock is read then), as ``tick`` calls it."""
    if st.steps > limit:
        raise RecycleRuntimeError(
            f"more than {limit} steps without a player's choice: does this loop ever end?",
            node.line,
            node.column,
        )
    check_time(st, node)


def check_time(st: Any, node: Node) -> None:
    """Stop the game with a located error once the move being made has taken ``MAX_SECONDS`` of CPU.

    The clock starts at a move's first reading (its 64th step): most moves take
    fewer steps and so never make the system call.
    """
    now = time.thread_time()
    if st.began is None:
        st.began = now
    if now - st.began > MAX_SECONDS:
        message = f"one move took more than {MAX_SECONDS} seconds: does this loop ever end?"
        raise RecycleRuntimeError(message, node.line, node.column)


def moved_many(st: Any, env: dict, ends: tuple, most: int, ticks: int | None, node: Node, limit: int) -> bool:
    """``fast.move_many``, with the clock read as ``tick`` reads it: when the steps it counts
    pass a multiple of 64."""
    before = st.steps
    if not move_many(st, env, *ends, most, ticks, limit):
        return False
    if st.steps > before | CLOCK_EVERY:
        check_time(st, node)
    return True


def check_held(st: Any, node: Node, more: int) -> None:
    if sum(map(len, st.locs.values())) + more > MAX_HELD:
        raise RecycleRuntimeError(f"more than {MAX_HELD} cards held in all locations", node.line, node.column)
