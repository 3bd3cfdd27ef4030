"""Accounts: register with the validators, names held, login and logout, a guest claimed with their games."""

from __future__ import annotations

import random
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client as HttpClient

from cardtable.tables.authority import seating
from cardtable.tables.authority.moving import apply_move
from cardtable.tables.models import Match, MoveRecord, Player, Table
from cardtable.tables.players import accounts
from cardtable.tables.players.identity import SESSION_KEY, player_for
from games import get_game
from tests.server.helpers import short_options
from tests.support.http import post_json

pytestmark = pytest.mark.django_db

PASSWORD = "felt-and-paper-42"


def guest(name: str) -> tuple[HttpClient, Player]:
    """A browser that chose the guest name ``name`` through the API."""
    client = HttpClient(enforce_csrf_checks=True)
    made = post_json(client, "/api/session/", {"name": name}).json()["player"]
    return client, Player.objects.get(pk=made["id"])


def form_post(client: HttpClient, path: str, data: dict) -> object:
    """POST a page's form as a browser does: with the CSRF token of the page's cookie."""
    client.get(path)
    token = client.cookies["csrftoken"].value
    return client.post(path, {**data, "csrfmiddlewaretoken": token})


def register(client: HttpClient, name: str, password: str = PASSWORD) -> object:
    """Submit the registration form."""
    return form_post(
        client, "/accounts/register/", {"name": name, "password1": password, "password2": password}
    )


def play_out(table_id: str, seed: int = 1) -> Match:
    """Play the table's game to its end with random legal moves; return the finished match."""
    rng = random.Random(seed)
    while True:
        table = Table.objects.get(pk=table_id)
        if table.status == Table.FINISHED:
            return table.matches.order_by("-number").first()
        game = get_game(table.game)
        state = game.from_json(table.state)
        seat = game.to_act(state)[0]
        apply_move(
            table_id, game.random_move(state, seat, rng), table.version, seat=seat, by=MoveRecord.ADMIN
        )


def finished_game(player: Player, game_id: str = "agram") -> Match:
    """A finished game of ``game_id`` with ``player`` at seat 0 and bots elsewhere."""
    info = get_game(game_id).info
    table = seating.create_table(player, game_id, info.min_players, short_options(game_id))
    for index in range(1, info.min_players):
        seating.add_bot(table.pk, player, index, "random")
    seating.start(table.pk, player)
    return play_out(table.pk)


def test_registration_checks_the_password_with_the_validators() -> None:
    client = HttpClient(enforce_csrf_checks=True)
    for password, words in [
        ("short1", "too short"),
        ("password123", "too common"),
        ("83920174635", "entirely numeric"),
        ("zoe-the-player", "too similar"),
    ]:
        response = register(client, "Zoe the player", password)
        assert response.status_code == 200 and words in response.content.decode(), password
    mismatch = form_post(
        client, "/accounts/register/", {"name": "Zoe", "password1": PASSWORD, "password2": PASSWORD + "x"}
    )
    assert "didn\u2019t match" in mismatch.content.decode()
    assert not User.objects.exists() and not Player.objects.exists()
    response = register(client, "Zoe")
    assert response.status_code == 302
    user = User.objects.get(username="Zoe")
    assert user.check_password(PASSWORD) and user.player.name == "Zoe"
    assert response["Location"] == f"/players/{user.player.pk}/"
    assert client.get("/api/session/").json()["player"] == {"id": user.player.pk, "name": "Zoe"}


