"""The Django admin for the table app's records, for staff to see and steer the site.

Records are read-only here: every change to a table goes through the table
service (``cardtable.tables.authority.staff``) from an action, so the one-transaction
rule, the version and the websocket pushes hold. Nothing hidden leaks while a
game runs: the table's state is shown as a spectator sees it, and a running
game's dealt hands and moves stay hidden until it ends.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from cardtable.tables.authority import staff
from cardtable.tables.errors import TableError
from cardtable.tables.models import (
    ChatMessage,
    Connection,
    HiddenChat,
    Match,
    MoveRecord,
    Player,
    Seat,
    Table,
)
from games import get_game
from games.bots import LEVELS

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


@admin.register(HiddenChat)
class HiddenChatAdmin(ReadOnly, admin.ModelAdmin):
    """Chat lines hidden by staff, with their original text (show them again from the chat list)."""

    list_display = ("message", "text", "by", "at")
    search_fields = ("text", "message__table__id")
    list_select_related = ("message", "by")


class HiddenFilter(admin.SimpleListFilter):
    """Chat lines hidden by staff, or not."""

    title = "hidden"
    parameter_name = "hidden"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        """The filter's choices."""
        return [("yes", "hidden"), ("no", "shown")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        """Hidden lines, shown lines, or all."""
        if self.value() in ("yes", "no"):
            return queryset.filter(hidden__isnull=self.value() == "no")
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnly, admin.ModelAdmin):
    """Table chat, newest first: hide a line (its original kept for staff) or show it again."""

    list_display = ("at", "table", "name", "seat", "text", "original")
    list_filter = (HiddenFilter, "table__game", "at")
    search_fields = ("text", "name", "table__id", "hidden__text")
    list_select_related = ("table", "hidden")
    ordering = ("-at", "-id")
    actions = ["hide", "unhide"]

    @admin.display(description="hidden text")
    def original(self, line: ChatMessage) -> str:
        """The original text of a hidden line, and who hid it."""
        hidden = getattr(line, "hidden", None)
        return f"{hidden.text} (hidden by {hidden.by or 'staff'})" if hidden else ""

    @admin.action(description="Hide the selected chat lines")
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        """Hide each selected line through the table service."""
        if not can_change(request, ChatMessage):
            self.message_user(request, "You may not change chat.", messages.ERROR)
            return
        run_each(self, request, queryset, "Hidden", lambda line: staff.hide_chat(line.pk, request.user))

    @admin.action(description="Show the selected hidden chat lines again")
    def unhide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        """Put back each selected hidden line's text."""
        if not can_change(request, ChatMessage):
            self.message_user(request, "You may not change chat.", messages.ERROR)
            return
        run_each(self, request, queryset, "Shown again", lambda line: staff.unhide_chat(line.pk))
