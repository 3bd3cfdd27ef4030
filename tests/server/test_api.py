"""The JSON HTTP API: identity, games, tables, and JSON errors everywhere under /api/."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client as HttpClient

from cardtable.tables.authority import presence, seating
from cardtable.tables.authority.state import table_summary
from cardtable.tables.models import Player, Table
from games import GAMES
from games.bots import LEVELS
from tests.server.conftest import make_player
from tests.server.helpers import cards_in
from tests.support.http import post_json

pytestmark = pytest.mark.django_db


def error_of(response: object) -> str:
    """The error code of a JSON error response."""
    body = response.json()
    assert body["error"]["message"]
    return body["error"]["code"]


def test_a_guest_chooses_a_name() -> None:
    client = HttpClient(enforce_csrf_checks=True)
    first = client.get("/api/session/")
    assert first.status_code == 200 and first.json()["player"] is None
    assert first.json()["csrf_token"] and "csrftoken" in first.cookies
    made = post_json(client, "/api/session/", {"name": "  Ann  "})
    assert made.status_code == 200
    player = made.json()["player"]
    assert player["name"] == "Ann" and Player.objects.get(pk=player["id"]).name == "Ann"
    assert client.get("/api/session/").json()["player"] == player
    renamed = post_json(client, "/api/session/", {"name": "Annie"}).json()["player"]
    assert renamed == {"id": player["id"], "name": "Annie"}


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "a\nb", "bell\x07", "lone\ud800", 7, None])
def test_bad_names_are_refused(name: object) -> None:
    client = HttpClient(enforce_csrf_checks=True)
    response = post_json(client, "/api/session/", {"name": name})
    assert response.status_code == 400 and error_of(response) == "bad_name"
    assert Player.objects.count() == 0


def test_becoming_a_guest_rotates_the_session_key() -> None:
    """Session fixation (docs/security.md G8): a key planted before the guest existed stops working."""
    client = HttpClient(enforce_csrf_checks=True)
    client.get("/api/session/")
    client.session.save()  # the key an attacker could have planted
    planted = client.session.session_key
    client.cookies["sessionid"] = planted
    player = post_json(client, "/api/session/", {"name": "Ann"}).json()["player"]
    assert client.cookies["sessionid"].value != planted
    assert client.get("/api/session/").json()["player"] == player
    attacker = HttpClient()
    attacker.cookies["sessionid"] = planted
    assert attacker.get("/api/session/").json()["player"] is None
    renamed = post_json(client, "/api/session/", {"name": "Annie"}).json()["player"]
    assert renamed["id"] == player["id"]


def test_a_post_without_the_csrf_header_gets_a_json_403() -> None:
    client = HttpClient(enforce_csrf_checks=True)
    client.get("/api/session/")
    response = client.post("/api/session/", json.dumps({"name": "Ann"}), content_type="application/json")
    assert response.status_code == 403 and error_of(response) == "csrf"
    assert Player.objects.count() == 0


def test_games_are_listed_with_their_options() -> None:
    games = HttpClient().get("/api/games/").json()
    assert [g["id"] for g in games] == list(GAMES)
    for game in games:
        assert set(game) == {
            "id",
            "name",
            "min_players",
            "max_players",
            "default_players",
            "options",
            "low_score_wins",
            "goal",
            "how_to_play",
            "glossary",
            "experimental",
            "tips",
            "bot_levels",
        }
        assert game["experimental"] is False
        keys = {"default", "choices", "help", "choice_help", "label", "choice_labels"}
        assert all(keys <= set(o) for o in game["options"].values())
        assert game == {**GAMES[game["id"]].info.to_json(), "bot_levels": list(LEVELS)}
    assert [g["id"] for g in games if g["low_score_wins"]] == ["hearts"]


def test_the_bot_levels_listed_are_the_levels_a_host_may_seat() -> None:
    listed = {g["id"]: g["bot_levels"] for g in HttpClient().get("/api/games/").json()}
    assert listed == {game_id: list(LEVELS) for game_id in GAMES}
    ann, _ = make_player("Ann")
    table = seating.create_table(ann, "hearts", 4, {}, seated=False)
    for seat, level in enumerate(listed["hearts"]):
        seating.add_bot(table.pk, ann, seat, level)
    seats = table_summary(Table.objects.get(pk=table.pk))["seats"]
    assert [(s["kind"], s["level"]) for s in seats] == [("bot", level) for level in LEVELS]


def test_creating_a_table_needs_a_player_and_valid_options() -> None:
    client = HttpClient(enforce_csrf_checks=True)
    response = post_json(client, "/api/tables/", {"game": "agram"})
    assert response.status_code == 403 and error_of(response) == "no_player"
    post_json(client, "/api/session/", {"name": "Ann"})
    for bad in [
        {"game": "chess"},
        {"game": "agram", "players": 9},
        {"game": "agram", "options": {"x": 1}},
        {"game": "agram", "options": {"target": 2}},
        {"game": "agram", "options": []},
    ]:
        response = post_json(client, "/api/tables/", bad)
        assert response.status_code == 400 and error_of(response) == "bad_options", bad
    assert Table.objects.count() == 0
    response = post_json(client, "/api/tables/", {"game": "agram"})
    assert response.status_code == 201
    table = response.json()
    assert table["url"] == f"/t/{table['id']}/" and table["ws"] == f"/ws/tables/{table['id']}/"
    assert isinstance(table["id"], str) and table["host"] == "Ann" and table["status"] == "waiting"
    assert table["players"] == GAMES["agram"].info.default_players
    assert table["options"]["target"] == GAMES["agram"].info.options["target"].default
    # The creator sits at seat 0 at once; the other seats wait for players or bots.
    assert [s["kind"] for s in table["seats"]] == ["human"] + ["empty"] * (table["players"] - 1)
    assert table["seats"][0]["name"] == "Ann"
    response = post_json(client, "/api/tables/", {"game": "agram", "players": 3, "options": {"target": 3}})
    assert response.json()["players"] == 3 and response.json()["options"]["target"] == 3


def test_tables_are_listed_and_summarised_without_hidden_cards() -> None:
    ann = Player.objects.create(name="Ann")
    waiting = seating.create_table(ann, "agram", 2, {})
    playing = seating.create_table(ann, "agram", 2, {})
    seating.sit(playing.pk, ann, 0)
    seating.add_bot(playing.pk, ann, 1, "random")
    seating.start(playing.pk, ann)
    nobody = seating.create_table(ann, "agram", 2, {})
    # The lobby lists tables someone is at: a live connection each (the third has none).
    for table in (waiting, playing):
        presence.join(f"chan-{table.pk}", table.pk, None)
    client = HttpClient()
    listed = client.get("/api/tables/").json()
    assert {t["id"] for t in listed} == {waiting.pk, playing.pk}
    assert client.get(f"/api/tables/{nobody.pk}/").status_code == 200
    summary = client.get(f"/api/tables/{playing.pk}/").json()
    assert summary["status"] == "playing" and summary["seats"][1]["kind"] == "bot"
    assert "view" not in summary and not cards_in(summary)
    assert client.get("/api/tables/nope/").status_code == 404
    assert error_of(client.get("/api/tables/nope/")) == "not_found"


def test_unknown_paths_and_methods_get_json_errors() -> None:
    client = HttpClient()
    response = client.get("/api/nothing/here/")
    assert response.status_code == 404 and error_of(response) == "not_found"
    response = client.delete("/api/games/")
    assert response.status_code == 405 and error_of(response) == "method_not_allowed"
    response = post_json(client, "/api/session/", "not an object")
    assert response.status_code == 400 and error_of(response) == "bad_request"
    token = client.get("/api/session/").json()["csrf_token"]
    response = client.post(
        "/api/session/", "{oops", content_type="application/json", headers={"X-CSRFToken": token}
    )
    assert response.status_code == 400 and error_of(response) == "bad_request"


def test_a_logged_in_user_is_a_player() -> None:
    user = User.objects.create_user("carol", password="pw-123456789")
    client = HttpClient(enforce_csrf_checks=True)
    client.force_login(user)
    player = client.get("/api/session/").json()["player"]
    assert player["name"] == "carol" and Player.objects.get(pk=player["id"]).user == user
    table = post_json(client, "/api/tables/", {"game": "agram"}).json()
    assert table["host"] == "carol"
