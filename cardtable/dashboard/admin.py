"""The admin for the dashboard's records: the game summaries (chat moderation is the tables app's)."""

from __future__ import annotations

from django.contrib import admin

from cardtable.dashboard.models import GameSummary
from cardtable.tables.admin import ReadOnly


@admin.register(GameSummary)
class GameSummaryAdmin(ReadOnly, admin.ModelAdmin):
    """The figures of each finished game, as the statistics use them."""

    list_display = ("match", "game", "players", "moves", "deals", "first_player", "lead_changes", "winners")
    list_filter = ("game", "players", "bot_only")
    search_fields = ("match__table__id",)
    list_select_related = ("match",)
