"""The accounts in the admin: Django's users, each with its player (name, and a link to its page)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.urls import reverse
from django.utils.html import format_html

from cardtable.tables.models import Player


class PlayerInline(admin.StackedInline):
    """The account's player, read only: its name changes with the account's."""

    model = Player
    fields = ("name", "created", "page")
    readonly_fields = ("name", "created", "page")
    can_delete = False
    extra = 0
    max_num = 0

    @admin.display(description="player's page")
    def page(self, player: Player) -> str:
        """A link to the player's page."""
        url = reverse("accounts:player", args=[player.pk])
        return format_html('<a href="{}">{}</a>', url, url)


class AccountAdmin(UserAdmin):
    """Django's user admin, with the player each account plays as."""

    inlines = [*UserAdmin.inlines, PlayerInline]
    list_display = (*UserAdmin.list_display, "player")


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, AccountAdmin)
