"""The admin: every page for staff, refused to others; actions through the table service."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from cardtable.tables.authority import seating, staff
from cardtable.tables.errors import TableError
from cardtable.tables.live import broadcast
from cardtable.tables.models import ChatMessage, Connection, HiddenChat, Match, Seat, Table
from tests.dashboard.conftest import new_table, play

pytestmark = pytest.mark.django_db

CHANGELISTS = [
    "tables/table",
    "tables/seat",
    "tables/match",
    "tables/moverecord",
    "tables/player",
    "tables/chatmessage",
    "tables/connection",
    "dashboard/gamesummary",
    "tables/hiddenchat",
]


@pytest.fixture
def wakes(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Record every wake and chat push the authority send after commit."""
    sent: list[tuple] = []
    monkeypatch.setattr(broadcast, "table_changed", lambda t, v, **_: sent.append(("changed", t, v)))
    monkeypatch.setattr(broadcast, "chat", lambda t, m: sent.append(("chat", t, m)))
    return sent


def act(client: Client, model: str, action: str, ids: list[Any], **extra: str) -> Any:
    """POST an admin action on the changelist, as the action bar does."""
    data = {"action": action, "_selected_action": [str(i) for i in ids], "index": "0", **extra}
    return client.post(f"/admin/{model}/", data, follow=True)


def test_every_admin_page_opens_for_staff(staff_client: Client) -> None:
    table = new_table("agram", humans=1)
    play(table.pk, random.Random(1))
    running = new_table("hearts", humans=1)
    ChatMessage.objects.create(table=table, name="Host", text="good game")
    Connection.objects.create(channel="c1", table=table, player=None, seen=table.updated)
    staff.hide_chat(ChatMessage.objects.get().pk)
    for model in CHANGELISTS:
        response = staff_client.get(f"/admin/{model}/")
        assert response.status_code == 200, model
    assert "Staff dashboard" in staff_client.get("/admin/").content.decode()
    match = Match.objects.get(table=table)
    for path in (
        f"/admin/tables/table/{table.pk}/change/",
        f"/admin/tables/table/{running.pk}/change/",
        f"/admin/tables/match/{match.pk}/change/",
        f"/admin/tables/moverecord/{match.moves.first().pk}/change/",
        f"/admin/tables/seat/{table.seats.first().pk}/change/",
        f"/admin/tables/player/{table.host_id}/change/",
    ):
        assert staff_client.get(path).status_code == 200, path
    listing = staff_client.get("/admin/tables/table/").content.decode()
    assert table.pk in listing and "Host" in listing and "bot (random)" in listing
    # The finished game's log and replay are linked from its page.
    page = staff_client.get(f"/admin/tables/match/{match.pk}/change/").content.decode()
    assert f"/replay/{table.pk}/1/" in page
    assert json.dumps(match.moves.first().move).replace('"', "&quot;") in page


def test_search_and_filters(staff_client: Client) -> None:
    a = new_table("agram", humans=1)
    b = new_table("cribbage", humans=1, start=False)
    page = staff_client.get("/admin/tables/table/?status__exact=waiting").content.decode()
    assert b.pk in page and a.pk not in page
    page = staff_client.get(f"/admin/tables/table/?q={a.pk}").content.decode()
    assert a.pk in page and b.pk not in page
    page = staff_client.get("/admin/tables/match/?game=agram").content.decode()
    assert f"{a.pk} game 1" in page


def test_running_game_shows_nothing_hidden_in_admin(staff_client: Client) -> None:
    table = new_table("hearts", humans=2)
    play(table.pk, random.Random(2), moves=4)
    match = Match.objects.get(table=table)
    page = staff_client.get(f"/admin/tables/match/{match.pk}/change/").content.decode()
    assert "hidden while the game runs" in page
    for hand in match.first_deal["deal"]["hands"]:
        assert json.dumps(hand) not in page and ", ".join(f'"{c}"' for c in hand[:3]) not in page
    for record in match.moves.all():
        assert json.dumps(record.move).replace('"', "&quot;") not in page
    table_page = staff_client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    assert "hand_counts" in table_page and '"hand":' not in table_page


def test_not_staff_is_refused(plain_client: Client, client: Client) -> None:
    table = new_table("agram", humans=1)
    for who in (plain_client, client):
        for path in ["/admin/", "/admin/tables/table/", "/staff/dashboard/"]:
            response = who.get(path)
            assert response.status_code == 302 and "/admin/login/" in response["Location"], path
        response = act(who, "tables/table", "end_tables", [table.pk])
        assert Table.objects.get(pk=table.pk).status == Table.PLAYING


