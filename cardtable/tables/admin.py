"""Minimal admin registration; the staff dashboard is built elsewhere."""

from django.contrib import admin

from cardtable.tables.models import ChatMessage, Match, MoveRecord, Player, Seat, Table


class SeatInline(admin.TabularInline):
    """The seats of a table."""

    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """Tables with their seats."""

    list_display = ("id", "game", "status", "players", "version", "game_number", "updated")
    list_filter = ("game", "status")
    inlines = [SeatInline]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Games played, with their results."""

    list_display = ("table", "number", "game", "seed", "started", "finished")
    list_filter = ("game",)


admin.site.register(Player)
admin.site.register(MoveRecord)
admin.site.register(ChatMessage)
