"""The ratings in the admin, read-only: they follow from the game records (``rebuild_ratings``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from cardtable.ratings.models import RatedMatch, Rating, RatingChange


class ReadOnly(admin.ModelAdmin):
    """Shown, never added, changed or deleted by hand: a hand edit would be undone by the next rebuild."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """No one adds a rating by hand."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """No one changes a rating by hand."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """No one deletes a rating by hand."""
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    """Each registered player's rating per game."""

    list_display = ["player", "game", "ordinal", "mu", "sigma", "games", "updated"]
    list_filter = ["game"]
    search_fields = ["player__name"]
    ordering = ["game", "-ordinal"]


class ChangeInline(admin.TabularInline):
    """Each registered player's rank and rating before and after the game, read-only."""

    model = RatingChange
    fields = ["player", "rank", "mu_before", "sigma_before", "mu", "sigma"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """No one adds a change by hand."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """No one changes a change by hand."""
        return False


@admin.register(RatedMatch)
class RatedMatchAdmin(ReadOnly):
    """The games that changed ratings, with each player's rating before and after."""

    list_display = ["match", "game", "finished"]
    list_filter = ["game"]
    ordering = ["-finished"]
    inlines = [ChangeInline]
