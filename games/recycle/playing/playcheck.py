"""Whether a RECYCLE game plays as written: random games, watched move by move.

A description that loads and ends is not yet a game people can play. ``play_check``
plays games with uniformly random players from seeds 0, 1, ... and reports what
a person sitting down would find:

- each game ends by its own end condition (not at one of the interpreter's
  bounds, not stalled past ``game_seconds``);
- no card is lost or duplicated between places after any move
  (``conservation.py``);
- some player moves, every seat moves, and some seat holds a card at a choice;
- the figures: moves per game and per seat, cards each seat holds when play
  begins (its deal), wins per seat.

``PlayReport.problem`` says the first thing wrong in a person's words (``None``
when the game plays); the upload check refuses a game with it
(``cardtable/dashboard/recycle_games.py``) and ``bench/recycle_coverage.py``
counts such a file as not playing.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, GameError
from games.recycle.playing.conservation import card_places, conservation_faults
from games.recycle.playing.game import RecycleGame
from games.recycle.playing.state import RecycleState


@dataclass
class PlayReport:
    """What ``games`` random games of a description showed."""

    players: int
    games: int = 0
    moves: list[int] = field(default_factory=list)  # per game
    seat_moves: list[int] = field(default_factory=list)  # per seat, all games together
    dealt: list[float] = field(default_factory=list)  # cards each seat holds at the first choice, a mean
    held: list[bool] = field(default_factory=list)  # whether each seat held a card at a choice ([]: unknown)
    wins: list[int] = field(default_factory=list)
    # Where each game ended: its outermost stage's end condition, "line 60, column 3".
    ends: list[str] = field(default_factory=list)
    seconds: float = 0.0
    problem: str | None = None

    @property
    def plays(self) -> bool:
        """Return whether every game played as written."""
        return self.problem is None

    def figures(self) -> dict[str, Any]:
        """Return the figures as plain JSON (what the upload check stores with the game)."""
        games = max(self.games, 1)
        return {
            "games": self.games,
            "moves_mean": round(sum(self.moves) / games, 1),
            "moves_max": max(self.moves, default=0),
            "seat_moves": [round(n / games, 1) for n in self.seat_moves],
            "dealt": [round(n, 1) for n in self.dealt],
            "wins": self.wins,
            "seconds": round(self.seconds, 2),
        }


class _Refused(Exception):
    """One game showed the description does not play (its reason is the report's problem)."""


def play_check(
    game: Game,
    games: int = 100,
    *,
    seconds: float = 30.0,
    min_games: int = 3,
    game_seconds: float = 20.0,
) -> PlayReport:
    """Play up to ``games`` random games (seeds 0, 1, ...) and report how they went.

    After ``min_games`` games the check stops once ``seconds`` have passed; one game
    running past ``game_seconds`` has stalled. Conservation is checked after every
    move of a ``RecycleGame``. The report's ``problem`` is the first fault found.
    """
    players = game.info.default_players
    # Which seats hold cards is read from a RECYCLE state's places; another game has no such list.
    held = [False] * players if isinstance(game, RecycleGame) else []
    report = PlayReport(players, seat_moves=[0] * players, wins=[0] * players, held=held)
    dealt = [0] * players
    started = time.perf_counter()
    try:
        for seed in range(games):
            if seed >= min_games and time.perf_counter() - started > seconds:
                break
            _one_game(game, seed, games, game_seconds, report, dealt)
    except _Refused as refused:
        report.problem = str(refused)
    report.seconds = time.perf_counter() - started
    report.dealt = [n / max(report.games, 1) for n in dealt]
    if report.problem is None:
        report.problem = _who_plays(report)
    return report


def _one_game(
    game: Game, seed: int, games: int, game_seconds: float, report: PlayReport, dealt: list[int]
) -> None:
    label = f"random game {seed + 1} of {games}"
    program = game.program if isinstance(game, RecycleGame) else None
    count = 0
    try:
        state = game.new(None, None, seed)
        start = card_places(state) if program is not None else None  # counted once, compared each move
        first = True
        stages: list[int] = []
        rng = random.Random(seed)
        deadline = time.perf_counter() + game_seconds
        while not game.is_over(state):
            if program is not None:
                _hands(state, report, dealt if first else None)
                first = False
            if time.perf_counter() > deadline:
                raise _Refused(
                    f"{label} stalled: it had not ended after {game_seconds:g} seconds ({count} moves played)"
                )
            seat = game.to_act(state)[0]
            stages = [frame[0] for frame in state.frames]  # the stages running before the move
            game.advance(state, seat, game.random_move(state, seat, rng))
            count += 1
            report.seat_moves[seat] += 1
            if program is not None:
                faults = conservation_faults(program, state, start)
                if faults:
                    raise _Refused(f"{label} lost or duplicated cards at move {count}: {'; '.join(faults)}")
    except GameError as error:
        raise _Refused(f"{label} failed: {error}") from None
    except RecursionError:
        raise _Refused(f"{label} failed: the description recursed too deeply") from None
    except _Refused:
        raise
    except Exception as error:  # a fault of the interpreter: a refusal with its name, never a crash
        raise _Refused(f"{label} failed: the interpreter stopped ({type(error).__name__}: {error})") from None
    result = game.result(state)
    if result.get("error"):
        raise _Refused(f"{label} did not end: {result['error']}")
    report.games += 1
    report.moves.append(count)
    if program is not None and len(stages) > 1:
        # The outermost stage running before the last move ended after it: by its end condition.
        end = program.stages[stages[1]][3].args[1]
        report.ends.append(f"line {end.line}, column {end.column}")
    for seat in result["winners"]:
        report.wins[seat] += 1


def _hands(state: RecycleState, report: PlayReport, dealt: list[int] | None) -> None:
    """Note which seats hold cards at this choice (and, at the first, how many: the deal)."""
    for (owner, kind, _), cards in state.locs.items():
        if 0 <= owner < report.players and kind != "mem" and cards:
            report.held[owner] = True
            if dealt is not None:
                dealt[owner] += len(cards)


def _who_plays(report: PlayReport) -> str | None:
    """Return why the games played do not make a game people play (no moves, idle seats), or None."""
    games = report.games
    if not games:
        return None
    if not any(report.seat_moves):
        return (
            f"no player ever moves: each of {games} random games ended before anyone had a choice "
            f"(cards each player holds when play begins: {_listed(report.dealt)})"
        )
    idle = [seat for seat, n in enumerate(report.seat_moves) if n == 0]
    if idle:
        moving = ", ".join(
            f"player {seat + 1} {n / games:.1f}" for seat, n in enumerate(report.seat_moves) if n
        )
        if len(idle) > 1:
            who, verb = "players " + _joined([str(seat + 1) for seat in idle]), "never move"
        else:
            who, verb = f"player {idle[0] + 1}", "never moves"
        ends = Counter(report.ends).most_common(1)
        where = f", by the end condition at {ends[0][0]}" if ends else ""
        return (
            f"{who} {verb} in {games} random games: the game ends first{where} "
            f"(moves a game: {moving}; {sum(report.moves) / games:.1f} in all)"
        )
    if report.held and not any(report.held):
        return f"no player ever holds a card at a choice in {games} random games: nobody is dealt a card"
    return None


def _listed(values: list[float]) -> str:
    return ", ".join(f"player {seat + 1} {n:g}" for seat, n in enumerate(values))


def _joined(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
