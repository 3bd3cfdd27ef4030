"""The admin of tables, their seats, players and open connections; staff actions on seats."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from cardtable.tables.admin.common import (
    ReadOnly,
    can_change,
    match_link,
    replay_link,
    run_each,
    seat_label,
)
from cardtable.tables.authority import staff
from cardtable.tables.models import (
    Connection,
    Match,
    MoveRecord,
    Player,
    Seat,
    Table,
)
from games import get_game
from games.bots import LEVELS


class SeatInline(admin.TabularInline):
    """A table's seats, read-only (use the seat actions to change them)."""

    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "occupant", "away_since", "stand_in")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Rows come from play, not from this form."""
        return False

    @admin.display(description="occupant")
    def occupant(self, seat: Seat) -> str:
        """Who holds the seat."""
        return seat_label(seat)


class MatchInline(admin.TabularInline):
    """The games played at a table."""

    model = Match
    extra = 0
    can_delete = False
    fields = ("game_link", "started", "finished", "winners", "replay")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Rows come from play, not from this form."""
        return False

    @admin.display(description="game")
    def game_link(self, match: Match) -> str:
        """A link to the game's admin page."""
        return match_link(match)

    @admin.display(description="winners")
    def winners(self, match: Match) -> str:
        """The winning seats, or what became of the game."""
        return ", ".join(map(str, match.result["winners"])) if match.result else "—"

    @admin.display(description="replay")
    def replay(self, match: Match) -> str:
        """The replay's link, once the game has ended."""
        return replay_link(match)


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin):
    """Tables: game, status, seats, when the current game started and its last move."""

    list_display = ("id", "game", "status", "seats_list", "game_number", "started", "last_move", "updated")
    list_filter = ("status", "game", "created")
    search_fields = ("id", "host__name", "seats__player__name")
    ordering = ("-updated",)
    readonly_fields = ("id", "game", "players", "options", "host", "status", "version", "game_number")
    readonly_fields += ("created", "updated", "public_view", "links")
    exclude = ("state", "seating")  # seating: an internal counter (known.apply_on_known)
    inlines = [SeatInline, MatchInline]
    actions = ["end_tables"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        """Annotate the current game's start and last move; fetch seats in one go."""
        current = Match.objects.filter(table=OuterRef("pk"), number=OuterRef("game_number"))
        moves = MoveRecord.objects.filter(match__table=OuterRef("pk"), match__number=OuterRef("game_number"))
        return (
            super()
            .get_queryset(request)
            .annotate(
                started=Subquery(current.values("started")[:1]),
                last_move=Subquery(moves.order_by("-at").values("at")[:1]),
            )
            .prefetch_related("seats__player")
        )

    @admin.display(description="seats")
    def seats_list(self, table: Table) -> str:
        """Each seat and who holds it, one a line."""
        return format_html_join(
            mark_safe("<br>"), "{} {}", ((s.index, seat_label(s)) for s in table.seats.all())
        )

    @admin.display(description="game started", ordering="started")
    def started(self, table: Table) -> Any:
        """When the current game started."""
        return table.started

    @admin.display(description="last move", ordering="last_move")
    def last_move(self, table: Table) -> Any:
        """When the current game's last move was made."""
        return table.last_move

    @admin.display(description="game as a spectator sees it")
    def public_view(self, table: Table) -> str:
        """The current game as a spectator's view: no hand, nothing hidden."""
        if table.state is None:
            return "no game yet"
        game = get_game(table.game)
        view = game.view(game.from_json(table.state), None)
        return format_html("<pre>{}</pre>", json.dumps(view, indent=1))

    @admin.display(description="links")
    def links(self, table: Table) -> str:
        """The table's page, its games and replays, its seats."""
        seats = reverse("admin:tables_seat_changelist") + f"?table__id__exact={table.pk}"
        return format_html(
            '<a href="/t/{}/">table page</a> · <a href="{}">games and replays</a> · <a href="{}">seats</a>',
            table.pk,
            reverse("dashboard:table_games", args=[table.pk]),
            seats,
        )

    @admin.action(description="End the selected tables (stops the game; no rematch)")
    def end_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        """End each selected table through the table service."""
        if not can_change(request, Table):
            self.message_user(request, "You may not change tables.", messages.ERROR)
            return
        run_each(self, request, queryset, "Ended", lambda t: staff.end_table(t.pk))


class SeatActionForm(ActionForm):
    """The action bar with the bot level to put in a seat."""

    level = forms.ChoiceField(choices=[(level, level) for level in LEVELS], initial="easy", required=False)


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin):
    """Seats at every table: put a bot in a seat, or remove a player."""

    list_display = ("__str__", "table_game", "table_status", "occupant", "away_since", "stand_in")
    list_filter = ("table__status", "table__game", "stand_in")
    search_fields = ("table__id", "player__name")
    list_select_related = ("table", "player")
    ordering = ("-table__updated", "table", "index")
    action_form = SeatActionForm
    actions = ["put_bot", "remove_player"]

    @admin.display(description="game", ordering="table__game")
    def table_game(self, seat: Seat) -> str:
        """The table's game."""
        return seat.table.game

    @admin.display(description="status", ordering="table__status")
    def table_status(self, seat: Seat) -> str:
        """The table's status."""
        return seat.table.status

    @admin.display(description="occupant")
    def occupant(self, seat: Seat) -> str:
        """Who holds the seat."""
        return seat_label(seat)

    @admin.action(description="Put a bot (level chosen beside) in the selected seats, replacing anyone")
    def put_bot(self, request: HttpRequest, queryset: QuerySet[Seat]) -> None:
        """Put a bot of the chosen level in each selected seat through the table service."""
        if not can_change(request, Table):
            self.message_user(request, "You may not change tables.", messages.ERROR)
            return
        level = request.POST.get("level") or "easy"
        run_each(
            self, request, queryset, f"Put a {level} bot", lambda s: staff.put_bot(s.table_id, s.index, level)
        )

    @admin.action(description="Remove the player from the selected seats (a bot takes over mid-game)")
    def remove_player(self, request: HttpRequest, queryset: QuerySet[Seat]) -> None:
        """Take the player out of each selected seat through the table service."""
        if not can_change(request, Table):
            self.message_user(request, "You may not change tables.", messages.ERROR)
            return
        run_each(
            self, request, queryset, "Removed the player", lambda s: staff.remove_player(s.table_id, s.index)
        )


