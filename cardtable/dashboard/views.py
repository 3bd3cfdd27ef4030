"""The staff dashboard, and replays of finished games (a page and its JSON)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardtable.dashboard import charts, designjobs, designstats, live, stats
from cardtable.dashboard.replay import replay_json as build_replay
from cardtable.tables.authority import staff
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, Table
from cardtable.tables.replay import ReplayError, require_finished
from games import GAMES, get_game

# Completed games summarized per dashboard load, so a backlog never stalls the page.
SUMMARIES_PER_LOAD = 50
STATUS = {"not_found": 404, "game_in_progress": 403, "replay_failed": 409}


def _error(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=STATUS.get(code, 400))


def _match(table_id: str, number: int) -> Match:
    match = Match.objects.filter(table_id=table_id, number=number).select_related("table").first()
    if match is None:
        raise ReplayError("not_found", f"table {table_id!r} has no game {number}")
    return match


def replay_json(request: HttpRequest, table_id: str, number: int) -> JsonResponse:
    """GET a finished game's replay as JSON; a running game's is refused (403 ``game_in_progress``)."""
    if request.method != "GET":
        return _error("method_not_allowed", "use GET")
    try:
        return JsonResponse(build_replay(_match(table_id, number)))
    except ReplayError as error:
        return _error(error.code, error.message)


def replay_page(request: HttpRequest, table_id: str, number: int) -> HttpResponse:
    """A finished game stepped through move by move, all hands face up, with its lead history."""
    try:
        match = _match(table_id, number)
        require_finished(match)
        history = stats.lead_history(match)
    except ReplayError as error:
        return render(request, "dashboard/replay_refused.html", {"error": error}, status=STATUS[error.code])
    names = [_seat_name(seat) for seat in match.seats]
    context = {
        "match": match,
        "name": get_game(match.game).info.name,
        "names": names,
        "history": history,
        "lead_chart": _lead_chart(match, history, names),
        "json_url": reverse("dashboard:replay_json", args=[table_id, number]),
    }
    return render(request, "dashboard/replay.html", context)


def table_games(request: HttpRequest, table_id: str) -> HttpResponse:
    """The games played at a table, each with its replay once it has ended."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return render(
            request,
            "dashboard/replay_refused.html",
            {"error": ReplayError("not_found", f"there is no table {table_id!r}")},
            status=404,
        )
    matches = table.matches.order_by("-number")
    context = {"table": table, "matches": matches, "game_name": get_game(table.game).info.name}
    return render(request, "dashboard/table_games.html", context)


def _seat_name(seat: dict[str, Any]) -> str:
    if seat.get("kind") == "bot":
        return f"{seat['seat']}: bot ({seat.get('level')})"
    return f"{seat['seat']}: {seat.get('name') or 'empty'}"


def _lead_chart(match: Match, history: stats.LeadHistory, names: list[str]) -> str:
    best = "lowest" if history.lowest_wins else "highest"
    return charts.lines(
        history.scores,
        names,
        history.deal_steps,
        f"Lead history of {match.game} game {match.number} at table {match.table_id}",
        f"Each seat's score after every move; faint rules mark new deals; the {best} score leads. "
        f"The lead changed hands {history.lead_changes} times.",
    )


@staff_member_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The staff dashboard: the site now, and each game's statistics."""
    now = timezone.now()
    stats.summarize_pending(SUMMARIES_PER_LOAD)
    minutes = live.moves_per_minute(now)
    counts = [n for _, n in minutes]
    days, per_day = live.finished_per_day(now.date())
    level_games, level_rows = stats.bot_level_results()
    context = {
        **admin.site.each_context(request),
        "title": "Dashboard",
        "now": now,
        "connected": live.connected_now(now),
        "tables": live.live_tables(now),
        "abandoned": live.abandoned_tables(now),
        "paused": live.paused_tables(now),
        "ended": live.ended_tables(),
        "moves_last_minute": counts[-2] if len(counts) > 1 else 0,
        "moves_per_minute_10": sum(counts[-11:-1]) / 10,
        "moves_last_hour": sum(counts),
        "moves_chart": charts.bars(
            counts,
            [m.strftime("%H:%M") for m, _ in minutes],
            "Moves per minute, last hour",
            "Moves made at every table in each minute of the last hour (UTC); "
            "the last bar is the current minute.",
        ),
        "days_chart": charts.stacked_bars(
            [d.strftime("%d %b") for d in days],
            per_day,
            "Games finished per day, by game",
            f"Completed games on each of the last {len(days)} days (UTC), stacked by game.",
        ),
        "finished_total": {game: sum(v) for game, v in per_day.items()},
        "level_games": level_games,
        "level_rows": [
            {**row, "by_game": [row["cells"].get(game) for game in level_games]} for row in level_rows
        ],
        "games": _game_sections(),
        "pending": stats.pending_count(),
        "design_jobs": designjobs.resume(),
        "design": designstats.rows(),
        "design_names": designstats.NAMES,
    }
    return render(request, "dashboard/dashboard.html", context)


def _game_sections() -> list[dict[str, Any]]:
    sections = []
    for variant in stats.variant_stats():
        game = GAMES.get(variant.game)
        defaults = game.info.resolve_options(None) if game else {}
        changed = {k: v for k, v in variant.options.items() if defaults.get(k) != v}
        section: dict[str, Any] = {
            "v": variant,
            "name": game.info.name if game else variant.game,
            "changed": changed,
            "mean_moves": variant.mean(variant.moves),
            "mean_deals": variant.mean(variant.deals),
            "mean_changes": variant.mean(variant.lead_changes),
            "no_change": variant.no_change / variant.games if variant.games else 0,
            "seat_rates": variant.seat_rates(),
        }
        if variant.positioned:
            section["position_chart"] = charts.rate_bars(
                variant.position_rates(),
                ["first player", *(f"{i} after" for i in range(1, variant.players))],
                variant.fair,
                f"{section['name']}: win rate by turn order",
                f"Share of {variant.positioned} games won by the first player and each seat after it, "
                "with 95% intervals; the dashed line is a fair share.",
            )
        if variant.latest is not None:
            match = Match.objects.get(pk=variant.latest)
            try:
                history = stats.lead_history(match)
            except ReplayError:
                history = None
            if history is not None:
                section["lead_match"] = match
                section["lead_chart"] = _lead_chart(match, history, [_seat_name(s) for s in match.seats])
        sections.append(section)
    return sections


@require_POST
@staff_member_required
def end_table(request: HttpRequest, table_id: str) -> HttpResponse:
    """Staff end a paused or abandoned table from the dashboard (``staff.end_table``), then go back."""
    try:
        staff.end_table(table_id)
    except TableError as error:
        messages.error(request, f"Table {table_id}: {error.message}")
    else:
        messages.success(request, f"Ended table {table_id}.")
    return redirect("dashboard:dashboard")
