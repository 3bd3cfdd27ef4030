"""The JSON HTTP API (PROTOCOL.md "Identity" and "Tables"); thin views over the services."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import get_token

from cardtable.tables import services
from cardtable.tables.errors import TableError
from cardtable.tables.identity import SESSION_KEY, player_for
from cardtable.tables.models import Player, Table
from cardtable.tables.state import table_summary
from games import catalog

STATUS = {"not_found": 404, "no_player": 403, "not_host": 403, "csrf": 403, "method_not_allowed": 405}


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


def _body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > 16_384:
        raise TableError("too_large", "a request body may carry at most 16384 bytes")
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        raise TableError("bad_request", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise TableError("bad_request", "the body is a JSON object")
    return data


def _player(request: HttpRequest) -> Player | None:
    return player_for(request.session, request.user)


def clean_name(name: object) -> str:
    """Return a display name trimmed, 1 to 24 printable characters; raise otherwise."""
    if not isinstance(name, str):
        raise TableError("bad_name", "name is a string of 1 to 24 characters")
    name = name.strip()
    if (
        not 1 <= len(name) <= 24
        or not services.encodes(name)
        or any(not ch.isprintable() or unicodedata.category(ch) == "Cf" for ch in name)
    ):
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
    name = clean_name(_body(request).get("name"))
    player = _player(request)
    if player is None:
        player = Player.objects.create(name=name)
        request.session.cycle_key()  # a new identity gets a new session key: no fixation
        request.session[SESSION_KEY] = player.pk
    else:
        player.name = name
        player.save(update_fields=["name"])
    return JsonResponse({"player": player.to_json()})


@api("GET")
def games(request: HttpRequest) -> JsonResponse:
    """List the games and their options."""
    return JsonResponse([game.info.to_json() for game in catalog()], safe=False)


@api("GET", "POST")
def tables(request: HttpRequest) -> JsonResponse:
    """GET: the waiting and playing tables; POST: create a table, its creator the host."""
    if request.method == "GET":
        rows = Table.objects.filter(status__in=[Table.WAITING, Table.PLAYING]).order_by("-updated")[:100]
        return JsonResponse([table_summary(t) for t in rows.select_related("host")], safe=False)
    data = _body(request)
    table = services.create_table(
        _player(request), data.get("game"), data.get("players"), data.get("options")
    )
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