@admin.register(Player)
class PlayerAdmin(ReadOnly, admin.ModelAdmin):
    """Guests and registered players, with the seats they hold."""

    list_display = ("name", "user", "created", "seats_held")
    search_fields = ("name", "user__username")
    list_filter = ("created",)
    actions = ["remove_from_tables"]

    @admin.display(description="seats held")
    def seats_held(self, player: Player) -> str:
        """The seats the player holds at open tables."""
        seats = player.seats.exclude(table__status=Table.FINISHED)
        return ", ".join(f"{s.table_id} seat {s.index}" for s in seats) or "—"

    @admin.action(description="Remove the selected players from their open tables")
    def remove_from_tables(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        """Take each selected player out of their seats at open tables."""
        if not can_change(request, Table):
            self.message_user(request, "You may not change tables.", messages.ERROR)
            return
        seats = Seat.objects.filter(player__in=queryset).exclude(table__status=Table.FINISHED)
        run_each(
            self, request, seats, "Removed the player", lambda s: staff.remove_player(s.table_id, s.index)
        )


@admin.register(Connection)
class ConnectionAdmin(ReadOnly, admin.ModelAdmin):
    """Open websockets (presence); rows older than the TTL belong to a process that died."""

    list_display = ("channel", "table", "player", "seen")
    list_filter = ("seen",)
    search_fields = ("table__id", "player__name")
