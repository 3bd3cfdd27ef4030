"""The staff dashboard's figures, checked against records the test creates."""

from __future__ import annotations

import io
import random
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from cardtable.dashboard import charts, live, stats
from cardtable.dashboard.models import GameSummary
from cardtable.tables.models import Connection, Match, MoveRecord, Player, Table
from games import GAMES
from tests.dashboard.conftest import new_table, play

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 3, 10, 12, 30, 20, tzinfo=UTC)


def make_match(
    table: Table, number: int, seats: list[str], winners: list[int] | None, finished=None
) -> Match:
    """A recorded game with seats given as bot levels or "human", finished at ``finished``."""
    return Match.objects.create(
        table=table,
        number=number,
        game=table.game,
        players=len(seats),
        options=table.options,
        seed=1,
        seats=[
            {"seat": i, "kind": "human" if s == "human" else "bot", "level": None if s == "human" else s}
            for i, s in enumerate(seats)
        ],
        result=None if winners is None else {"scores": [0] * len(seats), "winners": winners},
        finished=finished,
    )


def test_moves_per_minute_counts_each_minute() -> None:
    table = new_table("agram", start=False)
    match = make_match(table, 1, ["random"] * 4, None)
    for seq, minutes_ago in enumerate([0, 0, 1, 1, 1, 59, 60, 300], start=1):
        record = MoveRecord.objects.create(match=match, seq=seq, seat=0, move={}, version=seq)
        MoveRecord.objects.filter(pk=record.pk).update(at=NOW - timedelta(minutes=minutes_ago))
    rows = live.moves_per_minute(NOW)
    assert len(rows) == 60
    assert rows[-1] == (datetime(2026, 3, 10, 12, 30, tzinfo=UTC), 2)
    assert rows[-2][1] == 3 and rows[0][1] == 1
    assert sum(n for _, n in rows) == 6  # 60 and 300 minutes ago fall outside the hour


def test_finished_per_day_counts_completed_games_by_game() -> None:
    agram, hearts = new_table("agram", start=False), new_table("hearts", start=False)
    make_match(agram, 1, ["random"] * 4, [0], NOW)
    make_match(agram, 2, ["random"] * 4, [1], NOW - timedelta(days=1))
    make_match(agram, 3, ["random"] * 4, None, NOW)  # ended by staff: not a completed game
    make_match(hearts, 1, ["random"] * 4, [2], NOW - timedelta(days=2))
    make_match(hearts, 2, ["random"] * 4, [2], NOW - timedelta(days=20))  # too old
    days, series = live.finished_per_day(NOW.date(), days=14)
    assert days[-1] == NOW.date() and len(days) == 14
    assert series["agram"][-1] == 1 and series["agram"][-2] == 1 and sum(series["agram"]) == 2
    assert series["hearts"][-3] == 1 and sum(series["hearts"]) == 1


def test_connected_now_and_abandoned_tables(settings) -> None:
    settings.CONNECTION_TTL = 45
    now = timezone.now()
    ann, bob = Player.objects.create(name="Ann"), Player.objects.create(name="Bob")
    watched = new_table("agram", start=False)
    idle = new_table("agram", start=False)
    busy = new_table("agram", start=False)
    ended = new_table("agram", start=False)
    Table.objects.filter(pk__in=[watched.pk, idle.pk, ended.pk]).update(updated=now - timedelta(minutes=30))
    Table.objects.filter(pk=ended.pk).update(status=Table.FINISHED)
    Connection.objects.create(channel="a1", table=watched, player=ann, seen=now)
    Connection.objects.create(channel="a2", table=busy, player=ann, seen=now)
    Connection.objects.create(channel="s1", table=busy, player=None, seen=now)
    Connection.objects.create(channel="dead", table=idle, player=bob, seen=now - timedelta(minutes=5))
    assert live.connected_now(now) == {"connections": 3, "players": 1, "spectators": 1, "tables": 2}
    abandoned = [row["table"].pk for row in live.abandoned_tables(now, minutes=15)]
    assert abandoned == [idle.pk]


