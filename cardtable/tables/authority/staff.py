"""Staff operations on a table: end it, put a bot in a seat, remove a player, hide chat.

The admin's actions call these, never the models directly, so every change keeps
the table service's rules: one transaction holding the table's row lock
(``commit.locked_table``), the version raised and every connection and the bot
driver woken after commit (``commit.save_changed``). A refused request raises
``TableError`` and changes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from cardtable.tables.authority import departures
from cardtable.tables.authority.checks import check_level, seat_at, seats_of
from cardtable.tables.authority.commit import locked_table, save_changed
from cardtable.tables.errors import TableError
from cardtable.tables.events import ChatPosted, emit
from cardtable.tables.models import ChatMessage, HiddenChat, Match, Seat, Table

HIDDEN_TEXT = "(message hidden by staff)"


def end_table(table_id: str) -> int:
    """Stop a table for good; return the new version.

    A game in progress is closed unfinished (its ``Match`` gets ``finished`` but no
    ``result``), so its replay opens and the bots stop. The host is cleared so no
    rematch can start at an ended table. A finished table can be ended too (the
    dashboard's action for tables nobody came back to).
    """
    with locked_table(table_id) as table:
        if table.ended or (table.status == Table.FINISHED and table.host_id is None):
            raise TableError("wrong_status", f"table {table_id} has already been ended")
        return close(table, Table.STAFF)


def close(table: Table, reason: str) -> int:
    """End a locked table for ``reason`` (``Table.STAFF`` or ``Table.ABANDONED``); return the new version."""
    if table.status == Table.PLAYING:
        Match.objects.filter(table=table, number=table.game_number, finished=None).update(
            finished=timezone.now(), abandoned=reason == Table.ABANDONED
        )
    table.status = Table.FINISHED
    table.host = None
    table.ended = reason
    return save_changed(table, ["status", "host", "ended"])


def put_bot(table_id: str, index: int, level: str) -> int:
    """Put a bot of ``level`` in a seat, replacing whoever holds it; return the new version.

    This is how staff give a game whose player has gone a new player: the bot
    takes over at once, mid-game included.
    """
    check_level(level)
    with locked_table(table_id) as table:
        seat = seat_at(table, seats_of(table), index)
        _require_open(table, "put a bot in a seat")
        if seat.kind == "bot" and seat.bot_level == level:
            raise TableError("seat_taken", f"seat {seat.index} already holds a {level} bot")
        return _replace_player(table, seat, level)


def remove_player(table_id: str, index: int) -> int:
    """Take the human out of a seat; return the new version.

    Before the game starts the seat is left empty. During a game a seat cannot be
    empty, so the stand-in level's bot (``STAND_IN_LEVEL``) takes it over.
    If the player was the host, the next seated human becomes host.
    """
    with locked_table(table_id) as table:
        seat = seat_at(table, seats_of(table), index)
        if seat.kind != "human":
            raise TableError("not_seated", f"seat {seat.index} holds no player")
        _require_open(table, "remove a player")
        return _replace_player(table, seat, settings.STAND_IN_LEVEL if table.status == Table.PLAYING else "")


def _replace_player(table: Table, seat: Seat, bot_level: str) -> int:
    """Empty the seat of its player and give it ``bot_level`` ("" for none); hand on the host.

    A player removed during a game did not hold the seat to its end: the game's
    record notes the departure as a leave does (``departures.record_departure``),
    so the result and the ratings do not give them the bot's play. The seat is
    not opened to take over (``Seat.left`` stays empty).
    """
    removed = seat.player_id
    if removed is not None and table.status == Table.PLAYING:
        match = Match.objects.filter(table=table, number=table.game_number, result__isnull=True).first()
        if match is not None:
            departure = {
                "seat": seat.index,
                "player": removed,
                "name": seat.player.name,
                "moves": match.moves.count(),
            }
            match.left = departures.record_departure(match.left, departure)
            match.save(update_fields=["left"])
    seat.player, seat.bot_level = None, bot_level
    seat.away_since, seat.stand_in = None, False
    seat.save(update_fields=["player", "bot_level", "away_since", "stand_in"])
    _hand_on_host(table, removed)
    return save_changed(table, ["host"], keep_deadline=True)  # the turn's deadline is not the seat's


def _require_open(table: Table, doing: str) -> None:
    if table.status == Table.FINISHED and table.host_id is None:
        raise TableError("wrong_status", f"cannot {doing}: the table has been ended")


def _hand_on_host(table: Table, removed: int | None) -> None:
    """When the host has just left their seat, make the first seated human host."""
    if removed is None or table.host_id != removed:
        return
    nxt = Seat.objects.filter(table=table, player__isnull=False).order_by("index").first()
    table.host_id = nxt.player_id if nxt else None


def hide_chat(message_id: int, user: object = None) -> ChatMessage:
    """Hide a chat line: its text becomes ``HIDDEN_TEXT``, the original is kept for staff.

    Connections that already show the line get a ``chat_hidden`` message naming
    it (its ``at``, ``seat`` and ``name``); later connections receive the
    placeholder in the recent chat. Chat does not change the table's version.
    """
    with transaction.atomic():
        line = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if line is None:
            raise TableError("not_found", f"there is no chat message {message_id}")
        if HiddenChat.objects.filter(message=line).exists():
            raise TableError("bad_message", f"chat message {message_id} is already hidden")
        HiddenChat.objects.create(message=line, text=line.text, by=user if _is_user(user) else None)
        line.text = HIDDEN_TEXT
        line.save(update_fields=["text"])
        notice = {**line.to_json(), "type": "chat_hidden"}
        table_id = line.table_id
        transaction.on_commit(lambda: emit(ChatPosted(table_id, notice)))
    return line


def unhide_chat(message_id: int) -> ChatMessage:
    """Put a hidden chat line's text back (for connections that join from now on)."""
    with transaction.atomic():
        hidden = HiddenChat.objects.select_for_update().filter(message_id=message_id).first()
        if hidden is None:
            raise TableError("bad_message", f"chat message {message_id} is not hidden")
        line = hidden.message
        line.text = hidden.text
        line.save(update_fields=["text"])
        hidden.delete()
    return line


def _is_user(user: object) -> bool:
    return getattr(user, "is_authenticated", False) and getattr(user, "pk", None) is not None
