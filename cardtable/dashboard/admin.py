"""The admin for the dashboard's records: game summaries and design statistics (chat moderation
is the tables app's)."""

from __future__ import annotations

from django.contrib import admin

from cardtable.dashboard.models import DesignStats, GameSummary
from cardtable.tables.admin import ReadOnly


@admin.register(GameSummary)
class GameSummaryAdmin(ReadOnly, admin.ModelAdmin):
    """The figures of each finished game, as the statistics use them."""

    list_display = ("match", "game", "players", "moves", "deals", "first_player", "lead_changes", "winners")
    list_filter = ("game", "players", "bot_only")
    search_fields = ("match__table__id",)
    list_select_related = ("match",)


@admin.register(DesignStats)
class DesignStatsAdmin(ReadOnly, admin.ModelAdmin):
    """CardStock's design statistics per game variant (written by ``manage.py designstats``)."""

    list_display = ("game", "players", "label", "heuristics", "playouts", "computed")
    list_filter = ("game", "players")
