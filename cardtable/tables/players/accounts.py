"""What an account does to its player: names held, a guest claimed, games found, a player anonymised.

A registered player's name is held: no other account and no guest may take a
name that looks like it (``names.skeleton``), and an account may not take a
name any other player already shows. Guests may share names among themselves
(a table tells them apart). A deleted account's player keeps its row, seats and
games under the name "Former player <id>" and can never be anyone again.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet

from cardtable.tables.models import ChatMessage, Match, MatchPlayer, Player, Seat, Table
from cardtable.tables.players import names
from cardtable.tables.players.names import skeleton


class NameTaken(ValueError):
    """A name another player or account already holds, with the reason a person can read."""


def set_name(player: Player, name: str) -> None:
    """Give ``player`` the (already cleaned) ``name`` and its skeleton; the caller saves."""
    player.name = name
    player.shape = skeleton(name)


def check_guest_name(name: str, player: Player | None) -> None:
    """Refuse a guest name that looks like a registered player's (raise ``NameTaken``)."""
    holders = Player.objects.filter(shape=skeleton(name), user__isnull=False, former=False)
    if player is not None:
        holders = holders.exclude(pk=player.pk)
    if holders.exists():
        raise NameTaken("that name belongs to a registered player")


def check_account_name(name: str, player: Player | None, user: Any = None) -> None:
    """Refuse an account name that looks like any other player's or account's (raise ``NameTaken``).

    ``player`` is the one claiming it (the session's guest) and ``user`` the account
    taking it: their own names are no obstacle.
    """
    shape = skeleton(name)
    others = Player.objects.filter(shape=shape, former=False)
    if player is not None:
        others = others.exclude(pk=player.pk)
    if others.filter(user__isnull=False).exists():
        raise NameTaken("that name belongs to a registered player")
    if others.exists():
        raise NameTaken("another player already plays under that name")
    # Accounts made in the admin or on the command line have no player until they first sit.
    users = get_user_model().objects.filter(player__isnull=True)
    if user is not None:
        users = users.exclude(pk=user.pk)
    if any(skeleton(username) == shape for username in users.values_list("username", flat=True)):
        raise NameTaken("that name belongs to a registered player")


def played(player: Player) -> QuerySet[MatchPlayer]:
    """``player``'s seats in games (``MatchPlayer``: started or took over), newest game first."""
    # Filtered and ordered by the (player, -started) index: no scan of the games' JSON.
    return MatchPlayer.objects.filter(player=player).select_related("match").order_by("-started")


def games_of(player: Player) -> Iterator[tuple[Match, int]]:
    """Yield each game ``player`` held a seat in (from its start or by a takeover), newest first, with it."""
    for row in played(player).iterator():
        yield row.match, row.seat


def has_games(player: Player) -> bool:
    """Whether ``player`` ever held a seat in a game, or holds a seat at a table."""
    return player.seats.exists() or player.played.exists()


def claim(player: Player | None, user: Any, name: str) -> Player:
    """Make ``player`` (the session's guest, or a new player when ``None``) ``user``'s, named ``name``.

    The guest keeps its games: they are the same row. Raises ``NameTaken`` and
    changes nothing when the name is another's or the guest already has an account.
    """
    with transaction.atomic():
        if player is not None:
            player = Player.objects.select_for_update().get(pk=player.pk)
            if player.user_id is not None or player.former:
                raise NameTaken("this guest already belongs to an account")
        check_account_name(name, player, user)
        player = player or Player()
        player.user = user
        set_name(player, name)
        player.save()
        return player


def replace_empty(player: Player, user: Any) -> Player | None:
    """On login: the session's guest ``player`` becomes ``user``'s when the account has no games yet.

    Returns the claimed player, or ``None`` when the account already has games
    (the guest's stay with the guest) or the guest cannot be claimed.
    """
    with transaction.atomic():
        guest = (
            Player.objects.select_for_update().filter(pk=player.pk, user__isnull=True, former=False).first()
        )
        current = Player.objects.select_for_update().filter(user=user).first()
        if guest is None or (current is not None and has_games(current)):
            return None
        name = current.name if current is not None else user.get_username()[:24]
        if current is not None:
            current.delete()
        guest.user = user
        set_name(guest, name)
        guest.save()
        return guest


def former_name(player: Player) -> str:
    """The name a deleted account's player shows: ``Former player <id>``."""
    return f"{names.FORMER} {player.pk}"


def open_seats(player: Player) -> list[str]:
    """The tables still open (waiting or playing) where ``player`` holds a seat."""
    return list(player.seats.exclude(table__status=Table.FINISHED).values_list("table_id", flat=True))


def anonymise(player: Player) -> None:
    """Take ``player``'s name and account off every record, keeping the row, its seats and games.

    The name goes from the player, the games' seat lists and departures, the seats
    a departure named and the chat lines; the user is then free to be deleted.
    """
    old, new = player.name, former_name(player)
    with transaction.atomic():
        games = Match.objects.filter(pk__in=player.played.values("match_id"))
        for match in games.only("pk", "table_id", "seats", "left"):
            fields = [name for name in ("seats", "left") if _rename(getattr(match, name), player.pk, new)]
            if fields:
                match.save(update_fields=fields)
            if "left" in fields:
                Seat.objects.filter(table_id=match.table_id, left=old).update(left=new)
        ChatMessage.objects.filter(player=player).update(name=new)
        player.user = None
        player.former = True
        set_name(player, new)
        player.save(update_fields=["user", "former", "name", "shape"])


def _rename(entries: list[dict[str, Any]], player_id: int, name: str) -> bool:
    """Name ``player_id``'s entries (seats or departures) ``name``; whether there were any."""
    found = False
    for entry in entries:
        if entry.get("player") == player_id:
            entry["name"], found = name, True
    return found


def delete_account(user: Any) -> None:
    """Anonymise ``user``'s player and delete the user, in one transaction."""
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(user=user).first()
        if player is not None:
            anonymise(player)
        user.delete()
