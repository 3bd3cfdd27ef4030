"""Thin page views: render a template with the games' public info; the page's
JavaScript does the rest through the JSON API and the table's websocket."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.csrf import ensure_csrf_cookie

from cardtable.tables.api import game_listing
from cardtable.tables.players.identity import player_for
from games.engine import choice_key

# The game the new-table form offers first: the one most people already know.
DEFAULT_GAME = "hearts"


def games_info() -> list[dict[str, Any]]:
    """Return every game as ``/api/games/`` lists it, for the page to read at once."""
    return game_listing()


def in_words(names: list[str]) -> str:
    """Names as a sentence lists them: ``Agram, Cribbage and Hearts``."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


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
    # The site's own games, named in the welcome; staff's experimental ones are only listed.
    names = in_words([game["name"] for game in games if not game["experimental"]])
    ids = [game["id"] for game in games]
    first = DEFAULT_GAME if DEFAULT_GAME in ids else ids[0]
    me = player_for(request.session, request.user)  # the account bar links to their page
    context = {"games": games, "listed": listed, "game_names": names, "first_game": first, "me": me}
    return render(request, "lobby.html", context)


@ensure_csrf_cookie
def table(request: HttpRequest, table_id: str) -> HttpResponse:
    """A table's page; the websocket brings the seats and the game."""
    me = player_for(request.session, request.user)  # no player yet: the name form shows at once
    return render(request, "table.html", {"games": games_info(), "table_id": table_id, "me": me})


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on every page: the site's icon (an SVG)."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
