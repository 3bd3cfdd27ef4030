"""Random reachable states of every game, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.engine import Game


def random_states(
    game: Game, count: int, seed: int = 0, players: int | None = None
) -> Iterator[tuple[Any, int]]:
    """Yield ``count`` (state, seat to act) pairs reached by random play from fresh games."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = game.new(players, None, rng.randrange(10**6))
        steps = rng.randrange(60)
        for _ in range(steps):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            game.advance(state, seat, game.random_move(state, seat, rng))
        if game.is_over(state):
            continue
        yield state, rng.choice(game.to_act(state))
        made += 1


def other_deal(game: Game, state: Any, seat: int, seed: int) -> Any:
    """Return a state that differs from ``state`` only in what ``seat`` cannot see."""
    return game.determinize(state, seat, random.Random(seed))
