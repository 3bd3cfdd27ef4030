"""Game statistics from recorded games (docs/dashboard.md defines each figure).

Every finished game is replayed once (``summarize``) into a ``GameSummary``: its
length in moves and deals, its first player, how often the lead changed hands,
its winners. The per-game figures (``variant_stats``) are sums over those rows,
grouped by variant (game, player count and options), since a game's fairness
and length depend on them.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count

from cardtable.dashboard.models import GameSummary
from cardtable.tables.authority import departures
from cardtable.tables.models import Match
from cardtable.tables.replay import ReplayError, require_finished, walk
from games import get_game
from games.bots import LEVELS
from games.engine import Game, winners_of


def lowest_wins(game_id: str) -> bool:
    """Whether the lowest score leads in this game, as its ``GameInfo`` states (Hearts)."""
    return get_game(game_id).info.low_score_wins


def sole_leader(scores: Sequence[float], lowest: bool) -> int | None:
    """Return the seat with the strictly best score, or ``None`` when the best is shared."""
    leaders = winners_of(scores, lowest)
    return leaders[0] if len(leaders) == 1 else None


def count_lead_changes(history: Sequence[Sequence[float]], lowest: bool) -> int:
    """Count how often a different seat becomes the sole leader than the last sole leader.

    A shared best score leads nobody and changes nothing: A leads, A and B tie,
    B leads is one change; A leads, A and B tie, A leads is none. The first seat
    to take the lead is not a change.
    """
    changes, last = 0, None
    for scores in history:
        leader = sole_leader(scores, lowest)
        if leader is None or leader == last:
            continue
        if last is not None:
            changes += 1
        last = leader
    return changes


@dataclass
class LeadHistory:
    """Each seat's score after every move of one game, with where each deal began."""

    scores: list[list[float]]
    deal_steps: list[int]
    lowest_wins: bool
    first_player: int | None
    moves: int
    lead_changes: int = 0
    leaders: list[int | None] = field(default_factory=list)


def seen_scores(game: Game, state: Any) -> list[float]:
    """Every seat's score in a finished game's replay: the spectator's, or where a game
    keeps a score from the others while it runs (``None``: counted from cards in hand), the seat's own."""
    scores = list(game.view(state, None)["scores"])
    return [game.view(state, seat)["scores"][seat] if v is None else v for seat, v in enumerate(scores)]


def lead_history(match: Match) -> LeadHistory:
    """Replay a finished game and read the spectator's ``scores`` after each move."""
    require_finished(match)
    game = get_game(match.game)
    lowest = lowest_wins(match.game)
    scores: list[list[float]] = []
    deal_steps: list[int] = []
    first_player = None
    for step, (_record, state, new_deal) in enumerate(walk(match)):
        if new_deal:
            deal_steps.append(step)
        scores.append(seen_scores(game, state))
        acting = game.to_act(state)
        if first_player is None and len(acting) == 1:
            first_player = acting[0]
    history = LeadHistory(scores, deal_steps, lowest, first_player, len(scores) - 1)
    history.lead_changes = count_lead_changes(scores, lowest)
    history.leaders = [sole_leader(s, lowest) for s in scores]
    return history