def test_live_tables_show_seats_presence_and_progress() -> None:
    table = new_table("hearts", humans=1)
    play(table.pk, random.Random(1), moves=2)
    host = Table.objects.get(pk=table.pk).host
    Connection.objects.create(channel="c", table=table, player=host, seen=timezone.now())
    [row] = live.live_tables()
    assert row["table"].pk == table.pk and row["moves"] == 2
    assert row["seats"][0]["name"] == "Host" and row["seats"][0]["connected"] is True
    assert [s["kind"] for s in row["seats"]] == ["human", "bot", "bot", "bot"]
    assert row["phase"] == "pass" and row["scores"] == [0, 0, 0, 0]  # two seats still to pass
    assert len(row["to_act"]) == 2
    assert row["last_move"] == Match.objects.get(table=table).moves.order_by("-at").first().at


def test_a_paused_table_is_not_live() -> None:
    # A playing table nobody is at pauses its bots: it is listed as paused, not as live.
    running = new_table("hearts", humans=1)
    paused = new_table("hearts", humans=1)
    Connection.objects.create(channel="c", table=running, player=running.host, seen=timezone.now())
    assert [row["table"].pk for row in live.live_tables()] == [running.pk]
    assert [row["table"].pk for row in live.paused_tables()] == [paused.pk]


def test_bot_level_results_split_shared_wins() -> None:
    table = new_table("agram", start=False)
    make_match(table, 1, ["easy", "random", "random", "human"], [0], NOW)
    make_match(table, 2, ["easy", "random", "random", "human"], [0, 3], NOW)
    make_match(table, 3, ["easy", "random", "random", "human"], None, NOW)  # ended: left out
    games, rows = stats.bot_level_results()
    assert games == ["agram"]
    by_level = {row["level"]: row["total"] for row in rows}
    assert [row["level"] for row in rows] == ["random", "easy", "human"]
    assert by_level["easy"] == {"seats": 2, "share": 1.5, "rate": 0.75, "fair": 0.25}
    assert by_level["human"]["rate"] == 0.25 and by_level["random"]["rate"] == 0.0


def test_lead_changes_count_only_a_new_sole_leader() -> None:
    high = [[0, 0], [1, 0], [1, 1], [1, 2], [3, 2], [3, 3], [3, 4]]
    assert stats.count_lead_changes(high, lowest=False) == 3  # 0 -> 1 -> 0 -> 1
    assert stats.count_lead_changes([[0, 0], [1, 0], [1, 1], [2, 1]], lowest=False) == 0
    # Lowest leads (Hearts): seat 1 leads with 0, then seat 0 with fewer points.
    assert stats.count_lead_changes([[5, 0, 9], [5, 6, 9], [5, 6, 2]], lowest=True) == 2
    assert stats.sole_leader([4, 4, 1], lowest=False) is None


def test_lowest_wins_is_read_from_the_games() -> None:
    assert {g: stats.lowest_wins(g) for g in GAMES} == {g: g == "hearts" for g in GAMES}


def test_game_statistics_from_played_games() -> None:
    table = new_table("agram")
    rng = random.Random(11)
    play(table.pk, rng)
    for _ in range(2):
        from cardtable.tables.authority import seating

        seating.rematch(table.pk, Table.objects.get(pk=table.pk).host)
        play(table.pk, rng)
    assert stats.summarize_pending() == 3 and stats.pending_count() == 0
    matches = list(Match.objects.filter(table=table))
    [variant] = stats.variant_stats("agram")
    assert variant.games == 3 and variant.players == 4 and variant.bot_only == 3
    assert variant.moves == MoveRecord.objects.filter(match__table=table).count()
    share = [0.0] * 4
    for match in matches:
        for seat in match.result["winners"]:
            share[seat] += 1 / len(match.result["winners"])
    assert [r for r, _ in variant.seat_rates()] == pytest.approx([s / 3 for s in share])
    assert sum(r for r, _ in variant.position_rates()) == pytest.approx(1.0)
    for match in matches:
        summary = GameSummary.objects.get(match=match)
        deals = 1 + sum(any("deal" in e for e in r.events) for r in match.moves.all())
        assert (summary.moves, summary.deals, summary.error) == (match.moves.count(), deals, "")
        history = stats.lead_history(match)
        assert summary.lead_changes == stats.count_lead_changes(history.scores, False)
        assert history.scores[-1] == match.result["scores"]


