"""Thin page views: render a template with the games' public info; the page's
JavaScript does the rest through the JSON API and the table's websocket."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from games import catalog
from games.engine import choice_key

# The game the new-table form offers first: the one most people already know.
DEFAULT_GAME = "hearts"


def games_info() -> list[dict[str, Any]]:
    """Return every game as ``/api/games/`` lists it, for the page to read at once."""
    return [game.info.to_json() for game in catalog()]


def option_chips(game: dict[str, Any]) -> list[str]:
    """The game's default options in the game's own words, for the lobby's list of games."""
    return [
        f"{option['label']}: {option['choice_labels'][choice_key(option['default'])]}"
        for name, option in game["options"].items()
        if name != "preset"
    ]


@ensure_csrf_cookie
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: a name, the games, a new table, the open tables."""
    games = games_info()
    listed = [{**game, "chips": option_chips(game)} for game in games]
    ids = [game["id"] for game in games]
    first = DEFAULT_GAME if DEFAULT_GAME in ids else ids[0]
    return render(request, "lobby.html", {"games": games, "listed": listed, "first_game": first})


@ensure_csrf_cookie
def table(request: HttpRequest, table_id: str) -> HttpResponse:
    """A table's page; the websocket brings the seats and the game."""
    return render(request, "table.html", {"games": games_info(), "table_id": table_id})
