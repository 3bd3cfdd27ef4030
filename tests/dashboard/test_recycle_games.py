"""Staff add a RECYCLE game on the dashboard; it is checked, stored, listed and played at tables."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

import games.recycle
from cardtable.dashboard import recycle_games
from cardtable.dashboard.models import StoredGame
from cardtable.tables.authority import moving, seating
from cardtable.tables.authority.state import state_message
from cardtable.tables.autoplay.driver import play_pending
from cardtable.tables.models import MoveRecord, Player, Table
from games import GAMES, get_game
from games.recycle import library
from tests.dashboard.conftest import run_checks
from tests.games.recycle.helpers import seed_post

pytestmark = pytest.mark.django_db
URL = "/staff/games/"
AGRAM = library()["agram"].read_text()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    recycle_games._CACHE.clear()


def add(client: Client, name: str, text: str = "", upload: SimpleUploadedFile | None = None):
    """Post the game; then run the playability check it queued, as the job would."""
    data = {"name": name, "text": text}
    if upload is not None:
        data["file"] = upload
    response = client.post(URL, data)
    run_checks()
    return response


def test_staff_paste_a_description_and_the_lobby_lists_it_as_experimental(staff_client: Client) -> None:
    response = add(staff_client, "Club Agram", AGRAM)
    assert response.status_code == 202, response.content.decode()[:500]
    row = StoredGame.objects.get()
    assert (row.game_id, row.players, row.added_by) == ("recycle_club_agram", 4, staff_client.user)
    assert row.checked["games"] == 100 and row.checked["moves_mean"] == 24.0
    assert 'id="added"' in response.content.decode()
    listed = {g["id"]: g for g in Client().get("/api/games/").json()}
    assert listed["recycle_club_agram"]["experimental"] is True
    assert listed["recycle_club_agram"]["name"] == "Club Agram"
    assert all(listed[g]["experimental"] is False for g in GAMES)
    lobby = Client().get("/").content.decode()
    assert re.search(r"Club Agram</span> <span class=\"chip experimental\"", lobby)
    assert "Club Agram (experimental)</option>" in lobby


def test_a_cardstock_post_can_be_uploaded(staff_client: Client) -> None:
    upload = SimpleUploadedFile("hearts.txt", seed_post("hearts").read_bytes(), "text/plain")
    response = add(staff_client, "Blog Hearts", upload=upload)
    assert response.status_code == 202
    game = get_game("recycle_blog_hearts")
    assert game.info.name == "Blog Hearts" and game.info.experimental and game.info.low_score_wins


def test_a_bad_description_shows_its_line_and_column_and_stores_nothing(staff_client: Client) -> None:
    broken = AGRAM.replace("(shuffle (game iloc STOCK))", "(shufle (game iloc STOCK))")
    response = add(staff_client, "Broken", broken)
    page = response.content.decode()
    assert response.status_code == 400
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "shufle" in text)
    assert re.search(rf"line {line}, column \d+", page)
    assert "shufle (game iloc STOCK)" in page and "^</pre>" in page
    assert "shufle" in page[page.index('id="game-text"') :]  # the text stays in the form to fix
    assert not StoredGame.objects.exists()


def test_a_game_that_does_not_end_is_refused(staff_client: Client) -> None:
    text = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS, SPADES)))))
 (do ((move (top (game iloc STOCK)) (top (game vloc A)))))
 (stage player (end (== 1 0))
  (choice ((any (game vloc A) 'C (move 'C (top (game vloc B))))
           (any (game vloc B) 'C (move 'C (top (game vloc A)))))))
 (scoring max 0))"""
    response = add(staff_client, "Forever", text)
    assert response.status_code == 202
    row = StoredGame.objects.get()
    assert row.status == StoredGame.FAILED and "random game 1 of 100" in row.message
    assert "recycle_forever" not in {g["id"] for g in Client().get("/api/games/").json()}


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [("", "(game", "give the game a title"), ("Agram Two", AGRAM, "already"), ("x" * 81, AGRAM, "1 to 80")],
)
def test_titles_must_be_found_and_new(staff_client: Client, name: str, text: str, message: str) -> None:
    assert add(staff_client, "Agram Two", AGRAM).status_code == 202
    response = add(staff_client, name, text)
    assert response.status_code == 400 and message in response.content.decode()
    assert StoredGame.objects.count() == 1


def test_only_staff_may_add(plain_client: Client) -> None:
    response = add(plain_client, "Sneaky", AGRAM)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not StoredGame.objects.exists()


def test_tables_play_a_stored_game_with_bots_without_recompiling(
    staff_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert add(staff_client, "Table Agram", AGRAM).status_code == 202
    recycle_games._CACHE.clear()  # as a fresh server process
    compiled = []
    real = games.recycle.playing.game.RecycleGame.__init__

    def counting(self, *args, **kwargs) -> None:
        compiled.append(args)
        real(self, *args, **kwargs)

    monkeypatch.setattr(games.recycle.playing.game.RecycleGame, "__init__", counting)
    host = Player.objects.create(name="Host")
    table = seating.create_table(host, "recycle_table_agram", None, None)
    seating.sit(table.pk, host, 0)
    for seat in (1, 2, 3):
        seating.add_bot(table.pk, host, seat, "random")
    seating.start(table.pk, host)
    message = state_message(table.pk, host.pk)
    view = message["view"]
    # The host sees its own six cards and only the sizes of the others' hands.
    assert len(view["hand"]) == 6
    others = [loc for loc in view["locations"] if loc["name"] == "HAND" and loc["owner"] != "0"]
    assert others and all(loc["count"] == 6 and "cards" not in loc for loc in others)
    while Table.objects.get(pk=table.pk).status == Table.PLAYING:
        message = state_message(table.pk, host.pk)
        if message["to_act"] == [0]:
            moving.apply_move(table.pk, message["legal_moves"][0], message["version"], player=host)
        play_pending(table.pk)
    assert len(compiled) == 1  # compiled once, then every move used the cached game
    assert MoveRecord.objects.filter(match__table=table).count() == 24
    assert Table.objects.get(pk=table.pk).matches.get().result["winners"]


def test_an_unknown_stored_id_is_no_game() -> None:
    with pytest.raises(Exception, match="there is no game"):
        get_game("recycle_nothing_here")
