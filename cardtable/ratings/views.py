"""The leaderboards: every game's at ``/ratings/``, one game's at ``/ratings/<game>/``, and its JSON."""

from __future__ import annotations

from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from cardtable.ratings.models import Rating
from cardtable.ratings.rating import MODEL
from cardtable.ratings.summary import LEADERBOARD_SIZE, leaderboard
from cardtable.tables.api import api, error_response
from games import catalog, get_game
from games.engine import GameError, GameInfo


def game_info(game: str) -> GameInfo | None:
    """The game's info, or ``None`` for a game the site does not have."""
    try:
        return get_game(game).info
    except GameError:
        return None


def index(request: HttpRequest) -> HttpResponse:
    """Every game with a link to its leaderboard and how many players it has rated."""
    counts = dict(
        Rating.objects.filter(player__user__isnull=False)
        .values_list("game")
        .annotate(n=Count("id"))
        .values_list("game", "n")
    )
    games = [
        {"id": game.info.id, "name": game.info.name, "players": counts.get(game.info.id, 0)}
        for game in catalog()
    ]
    return render(request, "ratings/index.html", {"rated_games": games})


def board(request: HttpRequest, game: str) -> HttpResponse:
    """One game's leaderboard: the best players and the bot levels as reference rows."""
    info = game_info(game)
    if info is None:
        raise Http404(f"there is no game {game!r}")
    rows = leaderboard(game)
    context = {
        "game": info,
        "rows": rows,
        "rated": sum(row["kind"] == "player" for row in rows),
        "size": LEADERBOARD_SIZE,
        "new_rating": round(MODEL.rating().ordinal(), 1),
    }
    return render(request, "ratings/game.html", context)


@api("GET")
def board_json(request: HttpRequest, game: str) -> JsonResponse:
    """``GET /api/ratings/<game>/``: the leaderboard as JSON (docs/protocol.md)."""
    info = game_info(game)
    if info is None:
        return error_response("not_found", f"there is no game {game!r}")
    return JsonResponse({"game": info.id, "name": info.name, "ratings": leaderboard(game)})
