"""The ``easy`` player of a RECYCLE game: a few short random look-aheads, scored by the description.

A description comes with no hand-written player, and its rules say nothing a
heuristic could read beyond the ``scoring`` form. So the easy player looks a
little ahead instead: in a few deals consistent with what its seat sees
(``determinize``), it makes each legal move, lets every seat play at random for
a short horizon (four rounds of the table, or to the end of the game; longer
while no score has changed, for descriptions that score only at the end of a
hand), and scores the position the description's way (``Program.scores``, in the
direction of ``scoring min|max``), by the seat's place between the worst and
the best. The move with the best total wins; ties are broken at random, so
where nothing the horizon sees tells the moves apart the player is no worse
than random.

It reads only the seat's sampled worlds, never the real state's hidden cards:
the worlds come from ``determinize``, which deals every unseen card again from
the sorted pool, keeping what the seat saw (``tracking.py``). A playout is a
few dozen interpreter steps, so a decision costs a few milliseconds (at most
``MAX_SECONDS`` of CPU time past the first sampled deal); the searches
(``normal``, ``hard``) start from this player's move and keep it unless their
full-game playouts find a clearly better one (``games/bots/search.py``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from games.engine import Game, Move
from games.recycle.errors import RecycleRuntimeError

# Playouts per decision, shared among the legal moves (each move gets at least
# ``MIN_WORLDS`` sampled deals, so a wide choice costs more but is still compared).
PLAYOUTS = 24
MIN_WORLDS = 2
# How many moves after its own a look-ahead plays, per seat at the table: two
# four rounds see tricks finished and scored, cards drawn and matched.
ROUNDS = 4
# Past the horizon a look-ahead goes on while no score has changed, up to this many moves.
LONGEST = 400
# A cap on one decision's CPU time (this thread's, so a busy machine does not
# starve the player of deals): past it no further deal is sampled (the first
# always is). Go Fish's wide asks cost 0.1 to 0.3 s of CPU for the full count;
# ``easy`` answers at once at the table and starts every search, so it stays
# well inside ``normal``'s 0.25 s.
MAX_SECONDS = 0.08


def place(values: Sequence[float], seat: int, sign: float) -> float:
    """Return ``seat``'s place in [0, 1] between the worst (0) and the best (1) of ``values``.

    ``sign`` is +1 where a higher score is better, -1 where lower is. All equal
    is 0.5: nothing told apart.
    """
    signed = [sign * v for v in values]
    top, bottom = max(signed), min(signed)
    if top == bottom:
        return 0.5
    return (signed[seat] - bottom) / (top - bottom)


def look_ahead(
    game: Any,
    world: Any,
    seat: int,
    move: Move,
    horizon: int,
    rng: random.Random,
    start: list | None = None,
) -> float:
    """Make ``move`` in ``world`` (in place), play ``horizon`` random moves, then on while the
    scores are still ``start`` (at most ``LONGEST`` moves in all); return ``seat``'s place."""
    game.advance(world, seat, move)
    steps = 0
    while not game.is_over(world):
        # A description that scores only at the end of a hand (Black Lady, Whist) shows no
        # change within the horizon: every move would tie and the choice be random.
        if steps >= horizon and (start is None or steps >= LONGEST or game.program.scores(world) != start):
            break
        actor = game.to_act(world)[0]
        moves = game.legal_moves(world, actor)
        game.advance(world, actor, moves[int(rng.random() * len(moves))])
        steps += 1
    scores = game.result(world)["scores"] if game.is_over(world) else game.program.scores(world)
    return place(scores, seat, game.info.score_sign())


def choose(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """Return the legal move of ``seat`` whose short look-aheads score best (ties at random)."""
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    horizon = ROUNDS * state.players
    start = game.program.scores(state)
    worlds = max(MIN_WORLDS, -(-PLAYOUTS // len(moves)))
    totals = [0.0] * len(moves)
    deadline = time.thread_time() + MAX_SECONDS
    for _ in range(worlds):
        world = game.determinize(state, seat, rng)
        # Every move meets the same random replies in a deal (common random numbers): the
        # moves differ by what they do, not by the luck of their look-aheads.
        replies = rng.getrandbits(32)
        try:
            scored = [
                look_ahead(game, game.clone(world), seat, move, horizon, random.Random(replies), start)
                for move in moves
            ]
        except RecycleRuntimeError:
            # A sampled deal the description cannot play on (Go Fish dealing a
            # hidden hand four of a rank it would have laid down: a stage that
            # never ends) tells nothing, and reaching the step bound is dear:
            # stop sampling and decide on the deals played so far.
            break
        totals = [t + v for t, v in zip(totals, scored, strict=True)]
        if time.thread_time() > deadline:
            break
    best = max(totals)
    ties = [i for i, total in enumerate(totals) if total == best]
    return moves[ties[int(rng.random() * len(ties))]]
