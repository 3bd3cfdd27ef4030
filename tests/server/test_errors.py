"""Bad input gets the protocol's error, in its order of precedence, and changes nothing."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from cardtable.tables.authority import seating
from cardtable.tables.models import ChatMessage, Table
from games import get_game
from tests.server.conftest import Client, make_player, new_player

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot(table_id: str) -> tuple:
    """Everything an error must leave alone: version, status, state, seats, log and chat."""
    table = Table.objects.get(pk=table_id)
    seats = list(table.seats.values_list("index", "player_id", "bot_level"))
    moves = table.matches.values_list("moves__seq", flat=True).count()
    return table.version, table.status, json.dumps(table.state), seats, moves, ChatMessage.objects.count()


def playing_table(bot: bool = False) -> tuple[Table, list]:
    """An Agram table for two, started: Ann (host) in seat 0, Bob (or a bot) in seat 1."""
    ann, bob = make_player("Ann"), make_player("Bob")
    table = seating.create_table(ann[0], "agram", 2, {})
    seating.sit(table.pk, ann[0], 0)
    if bot:
        seating.add_bot(table.pk, ann[0], 1, "random")
    else:
        seating.sit(table.pk, bob[0], 1)
    seating.start(table.pk, ann[0])
    return Table.objects.get(pk=table.pk), [ann, bob]


async def expect(client: Client, message: dict | str, code: str, table_id: str) -> dict:
    """Send ``message``, expect error ``code``, and check the table did not change."""
    before = await database_sync_to_async(snapshot)(table_id)
    await client.send(message)
    error = await client.error()
    assert error["code"] == code, error
    assert error["message"]
    assert await database_sync_to_async(snapshot)(table_id) == before
    return error


async def turn_clients(table: Table, people: list) -> tuple[Client, Client, dict]:
    """Connect both players; return (the one to act, the other, the actor's state)."""
    a = await Client(table.pk, people[0][1]).connect()
    b = await Client(table.pk, people[1][1]).connect()
    await a.quiet()
    await b.quiet()
    if a.state["legal_moves"]:
        return a, b, a.state
    return b, a, b.state


async def test_frames_that_are_not_messages() -> None:
    table, people = await database_sync_to_async(playing_table)()
    client = await Client(table.pk, people[0][1]).connect()
    await expect(client, "x" * 16_385, "too_large", table.pk)
    await expect(client, "not json", "bad_message", table.pk)
    await expect(client, "[1, 2]", "bad_message", table.pk)
    await expect(client, {"type": "dance"}, "bad_message", table.pk)
    await expect(client, {"seat": 1}, "bad_message", table.pk)
    await expect(client, {"type": "sit"}, "bad_message", table.pk)
    await expect(client, {"type": "sit", "seat": "1"}, "bad_message", table.pk)
    await expect(client, {"type": "sit", "seat": True}, "bad_message", table.pk)
    await expect(client, {"type": "sit", "seat": 7}, "bad_message", table.pk)
    await expect(client, {"type": "move", "move": "QS", "version": 1}, "bad_message", table.pk)
    await expect(client, {"type": "move", "move": {"play": "QS"}}, "bad_message", table.pk)
    await expect(client, {"type": "bot", "seat": 1, "level": "genius"}, "bad_message", table.pk)
    error = await expect(client, {"type": "chat", "text": "", "id": "c-9"}, "bad_message", table.pk)
    assert error["id"] == "c-9"
    await client.comm.send_to(bytes_data=b'{"type": "sync"}')
    assert (await client.error())["code"] == "bad_message"
    # The connection stays open and useful after every error.
    await client.send({"type": "sync"})
    assert (await client.next_state())["version"] == table.version


async def test_hostile_frames_get_bad_message_with_their_id_and_the_connection_stays() -> None:
    """docs/security.md G1 to G4: each of these once closed the socket or dropped the id."""
    table, people = await database_sync_to_async(playing_table)()
    client = await Client(table.pk, people[0][1]).connect()
    for frame in (
        '{"type": [], "id": "g1"}',  # G1: an unhashable type
        '{"type": {"a": 1}, "id": "g1"}',
        '{"type": "chat", "text": "\\ud800", "id": "g3"}',  # G3: a lone surrogate
        '{"type": "bogus", "id": "g4"}',  # G4: bad_message echoes a well-formed id
        '{"type": "sit", "seat": "1", "id": 42}',
    ):
        error = await expect(client, frame, "bad_message", table.pk)
        assert error["id"] == json.loads(frame)["id"], (frame, error)
    error = await expect(client, "[" * 5000 + "]" * 5000, "bad_message", table.pk)  # G2
    assert "id" not in error
    error = await expect(client, {"type": "bogus", "id": "x" * 65}, "bad_message", table.pk)
    assert "id" not in error  # an id too long to be one is not echoed
    await client.send({"type": "sync"})
    assert (await client.next_state())["version"] == table.version


async def test_too_large_comes_before_bad_message_and_an_exact_16k_frame_is_read() -> None:
    table, people = await database_sync_to_async(playing_table)()
    client = await Client(table.pk, people[0][1]).connect()
    await expect(client, "{" * 20_000, "too_large", table.pk)
    padded = json.dumps({"type": "sync", "pad": ""})
    exact = padded.replace('""', '"' + "p" * (16_384 - len(padded)) + '"')
    assert len(exact.encode()) == 16_384
    await client.send(exact)
    assert (await client.next_state())["type"] == "state"


async def test_rate_limit_comes_before_everything_but_size(settings) -> None:
    settings.WS_RATE, settings.WS_BURST = 0.01, 3
    table, people = await database_sync_to_async(playing_table)()
    client = await Client(table.pk, people[0][1]).connect()
    for _ in range(3):
        await client.send({"type": "sync"})
        await client.next_state()
    await expect(client, "not json", "rate_limited", table.pk)
    await expect(client, "x" * 20_000, "too_large", table.pk)


def chat_allowance(settings, lines: int) -> None:
    """Each player may post ``lines`` chat lines in this test (an hour's window)."""
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "chat": {**settings.RATE_LIMITS["chat"], "player": (lines, 3600)},
    }


