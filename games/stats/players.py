"""The players of CardStock's experiments: random, and the Monte Carlo search player.

The search player is CardStock's Pure Monte Carlo player (``PIPMCPlayer``):
at every choice, a forced one included, it tries each legal move in
``playouts`` random games to the end, each on a deal sampled from what it has
seen (``determinize``), and keeps each seat's mean final rank per move. It
plays the move with its own best mean rank (the first of equals) and records,
as CardStock's ``RecordHeuristics`` does, the lead view (every seat's rank
estimate after that move, as its lead file wrote it) and the spread (its best
move's rank estimate minus its worst's: 0 at a forced choice).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, Move
from games.stats.heuristics import as_written, rank_estimate


@dataclass
class Estimate:
    """What the search player saw at one choice: its seat, every seat's rank estimate
    after its chosen move, and the spread of its own estimates over its moves."""

    seat: int
    lead: list[float]
    spread: float


@dataclass
class SearchPlayer:
    """CardStock's Monte Carlo search player with ``playouts`` random games per move."""

    game: Game
    playouts: int
    rng: random.Random
    estimates: list[Estimate] = field(default_factory=list)

    def final_ranks(self, state: Any) -> list[int]:
        """Return each seat's rank (0 best) in a finished game."""
        return self.game.info.ranks(self.game.result(state)["scores"])

    def playout(self, state: Any, seat: int, move: Move) -> list[int]:
        """Play ``move`` on a sampled deal, then random moves to the end; return the ranks."""
        game = self.game
        world = game.determinize(state, seat, self.rng)
        game.advance(world, seat, move)
        while not game.is_over(world):
            actor = game.to_act(world)[0]
            game.advance(world, actor, game.random_move(world, actor, self.rng))
        return self.final_ranks(world)

    def choose(self, state: Any, seat: int) -> Move:
        """Return the move with the best mean rank for ``seat`` and record the estimates.

        A forced move is searched too: CardStock's player is asked at every
        choice, so its lead view and its spread (0) count like any other. The
        mean ranks are summed as ``PIPMCPlayer`` sums them (``rank/playouts``
        per playout); the lead view is kept as its lead file wrote it
        (``heuristics.as_written``), the spread at full precision (it stayed in
        memory, ``World.AddInfo``).
        """
        moves = self.game.legal_moves(state, seat)
        players = state.players
        means = [[0.0] * len(moves) for _ in range(players)]
        for index, move in enumerate(moves):
            for _ in range(self.playouts):
                for other, rank in enumerate(self.playout(state, seat, move)):
                    means[other][index] += rank / self.playouts
        mine = means[seat]
        best = min(range(len(moves)), key=mine.__getitem__)
        worst = max(range(len(moves)), key=mine.__getitem__)
        self.estimates.append(
            Estimate(
                seat=seat,
                lead=[as_written(rank_estimate(row[best], players)) for row in means],
                spread=abs(rank_estimate(mine[best], players) - rank_estimate(mine[worst], players)),
            )
        )
        return moves[best]


@dataclass
class RandomPlayer:
    """A player choosing uniformly among the legal moves (``Game.random_move``)."""

    game: Game
    rng: random.Random

    def choose(self, state: Any, seat: int) -> Move:
        """Return a uniformly random legal move."""
        return self.game.random_move(state, seat, self.rng)
