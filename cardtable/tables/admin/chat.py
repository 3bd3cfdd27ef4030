"""The admin of chat: lines, and hiding or showing them again (moderation)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from cardtable.tables.admin.common import (
    ReadOnly,
    can_change,
    run_each,
)
from cardtable.tables.authority import staff
from cardtable.tables.models import (
    ChatMessage,
    HiddenChat,
)


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