async def test_chat_is_limited_in_length_and_rate_and_kept_as_text(settings) -> None:
    chat_allowance(settings, 2)  # the two refused lines cost nothing
    table, people = await database_sync_to_async(playing_table)()
    a = await Client(table.pk, people[0][1]).connect()
    b = await Client(table.pk, people[1][1]).connect()
    await expect(a, {"type": "chat", "text": "x" * 501}, "bad_message", table.pk)
    await expect(a, {"type": "chat", "text": "   "}, "bad_message", table.pk)
    text = "<script>alert('hi')</script> & <b>"
    await a.send({"type": "chat", "text": text})
    line = await b.until(lambda m: m["type"] == "chat")
    assert line["text"] == text and line["name"] == "Ann" and line["seat"] == 0 and line["at"]
    await a.send({"type": "chat", "text": "x" * 500})
    assert (await b.until(lambda m: m["type"] == "chat"))["text"] == "x" * 500
    await expect(a, {"type": "chat", "text": "one too many"}, "rate_limited", table.pk)
    spectator = await Client(table.pk).connect()
    await spectator.quiet()
    assert [m["text"] for m in spectator.messages if m["type"] == "chat"] == [text, "x" * 500]
    await expect(spectator, {"type": "chat", "text": "hello"}, "no_player", table.pk)


async def test_spectators_may_only_watch() -> None:
    table, _ = await database_sync_to_async(playing_table)()
    spectator = await Client(table.pk).connect()
    assert spectator.state["you"] == {"seat": None, "host": False}
    assert spectator.state["legal_moves"] == [] and "hand" not in spectator.state["view"]
    for message in [
        {"type": "sit", "seat": 0},
        {"type": "stand"},
        {"type": "start"},
        {"type": "rematch"},
        {"type": "bot", "seat": 0, "level": "random"},
        {"type": "move", "move": {"play": "AC"}, "version": table.version, "id": 5},
    ]:
        error = await expect(spectator, message, "no_player", table.pk)
    assert error["id"] == 5


