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

from cardtable.tables.models import ChatMessage, Match, Player, Seat, Table
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


def games_of(player: Player) -> Iterator[tuple[Match, int]]:
    """Yield each game ``player`` sat down to (``Match.seats``), newest first, with their seat."""
    # The seats are JSON: a text search finds the candidates on every database (SQLite
    # and PostgreSQL both write `"player": 12`), and each is then checked exactly.
    found = Match.objects.filter(seats__icontains=f'"player": {player.pk}').order_by("-started")
    for match in found.select_related("table").iterator():
        for seat in match.seats:
            if seat.get("player") == player.pk:
                yield match, seat["seat"]
                break


def has_games(player: Player) -> bool:
    """Whether ``player`` ever sat down to a game or holds a seat."""
    return player.seats.exists() or next(games_of(player), None) is not None


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
        for match, _ in games_of(player):
            for seat in match.seats:
                if seat.get("player") == player.pk:
                    seat["name"] = new
            match.save(update_fields=["seats"])
        left_matches = Match.objects.filter(left__icontains=f'"player": {player.pk}')
        for match in left_matches:
            if any(d.get("player") == player.pk for d in match.left):
                for departure in match.left:
                    if departure.get("player") == player.pk:
                        departure["name"] = new
                match.save(update_fields=["left"])
                Seat.objects.filter(table_id=match.table_id, left=old).update(left=new)
        ChatMessage.objects.filter(player=player).update(name=new)
        player.user = None
        player.former = True
        set_name(player, new)
        player.save(update_fields=["user", "former", "name", "shape"])


def delete_account(user: Any) -> None:
    """Anonymise ``user``'s player and delete the user, in one transaction."""
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(user=user).first()
        if player is not None:
            anonymise(player)
        user.delete()
