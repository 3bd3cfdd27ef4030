"""A player's page (as the player, another player, staff), moons, deleting an account, the websocket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client as HttpClient

from cardtable.ratings.rating import rate_finished
from cardtable.ratings.summary import rating_for
from cardtable.reviews.models import Review
from cardtable.tables.authority import seating
from cardtable.tables.authority.chat import post_chat
from cardtable.tables.models import ChatMessage, Match, Player, Seat, Table
from cardtable.tables.players import accounts
from cardtable.tables.players.identity import SESSION_KEY, player_for
from games import get_game
from games.hearts.game import moons_in
from tests.server.conftest import Client
from tests.server.test_accounts import PASSWORD, finished_game, form_post, guest, register

pytestmark = pytest.mark.django_db


def registered(name: str) -> tuple[HttpClient, Player]:
    """A browser logged in to a new account ``name``, and its player."""
    client = HttpClient(enforce_csrf_checks=True)
    assert register(client, name).status_code == 302
    return client, Player.objects.get(user__username=name)


def test_a_registered_players_page_shows_their_games_to_anyone() -> None:
    client, ann = registered("Ann")
    match = finished_game(ann)
    running = seating.create_table(ann, "agram", 2, {})
    seating.add_bot(running.pk, ann, 1, "random")
    seating.start(running.pk, ann)  # not finished: not listed
    place = get_game("agram").info.ranks(match.result["scores"])[0] + 1
    shown = "<strong>Won</strong>" if 0 in match.result["winners"] else f"<strong>Place {place}</strong>"
    for visitor in (client, HttpClient(), guest("Bob")[0]):
        for path in (f"/players/{ann.pk}/", "/players/ann/"):
            response = visitor.get(path)
            assert response.status_code == 200, path
            html = response.content.decode()
            assert f"/replay/{match.table_id}/{match.number}/" in html
            assert html.count('class="game-row"') == 1
            assert shown in html
            points = match.result["scores"][0]
            assert f"{points} point{'' if points == 1 else 's'}" in html
            assert '<tr data-game="agram">' in html
    own = client.get(f"/players/{ann.pk}/").content.decode()
    assert "Delete account" in own and "Change password" in own
    assert "Delete account" not in HttpClient().get(f"/players/{ann.pk}/").content.decode()


def test_a_guests_page_is_theirs_and_staffs_only() -> None:
    client, cat = guest("Cat")
    match = finished_game(cat)
    seats = client.get(f"/api/tables/{match.table_id}/").json()["seats"]
    assert seats[0]["name"] == "Cat" and seats[0]["page"] is None  # no link to a guest's page
    assert client.get(f"/players/{cat.pk}/").status_code == 200
    assert HttpClient().get(f"/players/{cat.pk}/").status_code == 404
    assert guest("Dan")[0].get(f"/players/{cat.pk}/").status_code == 404
    assert registered("Eve")[0].get(f"/players/{cat.pk}/").status_code == 404
    assert HttpClient().get("/players/cat/").status_code == 404  # names find registered players only
    staff = HttpClient()
    staff.force_login(User.objects.create_user("staffer", is_staff=True))
    assert staff.get(f"/players/{cat.pk}/").status_code == 200
    assert HttpClient().get("/players/999999/").status_code == 404


def test_the_figures_count_games_wins_points_and_moons() -> None:
    _, fay = registered("Fay")
    matches = [finished_game(fay, "hearts") for _ in range(2)]
    for match in matches:
        assert match.moons is not None and len(match.moons) == match.players == 3
    # Moons are rare in random play: give the first game one for Fay, as Hearts would record it.
    Match.objects.filter(pk=matches[0].pk).update(moons=[1, 0, 0])
    html = HttpClient().get(f"/players/{fay.pk}/").content.decode()
    row = html[html.index('<tr data-game="hearts">') :]
    cells = [cell.split("</td>")[0] for cell in row.split("<td>")[1:6]]
    wins = sum(0 in m.result["winners"] for m in matches)
    average = sum(m.result["scores"][0] for m in matches) / 2
    assert cells[:4] == ["2", str(wins), f"{average:.1f}", str(1 + matches[1].moons[0])]
    assert cells[4] == "—"  # the review app's average mistake cost, filled in at merge


def test_hearts_counts_the_moons_of_its_deals() -> None:
    history = [{"moon": None}, {"moon": 2}, {"moon": 2}, {"moon": 0}]
    assert moons_in(history, 4) == [1, 0, 2, 0]
    assert moons_in([], 3) == [0, 0, 0]


def test_a_game_without_moons_records_none() -> None:
    _, gus = registered("Gus")
    assert finished_game(gus, "agram").moons is None


def test_deleting_an_account_keeps_its_games_under_a_former_players_name() -> None:
    client, hal = registered("Hal")
    match = finished_game(hal)
    post_chat(match.table_id, hal, "good game")
    seating.leave(match.table_id, hal)  # off the finished table
    wrong = form_post(client, "/accounts/delete/", {"password": "not mine"})
    assert wrong.status_code == 400 and "that is not your password" in wrong.content.decode()
    assert User.objects.filter(username="Hal").exists()
    response = form_post(client, "/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 302
    assert not User.objects.filter(username="Hal").exists()
    hal.refresh_from_db()
    former = f"Former player {hal.pk}"
    assert hal.name == former and hal.user is None and hal.former
    match.refresh_from_db()
    assert match.seats[0]["name"] == former and match.seats[0]["player"] == hal.pk
    assert list(ChatMessage.objects.filter(player=hal).values_list("name", flat=True)) == [former]
    assert [m for m, _ in accounts.games_of(hal)] == [match]
    assert client.get("/api/session/").json()["player"] is None
    assert player_for({SESSION_KEY: hal.pk}, None) is None  # nobody can be this player again
    assert HttpClient().get(f"/players/{hal.pk}/").status_code == 404
    assert HttpClient().get("/players/hal/").status_code == 404
    # The name is free again.
    assert register(HttpClient(), "Hal").status_code == 302


def test_an_account_seated_at_an_open_table_is_not_deleted() -> None:
    client, ivy = registered("Ivy")
    table = seating.create_table(ivy, "agram", 2, {})
    response = form_post(client, "/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 400 and "leave it first" in response.content.decode()
    assert User.objects.filter(username="Ivy").exists()
    assert Seat.objects.get(table=table, index=0).player == ivy


@pytest.mark.django_db(transaction=True)
async def test_a_logged_in_user_sits_and_moves_over_the_websocket() -> None:
    def setup() -> tuple[str, str]:
        client, jo = registered("Jo")
        table = seating.create_table(jo, "agram", 2, {})
        seating.add_bot(table.pk, jo, 1, "random")
        seating.start(table.pk, jo)
        return table.pk, f"sessionid={client.cookies['sessionid'].value}"

    table_id, cookie = await database_sync_to_async(setup)()
    jo = await Client(table_id, cookie).connect()
    state = jo.state
    assert state["you"]["seat"] == 0 and state["table"]["seats"][0]["name"] == "Jo"
    jo_id = await database_sync_to_async(lambda: Player.objects.get(name="Jo").pk)()
    assert [seat["page"] for seat in state["table"]["seats"]] == [f"/players/{jo_id}/", None]
    if 0 not in state["to_act"]:
        state = await jo.until(lambda m: m["type"] == "state" and 0 in m["to_act"])
    version = state["version"]
    await jo.send({"type": "move", "move": state["legal_moves"][0], "version": version, "id": "m1"})
    moved = await jo.until(lambda m: m["type"] == "state" and m["version"] > version)
    assert moved["version"] > version
    table = await database_sync_to_async(Table.objects.get)(pk=table_id)
    human = await database_sync_to_async(
        lambda: table.matches.get().moves.filter(seat=0, by="human").count()
    )()
    assert human == 1


def test_the_figures_show_the_players_rating_in_each_game() -> None:
    _, hal = registered("Hal")
    match = finished_game(hal, "agram")
    html = HttpClient().get(f"/players/{hal.pk}/").content.decode()
    row = html[html.index('<tr data-game="agram">') :].split("</tr>")[0]
    assert row.count("—") == 3  # no moons in Agram, no review, not rated yet
    rate_finished(match.pk)
    rating = rating_for(hal.pk, "agram")
    assert rating is not None and rating["games"] == 1
    row = HttpClient().get(f"/players/{hal.pk}/").content.decode()
    row = row[row.index('<tr data-game="agram">') :].split("</tr>")[0]
    assert 'href="/ratings/agram/"' in row and f">{rating['rating']}</a>" in row


def test_the_figures_show_the_average_cost_of_the_reviewed_decisions() -> None:
    _, ida = registered("Ida")
    first, second = finished_game(ida, "agram"), finished_game(ida, "agram")
    done = {"player": ida, "game": "agram", "seat": 0, "status": Review.DONE}
    Review.objects.create(match=first, reviewed=3, total_cost=1.5, **done)
    Review.objects.create(match=second, reviewed=1, total_cost=0.5, **done)
    Review.objects.create(match=second, seat=1, player=ida, game="agram")  # queued: not counted
    html = HttpClient().get(f"/players/{ida.pk}/").content.decode()
    cells = html[html.index('<tr data-game="agram">') :].split("</tr>")[0].split("<td>")
    assert cells[5].split("</td>")[0] == "0.50"  # (1.5 + 0.5) / 4 decisions
    for match in (first, second):  # each game with a review made links to it
        assert f'href="/replay/{match.table_id}/{match.number}/#review">Review</a>' in html
