"""The JSON HTTP API (PROTOCOL.md "Identity" and "Tables"); thin views over the authority."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import get_token

from cardtable.tables import lobby
from cardtable.tables.authority import seating
from cardtable.tables.authority.state import table_summary
from cardtable.tables.errors import TableError
from cardtable.tables.models import Player, Table
from cardtable.tables.players import accounts, names, ratelimit
from cardtable.tables.players.identity import SESSION_KEY, player_for
from games import catalog
from games.bots import LEVELS

STATUS = {
    "not_found": 404,
    "no_player": 403,
    "not_host": 403,
    "csrf": 403,
    "method_not_allowed": 405,
    "rate_limited": 429,
}


def error_response(code: str, message: str, status: int | None = None) -> JsonResponse:
    """Return the protocol's JSON error with a fitting 4xx status."""
    return JsonResponse({"error": {"code": code, "message": message}}, status=status or STATUS.get(code, 400))


def api(*methods: str) -> Callable:
    """Accept only ``methods``; turn ``TableError`` into the protocol's JSON error."""

    def wrap(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
        @wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in methods:
                return error_response("method_not_allowed", f"use {' or '.join(methods)}")
            try:
                return view(request, *args, **kwargs)
            except TableError as error:
                return error_response(error.code, error.message)

        return inner

    return wrap


MAX_DEPTH = 32  # no field of the API nests deeper than a few levels


def _depth(value: Any) -> int:
    """How deeply a decoded JSON value nests (without recursion: the value may be deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return deepest


def _body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > 16_384:
        raise TableError("too_large", "a request body may carry at most 16384 bytes")
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than json can follow
        raise TableError("bad_request", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise TableError("bad_request", "the body is a JSON object")
    if _depth(data) > MAX_DEPTH:  # what json could read may still be too deep for what follows
        raise TableError("bad_request", f"the body nests deeper than {MAX_DEPTH} levels")
    return data


def _player(request: HttpRequest) -> Player | None:
    return player_for(request.session, request.user)


def clean_name(name: object) -> str:
    """Return a display name normalised, 1 to 24 visible characters (``names.clean_name``), or raise."""
    try:
        name = names.clean_name(name)
    except names.BadText as error:
        raise TableError("bad_name", str(error)) from None
    if any(not ch.isprintable() for ch in name if ch != " "):
        raise TableError("bad_name", "a name is 1 to 24 printable characters")
    return name


@api("GET", "POST")
def session(request: HttpRequest) -> JsonResponse:
    """GET: who this session is, and a CSRF token; POST {"name"}: become (or rename) a guest."""
    if request.method == "GET":
        player = _player(request)
        return JsonResponse(
            {"player": player.to_json() if player else None, "csrf_token": get_token(request)}
        )
    return JsonResponse({"player": become_guest(request, _body(request).get("name")).to_json()})


def become_guest(request: HttpRequest, raw_name: Any) -> Player:
    """Make this session a guest called ``raw_name``, or rename its guest; raise ``TableError``
    (nothing changed) for a bad or taken name, an account, or past the guests' rate limit."""
    name = clean_name(raw_name)
    player = _player(request)
    if player is not None and player.user_id is not None:
        raise TableError("bad_name", "an account keeps its name")
    try:
        accounts.check_guest_name(name, player)
    except accounts.NameTaken as error:
        raise TableError("bad_name", str(error)) from None
    if player is None:
        ratelimit.allowance("guest", None, ratelimit.request_address(request)).take("new guests")
        player = Player(name=name)
        accounts.set_name(player, name)
        player.save()
        request.session.cycle_key()  # a new identity gets a new session key: no fixation
        request.session[SESSION_KEY] = player.pk
    else:
        ratelimit.allowance("rename", player, None).take("renames")
        accounts.set_name(player, name)
        player.save(update_fields=["name", "shape"])
    return player


@api("GET")
def games(request: HttpRequest) -> JsonResponse:
    """List the games and their options."""
    return JsonResponse(game_listing(), safe=False)


def game_listing() -> list[dict[str, Any]]:
    """Return every game as ``GET /api/games/`` lists it: its ``GameInfo`` and the bot levels to seat.

    The pages read the same list at once (``cardtable/web/views.py``), so the page's
    "Fill with bots" offers the levels the server accepts.
    """
    return [{**game.info.to_json(), "bot_levels": list(LEVELS)} for game in catalog()]


@api("GET", "POST")
def tables(request: HttpRequest) -> JsonResponse:
    """GET: the waiting and playing tables with someone there (``lobby.listing``); POST: create a table."""
    if request.method == "GET":
        return JsonResponse([table_summary(t) for t in lobby.listing()], safe=False)
    data = _body(request)
    player = _player(request)
    made = ratelimit.allowance("table", player, ratelimit.request_address(request))
    if player is not None:  # without a player, create_table answers no_player
        made.take("new tables")
    try:
        if player is not None and lobby.open_tables(player) >= settings.OPEN_TABLES_PER_PLAYER:
            raise TableError(
                "rate_limited",
                f"you host {settings.OPEN_TABLES_PER_PLAYER} open tables already; finish or leave one first",
            )
        table = seating.create_table(
            player, data.get("game"), data.get("players"), data.get("options"), data.get("clock")
        )
    except TableError:
        made.refund()  # only a table made spends the allowance
        raise
    return JsonResponse(table_summary(table), status=201)


@api("GET")
def table(request: HttpRequest, table_id: str) -> JsonResponse:
    """One table's public summary, finished ones included."""
    row = Table.objects.select_related("host").filter(pk=table_id).first()
    if row is None:
        raise TableError("not_found", f"there is no table {table_id!r}")
    return JsonResponse(table_summary(row))


def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other path under /api/: a JSON 404."""
    return error_response("not_found", f"there is no API at {request.path}")


def csrf_failure(request: HttpRequest, reason: str = "") -> Any:
    """A failed CSRF check: JSON under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return error_response("csrf", f"CSRF check failed ({reason}); send the X-CSRFToken header")
    from django.views.csrf import csrf_failure as default

    return default(request, reason)
