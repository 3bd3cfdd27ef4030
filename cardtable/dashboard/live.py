"""The site's figures now: live tables, who is connected, moves per minute, games per day.

Everything here is read from the tables' records (``Table``, ``Seat``,
``Connection``, ``Match``, ``MoveRecord``); docs/dashboard.md defines each figure.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Max
from django.db.models.functions import TruncDate, TruncMinute
from django.utils import timezone

from cardtable.tables.authority.state import seat_json
from cardtable.tables.models import Connection, Match, MoveRecord, Seat, Table
from games import get_game


def _live_connections(now: datetime):
    return Connection.objects.filter(seen__gte=now - timedelta(seconds=settings.CONNECTION_TTL))


def connected_now(now: datetime | None = None) -> dict[str, int]:
    """Open websockets now: ``connections``, distinct ``players``, ``spectators`` (no player), ``tables``."""
    rows = _live_connections(now or timezone.now())
    return {
        "connections": rows.count(),
        "players": rows.exclude(player=None).values("player").distinct().count(),
        "spectators": rows.filter(player=None).count(),
        "tables": rows.values("table").distinct().count(),
    }


def live_tables(now: datetime | None = None) -> list[dict[str, Any]]:
    """Waiting and playing tables with seats, presence and the game's public state, latest first.

    A playing table nobody is connected to is paused (``paused_tables``), not live:
    its bots make no move, so it is left out here.
    """
    now = now or timezone.now()
    tables = list(
        Table.objects.filter(status__in=[Table.WAITING, Table.PLAYING])
        .order_by("-updated")
        .select_related("host")
    )
    ids = [t.pk for t in tables]
    live: dict[str, set[int]] = defaultdict(set)
    watchers: dict[str, int] = defaultdict(int)
    for table_id, player_id in (
        _live_connections(now).filter(table_id__in=ids).values_list("table_id", "player_id")
    ):
        watchers[table_id] += 1
        if player_id is not None:
            live[table_id].add(player_id)
    seats: dict[str, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table_id__in=ids).select_related("player").order_by("index"):
        seats[seat.table_id].append(seat)
    matches = {
        (m.table_id, m.number): m
        for m in Match.objects.filter(table_id__in=ids).annotate(n=Count("moves"), last=Max("moves__at"))
    }
    rows = []
    for table in tables:
        if table.status == Table.PLAYING and not watchers[table.pk]:
            continue  # paused: listed under "Paused tables"
        match = matches.get((table.pk, table.game_number))
        row: dict[str, Any] = {
            "table": table,
            "seats": [seat_json(seat, live[table.pk]) for seat in seats[table.pk]],
            "connections": watchers[table.pk],
            "moves": match.n if match else 0,
            "started": match.started if match else None,
            "last_move": match.last if match else None,
            "phase": None,
            "scores": None,
            "to_act": [],
        }
        if table.status == Table.PLAYING and table.state is not None:
            game = get_game(table.game)
            state = game.from_json(table.state)
            view = game.view(state, None)
            row.update(phase=view.get("phase"), scores=view.get("scores"), to_act=game.to_act(state))
        rows.append(row)
    return rows


def abandoned_tables(now: datetime | None = None, minutes: float | None = None) -> list[dict[str, Any]]:
    """Open tables nobody is connected to and that have not changed for ``minutes``.

    ``minutes`` defaults to the ``DASHBOARD_ABANDONED_MINUTES`` setting (15).
    """
    now = now or timezone.now()
    if minutes is None:
        minutes = getattr(settings, "DASHBOARD_ABANDONED_MINUTES", 15)
    watched = _live_connections(now).values("table")
    rows = (
        Table.objects.filter(
            status__in=[Table.WAITING, Table.PLAYING], updated__lt=now - timedelta(minutes=minutes)
        )
        .exclude(pk__in=watched)
        .order_by("updated")
    )
    return [{"table": table, "idle": now - table.updated, **_alone_row(table, now)} for table in rows]


def paused_tables(now: datetime | None = None) -> list[dict[str, Any]]:
    """Playing tables nobody is connected to: their bots wait. With when each ends as abandoned."""
    now = now or timezone.now()
    watched = _live_connections(now).values("table")
    rows = (
        Table.objects.filter(status=Table.PLAYING, ended="").exclude(pk__in=watched).order_by("alone_since")
    )
    return [_alone_row(table, now) for table in rows]


def ended_tables(limit: int = 20) -> list[dict[str, Any]]:
    """The tables most recently ended as abandoned (nobody came back), latest first."""
    rows = Table.objects.filter(ended=Table.ABANDONED).order_by("-updated")[:limit]
    return [{"table": table, "ended": table.updated} for table in rows]


def _alone_row(table: Table, now: datetime) -> dict[str, Any]:
    since = table.alone_since or now
    after = settings.ABANDON_FINISHED_AFTER if table.status == Table.FINISHED else settings.ABANDON_AFTER
    return {"table": table, "alone": now - since, "ends": since + timedelta(seconds=after)}


def moves_per_minute(now: datetime | None = None, minutes: int = 60) -> list[tuple[datetime, int]]:
    """Moves made in each of the last ``minutes`` whole minutes, oldest first (the current minute last)."""
    now = now or timezone.now()
    end = now.replace(second=0, microsecond=0)
    start = end - timedelta(minutes=minutes - 1)
    counts = {
        row["minute"]: row["n"]
        for row in MoveRecord.objects.filter(at__gte=start)
        .annotate(minute=TruncMinute("at"))
        .values("minute")
        .annotate(n=Count("pk"))
    }
    return [
        (start + timedelta(minutes=i), counts.get(start + timedelta(minutes=i), 0)) for i in range(minutes)
    ]


def finished_per_day(today: date | None = None, days: int = 14) -> tuple[list[date], dict[str, list[int]]]:
    """Completed games per game id on each of the last ``days`` days (UTC), oldest first."""
    today = today or timezone.now().date()
    first = today - timedelta(days=days - 1)
    day_list = [first + timedelta(days=i) for i in range(days)]
    series: dict[str, list[int]] = {}
    rows = (
        Match.objects.filter(result__isnull=False, finished__date__gte=first)
        .annotate(day=TruncDate("finished"))
        .values("game", "day")
        .annotate(n=Count("pk"))
    )
    for row in rows:
        if row["day"] in day_list:
            series.setdefault(row["game"], [0] * days)[day_list.index(row["day"])] += row["n"]
    return day_list, dict(sorted(series.items()))
