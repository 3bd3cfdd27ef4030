"""What the admin's pages share: read-only records, actions run table by table, links, seat labels."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from cardtable.tables.errors import TableError
from cardtable.tables.models import (
    Match,
    Seat,
)

HIDDEN = "hidden while the game runs"


class ReadOnly:
    """No adding or editing by form: staff change tables only through actions."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Records are made by play, not by hand."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Pages are for viewing; actions make the changes (they check ``change`` themselves)."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Finished games stay for replays and statistics."""
        return False


def run_each(
    modeladmin: admin.ModelAdmin, request: HttpRequest, items: Iterable[Any], doing: str, call: Callable
) -> None:
    """Call the service for each item; report how many succeeded and each refusal."""
    done = 0
    for item in items:
        try:
            call(item)
            done += 1
        except TableError as error:
            modeladmin.message_user(request, f"{item}: {error.message}", messages.ERROR)
        else:
            modeladmin.log_change(request, item, doing)
    if done:
        modeladmin.message_user(request, f"{doing}: {done} done.", messages.SUCCESS)


def can_change(request: HttpRequest, model: type) -> bool:
    """Whether the user holds the model's change permission (actions change tables)."""
    opts = model._meta
    return request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")


def seat_label(seat: Seat) -> str:
    """A seat in a few words: "Ann", "bot (easy)", "Ann (away, bot plays)", "empty"."""
    if seat.kind == "human":
        return f"{seat.player.name} (away, bot plays)" if seat.stand_in else seat.player.name
    return f"bot ({seat.bot_level})" if seat.kind == "bot" else "empty"


def replay_link(match: Match) -> str:
    """A link to the game's replay once it has ended, else a note."""
    if match.finished is None:
        return "replay when it ends"
    return format_html(
        '<a href="{}">replay</a>', reverse("dashboard:replay", args=[match.table_id, match.number])
    )


def match_link(match: Match) -> str:
    """A link to the game's admin page."""
    url = reverse("admin:tables_match_change", args=[match.pk])
    return format_html('<a href="{}">game {}</a>', url, match.number)