def variant_of(options: dict[str, Any]) -> str:
    """The options as canonical JSON: the key of a variant beside game and player count."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def summarize(match: Match) -> GameSummary:
    """Replay one finished game into its ``GameSummary`` (recorded with ``error`` if it fails)."""
    summary = GameSummary(
        match=match,
        game=match.game,
        players=match.players,
        variant=variant_of(match.options),
        winners=(match.result or {}).get("winners", []),
        scores=(match.result or {}).get("scores", []),
        bot_only=all(seat.get("kind") == "bot" for seat in match.seats),
    )
    try:
        history = lead_history(match)
    except ReplayError as error:
        summary.error = error.message
    else:
        summary.moves = history.moves
        summary.deals = len(history.deal_steps)
        summary.first_player = history.first_player
        summary.lead_changes = history.lead_changes
    summary.save()
    return summary


def summarize_pending(limit: int = 200) -> int:
    """Summarize up to ``limit`` finished, completed games that have no summary yet; return how many."""
    pending = Match.objects.filter(result__isnull=False, finished__isnull=False, summary__isnull=True)
    done = 0
    for match in pending.order_by("finished")[:limit]:
        summarize(match)
        done += 1
    return done


def pending_count() -> int:
    """How many completed games still wait for their summary."""
    return Match.objects.filter(result__isnull=False, finished__isnull=False, summary__isnull=True).count()


def interval(share: float, games: int) -> float:
    """Half the width of a 95% normal-approximation interval for a win rate over ``games``."""
    if games == 0:
        return 0.0
    p = min(max(share / games, 0.0), 1.0)
    return 1.96 * math.sqrt(p * (1 - p) / games)


@dataclass
class VariantStats:
    """The figures for one variant of one game."""

    game: str
    players: int
    options: dict[str, Any]
    games: int = 0
    bot_only: int = 0
    failed: int = 0
    moves: int = 0
    deals: int = 0
    lead_changes: int = 0
    no_change: int = 0
    by_seat: list[float] = field(default_factory=list)
    by_position: list[float] = field(default_factory=list)
    positioned: int = 0
    latest: int | None = None

    @property
    def fair(self) -> float:
        """The win rate every seat would have in a fair game."""
        return 1 / self.players

    def mean(self, total: int) -> float:
        """``total`` per game."""
        return total / self.games if self.games else 0.0

    def seat_rates(self) -> list[tuple[float, float]]:
        """(win rate, interval) per seat index."""
        return (
            [(share / self.games, interval(share, self.games)) for share in self.by_seat]
            if self.games
            else []
        )

    def position_rates(self) -> list[tuple[float, float]]:
        """(win rate, interval) per position after the first player (0 is the first player)."""
        n = self.positioned
        return [(share / n, interval(share, n)) for share in self.by_position] if n else []


def variant_stats(game_id: str | None = None) -> list[VariantStats]:
    """Return the figures of every variant played (of one game, if given), most played first."""
    rows = GameSummary.objects.all()
    if game_id is not None:
        rows = rows.filter(game=game_id)
    groups: dict[tuple[str, int, str], VariantStats] = {}
    for row in rows.order_by("match__finished", "match_id"):
        key = (row.game, row.players, row.variant)
        stats = groups.get(key)
        if stats is None:
            stats = groups[key] = VariantStats(row.game, row.players, json.loads(row.variant))
            stats.by_seat = [0.0] * row.players
            stats.by_position = [0.0] * row.players
        if row.error:
            stats.failed += 1
            continue
        stats.games += 1
        stats.bot_only += row.bot_only
        stats.moves += row.moves
        stats.deals += row.deals
        stats.lead_changes += row.lead_changes
        stats.no_change += row.lead_changes == 0
        stats.latest = row.match_id
        share = 1 / len(row.winners) if row.winners else 0.0
        for seat in row.winners:
            stats.by_seat[seat] += share
        if row.first_player is not None:
            stats.positioned += 1
            for seat in row.winners:
                stats.by_position[(seat - row.first_player) % row.players] += share
    return sorted(groups.values(), key=lambda s: (s.game, -s.games))


def bot_level_results() -> tuple[list[str], list[dict[str, Any]]]:
    """Win share of each kind of player (bot levels, and humans) per game, over completed games.

    A seat whose player left mid-game and did not take it back counts under
    ``left``, never as a human's loss or win: a bot or another player decided
    the rest.

    Returns the game ids and one row per level: ``{"level", "cells": {game:
    {"seats", "share", "rate", "fair"}}, "total": {...}}``. ``fair`` is the rate
    a seat would have if every seat were equally strong (the mean of 1/players).
    """
    games: set[str] = set()
    table: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0, 0.0, 0.0]))
    matches = Match.objects.filter(result__isnull=False).values_list(
        "game", "players", "seats", "result", "left"
    )
    for game, players, seats, result, left in matches:
        winners = result.get("winners", [])
        games.add(game)
        gone = set(departures.left_seats(left or []))  # a seat taken back by its player was not left
        for seat in seats:
            level = (seat.get("level") or "bot") if seat.get("kind") == "bot" else "human"
            if seat["seat"] in gone:
                level = "left"  # a player who left mid-game: no ordinary loss (or win) of theirs
            for key in (game, "all"):
                cell = table[level][key]
                cell[0] += 1
                cell[1] += 1 / len(winners) if seat["seat"] in winners else 0.0
                cell[2] += 1 / players
    order = [*LEVELS, "human", "left"]
    rows = []
    for level in sorted(table, key=lambda x: order.index(x) if x in order else len(order)):
        cells = {
            key: {"seats": n, "share": share, "rate": share / n, "fair": fair / n}
            for key, (n, share, fair) in table[level].items()
        }
        rows.append({"level": level, "cells": cells, "total": cells["all"]})
    return sorted(games), rows


def finished_counts() -> dict[str, int]:
    """Completed games recorded per game id."""
    rows = Match.objects.filter(result__isnull=False).values("game").annotate(n=Count("pk"))
    return {row["game"]: row["n"] for row in rows}
