"""The admin for the dashboard's own records: game summaries and hidden chat lines."""

from __future__ import annotations

from django.contrib import admin

from cardtable.dashboard.models import GameSummary, HiddenChat
from cardtable.tables.admin import ReadOnly


@admin.register(GameSummary)
class GameSummaryAdmin(ReadOnly, admin.ModelAdmin):
    """The figures of each finished game, as the statistics use them."""

    list_display = ("match", "game", "players", "moves", "deals", "first_player", "lead_changes", "winners")
    list_filter = ("game", "players", "bot_only")
    search_fields = ("match__table__id",)
    list_select_related = ("match",)


@admin.register(HiddenChat)
class HiddenChatAdmin(ReadOnly, admin.ModelAdmin):
    """Chat lines hidden by staff, with their original text (show them again from the chat list)."""

    list_display = ("message", "text", "by", "at")
    search_fields = ("text", "message__table__id")
    list_select_related = ("message", "by")
