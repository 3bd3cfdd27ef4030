"""Chat at a table: the line checked and cleaned, saved, and sent to every connection after commit."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet

from cardtable.tables.authority.checks import (
    require_player,
    seats_of,
)
from cardtable.tables.authority.compiled import EXAMPLE_TABLE, Compiled
from cardtable.tables.errors import TableError
from cardtable.tables.events import ChatPosted, emit
from cardtable.tables.models import ChatMessage, Player, Seat, Table
from cardtable.tables.players import names


def encodes(text: str) -> bool:
    """Return whether text encodes as UTF-8: JSON's escapes can carry a lone surrogate, which does not."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_chat(player: Player | None, text: object) -> tuple[Player, str]:
    """Return the speaker and the line to post, or raise the error that refuses the line.

    The consumer asks this before charging the chat allowance, so refused lines
    never use it up.
    """
    try:
        line = names.clean_chat(text)  # normalised; no controls, direction overrides or mark piles
    except names.BadText as error:
        raise TableError("bad_message", str(error)) from None
    return require_player(player), line


def chat_name(player: Player, seats: list[Seat]) -> str:
    """The name a chat line shows: the player's name now, told apart as the table tells its seats apart."""
    shown = names.disambiguate((s.index, s.player.name) for s in seats if s.player is not None)
    own = next((s.index for s in seats if s.player_id == player.pk), None)
    if own is not None:
        return shown[own]
    return names.watcher_name(player.name, shown.values())


HISTORY = 50  # chat lines a new connection is sent


def _last_lines(table_id: str) -> QuerySet[ChatMessage]:
    lines = ChatMessage.objects.filter(table_id=table_id).select_related("player")
    return lines.order_by("-at", "-id")[:HISTORY]


# Read by every connect: compiled once per process (``compiled.py``).
_LAST_LINES = Compiled(_last_lines, EXAMPLE_TABLE)


def chat_history(table_id: str) -> list[dict]:
    """The table's last ``HISTORY`` chat lines, each under its speaker's name now (a rename shows)."""
    lines = list(reversed(_LAST_LINES.run(table_id)))
    if not lines:
        return []  # most tables: one statement per connect, not two
    seats = list(Seat.objects.filter(table_id=table_id).select_related("player").order_by("index"))
    history = []
    for line in lines:
        message = line.to_json()
        if line.player is not None:
            message["name"] = chat_name(line.player, seats)
        history.append(message)
    return history


def post_chat(table_id: str, player: Player | None, text: object) -> dict:
    """Save a chat line and send it to the table; return the chat message."""
    player, line_text = check_chat(player, text)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError("not_found", f"there is no table {table_id!r}")
    seats = seats_of(table)
    seat = next((s.index for s in seats if s.player_id == player.pk), None)
    line = ChatMessage.objects.create(table=table, player=player, seat=seat, name=player.name, text=line_text)
    message = line.to_json() | {"name": chat_name(player, seats)}
    transaction.on_commit(lambda: emit(ChatPosted(table_id, message)))
    return message
