"""After a game: every decision of one seat weighed by search, from that seat's knowledge only.

The game is rebuilt from its seed, options and move log (``new`` then ``apply``,
as the replay does). At each logged move of the reviewed seat made by its player
(``by`` in ``ReviewConfig.by``) with more than one legal move, every legal move is
played out in the same sampled deals: ``determinize`` from that seat's view, the
move, then the game's easy player to the end of the deal (or of the game, where
the bots play whole games), as the search bots do (``search.py``). The worlds are
shared by the moves, so the difference between two moves is measured on the same
cards, and its standard error is that of the paired differences.

What a move is worth (``unit``):

- ``points`` (games whose bots score a deal): ``value`` is the seat's score change
  over the rest of the deal against the others' mean (the bots' relative reward,
  unclipped, signed so higher is better); ``points`` is the seat's own expected
  score change as the score sheet counts it (Hearts: points taken).
- ``win chance`` (games played to their end: Stealing Bundles, RECYCLE games):
  ``value`` and ``points`` are the chance of ending among the winners.

Cribbage discards are not sampled: each discard's ``value`` is the exact expected
hand plus (own crib) or minus (the other side's) the expected crib the bots use
(``crib_discard.discard_choices``); their standard error is 0.

A decision is a mistake only when the best move beats the chosen one by more than
``confidence`` standard errors of the paired difference and by at least
``min_cost`` (or ``min_chance``). A forced move is never one. A decision with more
than ``max_moves`` legal moves (Hearts' pass) is listed as not reviewed.
Reproducible: each decision draws from ``random.Random(f"{seed}:{seq}")``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.bots.levels import settings_for
from games.bots.search import _is_new_deal, _scores
from games.cards import CARD_INDEX
from games.cribbage.crib_discard import discard_choices
from games.engine import Game, Move
from games.stats.heuristics import mean_and_error

POINTS, WIN_CHANCE = "points", "win chance"
_SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_NOT_WEIGHED = {"mistake": False, "cost": 0.0}


@dataclass(frozen=True)
class ReviewConfig:
    """A review's budget and thresholds: ``playouts`` per decision, shared by its moves, but
    at least ``min_worlds`` sampled deals; which logged moves count as the player's (``by``)."""

    playouts: int = 400
    min_worlds: int = 16
    confidence: float = 2.0
    min_cost: float = 0.25
    min_chance: float = 0.02
    max_moves: int = 40
    seed: int = 0
    by: tuple[str, ...] = ("human",)


def card_short(name: str) -> str:
    """Return a card as the page writes it short: ``"KS"`` is ``"K♠"``, ``"TH"`` is ``"10♥"``."""
    rank = "10" if name[0] == "T" else name[0]
    return rank + _SUITS.get(name[1], name[1:])


def _words(value: Any) -> str:
    if isinstance(value, str) and value in CARD_INDEX:
        return card_short(value)
    if isinstance(value, list):
        return " ".join(_words(v) for v in value)
    return str(value)


def move_words(move: Move, verb: bool = True) -> str:
    """Return a move in words, as the move log says it: "played K♠" (``verb`` false: "K♠"),
    "discarded 5♥ 5♠", "go"."""
    (name, value), *_ = move.items()
    if name == "play":
        return f"played {_words(value)}" if verb else _words(value)
    if name == "discard":
        return f"discarded {_words(value)}"
    if name == "pass":
        return f"passed {_words(value)}"
    if value is True:
        return name
    return f"{name} {_words(value)}"