def test_end_tables_action(
    staff_client: Client, wakes: list, django_capture_on_commit_callbacks: Any
) -> None:
    playing = new_table("hearts", humans=1)
    play(playing.pk, random.Random(3), moves=3)
    waiting = new_table("agram", humans=1, start=False)
    versions = {t.pk: Table.objects.get(pk=t.pk).version for t in (playing, waiting)}
    with django_capture_on_commit_callbacks(execute=True):
        response = act(staff_client, "tables/table", "end_tables", [playing.pk, waiting.pk])
    assert "Ended: 2 done." in response.content.decode()
    for table_id, version in versions.items():
        after = Table.objects.get(pk=table_id)
        assert after.status == Table.FINISHED and after.host_id is None
        assert after.version == version + 1
        assert ("changed", table_id, version + 1) in wakes
    match = Match.objects.get(table=playing)
    assert match.finished is not None and match.result is None
    assert LogEntry.objects.filter(object_id=playing.pk, change_message="Ended").exists()
    # Nobody can start a rematch at an ended table, and ending it again is refused.
    host = Seat.objects.get(table=playing, index=0).player
    with pytest.raises(TableError):
        seating.rematch(playing.pk, host)
    version = Table.objects.get(pk=playing.pk).version
    response = act(staff_client, "tables/table", "end_tables", [playing.pk])
    assert "already been ended" in response.content.decode()
    assert Table.objects.get(pk=playing.pk).version == version


def test_put_bot_replaces_a_player_mid_game(
    staff_client: Client, wakes: list, django_capture_on_commit_callbacks: Any
) -> None:
    table = new_table("hearts", humans=2)
    play(table.pk, random.Random(4), moves=2)
    seat = Seat.objects.get(table=table, index=1)
    assert seat.kind == "human"
    version = Table.objects.get(pk=table.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        act(staff_client, "tables/seat", "put_bot", [seat.pk], level="hard")
    seat.refresh_from_db()
    assert seat.kind == "bot" and seat.bot_level == "hard" and seat.player_id is None
    assert Table.objects.get(pk=table.pk).version == version + 1
    assert ("changed", table.pk, version + 1) in wakes
    # A bad level changes nothing.
    with pytest.raises(TableError):
        staff.put_bot(table.pk, 1, "genius")
    assert Table.objects.get(pk=table.pk).version == version + 1


def test_remove_player(staff_client: Client, settings: Any) -> None:
    settings.STAND_IN_LEVEL = "easy"
    waiting = new_table("agram", humans=2, start=False)
    playing = new_table("agram", humans=2)
    host = Table.objects.get(pk=playing.pk).host_id
    seats = [Seat.objects.get(table=waiting, index=1), Seat.objects.get(table=playing, index=0)]
    response = act(staff_client, "tables/seat", "remove_player", [s.pk for s in seats])
    assert "Removed the player: 2 done." in response.content.decode()
    assert Seat.objects.get(pk=seats[0].pk).kind == "empty"
    taken = Seat.objects.get(pk=seats[1].pk)
    assert taken.kind == "bot" and taken.bot_level == "easy"
    # The host left: the next seated human hosts now.
    after = Table.objects.get(pk=playing.pk)
    assert after.host_id != host and after.host_id == Seat.objects.get(table=playing, index=1).player_id
    response = act(staff_client, "tables/seat", "remove_player", [seats[0].pk])
    assert "holds no player" in response.content.decode()


def test_remove_player_from_all_open_tables(staff_client: Client) -> None:
    table = new_table("agram", humans=2, start=False)
    player = Seat.objects.get(table=table, index=1).player
    act(staff_client, "tables/player", "remove_from_tables", [player.pk])
    assert not Seat.objects.filter(player=player).exists()


def test_hide_and_unhide_chat(
    staff_client: Client, wakes: list, django_capture_on_commit_callbacks: Any
) -> None:
    table = new_table("agram", humans=1)
    line = ChatMessage.objects.create(table=table, name="Host", seat=0, text="rude words")
    version = Table.objects.get(pk=table.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        act(staff_client, "tables/chatmessage", "hide", [line.pk])
    line.refresh_from_db()
    assert line.text == staff.HIDDEN_TEXT
    hidden = HiddenChat.objects.get(message=line)
    assert hidden.text == "rude words" and hidden.by.username == "staff"
    notice = next(m for kind, t, m in wakes if kind == "chat")
    assert notice["type"] == "chat_hidden" and notice["at"] == line.at.isoformat()
    assert "rude words" not in json.dumps(notice)
    assert Table.objects.get(pk=table.pk).version == version  # chat does not change the version
    page = staff_client.get("/admin/tables/chatmessage/?hidden=yes").content.decode()
    assert "rude words" in page  # staff still read the original
    assert "already hidden" in act(staff_client, "tables/chatmessage", "hide", [line.pk]).content.decode()
    act(staff_client, "tables/chatmessage", "unhide", [line.pk])
    line.refresh_from_db()
    assert line.text == "rude words" and not HiddenChat.objects.exists()


def test_staff_without_change_permission_may_look_but_not_act(client: Client) -> None:
    from django.contrib.auth.models import Permission, User

    viewer = User.objects.create_user("viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_table"))
    client.force_login(viewer)
    table = new_table("agram", humans=1)
    assert client.get("/admin/tables/table/").status_code == 200
    response = act(client, "tables/table", "end_tables", [table.pk])
    assert "You may not change tables." in response.content.decode()
    assert Table.objects.get(pk=table.pk).status == Table.PLAYING
