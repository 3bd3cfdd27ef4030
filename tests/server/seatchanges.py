"""A game played through the authority with every kind of seat change a finished game may record.

``play_with_seat_changes`` plays a four-seat table (Ann, Bob, Cy and a bot) through
the authority's own operations: Bob leaves and takes his seat back two moves later
with no stand-in move between (the game of issue 40), Ann's stand-in moves for her,
Bob leaves and takes it back after the stand-in bot has moved, Cy leaves and Dee
takes his seat over, the turn clock moves for a late seat, staff make a move, put
another bot in a seat and remove Dee, and the process restarts; then the game is
played to its end. The replay tests and the ratings tests read what it records.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.utils import timezone

from cardtable.tables.authority import moving, presence, seating, staff
from cardtable.tables.authority import state as state_builder
from cardtable.tables.autoplay import turns
from cardtable.tables.models import Match, MoveRecord, Player, Seat, Table
from games import get_game

# Options that keep each game long enough for every seat change before it ends.
LONG_OPTIONS: dict[str, dict[str, Any]] = {
    "agram": {"target": 3},
    "ninety_eight": {"lives": 3},
    "stealing_bundles": {},
    "hearts": {"target": 50},
    "cribbage": {"target": 61},
}


@dataclass
class Played:
    """A table played with seat changes: its id, its players by name, and the steps that happened."""

    table_id: str
    people: dict[str, Player]
    steps: list[str] = field(default_factory=list)

    def match(self) -> Match:
        """The table's (only) game."""
        return Match.objects.get(table_id=self.table_id, number=1)


def careful_move(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """A random legal move that does not end the game, when there is one (the script needs the game on)."""
    moves = list(game.legal_moves(state, seat))
    rng.shuffle(moves)
    for move in moves:
        after = game.clone(state)
        game.apply(after, seat, move)
        if not game.is_over(after):
            return move
    return moves[0]


def acting(table_id: str) -> list[int]:
    """The seats to act now ([] once the game is over)."""
    table = Table.objects.get(pk=table_id)
    if table.status != Table.PLAYING:
        return []
    game = get_game(table.game)
    return list(game.to_act(game.from_json(table.state)))


def step(table_id: str, rng: random.Random, careful: bool = True, seat: int | None = None) -> None:
    """One move by whoever plays the first seat to act (or ``seat``), as they would make it."""
    table = Table.objects.get(pk=table_id)
    game = get_game(table.game)
    state = game.from_json(table.state)
    index = game.to_act(state)[0] if seat is None else seat
    move = careful_move(game, state, index, rng) if careful else rng.choice(game.legal_moves(state, index))
    held = Seat.objects.get(table_id=table_id, index=index)
    if held.bot_level:
        moving.apply_move(table_id, move, table.version, seat=index, by=MoveRecord.BOT)
    elif held.stand_in:
        moving.apply_move(table_id, move, table.version, seat=index, by=MoveRecord.STAND_IN)
    else:
        moving.apply_move(table_id, move, table.version, player=held.player)


def until(table_id: str, rng: random.Random, wanted: Callable[[list[int]], bool], limit: int = 60) -> None:
    """Play careful moves until ``wanted(seats to act)`` holds; fail if the game ends first."""
    for _ in range(limit):
        now = acting(table_id)
        assert now, "the game ended before the script's seat changes were all made"
        if wanted(now):
            return
        step(table_id, rng)
    raise AssertionError(f"no position where the script could go on in {limit} moves")


def play_with_seat_changes(
    game_id: str, people: dict[str, Player], monkeypatch: pytest.MonkeyPatch, seed: int = 1
) -> Played:
    """Play ``game_id`` at four seats with every seat change (module docstring) and to its end.

    ``people`` names Ann, Bob, Cy and Dee. The turn clock's move and the stand-in
    bots choose careful random moves (their choice is not what a replay checks).
    """
    rng = random.Random(seed)
    ann, bob, cy, dee = (people[name] for name in ("Ann", "Bob", "Cy", "Dee"))
    table = seating.create_table(ann, game_id, 4, LONG_OPTIONS.get(game_id, {}))
    seating.sit(table.pk, bob, 1)
    seating.sit(table.pk, cy, 2)
    seating.add_bot(table.pk, ann, 3, "random")
    seating.start(table.pk, ann)
    played = Played(table.pk, people)

    # Bob leaves right after his move and takes his seat back two moves later, no stand-in move between.
    until(table.pk, rng, lambda now: 1 not in now and len(now) == 1)
    for _ in range(3):
        step(table.pk, rng)  # a few moves into the game, as in the report (23 there)
        until(table.pk, rng, lambda now: 1 not in now and len(now) == 1)
    seating.leave(table.pk, bob)
    for _ in range(2):
        if 1 in acting(table.pk):
            break
        step(table.pk, rng)
    seating.takeover(table.pk, bob, 1)
    played.steps.append("taken back, no stand-in move between")

    # Ann is away: her stand-in moves for her; then she plays again.
    until(table.pk, rng, lambda now: 0 in now)
    Seat.objects.filter(table_id=table.pk, index=0).update(stand_in=True, away_since=timezone.now())
    step(table.pk, rng, seat=0)
    Seat.objects.filter(table_id=table.pk, index=0).update(stand_in=False, away_since=None)
    played.steps.append("stand-in move")

    # Bob leaves again, the bot plays his seat, he takes it back.
    until(table.pk, rng, lambda now: 1 in now)
    seating.leave(table.pk, bob)
    step(table.pk, rng, seat=1)
    seating.takeover(table.pk, bob, 1)
    played.steps.append("taken back after the bot moved")

    # Cy leaves, the bot plays his seat, Dee takes it over.
    until(table.pk, rng, lambda now: 2 in now)
    seating.leave(table.pk, cy)
    step(table.pk, rng, seat=2)
    seating.takeover(table.pk, dee, 2)
    played.steps.append("taken over by another player")

    # The turn clock's deadline passes with someone watching: the server moves for the late seats.
    monkeypatch.setattr(turns, "pause", lambda seconds: None)
    monkeypatch.setattr(turns.presence, "anyone_here", lambda table_id: True)

    def stand_in_search(game: str, state_json: dict, seat: int, level: str, seed: int) -> dict:
        made = get_game(game)
        return careful_move(made, made.from_json(state_json), seat, random.Random(seed))

    monkeypatch.setattr(turns, "search_and_wait", stand_in_search)
    until(table.pk, rng, lambda now: True)
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    assert turns.expire(table.pk), "the clock made no move"
    played.steps.append("timeout move")

    # Staff: a move made from the admin, another bot put in seat 3, Dee removed (a stand-in plays on).
    now = acting(table.pk)
    assert now, "the game ended before the staff's move"
    current = Table.objects.get(pk=table.pk)
    game = get_game(current.game)
    move = careful_move(game, game.from_json(current.state), now[0], rng)
    moving.apply_move(table.pk, move, None, seat=now[0], by=MoveRecord.ADMIN)
    staff.put_bot(table.pk, 3, "easy")
    staff.remove_player(table.pk, 2)
    played.steps.append("staff moves")

    # A restart: this process's snapshots go, and the new one recovers the tables from the database.
    state_builder.forget(table.pk)
    presence.recover()
    played.steps.append("restart")

    # To the end: the bots, the stand-in and the players move at random.
    for _ in range(5000):
        if not acting(table.pk):
            break
        step(table.pk, rng, careful=False)
    assert Table.objects.get(pk=table.pk).status == Table.FINISHED
    return played
