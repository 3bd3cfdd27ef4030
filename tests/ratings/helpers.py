"""Finished games written as the authority records them, for the ratings tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth.models import User

from cardtable.ratings.models import RatingChange
from cardtable.tables import events
from cardtable.tables.models import Match, Player, Table

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def member(name: str) -> Player:
    """A registered player: a user and the player linked to it."""
    return Player.objects.create(name=name, user=User.objects.create_user(name.lower(), password="pw"))


def guest(name: str) -> Player:
    """A guest player (no user)."""
    return Player.objects.create(name=name)


def seat_of(index: int, holder: Player | str) -> dict[str, Any]:
    """A seat as ``Match.seats`` records it: a player, or a bot level given as a string."""
    if isinstance(holder, str):
        return {"seat": index, "kind": "bot", "level": holder, "player": None, "name": None}
    return {"seat": index, "kind": "human", "level": None, "player": holder.pk, "name": holder.name}


def record(
    game: str,
    holders: list[Player | str],
    scores: list[int],
    *,
    minute: int = 0,
    left: list[dict[str, Any]] | None = None,
    abandoned: bool = False,
    emit: bool = True,
) -> Match:
    """A finished game of ``game`` (the seats' holders in order, their final scores), as recorded.

    It finished ``minute`` minutes after ``START``; with ``emit`` its ``MatchFinished``
    is told to the subscribers, as the authority does once its result commits.
    """
    table = Table.objects.create(game=game, players=len(holders), status=Table.FINISHED)
    result = None if abandoned else {"scores": scores, "winners": []}
    if result is not None and left:
        result["left"] = sorted({d["seat"] for d in left})
    match = Match.objects.create(
        table=table,
        number=1,
        game=game,
        players=len(holders),
        seed=1,
        seats=[seat_of(i, h) for i, h in enumerate(holders)],
        left=left or [],
        result=result,
        abandoned=abandoned,
    )
    match.finished = START + timedelta(minutes=minute)
    match.save(update_fields=["finished"])
    if emit:
        events.emit(events.MatchFinished(table.pk, match.pk))
    return match


def ranks_rated(match: Match | None = None) -> dict[int, int]:
    """Each registered player's rank in a rated game (the only one when ``match`` is ``None``)."""
    changes = RatingChange.objects.all() if match is None else RatingChange.objects.filter(rated__match=match)
    return dict(changes.values_list("player_id", "rank"))
