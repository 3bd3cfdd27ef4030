"""Thin page views: render a template with the games' public info; the page's
JavaScript does the rest through the JSON API and the table's websocket."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from cardtable.tables.api import become_guest, game_listing
from cardtable.tables.errors import TableError
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


@require_POST
def choose_name(request: HttpRequest) -> HttpResponseRedirect:
    """The "Your name" form posted as a plain form (before the page's script has taken it over,
    or without script): become that guest and go back to the page, or back with the reason."""
    back = request.POST.get("next", "/")
    here = {request.get_host()}
    own_page = back.startswith("/") and url_has_allowed_host_and_scheme(back, allowed_hosts=here)
    back = back if own_page else "/"
    try:
        become_guest(request, request.POST.get("name", "").strip())
    except TableError as error:
        messages.error(request, error.message, extra_tags="name")
    return HttpResponseRedirect(back)


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on every page: the site's icon (an SVG)."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
