"""Who a request or connection is: the player kept in the session, or the logged-in user's."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from cardtable.tables.authority.compiled import EXAMPLE_ID, Compiled
from cardtable.tables.models import Player
from cardtable.tables.players.names import skeleton

SESSION_KEY = "player_id"


def _guest(player_id: int) -> QuerySet[Player]:
    return Player.objects.filter(pk=player_id, user__isnull=True, former=False).order_by("pk")[:1]


# Read by every guest's connect: compiled once per process (``authority/compiled.py``).
_GUEST = Compiled(_guest, EXAMPLE_ID)


def player_for(session: Any, user: Any) -> Player | None:
    """Return the session's player; a logged-in user without one gets one, named after them."""
    if user is not None and getattr(user, "is_authenticated", False):
        name = user.get_username()[:24]
        player, _ = Player.objects.get_or_create(user=user, defaults={"name": name, "shape": skeleton(name)})
        return player
    player_id = session.get(SESSION_KEY) if session is not None else None
    if player_id is None:
        return None
    # A guest claimed into an account, or a deleted account's player, is no session's any more.
    return next(iter(_GUEST.run(player_id)), None)


def player_from_scope(scope: dict) -> Player | None:
    """Return the player of a websocket connection (sync: call through database_sync_to_async)."""
    user = scope.get("user")
    if user is not None:
        user.is_authenticated  # noqa: B018  resolve the lazy user here, in a sync thread
    return player_for(scope.get("session"), user)