class Reviewer:
    """Weighs one seat's decisions in one game (``review``); deterministic for a config."""

    def __init__(self, game: Game, config: ReviewConfig) -> None:
        self.game = game
        self.config = config
        self.settings = settings_for(game)
        self.unit = POINTS if self.settings.stop_at_deal else WIN_CHANCE
        self.sign = game.info.score_sign()

    def _outcome(self, seat: int, before: list[float], after: list[float]) -> tuple[float, float]:
        """Return ``(value, points)`` of one played-out deal or game for ``seat``."""
        if self.unit == WIN_CHANCE:
            won = 1.0 if seat in self.game.info.winners(after) else 0.0
            return won, won
        gains = [a - b for a, b in zip(after, before, strict=True)]
        own = gains[seat]
        others = (sum(gains) - own) / (len(gains) - 1) if len(gains) > 1 else 0.0
        return self.sign * (own - others), own

    def _playout(self, world: Any, rng: random.Random) -> None:
        game, settings = self.game, self.settings
        while not game.is_over(world):
            actor = game.to_act(world)[0]
            if settings.policy_rate >= 1.0 or rng.random() < settings.policy_rate:
                move = settings.easy(game, world, actor, rng)
            else:
                moves = game.legal_moves(world, actor)
                move = moves[int(rng.random() * len(moves))]
            events = game.advance(world, actor, move)
            if settings.stop_at_deal and events and _is_new_deal(events):
                return

    def weigh(self, state: Any, seat: int, moves: list[Move], rng: random.Random) -> list[dict[str, Any]]:
        """Return each move's ``value``, ``points`` and ``se``, and its per-world values (``_values``)."""
        game = self.game
        exact = discard_choices(game, state, seat) if game.info.id == "cribbage" else None
        if exact is not None:
            by_key = {str(m): v for v, m in exact}
            return [{"move": m, "value": by_key[str(m)], "points": by_key[str(m)], "se": 0.0} for m in moves]
        before = _scores(game, state)
        worlds = max(self.config.min_worlds, self.config.playouts // len(moves))
        values: list[list[float]] = [[] for _ in moves]
        points: list[list[float]] = [[] for _ in moves]
        for _ in range(worlds):
            world = game.determinize(state, seat, rng)
            for i, move in enumerate(moves):
                trial = game.clone(world)
                events = game.advance(trial, seat, move)
                if not (
                    game.is_over(trial) or (self.settings.stop_at_deal and events and _is_new_deal(events))
                ):
                    self._playout(trial, rng)
                value, own = self._outcome(seat, before, _scores(game, trial))
                values[i].append(value)
                points[i].append(own)
        out = []
        for i, move in enumerate(moves):
            mean, se = mean_and_error(values[i])
            out.append(
                {
                    "move": move,
                    "value": round(mean, 4),
                    "points": round(sum(points[i]) / worlds, 4),
                    "se": round(se, 4),
                    "_values": values[i],
                }
            )
        return out

    def decision(self, state: Any, seat: int, chosen: Move, seq: int, step: int) -> dict[str, Any]:
        """Weigh one decision: every legal move, the best, the chosen one's cost, whether it is a mistake."""
        moves = self.game.legal_moves(state, seat)
        entry: dict[str, Any] = {
            "seq": seq,
            "step": step,
            "seat": seat,
            "chosen": chosen,
            "legal": len(moves),
        }
        if len(moves) < 2:
            return {**entry, "forced": True, **_NOT_WEIGHED}
        if len(moves) > self.config.max_moves:
            return {
                **entry,
                "forced": False,
                "skipped": "too many moves to weigh",
                "mistake": False,
                "cost": 0.0,
            }
        if chosen not in moves:
            return {
                **entry,
                "forced": False,
                "skipped": "not among the legal moves",
                "mistake": False,
                "cost": 0.0,
            }
        chosen_i = moves.index(chosen)
        rng = random.Random(f"{self.config.seed}:{seq}")
        weighed = self.weigh(state, seat, moves, rng)
        best_i = max(range(len(moves)), key=lambda i: (weighed[i]["value"], i == chosen_i))
        best, mine = weighed[best_i], weighed[chosen_i]
        if "_values" in best:
            cost, cost_se = mean_and_error(
                [b - c for b, c in zip(best["_values"], mine["_values"], strict=True)]
            )
        else:
            cost, cost_se = best["value"] - mine["value"], 0.0
        floor = self.config.min_cost if self.unit == POINTS else self.config.min_chance
        mistake = best_i != chosen_i and cost >= floor and cost > self.config.confidence * cost_se
        for w in weighed:
            w.pop("_values", None)
        ranked = sorted(weighed, key=lambda w: -w["value"])
        entry.update(
            forced=False,
            moves=ranked,
            best=best["move"],
            cost=round(cost, 4),
            cost_se=round(cost_se, 4),
            mistake=mistake,
        )
        entry["text"] = self.describe(entry, mine, best)
        return entry

    def describe(self, entry: dict[str, Any], mine: dict[str, Any], best: dict[str, Any]) -> str:
        """Say a decision in words: "played K♠: expected +4.1 points by the deal's end; 3♣ expected
        +0.6 (...)": the seat's score change from the decision to the deal's end, as the score
        sheet counts it (Hearts counts a deal's points at its end: those taken before count too)."""
        if self.unit == WIN_CHANCE:
            text = f"{move_words(mine['move'])}: {mine['points']:.0%} chance to win"
            if best is not mine:
                text += f"; {move_words(best['move'], False)}: {best['points']:.0%}"
            return text
        text = f"{move_words(mine['move'])}: expected {mine['points']:+.1f} points by the deal's end"
        if best is not mine:
            text += f"; {move_words(best['move'], False)} expected {best['points']:+.1f}"
            text += f" (costs {entry['cost']:.1f} ± {entry['cost_se']:.1f} points against the others)"
        return text


def review(
    game: Game,
    players: int,
    options: dict[str, Any],
    seed: int,
    log: Iterable[dict[str, Any]],
    seat: int,
    config: ReviewConfig | None = None,
) -> dict[str, Any]:
    """Review ``seat``'s decisions in the game of ``seed`` and ``log`` (``{"seq", "seat", "move",
    "by"}`` in order). Return ``{"seat", "unit", "decisions", "mistakes", "reviewed", "total_cost",
    "average_cost", "config"}``; ``decisions`` lists each of the seat's decisions, ``mistakes``
    their steps, costliest first."""
    config = config or ReviewConfig()
    reviewer = Reviewer(game, config)
    state = game.new(players, dict(options), seed)
    decisions = []
    for step, record in enumerate(log, start=1):
        if record["seat"] == seat and record.get("by", "human") in config.by:
            decisions.append(reviewer.decision(state, seat, record["move"], record["seq"], step))
        game.apply(state, record["seat"], record["move"])
    weighed = [d for d in decisions if "moves" in d]
    mistakes = sorted((d for d in decisions if d["mistake"]), key=lambda d: -d["cost"])
    total = sum(max(0.0, d["cost"]) for d in weighed)
    return {
        "seat": seat,
        "unit": reviewer.unit,
        "decisions": decisions,
        "mistakes": [d["step"] for d in mistakes],
        "reviewed": len(weighed),
        "total_cost": round(total, 4),
        "average_cost": round(total / len(weighed), 4) if weighed else None,
        "config": {
            "playouts": config.playouts,
            "seed": config.seed,
            "confidence": config.confidence,
            "max_moves": config.max_moves,
        },
    }