async def test_seating_errors_in_order() -> None:
    ann, ann_cookie = await new_player("Ann")
    _bob, bob_cookie = await new_player("Bob")
    table = await database_sync_to_async(seating.create_table)(ann, "agram", 3, {})
    a = await Client(table.pk, ann_cookie).connect()
    b = await Client(table.pk, bob_cookie).connect()
    # The creator sits at seat 0 on creation; sitting there again is answered with a new state.
    await a.send({"type": "sit", "seat": 0})
    await a.until(lambda m: m["type"] == "state" and m["you"]["seat"] == 0 and m["version"] >= 1)
    await expect(b, {"type": "sit", "seat": 0}, "seat_taken", table.pk)
    await expect(a, {"type": "sit", "seat": 1}, "seat_taken", table.pk)  # a second seat
    await expect(b, {"type": "stand"}, "not_seated", table.pk)
    await expect(b, {"type": "bot", "seat": 1, "level": "random"}, "not_host", table.pk)
    await expect(b, {"type": "bot", "seat": 0, "level": "random"}, "seat_taken", table.pk)  # taken first
    await expect(b, {"type": "start"}, "not_host", table.pk)
    await expect(a, {"type": "start"}, "seats_empty", table.pk)
    await expect(a, {"type": "rematch"}, "wrong_status", table.pk)
    await expect(a, {"type": "unbot", "seat": 1}, "bad_message", table.pk)
    await expect(b, {"type": "move", "move": {"play": "AC"}, "version": 0}, "not_seated", table.pk)
    await expect(a, {"type": "move", "move": {"play": "AC"}, "version": 0}, "game_not_running", table.pk)
    await a.send({"type": "bot", "seat": 2, "level": "random"})
    await a.until(lambda m: m["type"] == "state" and m["table"]["seats"][2]["kind"] == "bot")
    await expect(b, {"type": "unbot", "seat": 2}, "not_host", table.pk)
    await b.send({"type": "sit", "seat": 1})
    await b.until(lambda m: m["type"] == "state" and m["you"]["seat"] == 1)
    await a.send({"type": "start"})
    await a.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
    await a.quiet()  # the bot's turn, if it leads, is over: the table holds still for the checks
    await expect(a, {"type": "start"}, "wrong_status", table.pk)
    await expect(b, {"type": "stand"}, "wrong_status", table.pk)
    await expect(a, {"type": "unbot", "seat": 2}, "wrong_status", table.pk)
    await expect(a, {"type": "rematch"}, "wrong_status", table.pk)
    await expect(b, {"type": "rematch"}, "not_host", table.pk)


async def test_move_errors_in_order() -> None:
    table, people = await database_sync_to_async(playing_table)()
    actor, other, state = await turn_clients(table, people)
    version = state["version"]
    game = get_game("agram")
    hand = state["view"]["hand"]
    illegal = next(
        ({"play": c} for c in hand if {"play": c} not in state["legal_moves"]),
        {"play": "KD"},  # no king in Agram's deck
    )
    legal = state["legal_moves"][0]
    # Not your turn beats a stale version and an illegal move.
    await expect(other, {"type": "move", "move": illegal, "version": version - 1}, "not_your_turn", table.pk)
    # A stale version beats an illegal move.
    await expect(actor, {"type": "move", "move": illegal, "version": version - 1}, "stale_version", table.pk)
    await expect(actor, {"type": "move", "move": legal, "version": version + 1}, "stale_version", table.pk)
    await expect(
        actor, {"type": "move", "move": illegal, "version": version, "id": "m1"}, "illegal_move", table.pk
    )
    await expect(
        actor, {"type": "move", "move": {"play": "QS", "x": 1}, "version": version}, "illegal_move", table.pk
    )
    await expect(actor, {"type": "move", "move": {}, "version": version}, "illegal_move", table.pk)
    assert game.info.id == "agram"
    await actor.send({"type": "move", "move": legal, "version": version})
    after = await actor.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
    assert after["view"]["last"] == {"seat": state["you"]["seat"], "move": legal}


