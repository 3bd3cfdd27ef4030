"""The leaderboards (page and JSON), the lobby's links, a player's rating for their page, the admin."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cardtable.ratings.models import RatedMatch, Rating
from cardtable.ratings.rating import bot_rating, ordinal
from cardtable.ratings.summary import rating_for
from games import GAMES
from games.bots import LEVELS
from tests.ratings.helpers import guest, member, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> dict[str, Any]:
    """Ann beat Bob at Hearts twice (a guest and a bot at the table)."""
    ann, bob, gus = member("Ann"), member("Bob"), guest("Gus")
    record("hearts", [ann, bob, gus, "easy"], [10, 90, 50, 40], minute=0)
    record("hearts", [ann, bob, "hard"], [20, 80, 40], minute=1)
    return {"ann": ann, "bob": bob, "gus": gus}


def test_the_leaderboard_page_lists_players_and_the_bots(client: Client, played: dict) -> None:
    page = client.get("/ratings/hearts/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Hearts leaderboard" in html
    rows = re.findall(r'<tr class="(player|bot)-row" data-(?:player|level)="([^"]+)"', html)
    players = [int(key) for kind, key in rows if kind == "player"]
    assert players == [played["ann"].pk, played["bob"].pk]
    assert [key for kind, key in rows if kind == "bot"] == sorted(LEVELS, key=lambda lv: -bot_rating(lv)[0])
    assert "Gus" not in html  # a guest is never on it
    ann = Rating.objects.get(player=played["ann"])
    assert f'<td class="num">{round(ann.ordinal, 1)}</td>' in html


def test_the_leaderboard_as_json(client: Client, played: dict) -> None:
    body = client.get("/api/ratings/hearts/").json()
    assert body["game"] == "hearts" and body["name"] == "Hearts"
    rows = body["ratings"]
    exact = [r["mu"] - 3 * r["sigma"] for r in rows]
    assert exact == sorted(exact, reverse=True)
    people = [r for r in rows if r["kind"] == "player"]
    assert [(r["place"], r["player"], r["name"], r["games"]) for r in people] == [
        (1, played["ann"].pk, "Ann", 2),
        (2, played["bob"].pk, "Bob", 2),
    ]
    bots = {r["level"]: r for r in rows if r["kind"] == "bot"}
    assert set(bots) == set(LEVELS)
    assert bots["hard"]["rating"] == round(ordinal(*bot_rating("hard")), 1)
    assert bots["hard"]["games"] is None and bots["hard"]["place"] is None
    assert set(rows[0]) == {"kind", "place", "player", "level", "name", "rating", "mu", "sigma", "games"}


def test_an_empty_leaderboard_still_has_its_bots(client: Client) -> None:
    page = client.get("/ratings/cribbage/").content.decode()
    assert 'id="no-ratings"' in page and page.count('class="bot-row"') == len(LEVELS)
    rows = client.get("/api/ratings/cribbage/").json()["ratings"]
    assert [r["kind"] for r in rows] == ["bot"] * len(LEVELS)


def test_an_unknown_game_is_not_found(client: Client) -> None:
    assert client.get("/ratings/chess/").status_code == 404
    answer = client.get("/api/ratings/chess/")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    assert client.post("/api/ratings/hearts/").status_code == 405


def test_a_player_who_is_no_longer_registered_leaves_the_board(client: Client, played: dict) -> None:
    User.objects.filter(player=played["bob"]).delete()  # the player stays, their games too
    names = [r["name"] for r in client.get("/api/ratings/hearts/").json()["ratings"] if r["kind"] == "player"]
    assert names == ["Ann"]
    assert rating_for(played["bob"].pk, "hearts") is None


def test_the_index_and_the_lobby_link_to_every_leaderboard(client: Client, played: dict) -> None:
    index = client.get("/ratings/").content.decode()
    for game_id in GAMES:
        assert f'href="/ratings/{game_id}/"' in index
    assert "2 rated players" in index
    lobby = client.get("/").content.decode()
    assert 'href="/ratings/"' in lobby and 'href="/ratings/hearts/"' in lobby


def test_rating_for_the_players_page(played: dict) -> None:
    ann = Rating.objects.get(player=played["ann"])
    assert rating_for(played["ann"].pk, "hearts") == {
        "game": "hearts",
        "rating": round(ann.ordinal, 1),
        "mu": ann.mu,
        "sigma": ann.sigma,
        "games": 2,
        "place": 1,
        "players": 2,
    }
    assert rating_for(played["bob"].pk, "hearts")["place"] == 2  # type: ignore[index]
    assert rating_for(played["ann"].pk, "cribbage") is None
    assert rating_for(played["gus"].pk, "hearts") is None


def test_the_admin_shows_ratings_read_only(played: dict) -> None:
    staff = Client()
    staff.force_login(User.objects.create_user("staff", password="pw", is_staff=True, is_superuser=True))
    listing = staff.get("/admin/ratings/rating/")
    assert listing.status_code == 200 and "Ann" in listing.content.decode()
    assert staff.get("/admin/ratings/ratedmatch/").status_code == 200
    rated = RatedMatch.objects.first()
    shown = staff.get(f"/admin/ratings/ratedmatch/{rated.pk}/change/")  # type: ignore[union-attr]
    assert shown.status_code == 200 and "Bob" in shown.content.decode()
    assert staff.get("/admin/ratings/rating/add/").status_code == 403
    ann = Rating.objects.get(player=played["ann"])
    change = staff.post(f"/admin/ratings/rating/{ann.pk}/change/", {"mu": "99", "sigma": "1", "games": "9"})
    assert change.status_code == 403
    assert staff.post(f"/admin/ratings/rating/{ann.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Rating.objects.get(pk=ann.pk).mu == ann.mu
