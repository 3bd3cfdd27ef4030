"""Names and chat show what they are (docs/security.md S7)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from cardtable.tables.authority import chat, seating
from cardtable.tables.models import ChatMessage, Player, Table
from tests.server.conftest import Client, make_player
from tests.server.test_errors import expect, playing_table
from tests.support.http import post_json

CYRILLIC_A = "\u0410"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "Bot (hard)",
        "bot (Easy)",
        "B0T (normal)",
        "Bot",
        "bot 2",
        "System",
        CYRILLIC_A + "nn",  # a look-alike of Ann
        "\u115f",  # a blank Hangul filler
        "\u3164\u3164",
        "\u0301\u0301",  # combining marks only
        "a" + "\u0301" * 5,
        "Ann\u202e",  # right-to-left override
        "An\u200bn",  # zero-width space
        "Ann\x1b[31m",
        "tab\there",
        # Compared by their Unicode confusable skeleton after NFKC (UTS #39):
        "\uff22\uff4f\uff54 1",  # full-width "Bot" and a 1, which looks like l
        "Adm\u0131n",  # dotless i
        "Bot 1",
        "B0t 0",
        "\U0001d401\U0001d428\U0001d42d 3",  # mathematical bold "Bot"
        "\u15f7ot 2",  # Canadian syllabics KHE, drawn as B
        "\ua4e2ystem",  # Lisu letter S
        "St\u0430ff",  # Cyrillic a
        "ST\u0391FF",  # Greek capital alpha
        "M\u043ederator",  # Cyrillic o
    ],
)
def test_names_that_imitate_hide_or_smear_are_refused(name: str) -> None:
    response = post_json(HttpClient(), "/api/session/", {"name": name})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_name", name
    assert Player.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name, stored",
    [
        ("Zoe\u0308", "Zo\u00eb"),  # normalised to NFC
        ("\u0410\u043d\u043d\u0430", "\u0410\u043d\u043d\u0430"),  # all Cyrillic is fine
        ("\u674e\u96f7", "\u674e\u96f7"),
        ("Jean-Luc O'Brien", "Jean-Luc O'Brien"),
        ("Bottom", "Bottom"),
        ("Botany Bay", "Botany Bay"),
        ("Robot 1", "Robot 1"),
        ("Iris Admiral", "Iris Admiral"),
        ("\uff2a\uff4f", "\uff2a\uff4f"),  # full-width letters are kept as typed
        ("\u0130lkay", "\u0130lkay"),
    ],
)
def test_ordinary_names_are_kept_normalised(name: str, stored: str) -> None:
    response = post_json(HttpClient(), "/api/session/", {"name": name})
    assert response.status_code == 200 and response.json()["player"]["name"] == stored


def twins_table() -> tuple[Table, list]:
    """A Hearts table, waiting: "Ann", "ann", an all-Cyrillic look-alike of "Pop", and "Pop" seated."""
    people = [make_player(n) for n in ("Ann", "ann", "\u0420\u043e\u0440", "Pop")]
    table = seating.create_table(people[0][0], "hearts", 4, {})
    for seat, (player, _) in enumerate(people):
        seating.sit(table.pk, player, seat)
    return table, people


@pytest.mark.django_db(transaction=True)
async def test_look_alike_names_at_a_table_are_told_apart_in_seats_and_chat() -> None:
    table, people = await database_sync_to_async(twins_table)()
    _, watcher_cookie = await database_sync_to_async(make_player)("ANN")
    first = await Client(table.pk, people[0][1]).connect()
    seats = [s["name"] for s in first.state["table"]["seats"]]
    assert seats == ["Ann", "ann (2)", "\u0420\u043e\u0440", "Pop (2)"]
    summary = await database_sync_to_async(HttpClient().get)(f"/api/tables/{table.pk}/")
    assert [s["name"] for s in summary.json()["seats"]] == seats
    second = await Client(table.pk, people[1][1]).connect()
    watcher = await Client(table.pk, watcher_cookie).connect()
    await second.send({"type": "chat", "text": "hi"})
    assert (await first.until(lambda m: m["type"] == "chat"))["name"] == "ann (2)"
    await watcher.send({"type": "chat", "text": "I am Ann"})
    assert (await first.until(lambda m: m["type"] == "chat" and m["text"] == "I am Ann"))[
        "name"
    ] == "ANN (watching)"


@pytest.mark.django_db
def test_names_that_look_alike_after_nfkc_and_confusables_are_told_apart_at_a_table() -> None:
    # Full width, a capital I for an l, a dotless i: each looks like "Bill".
    people = [make_player(n) for n in ("Bill", "\uff22\uff49\uff4c\uff4c", "BiIl", "B\u0131ll")]
    table = seating.create_table(people[0][0], "hearts", 4, {})
    for seat, (player, _) in enumerate(people):
        seating.sit(table.pk, player, seat)
    seats = [s["name"] for s in HttpClient().get(f"/api/tables/{table.pk}/").json()["seats"]]
    assert seats == ["Bill", "\uff22\uff49\uff4c\uff4c (2)", "BiIl (3)", "B\u0131ll (4)"]
    seated = list(table.seats.select_related("player"))
    assert chat.chat_name(people[3][0], seated) == "B\u0131ll (4)"
    watcher, _ = make_player("\u15f7ill")  # Canadian syllabics KHE, drawn as B
    assert chat.chat_name(watcher, seated) == "\u15f7ill (watching)"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "text",
    [
        "nul\x00here",
        "esc\x1b[2J",
        "evil\u202etxt.exe",
        "e" + "\u0301" * 500,
        "\u0301" * 4,
        "line\nbreak",
        "\u200b",
    ],
)
async def test_chat_with_controls_overrides_or_mark_piles_is_refused(text: str) -> None:
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    await expect(ann, {"type": "chat", "text": text}, "bad_message", table.pk)


@pytest.mark.django_db(transaction=True)
async def test_chat_is_normalised_and_keeps_emoji_joiners() -> None:
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    for text, shown in (
        ("cafe\u0301", "caf\u00e9"),
        (family, family),
        ("ti\u1ebfng Vi\u1ec7t", "ti\u1ebfng Vi\u1ec7t"),
    ):
        await ann.send({"type": "chat", "text": text})
        assert (await ann.until(lambda m: m["type"] in ("chat", "error")))["text"] == shown


@pytest.mark.django_db(transaction=True)
async def test_a_renamed_players_chat_shows_the_new_name() -> None:
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    await ann.send({"type": "chat", "text": "before"})
    await ann.until(lambda m: m["type"] == "chat")
    await database_sync_to_async(Player.objects.filter(pk=people[0][0].pk).update)(name="Annie")
    await ann.send({"type": "chat", "text": "after"})
    assert (await ann.until(lambda m: m["type"] == "chat"))["name"] == "Annie"
    later = await Client(table.pk).connect()
    await later.quiet()
    history = [(m["name"], m["text"]) for m in later.messages if m["type"] == "chat"]
    assert history == [("Annie", "before"), ("Annie", "after")]
    assert await database_sync_to_async(ChatMessage.objects.count)() == 2