async def test_no_move_after_the_game_ended() -> None:
    table, people = await database_sync_to_async(playing_table)(bot=True)
    ann = await Client(table.pk, people[0][1]).connect()
    while ann.state["table"]["status"] != "finished":
        if ann.state["legal_moves"]:
            await ann.send(
                {"type": "move", "move": ann.state["legal_moves"][-1], "version": ann.state["version"]}
            )
        await ann.next_state()
    final = ann.state
    await expect(
        ann,
        {"type": "move", "move": {"play": "AC"}, "version": final["version"]},
        "game_not_running",
        table.pk,
    )
    assert final["to_act"] == [] and final["legal_moves"] == [] and final["view"]["result"]["winners"]


async def test_an_unknown_table_and_a_foreign_origin_are_refused() -> None:
    ghost = Client("no-such-table")
    connected, _ = await ghost.comm.connect(timeout=10)
    assert connected
    error = await ghost.receive()
    assert error["type"] == "error" and error["code"] == "not_found"
    assert (await ghost.comm.receive_output(timeout=5))["type"] == "websocket.close"
    table, people = await database_sync_to_async(playing_table)()
    foreign = Client(table.pk, people[0][1], origin=b"http://evil.example")
    connected, _ = await foreign.comm.connect(timeout=10)
    assert not connected


def logged_in_cookie() -> str:
    """A session cookie of a logged-in Django user (no guest name given)."""
    from django.contrib.auth.models import User
    from django.test import Client as HttpClient

    client = HttpClient()
    client.force_login(User.objects.create_user("dora", password="pw-123456789"))
    return f"sessionid={client.cookies['sessionid'].value}"


async def test_a_logged_in_user_sits_and_chats_over_the_websocket() -> None:
    cookie = await database_sync_to_async(logged_in_cookie)()
    ann, _ = await new_player("Ann")
    table = await database_sync_to_async(seating.create_table)(ann, "agram", 2, {})
    dora = await Client(table.pk, cookie).connect()
    await dora.send({"type": "sit", "seat": 1})
    state = await dora.until(lambda m: m["type"] == "state" and m["you"]["seat"] == 1)
    assert state["table"]["seats"][1]["name"] == "dora" and state["table"]["seats"][1]["connected"]
    await dora.send({"type": "chat", "text": "hi"})
    assert (await dora.until(lambda m: m["type"] == "chat"))["name"] == "dora"


async def until_chat_lines(client: Client, texts: set[str]) -> None:
    """Receive until every line of ``texts`` has been posted, in any order."""
    waiting = set(texts)
    while waiting:
        waiting.discard((await client.until(lambda m: m["type"] == "chat"))["text"])


async def test_a_players_tabs_share_one_chat_allowance(settings) -> None:
    chat_allowance(settings, 2)
    table, people = await database_sync_to_async(playing_table)()
    first = await Client(table.pk, people[0][1]).connect()
    second = await Client(table.pk, people[0][1]).connect()  # the same player, another tab
    other = await Client(table.pk, people[1][1]).connect()
    await first.send({"type": "chat", "text": "one"})
    await second.send({"type": "chat", "text": "two"})
    # Two tabs' lines are handled concurrently: both must be posted before the third is tried.
    await until_chat_lines(other, {"one", "two"})
    await expect(second, {"type": "chat", "text": "three"}, "rate_limited", table.pk)
    await expect(first, {"type": "chat", "text": "four"}, "rate_limited", table.pk)
    # Another player's allowance is their own.
    await other.send({"type": "chat", "text": "mine"})
    assert (await first.until(lambda m: m["type"] == "chat" and m["text"] == "mine"))["name"] != "Ann"


async def test_refused_chat_lines_use_no_chat_allowance(settings) -> None:
    chat_allowance(settings, 1)
    table, people = await database_sync_to_async(playing_table)()
    a = await Client(table.pk, people[0][1]).connect()
    b = await Client(table.pk, people[1][1]).connect()
    for bad in ["", "   ", "x" * 501, 7]:
        await expect(a, {"type": "chat", "text": bad}, "bad_message", table.pk)
    await a.send({"type": "chat", "text": "still allowed"})
    assert (await b.until(lambda m: m["type"] == "chat"))["text"] == "still allowed"
    await expect(a, {"type": "chat", "text": "now spent"}, "rate_limited", table.pk)
    # Over the allowance, rate_limited comes before bad_message (the protocol's order).
    await expect(a, {"type": "chat", "text": ""}, "rate_limited", table.pk)
