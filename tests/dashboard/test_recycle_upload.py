"""Uploading a RECYCLE game: optional title and description, clear refusals, nothing half-stored,
and editing a stored game's title and description."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client

from cardtable.dashboard import designjobs, recycle_games
from cardtable.dashboard.models import DesignStats, StoredGame
from games import get_game
from games.engine import GameError
from games.recycle import library, loads
from games.recycle.reading.listing import post_title
from tests.dashboard.conftest import run_checks
from tests.games.recycle.helpers import seed_post

pytestmark = pytest.mark.django_db
URL = "/staff/games/"
WHIST = library()["whist"].read_bytes()
GO_FISH = library()["go_fish"].read_bytes()
# Random players pass forever: the stage's end never comes, so the interpreter's move bound stops it.
PASSING = """;; Forever: nobody can end it.
(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS, SPADES)))))
 (stage player (end (== 1 0))
  (choice ((turn pass) ((== 1 1) (turn pass)))))
 (scoring max 0))
"""


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    recycle_games._CACHE.clear()
    monkeypatch.setattr(designjobs, "ensure_worker", lambda: None)  # no background process in tests


def upload(client: Client, name: str, content: bytes, filename: str = "game.rcy", **fields: str):
    """Post the file; then run the playability check its upload queued, as the job would."""
    response = client.post(
        URL, {"name": name, "text": "", "file": SimpleUploadedFile(filename, content), **fields}
    )
    run_checks()
    return response


def nothing_stored() -> bool:
    return not StoredGame.objects.exists() and not DesignStats.objects.exists()


def test_a_file_alone_is_enough_title_and_rules_come_from_it(staff_client: Client) -> None:
    response = upload(staff_client, "", WHIST, "whist.rcy")
    assert response.status_code == 202, response.content.decode()[:800]
    row = StoredGame.objects.get()
    assert (row.game_id, row.name, row.description, row.status) == ("recycle_whist", "Whist", "", "done"), (
        row.message
    )
    listed = {g["id"]: g for g in Client().get("/api/games/").json()}["recycle_whist"]
    assert "teams" in listed["goal"] and "highest Score" in listed["goal"]
    assert listed["how_to_play"][0].startswith("About this game: Whist (American whist")
    assert any(p.startswith("Stage 1.1.1") for p in listed["how_to_play"])
    lobby = Client().get("/").content.decode()
    assert f'<span class="game-item-goal">{listed["goal"]}</span>' in lobby
    assert {
        "term": "Tricks won",
        "meaning": "A place for cards (each team's, face up, seen by everyone).",
    } in (listed["glossary"])


def test_a_title_and_description_given_are_used(staff_client: Client) -> None:
    response = upload(staff_client, "Fish Pond", GO_FISH, description="Ask for ranks; make books of four.")
    assert response.status_code == 202
    info = get_game("recycle_fish_pond").info
    assert info.name == "Fish Pond"
    assert info.how_to_play[0] == "About this game: Ask for ranks; make books of four."
    assert StoredGame.objects.get().description == "Ask for ranks; make books of four."


def test_an_unreadable_file_is_refused_with_line_column_and_message(staff_client: Client) -> None:
    broken = WHIST.replace(b"(shuffle (game iloc STOCK))", b"(shuffle (game iloc STOCK)")
    response = upload(staff_client, "", broken, "whist.rcy", description="kept")
    page = response.content.decode()
    assert response.status_code == 400
    error = re.search(r'id="add-error" role="alert"><p>line (\d+), column (\d+): ([^<]+)</p>', page)
    assert error, page[page.index("Add a game") :][:1500]
    assert int(error.group(1)) > 10 and "expected" in error.group(3)
    assert "kept</textarea>" in page  # the description stays in the form to send again
    assert nothing_stored()


def test_a_file_that_is_not_text_is_refused(staff_client: Client) -> None:
    response = upload(staff_client, "Binary", b"\xff\xfe\x00(game")
    assert response.status_code == 400 and "not UTF-8 text" in response.content.decode()
    assert nothing_stored()


def test_a_game_that_stalls_in_random_play_is_refused_with_the_reason(staff_client: Client) -> None:
    response = upload(staff_client, "", PASSING.encode(), "forever.rcy")
    assert response.status_code == 202  # stored at once; the check refuses it later
    row = StoredGame.objects.get()
    reason = "random game 1 of 100 failed: line 5, column 2: the game did not end within 5000 moves"
    assert row.status == StoredGame.FAILED and reason in row.message
    assert reason in staff_client.get(URL).content.decode()
    # Offered nowhere: not in the lobby, no table can open it, no statistics are queued for it.
    assert "recycle_forever" not in {g["id"] for g in Client().get("/api/games/").json()}
    with pytest.raises(GameError, match="there is no game"):
        get_game("recycle_forever")
    assert not DesignStats.objects.exists()
    # A game that plays, sent under the same title, replaces the refused one.
    assert upload(staff_client, "", library()["agram"].read_bytes(), "forever.rcy").status_code == 202
    assert StoredGame.objects.get().status == StoredGame.DONE and get_game("recycle_forever")


def test_a_game_too_slow_to_end_is_refused_as_stalled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recycle_games, "GAME_SECONDS", 0.0)
    with pytest.raises(GameError, match=r"random game 1 of 100 stalled: it had not ended after 0 seconds"):
        recycle_games.check(get_game_from(WHIST))


def test_the_check_stops_early_when_slow_but_every_game_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recycle_games, "CHECK_SECONDS", 0.0)
    checked = recycle_games.check(get_game_from(WHIST))
    assert checked["games"] == recycle_games.MIN_CHECK_GAMES


def get_game_from(content: bytes):
    return loads(content.decode(), "Whist")


def test_a_check_whose_last_step_fails_leaves_the_game_unoffered(
    staff_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(game_id: str, players: int) -> None:
        raise RuntimeError("queue down")

    monkeypatch.setattr(designjobs, "submit", broken)
    with pytest.raises(RuntimeError):
        upload(staff_client, "", WHIST, "whist.rcy")
    # Marked done and the statistics queued together, or neither (the supervisor then fails the row).
    assert StoredGame.objects.get().status == StoredGame.RUNNING and not DesignStats.objects.exists()
    assert "recycle_whist" not in {g["id"] for g in Client().get("/api/games/").json()}


def test_staff_edit_title_and_description_and_players_read_them(staff_client: Client) -> None:
    assert upload(staff_client, "", WHIST, "whist.rcy").status_code == 202
    get_game("recycle_whist")  # compiled and kept under the old title
    # The edit form starts from what players read: the file's leading comments.
    form = staff_client.get(URL).content.decode()
    assert re.search(r'<textarea name="description"[^>]*>Whist \(American whist, pagat.com', form)
    response = staff_client.post(
        f"{URL}recycle_whist/edit/", {"name": "Partner Whist", "description": "Seven up."}
    )
    assert response.status_code == 303 and response["Location"].endswith("?edited=recycle_whist#stored-h")
    row = StoredGame.objects.get()
    assert (row.game_id, row.name, row.description) == ("recycle_whist", "Partner Whist", "Seven up.")
    listed = {g["id"]: g for g in Client().get("/api/games/").json()}["recycle_whist"]
    assert listed["name"] == "Partner Whist" and listed["how_to_play"][0] == "About this game: Seven up."
    page = staff_client.get(response["Location"]).content.decode()
    assert 'Partner Whist <span class="success" role="status">(saved)</span>' in page


@pytest.mark.parametrize(("name", "message"), [("", "give the game a title"), ("Go Fish", "already")])
def test_a_bad_edit_is_refused_and_changes_nothing(staff_client: Client, name: str, message: str) -> None:
    assert upload(staff_client, "", WHIST, "whist.rcy").status_code == 202
    assert upload(staff_client, "", GO_FISH, "go_fish.rcy").status_code == 202
    response = staff_client.post(f"{URL}recycle_whist/edit/", {"name": name, "description": "changed"})
    assert response.status_code == 400 and message in response.content.decode()
    row = StoredGame.objects.get(game_id="recycle_whist")
    assert (row.name, row.description) == ("Whist", "")


def test_only_staff_may_edit(plain_client: Client, staff_client: Client) -> None:
    assert upload(staff_client, "", WHIST, "whist.rcy").status_code == 202
    response = plain_client.post(f"{URL}recycle_whist/edit/", {"name": "Mine", "description": ""})
    assert response.status_code == 302 and StoredGame.objects.get().name == "Whist"


def test_editing_an_unknown_game_is_refused(staff_client: Client) -> None:
    response = staff_client.post(f"{URL}recycle_nothing/edit/", {"name": "X", "description": ""})
    assert response.status_code == 400 and "no stored game" in response.content.decode()


def test_add_inside_a_transaction_that_rolls_back_keeps_no_compiled_game() -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        recycle_games.add("", WHIST.decode(), None, "", "whist.rcy")
        raise RuntimeError("later step failed")
    assert not StoredGame.objects.exists() and "recycle_whist" not in recycle_games._CACHE


def test_an_untitled_blog_post_is_named_by_its_title(staff_client: Client) -> None:
    post = seed_post("stealing_bundles")
    response = upload(staff_client, "", post.read_bytes(), "bundles.txt")
    assert response.status_code == 202, response.content.decode()[:600]
    row = StoredGame.objects.get()
    assert (row.name, row.game_id) == (post_title(post.read_text()), recycle_games.game_id_for(row.name))


@pytest.mark.parametrize(
    ("filename", "title"),
    [("CrazyEights4.rcy", "Crazy Eights 4"), ("go_fish.gdl", "Go fish"), ("", "")],
)
def test_a_title_from_the_file_name_when_there_is_no_comment(filename: str, title: str) -> None:
    assert recycle_games.title_from("(game)", filename) == title


@pytest.mark.parametrize(
    ("comment", "filename", "title"),
    [
        # The comment names the file's game: its spelling, spaces and accents win.
        (";; SPADES in the GDL https://x", "Spades4.gdl", "Spades"),
        (";; Crazy Eights (pagat.com/shedding/crazy8s.html)", "crazy_eights.rcy", "Crazy Eights"),
        (";; Enchère (Auction)", "Enchere3.gdl", "Enchère"),
        (";; Simon's Cat", "Simon'sCat4.gdl", "Simon's Cat"),
        # It names another game (a variant's family, the game it was copied from): the file's name wins.
        (";; Cheeseheads", "SheepsheadPicker5.gdl", "Sheepshead Picker 5"),
        (";; Crazy Eights with no crazy eights", "SaneEights4.gdl", "Sane Eights 4"),
        (";; Black Maria", "BlackLady4.rcy", "Black Lady 4"),
        (";; LAMA by Reiner Knizia 2019", "LAMA2.gdl", "LAMA 2"),
        # Pasted text has no file name: the comment is all there is.
        (";; SPADES in the GDL https://x", "", "Spades"),
    ],
)
def test_the_first_comment_titles_the_game_only_when_it_names_the_files_game(
    comment: str, filename: str, title: str
) -> None:
    assert recycle_games.title_from(f"{comment}\n(game)", filename) == title


def test_an_edit_made_by_another_process_reaches_this_ones_listing() -> None:
    recycle_games.add("Whist", WHIST.decode())
    game = get_game("recycle_whist")
    # Another server process edits the row: this one's compiled copy is not told.
    StoredGame.objects.filter(game_id="recycle_whist").update(name="Partner Whist", description="Bid well.")
    [listed] = recycle_games.listing()
    assert listed is game  # the same compiled game: tables at it keep playing
    assert listed.info.name == "Partner Whist" and listed.info.how_to_play[0] == "About this game: Bid well."
    assert get_game("recycle_whist").info.name == "Partner Whist"
    StoredGame.objects.filter(game_id="recycle_whist").delete()  # and deleted elsewhere
    assert recycle_games.listing() == [] and "recycle_whist" not in recycle_games._CACHE


def test_uploads_are_limited_per_staff_member(staff_client: Client, settings) -> None:
    settings.RATE_LIMITS_ON = True
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "upload": {"staff": (2, 3600)}}

    def send(client: Client, name: str, content: bytes) -> Any:  # stored, its check left queued
        return client.post(URL, {"name": name, "text": "", "file": SimpleUploadedFile("g.rcy", content)})

    # A file refused for its text spends nothing.
    assert send(staff_client, "Broken", b"(game").status_code == 400
    assert send(staff_client, "One", GO_FISH).status_code == 202
    assert send(staff_client, "Two", GO_FISH).status_code == 202
    response = send(staff_client, "Three", GO_FISH)
    assert response.status_code == 429
    assert "You have added 2 games in the last 60 minutes" in response.content.decode()
    assert sorted(StoredGame.objects.values_list("name", flat=True)) == ["One", "Two"]
    # Another staff member has an allowance of their own.
    other = Client()
    other.force_login(User.objects.create_user("staff2", password="pw", is_staff=True, is_superuser=True))
    assert send(other, "Three", GO_FISH).status_code == 202


def test_the_file_picker_offers_cardstock_gdl_files(staff_client: Client) -> None:
    page = staff_client.get(URL).content.decode()
    accept = re.search(r'<input id="game-file" type="file" name="file" accept="([^"]+)"', page)
    assert accept and ".gdl" in accept.group(1).split(",") and ".rcy" in accept.group(1).split(",")


def test_a_gdl_file_is_added_and_titled_by_its_name_over_another_games_comment(staff_client: Client) -> None:
    text = ";; Go Fish\n" + GO_FISH.decode().split("\n", 1)[1]
    assert upload(staff_client, "", text.encode(), "FishPond4.gdl").status_code == 202
    row = StoredGame.objects.get()
    assert (row.name, row.game_id, row.status) == ("Fish Pond 4", "recycle_fish_pond_4", StoredGame.DONE)
