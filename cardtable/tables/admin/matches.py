"""The admin of games played and their move logs: hidden while a game runs, whole once it ended."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from cardtable.tables.admin.common import (
    HIDDEN,
    ReadOnly,
    replay_link,
)
from cardtable.tables.models import (
    Match,
    MoveRecord,
)


class MoveInline(admin.TabularInline):
    """A game's move log; a running game's moves stay hidden."""

    model = MoveRecord
    extra = 0
    can_delete = False
    fields = ("seq", "seat", "shown_move", "by", "version", "at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Rows come from play, not from this form."""
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[MoveRecord]:
        """Read each move's game in the same query (``shown_move`` asks whether it ended)."""
        return super().get_queryset(request).select_related("match")

    @admin.display(description="move")
    def shown_move(self, record: MoveRecord) -> str:
        """The move, unless its game still runs."""
        return shown_move(record)


def shown_move(record: MoveRecord) -> str:
    """The move as JSON once its game has ended, else a note (it may name hidden cards)."""
    return json.dumps(record.move) if record.match.finished is not None else HIDDEN


@admin.register(Match)
class MatchAdmin(ReadOnly, admin.ModelAdmin):
    """Games played: seats, times, length and result, with the move log and the replay."""

    list_display = (
        "__str__",
        "game",
        "players_list",
        "started",
        "finished",
        "move_count",
        "winners",
        "replay",
    )
    list_filter = ("game", "players", ("finished", admin.EmptyFieldListFilter), "started")
    search_fields = ("table__id",)
    list_select_related = ("table",)
    readonly_fields = ("table", "number", "game", "players", "options", "shown_seed", "players_list")
    readonly_fields += ("version", "started", "finished", "result", "dealt", "replay", "move_log")
    exclude = ("seats", "first_deal", "seed")
    inlines = [MoveInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        """Count each game's moves for the list."""
        return super().get_queryset(request).annotate(n_moves=Count("moves"))

    @admin.display(description="seats")
    def players_list(self, match: Match) -> str:
        """Who sat where when the game started."""
        names = (
            (s["seat"], f"bot ({s['level']})" if s.get("kind") == "bot" else s.get("name"))
            for s in match.seats
        )
        return ", ".join(f"{i} {name}" for i, name in names)

    @admin.display(description="moves", ordering="n_moves")
    def move_count(self, match: Match) -> int:
        """How many moves the game's log holds."""
        return match.n_moves

    @admin.display(description="winners")
    def winners(self, match: Match) -> str:
        """The winning seats, or what became of the game."""
        if match.result:
            return ", ".join(map(str, match.result["winners"]))
        return "ended by staff" if match.finished else "playing"

    @admin.display(description="seed")
    def shown_seed(self, match: Match) -> str:
        """The seed, once the game has ended: it fixes every deal, so it is hidden like the hands."""
        return HIDDEN if match.finished is None else str(match.seed)

    @admin.display(description="first deal")
    def dealt(self, match: Match) -> str:
        """The first deal's hands, once the game has ended."""
        if match.finished is None:
            return HIDDEN
        return format_html("<pre>{}</pre>", json.dumps(match.first_deal, indent=1))

    @admin.display(description="replay")
    def replay(self, match: Match) -> str:
        """The replay's link, once the game has ended."""
        return replay_link(match)

    @admin.display(description="move log")
    def move_log(self, match: Match) -> str:
        """A link to the move log's own page."""
        url = reverse("admin:tables_moverecord_changelist") + f"?match__id__exact={match.pk}"
        return format_html('<a href="{}">the move log on its own page</a>', url)


@admin.register(MoveRecord)
class MoveRecordAdmin(ReadOnly, admin.ModelAdmin):
    """Every move made, newest first; a running game's moves stay hidden."""

    list_display = ("match", "seq", "seat", "shown", "by", "at")
    list_filter = ("by", "match__game", "at")
    search_fields = ("match__table__id",)
    list_select_related = ("match",)
    ordering = ("-at", "-id")
    fields = ("match", "seq", "seat", "shown", "by", "version", "to_act", "at")
    readonly_fields = fields

    @admin.display(description="move")
    def shown(self, record: MoveRecord) -> str:
        """The move, unless its game still runs."""
        return shown_move(record)
