"""The "Your name" form works as a plain form too: a click before the page's script has
taken the form over (a slow phone, a busy server) still seats the person as a guest."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cardtable.tables.models import Player
from cardtable.tables.players import accounts

pytestmark = pytest.mark.django_db


def test_the_form_posts_to_the_server_and_returns_to_the_page_it_was_on() -> None:
    client = Client(enforce_csrf_checks=True)
    html = client.get("/t/abc123/").content.decode()
    assert 'method="post" action="/name/"' in html and 'name="next" value="/t/abc123/"' in html
    token = client.cookies["csrftoken"].value
    response = client.post("/name/", {"name": "  Ann ", "next": "/t/abc123/", "csrfmiddlewaretoken": token})
    assert (response.status_code, response["Location"]) == (302, "/t/abc123/")
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]
    page = client.get("/t/abc123/").content.decode()
    # The top bar names the guest before any script runs, and the form is hidden.
    assert '<span class="who" id="who">Ann</span>' in page
    assert 'id="name-form" method="post" action="/name/" hidden>' in page


def test_a_refused_name_changes_nothing_and_the_page_says_why(client: Client) -> None:
    User.objects.create_user("Bob", password="a long secret 1")
    bob = Player(user=User.objects.get())
    accounts.set_name(bob, "Bob")
    bob.save()
    response = client.post("/name/", {"name": "Bob", "next": "/"}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    html = response.content.decode()
    error = html.split('id="name-error">', 1)[1].split("</p>", 1)[0]
    assert error == "that name belongs to a registered player"
    assert Player.objects.count() == 1 and '<span class="who" id="who" hidden>' in html


def test_it_goes_back_only_to_a_page_of_this_site(client: Client) -> None:
    response = client.post("/name/", {"name": "Cy", "next": "https://evil.example/"})
    assert response["Location"] == "/"
    response = client.post("/name/", {"name": "Cy", "next": "//evil.example/"})
    assert response["Location"] == "/"


def test_only_a_post_names_anyone(client: Client) -> None:
    assert client.get("/name/?name=Dee").status_code == 405
    assert not Player.objects.exists()