def test_dashboard_page_shows_the_figures(staff_client: Client) -> None:
    table = new_table("ninety_eight")
    play(table.pk, random.Random(2))
    running = new_table("hearts", humans=1)
    play(running.pk, random.Random(2), moves=3)
    Connection.objects.create(channel="c", table=running, player=running.host, seen=timezone.now())
    page = staff_client.get("/staff/dashboard/").content.decode()
    moves = MoveRecord.objects.count()

    def figure(pattern: str) -> str:
        return re.search(pattern, page).group(1)

    assert figure(r'id="players-connected">(\d+)<') == "1"
    assert figure(r'id="moves-hour">(\d+)<') == str(moves)
    assert figure(r'id="live-count">(\d+)<') == "1"
    assert running.pk in page
    assert figure(r'data-figure="games">(\d+)<') == "1"
    match = Match.objects.get(table=table)
    assert figure(r'data-figure="moves">([\d.]+) moves') == f"{match.moves.count():.1f}"
    assert f"/replay/{table.pk}/1/" in page
    assert page.count("<svg") >= 4  # moves, days, first-player fairness, lead history


def test_charts_are_valid_svg_with_every_number_and_escaped_labels() -> None:
    svg = charts.bars([3, 0, 7], ["a", "<b>", "c"], "T & t", "d")
    root = ET.fromstring(str(svg))
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert titles == ["T & t", "a: 3", "<b>: 0", "c: 7"]
    svg = charts.lines([[0, 0], [1, 0], [1, 2]], ["<x>", "y"], [0, 2], "lead", "d")
    assert "<x>" not in svg and ET.fromstring(str(svg)) is not None
    svg = charts.rate_bars([(0.5, 0.1), (0.25, 0.1)], ["first", "1 after"], 0.5, "r", "d")
    assert "50.0% ± 10.0%" in svg and ET.fromstring(str(svg)) is not None
    svg = charts.stacked_bars(["1", "2"], {"agram": [1, 0], "hearts": [2, 3]}, "s", "d")
    assert "2, hearts: 3" in svg and ET.fromstring(str(svg)) is not None
    assert [charts.nice_ceiling(v) for v in (0, 3, 7, 11, 1100, 0.3)] == [1, 5, 10, 20, 2000, 0.5]


def test_playbots_plays_games_through_the_service() -> None:
    out = io.StringIO()
    call_command(
        "playbots", "ninety_eight", "--games", "3", "--bots", "random,easy,random,random", stdout=out
    )
    [table] = Table.objects.all()
    matches = list(table.matches.all())
    assert len(matches) == 3 and all(m.result and m.finished for m in matches)
    assert [s["level"] for s in matches[0].seats] == ["random", "easy", "random", "random"]
    assert set(MoveRecord.objects.values_list("by", flat=True)) == {"bot"}
    assert table.version == sum(m.moves.count() for m in matches) + 3 + 4  # moves, starts, bots seated
    assert GameSummary.objects.filter(error="").count() == 3
    assert "games: 3" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("playbots", "ninety_eight", "--games", "1", "--bots", "random,easy", stdout=out)


def test_dashboard_page_with_nothing_recorded(staff_client: Client) -> None:
    page = staff_client.get("/staff/dashboard/")
    assert page.status_code == 200
    assert 'id="no-stats"' in page.content.decode() and 'id="no-abandoned"' in page.content.decode()
