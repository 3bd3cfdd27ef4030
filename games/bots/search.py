"""Search over sampled deals, using only the game contract.

Every sample is a deal consistent with what the bot's seat has seen
(``determinize``: its own hand, the cards played, the voids it saw; the unseen
cards dealt at random). Two searches share the machinery:

- ``pimc`` (the default, perfect-information Monte Carlo): in each sample every
  legal move of the seat is played and the deal played out with a playout
  policy (the game's easy player), so the moves are compared on the same cards;
  the policy's own move is kept unless another beats it clearly.
- ``ismcts``: single-observer information-set MCTS (Cowling, Powley and
  Whitehouse, 2012), one tree over all samples, UCB with availability counts,
  each node keeping the reward of the seat that moved into it.

The search sees the game only through ``determinize``, ``clone``, ``to_act``,
``legal_moves``, ``advance`` (moves come from ``legal_moves``, so the unchecked
path is safe), ``is_over``, ``result`` and ``view`` for the scores.

Budgets are playout counts, so a bot with a seed always makes the same move; a
wall-clock cap stops a search that runs long on a busy machine (then, and only
then, the move depends on timing).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Game, GameError, Move

Policy = Callable[[Game, Any, int, random.Random], Move]
Reward = Callable[[Sequence[float], Sequence[float]], list[float]]


def move_key(move: Move) -> tuple:
    """Return a hashable key for a move (moves are one-key JSON objects)."""
    (name, value), *_ = move.items()
    return (name, tuple(value) if isinstance(value, list) else value)


def relative_reward(sign: float, scale: float) -> Reward:
    """Reward each seat by its score gain against the others' mean, mapped into [0, 1].

    ``sign`` is +1 where a higher score is better, -1 where lower is (Hearts);
    ``scale`` is about the largest swing a deal can bring.
    """

    def reward(before: Sequence[float], after: Sequence[float]) -> list[float]:
        gains = [a - b for a, b in zip(after, before, strict=True)]
        total = sum(gains)
        n = len(gains)
        out = []
        for gain in gains:
            others = (total - gain) / (n - 1) if n > 1 else 0.0
            value = 0.5 + sign * (gain - others) / (2 * scale)
            out.append(min(1.0, max(0.0, value)))
        return out

    return reward


def own_reward(sign: float, scale: float) -> Reward:
    """Reward each seat by its own score change alone, mapped into [0, 1].

    For games where a seat's loss is its own affair (Ninety-Eight: a bust costs
    only the one who busts), so a seat does not risk itself to sink another.
    """

    def reward(before: Sequence[float], after: Sequence[float]) -> list[float]:
        return [
            min(1.0, max(0.0, 0.5 + sign * (a - b) / (2 * scale))) for a, b in zip(after, before, strict=True)
        ]

    return reward


def winner_reward(before: Sequence[float], after: Sequence[float]) -> list[float]:
    """Reward 1 to every seat with the best final score (ties share), with a small margin term."""
    best = max(after)
    n = len(after)
    out = []
    for score in after:
        others = (sum(after) - score) / (n - 1) if n > 1 else 0.0
        margin = max(-1.0, min(1.0, (score - others) / 26))
        out.append(0.8 * (score == best) + 0.1 + 0.1 * margin)
    return out


def best_reward(sign: float) -> Reward:
    """Reward a seat 0.8 for sharing the best final score, plus up to 0.2 by its place between worst and best.

    For games known only by their description (RECYCLE), where no scale of a
    score is known in advance: ``sign`` (``GameInfo.score_sign``) says which way is best.
    """

    def reward(before: Sequence[float], after: Sequence[float]) -> list[float]:
        values = [sign * a for a in after]
        top, bottom = max(values), min(values)
        spread = (top - bottom) or 1.0
        return [0.8 * (v == top) + 0.2 * (v - bottom) / spread for v in values]

    return reward


DEFAULT_REWARD = relative_reward(1.0, 1.0)


@dataclass
class SearchConfig:
    """How a search bot thinks: its budget and how it plays out and scores a deal.

    ``playouts`` is the budget (deterministic); ``max_seconds`` caps the wall
    time. ``mode`` is ``"pimc"`` (every move of the seat tried in every sampled
    deal, so moves are compared on the same cards) or ``"ismcts"`` (one tree
    over all sampled deals). In ``pimc`` the search keeps the policy's own move
    unless another beats it by ``confidence`` standard errors of the paired
    difference: the search improves on the easy player rather than chasing
    noise. ``tree_depth`` (``ismcts``) limits how many moves deep the tree grows (1 is flat
    Monte Carlo over the bot's own moves). ``policy_rate`` is the share of
    playout moves taken from ``policy`` rather than uniformly at random.
    ``stop_at_deal``: a playout ends when a new deal is dealt and the deal's
    score change is the reward; otherwise it runs to the end of the game.
    """

    playouts: int = 200
    max_seconds: float = 0.25
    mode: str = "pimc"
    confidence: float = 1.5
    exploration: float = 0.7
    tree_depth: int = 64
    policy: Policy | None = None
    policy_rate: float = 1.0
    stop_at_deal: bool = True
    reward: Reward = DEFAULT_REWARD


class _Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat whose move led here
        self.children: dict[tuple, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class SearchStats:
    """What the last search did: playouts run and seconds spent (for tests and benches)."""

    __slots__ = ("playouts", "seconds")

    def __init__(self) -> None:
        self.playouts = 0
        self.seconds = 0.0


def _is_new_deal(events: Sequence[dict]) -> bool:
    return any("deal" in event for event in events)


def _scores(game: Game, state: Any) -> list[float]:
    if game.is_over(state):
        return list(game.result(state)["scores"])
    return list(game.view(state, None)["scores"])


# Fewer sampled deals than this tell no standard error: the policy's move is kept. A time
# cap on a busy machine (or a wide choice) can leave a search one or two deals, and one
# lucky playout would otherwise overrule the policy (Go Fish's twelve asks).
MIN_DEALS = 4


def _margin(values: list[float]) -> float:
    """Return the mean of ``values`` in standard errors: 0 under ``MIN_DEALS`` values, inf
    when they never vary but are positive."""
    n = len(values)
    if n < MIN_DEALS:
        return 0.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    if var == 0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(var / n)


class SearchBot:
    """A seat played by search over sampled deals; deterministic for a seed and budget."""

    def __init__(self, game: Game, config: SearchConfig, seed: int = 0) -> None:
        self.game = game
        self.config = config
        self.rng = random.Random(seed)
        self.stats = SearchStats()

    def choose(self, state: Any, seat: int) -> Move:
        """Return the search's move, after the playout budget or the time cap."""
        return self.search(state, seat, self.game.legal_moves(state, seat))

    def search(self, state: Any, seat: int, moves: list[Move]) -> Move:
        """Return the best of ``moves`` (legal moves of ``seat``; the policy's move among them).

        A caller may pass a shortlist of a wide choice (Hearts' 286 passes) so the
        budget goes to the moves worth weighing.
        """
        game, config = self.game, self.config
        started = time.perf_counter()
        self.stats = stats = SearchStats()
        if len(moves) == 1:
            return moves[0]
        before = _scores(game, state)
        if config.mode == "pimc":
            move = self._pimc(state, seat, moves, before, started)
            stats.seconds = time.perf_counter() - started
            return move
        root = _Node(seat)
        root_keys = {move_key(m): m for m in moves}
        deadline = started + config.max_seconds
        for i in range(config.playouts):
            self._iterate(state, seat, root, before)
            stats.playouts = i + 1
            if time.perf_counter() > deadline:
                break
        stats.seconds = time.perf_counter() - started
        best_key, best_visits = None, -1
        for key, child in root.children.items():
            if key in root_keys and child.visits > best_visits:
                best_key, best_visits = key, child.visits
        return root_keys[best_key] if best_key is not None else moves[0]

    def _pimc(self, state: Any, seat: int, moves: list[Move], before: list[float], started: float) -> Move:
        """Flat Monte Carlo over sampled deals, each move played out in each deal."""
        game, config, rng, stats = self.game, self.config, self.rng, self.stats
        anchor = config.policy(game, state, seat, rng) if config.policy is not None else moves[0]
        anchor_index = next((i for i, m in enumerate(moves) if m == anchor), 0)
        sums = [0.0] * len(moves)
        diffs = [[] for _ in moves]  # per deal: reward minus the anchor move's
        deadline = started + config.max_seconds
        worlds = max(1, config.playouts // len(moves))
        for _ in range(worlds):
            world = game.determinize(state, seat, rng)
            rewards = []
            try:
                for move in moves:
                    trial = game.clone(world)
                    events = game.advance(trial, seat, move)
                    if not (game.is_over(trial) or (config.stop_at_deal and events and _is_new_deal(events))):
                        self._playout(trial)
                    rewards.append(config.reward(before, _scores(game, trial))[seat])
                    stats.playouts += 1
            except GameError:
                # A sampled deal the game cannot play on (a RECYCLE stage that never
                # ends with these cards: Go Fish dealt a hidden four of a kind) is dropped.
                if time.perf_counter() > deadline:
                    break
                continue
            base = rewards[anchor_index]
            for i, value in enumerate(rewards):
                sums[i] += value
                diffs[i].append(value - base)
            if time.perf_counter() > deadline:
                break
        best = max(range(len(moves)), key=lambda i: sums[i])
        if best == anchor_index or not diffs[best] or _margin(diffs[best]) < config.confidence:
            return moves[anchor_index]
        return moves[best]

    def _iterate(self, state: Any, seat: int, root: _Node, before: list[float]) -> None:
        game, config, rng = self.game, self.config, self.rng
        world = game.determinize(state, seat, rng)
        node = root
        path = [root]
        ended = False
        depth = 0
        # Selection and expansion: the root's seat acts first (it is to act).
        actor = seat
        while True:
            moves = game.legal_moves(world, actor)
            children = node.children
            untried = [m for m in moves if move_key(m) not in children]
            if untried:
                move = untried[int(rng.random() * len(untried))]
                child = children[move_key(move)] = _Node(actor)
            else:
                best, best_value = None, -1.0
                c = config.exploration
                for m in moves:
                    candidate = children[move_key(m)]
                    candidate.avail += 1
                    # UCB over availability (SO-ISMCTS): a move counts as tried
                    # only in the deals where it was legal.
                    value = candidate.total / candidate.visits + c * math.sqrt(
                        math.log(candidate.avail) / candidate.visits
                    )
                    if value > best_value:
                        best, best_value, move = candidate, value, m
                child = best
            path.append(child)
            depth += 1
            events = game.advance(world, actor, move)
            if game.is_over(world) or (config.stop_at_deal and events and _is_new_deal(events)):
                ended = True
                break
            if untried or depth >= config.tree_depth:
                break
            node = child
            actor = game.to_act(world)[0]
        if not ended:
            self._playout(world)
        rewards = config.reward(before, _scores(game, world))
        for n in path[1:]:
            n.visits += 1
            n.total += rewards[n.seat]
        if root.avail == 0:
            root.avail = 1

    def _playout(self, world: Any) -> None:
        game, config, rng = self.game, self.config, self.rng
        policy, rate, stop_at_deal = config.policy, config.policy_rate, config.stop_at_deal
        while not game.is_over(world):
            actor = game.to_act(world)[0]
            if policy is not None and (rate >= 1.0 or rng.random() < rate):
                move = policy(game, world, actor, rng)
            else:
                moves = game.legal_moves(world, actor)
                move = moves[int(rng.random() * len(moves))]
            events = game.advance(world, actor, move)
            if stop_at_deal and events and _is_new_deal(events):
                return