def test_a_form_without_its_csrf_token_is_refused() -> None:
    client = HttpClient(enforce_csrf_checks=True)
    client.get("/accounts/register/")
    response = client.post(
        "/accounts/register/", {"name": "Zoe", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 403 and not User.objects.exists()


def test_names_that_look_like_anothers_are_refused_and_nothing_changes() -> None:
    assert register(HttpClient(), "Ann").status_code == 302
    _, bob = guest("Bob")
    for name, reason in [
        ("ann", "registered player"),  # case
        ("\uff21\uff4e\uff4e", "registered player"),  # fullwidth letters
        ("\u0410nn", "may not mix"),  # a Cyrillic A
        ("bob", "another player"),  # a guest's name, not this browser's
        ("Bot 2", "bots or staff"),
        ("Former player 7", "bots or staff"),  # a deleted account's name
        ("", "required"),
    ]:
        client = HttpClient()
        response = register(client, name)
        assert response.status_code == 200 and reason in response.content.decode(), name
    assert list(User.objects.values_list("username", flat=True)) == ["Ann"]
    assert Player.objects.filter(user__isnull=False).count() == 1
    bob.refresh_from_db()
    assert bob.user is None and bob.name == "Bob"
    # A registered name is held against guests too.
    client = HttpClient(enforce_csrf_checks=True)
    response = post_json(client, "/api/session/", {"name": "ANN"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_name"
    assert not Player.objects.filter(name="ANN").exists()


def test_a_guest_registers_and_keeps_their_games() -> None:
    client, ann = guest("Ann")
    match = finished_game(ann)
    response = register(client, "Ann")
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.user.username == "Ann" and Player.objects.count() == 1
    assert [m for m, _ in accounts.games_of(ann)] == [match]
    page = client.get(response["Location"])
    assert "Your games as Ann are now your account&#x27;s." in page.content.decode()
    assert f"/replay/{match.table_id}/{match.number}/" in page.content.decode()


def test_a_guest_may_register_under_another_free_name_and_keeps_their_games() -> None:
    client, ann = guest("Ann")
    finished_game(ann)
    assert register(client, "Annabel").status_code == 302
    ann.refresh_from_db()
    assert ann.name == "Annabel" and ann.user.username == "Annabel"
    assert next(accounts.games_of(ann))[0].seats[0]["player"] == ann.pk


def test_claiming_a_name_another_player_holds_changes_nothing() -> None:
    client, _ = guest("Cat")
    _, dan = guest("Dan")
    response = register(client, "Dan")
    assert (
        response.status_code == 200
        and "another player already plays under that name" in response.content.decode()
    )
    assert not User.objects.exists()
    dan.refresh_from_db()
    assert dan.name == "Dan" and dan.user is None
    with pytest.raises(accounts.NameTaken):
        accounts.claim(dan, User.objects.create_user("x1"), "Cat")


def test_login_and_logout() -> None:
    User.objects.create_user("Eve", password=PASSWORD)
    client = HttpClient(enforce_csrf_checks=True)
    wrong = form_post(client, "/accounts/login/", {"username": "Eve", "password": "nope"})
    assert wrong.status_code == 200 and "correct username and password" in wrong.content.decode()
    assert client.get("/api/session/").json()["player"] is None
    right = form_post(client, "/accounts/login/", {"username": "Eve", "password": PASSWORD})
    eve = Player.objects.get(user__username="Eve")
    assert right.status_code == 302 and right["Location"] == f"/players/{eve.pk}/"
    assert client.get("/api/session/").json()["player"]["name"] == "Eve"
    assert client.get("/accounts/logout/").status_code == 405  # Django's logout is POST only
    out = client.post("/accounts/logout/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    assert out.status_code == 302 and client.get("/api/session/").json()["player"] is None


def test_a_guest_logging_in_to_an_account_without_games_brings_theirs() -> None:
    User.objects.create_user("Fay", password=PASSWORD)
    client, fay_guest = guest("Fay G")
    match = finished_game(fay_guest)
    response = form_post(client, "/accounts/login/", {"username": "Fay", "password": PASSWORD})
    assert response["Location"] == f"/players/{fay_guest.pk}/"
    assert client.get(response["Location"]).status_code == 200
    fay_guest.refresh_from_db()
    assert fay_guest.user.username == "Fay" and fay_guest.name == "Fay"
    assert [m for m, _ in accounts.games_of(fay_guest)] == [match]


def test_an_account_with_games_keeps_them_and_the_guest_keeps_its_own() -> None:
    user = User.objects.create_user("Gus", password=PASSWORD)
    gus = Player.objects.create(user=user, name="Gus", shape="gus")
    finished_game(gus)
    client, visitor = guest("Guest G")
    finished_game(visitor)
    response = form_post(client, "/accounts/login/", {"username": "Gus", "password": PASSWORD})
    assert response.status_code == 302
    visitor.refresh_from_db()
    assert visitor.user is None and len(list(accounts.games_of(visitor))) == 1
    assert len(list(accounts.games_of(gus))) == 1
    assert "stay with that guest" in client.get(response["Location"]).content.decode()


def test_changing_the_password_uses_the_validators() -> None:
    client = HttpClient(enforce_csrf_checks=True)
    register(client, "Hal")
    path = "/accounts/password/"
    weak = form_post(client, path, {"old_password": PASSWORD, "new_password1": "123", "new_password2": "123"})
    assert weak.status_code == 200 and "too short" in weak.content.decode()
    new = "quiet-river-stone-7"
    done = form_post(client, path, {"old_password": PASSWORD, "new_password1": new, "new_password2": new})
    assert done.status_code == 302 and User.objects.get(username="Hal").check_password(new)
    assert client.get("/api/session/").json()["player"]["name"] == "Hal"  # still logged in


def test_an_account_made_in_the_admin_changes_its_password_too() -> None:
    client = HttpClient()
    client.force_login(User.objects.create_user("Ned", password=PASSWORD))  # no player yet
    page = client.get("/accounts/password/")
    ned = Player.objects.get(user__username="Ned")
    assert page.status_code == 200 and f'href="/players/{ned.pk}/"' in page.content.decode()
    new = "quiet-river-stone-7"
    data = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    done = client.get(form_post(client, "/accounts/password/", data)["Location"])
    assert done.status_code == 200 and f'href="/players/{ned.pk}/"' in done.content.decode()


def test_the_account_pages_need_a_login() -> None:
    for path in ("/accounts/password/", "/accounts/delete/"):
        response = HttpClient().get(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), path


def test_login_attempts_are_limited_per_name(settings: object) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": {"name": (3, 600)}}
    User.objects.create_user("Ivy", password=PASSWORD)
    client = HttpClient()
    for _ in range(3):
        assert form_post(client, "/accounts/login/", {"username": "Ivy", "password": "x"}).status_code == 200
    with mock.patch("django.contrib.auth.forms.authenticate", side_effect=AssertionError("tried")):
        refused = form_post(client, "/accounts/login/", {"username": "Ivy", "password": PASSWORD})
    assert refused.status_code == 429 and "too many login attempts" in refused.content.decode()
    assert client.get("/api/session/").json()["player"] is None
    # Another name is counted apart.
    User.objects.create_user("Jo", password=PASSWORD)
    assert form_post(client, "/accounts/login/", {"username": "Jo", "password": PASSWORD}).status_code == 302


def test_registrations_are_limited_per_address(settings: object) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "register": {"address": (2, 600)}}
    assert register(HttpClient(), "Kim").status_code == 302
    assert register(HttpClient(), "Kim").status_code == 200  # taken: still an attempt
    refused = register(HttpClient(), "Lou")
    assert refused.status_code == 429 and "too many registrations" in refused.content.decode()
    assert not User.objects.filter(username="Lou").exists()


def test_a_claimed_player_is_no_guest_sessions_any_more() -> None:
    client, mo = guest("Mo")
    assert player_for({SESSION_KEY: mo.pk}, None) == mo
    register(client, "Mo")
    assert player_for({SESSION_KEY: mo.pk}, None) is None  # a session that kept the guest's id
    assert player_for(client.session, User.objects.get(username="Mo")) == mo


def test_the_admin_lists_accounts_with_their_players() -> None:
    client, kai = guest("Kai")
    register(client, "Kai")
    staff = HttpClient()
    staff.force_login(User.objects.create_superuser("boss", password=PASSWORD))
    listing = staff.get("/admin/auth/user/").content.decode()
    assert "Kai" in listing and "boss" in listing
    user = User.objects.get(username="Kai")
    change = staff.get(f"/admin/auth/user/{user.pk}/change/")
    assert change.status_code == 200 and f'href="/players/{kai.pk}/"' in change.content.decode()


def test_the_lobby_links_to_the_account_pages() -> None:
    anonymous = HttpClient().get("/").content.decode()
    assert 'href="/accounts/register/"' in anonymous and 'href="/accounts/login/"' in anonymous
    assert 'id="my-page"' not in anonymous
    client, lea = guest("Lea")
    as_guest = client.get("/").content.decode()
    assert f'href="/players/{lea.pk}/"' in as_guest and 'href="/accounts/register/"' in as_guest
    register(client, "Lea")
    logged_in = client.get("/").content.decode()
    assert "Logged in as <strong>Lea</strong>" in logged_in and f'href="/players/{lea.pk}/"' in logged_in
    assert 'action="/accounts/logout/"' in logged_in and "csrfmiddlewaretoken" in logged_in
    assert 'href="/accounts/register/"' not in logged_in


def test_the_password_asked_again_is_limited_per_player(settings: object) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "password": {"player": (2, 600)}}
    client = HttpClient()
    register(client, "Max")
    for _ in range(2):
        assert form_post(client, "/accounts/delete/", {"password": "wrong"}).status_code == 400
    refused = form_post(client, "/accounts/delete/", {"password": PASSWORD})
    assert refused.status_code == 429 and "too many password attempts" in refused.content.decode()
    assert User.objects.filter(username="Max").exists()
    new = "another-good-pass-5"
    data = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    assert form_post(client, "/accounts/password/", data).status_code == 429
    assert User.objects.get(username="Max").check_password(PASSWORD)
