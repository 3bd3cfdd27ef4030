"""Replays: every state of a finished game rebuilt from its seed and log; none while it runs."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client

from cardtable.dashboard.replay import replay_json
from cardtable.tables.authority import staff
from cardtable.tables.models import Match, MoveRecord
from cardtable.tables.replay import ReplayError, walk
from games import GAMES, get_game
from tests.dashboard.conftest import new_table, play
from tests.server.helpers import cards_in

pytestmark = pytest.mark.django_db


def url(match: Match) -> str:
    return f"/api/tables/{match.table_id}/games/{match.number}/replay/"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_replay_rebuilds_every_stored_state(game_id: str) -> None:
    table = new_table(game_id)
    stored = play(table.pk, random.Random(7))
    match = Match.objects.get(table=table)
    game = get_game(game_id)
    seen = {}
    for record, state, _new_deal in walk(match):
        version = record.version if record else match.version
        seen[version] = json.loads(json.dumps(game.to_json(state)))
    assert seen == {v: s for v, s in stored.items()}
    assert len(seen) == match.moves.count() + 1 > 1


@pytest.mark.parametrize("game_id", ["hearts", "cribbage"])
def test_replay_json_shows_every_hand_and_each_deal(game_id: str) -> None:
    table = new_table(game_id)
    play(table.pk, random.Random(3))
    match = Match.objects.get(table=table)
    data = replay_json(match)
    game = get_game(game_id)
    records = list(match.moves.order_by("seq"))
    assert len(data["frames"]) == len(records) + 1
    dealt = [0] + [i + 1 for i, r in enumerate(records) if any("deal" in e for e in r.events)]
    assert [d["step"] for d in data["deals"]] == dealt
    assert [d["deal"] for d in data["deals"]] == list(range(1, len(dealt) + 1))
    for frame, (record, state, _) in zip(data["frames"], walk(match), strict=True):
        assert frame["view"] == json.loads(json.dumps(game.view(state, None)))
        assert frame["hands"] == [game.view(state, s)["hand"] for s in range(match.players)]
        assert frame["seat"] == (record.seat if record else None)
        assert frame["move"] == (record.move if record else None)
    # The first frame holds every dealt card face up, as the first deal recorded.
    assert data["frames"][0]["hands"] == match.first_deal["deal"]["hands"]
    assert data["result"] == match.result and data["ended"] is False


def test_replay_page_and_json_over_http(client: Client) -> None:
    table = new_table("ninety_eight")
    play(table.pk, random.Random(1))
    match = Match.objects.get(table=table)
    response = client.get(url(match))
    assert response.status_code == 200
    assert len(response.json()["frames"]) == match.moves.count() + 1
    page = client.get(f"/replay/{table.pk}/{match.number}/")
    assert page.status_code == 200
    assert url(match) in page.content.decode()
    assert b"<svg" in page.content  # the lead history, drawn on the server
    listing = client.get(f"/replay/{table.pk}/")
    assert f"/replay/{table.pk}/{match.number}/" in listing.content.decode()


def test_running_game_has_no_replay_for_anyone(client: Client, staff_client: Client) -> None:
    table = new_table("hearts", humans=2)
    play(table.pk, random.Random(2), moves=5)
    match = Match.objects.get(table=table)
    hands = {card for hand in match.first_deal["deal"]["hands"] for card in hand}
    for who in (client, staff_client):
        response = who.get(url(match))
        assert response.status_code == 403
        body = response.json()
        assert body["error"]["code"] == "game_in_progress"
        assert not cards_in(body) & hands
        page = who.get(f"/replay/{table.pk}/{match.number}/")
        assert page.status_code == 403
        assert b"still being played" in page.content
    listing = client.get(f"/replay/{table.pk}/").content.decode()
    assert f"/replay/{table.pk}/{match.number}/" not in listing
    with pytest.raises(ReplayError) as error:
        replay_json(match)
    assert error.value.code == "game_in_progress"


def test_game_ended_by_staff_can_be_replayed(client: Client) -> None:
    table = new_table("agram")
    play(table.pk, random.Random(4), moves=6)
    staff.end_table(table.pk)
    match = Match.objects.get(table=table)
    response = client.get(url(match))
    assert response.status_code == 200
    data = response.json()
    assert data["ended"] is True and data["result"] is None
    assert len(data["frames"]) == 7


def test_a_log_that_no_longer_replays_is_reported(client: Client) -> None:
    table = new_table("ninety_eight")
    play(table.pk, random.Random(5))
    match = Match.objects.get(table=table)
    first = match.moves.order_by("seq").first()
    MoveRecord.objects.filter(pk=first.pk).update(events=[{"deal": {"dealer": 9}}])
    response = client.get(url(match))
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "replay_failed"
    assert "move 1" in response.json()["error"]["message"]


def test_unknown_game_is_a_json_404(client: Client) -> None:
    response = client.get("/api/tables/nosuch/games/1/replay/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert client.get("/replay/nosuch/1/").status_code == 404
