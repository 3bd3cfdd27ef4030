"""The upload check plays a RECYCLE game as a person would: one where no player moves, or a
seat never moves, is refused with that reason and offered at no table (games/recycle/playing/playcheck.py)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from cardtable.dashboard import designjobs, recycle_games
from cardtable.dashboard.models import StoredGame
from games import get_game
from games.engine import GameError
from games.recycle import library, loads
from tests.dashboard.conftest import run_checks
from tests.games.recycle.test_played_as_written import COLOUR_PILES

pytestmark = pytest.mark.django_db
URL = "/staff/games/"

# The first round counts one round per player the current one ties or beats: it ends the stage
# before seats 2 and 3 are reached (Poker5's shape).
IDLE_SEATS = """;; Idle seats
(game
 (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS)))))
 (stage player (end (>= (game sto ROUNDS) 3))
  (do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))))
  (do ((all player 'P ((>= ((current player) sto POINTS) ('P sto POINTS)) (inc (game sto ROUNDS) 1))))))
 (scoring max 0))
"""
# Nobody is dealt a card, and the stage ends before its first choice (LAMA as it was read).
NOBODY = """;; Nobody
(game
 (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS)))))
 (stage player (end (any player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
 (scoring max 0))
"""


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    recycle_games._CACHE.clear()
    monkeypatch.setattr(designjobs, "ensure_worker", lambda: None)  # no background process in tests


def test_a_game_where_a_seat_never_moves_is_refused_with_that_reason(staff_client: Client) -> None:
    response = staff_client.post(
        URL, {"name": "", "text": "", "file": SimpleUploadedFile("idle.rcy", IDLE_SEATS.encode())}
    )
    assert response.status_code == 202  # stored at once, checked in a job
    assert run_checks() == 1
    row = StoredGame.objects.get()
    assert row.status == StoredGame.FAILED
    assert "players 2 and 3 never move in 100 random games: the game ends first" in row.message
    with pytest.raises(GameError):
        get_game(row.game_id)  # offered at no table


def test_a_game_where_no_player_moves_is_refused_by_the_check() -> None:
    with pytest.raises(GameError) as caught:
        recycle_games.check(loads(NOBODY, "Nobody"))
    assert str(caught.value).startswith("no player ever moves: each of 100 random games ended")


def test_a_game_that_plays_keeps_its_figures_per_seat() -> None:
    checked = recycle_games.check(loads(library()["go_fish"].read_text(encoding="utf-8"), "Go Fish"), 5)
    assert checked["games"] == 5 and len(checked["seat_moves"]) == 4
    assert all(moves > 0 for moves in checked["seat_moves"])
    assert checked["dealt"] == [5.0, 5.0, 5.0, 5.0]


def test_a_game_with_places_named_in_play_is_added(staff_client: Client) -> None:
    # Lost Cities' shape (a pile per colour, named in play) was an HTTP 500 on upload.
    response = staff_client.post(
        URL, {"name": "Colours", "text": "", "file": SimpleUploadedFile("c.rcy", COLOUR_PILES.encode())}
    )
    assert response.status_code == 202, response.content.decode()[:800]
    assert run_checks() == 1
    row = StoredGame.objects.get()
    assert row.status == StoredGame.DONE and row.checked["seat_moves"][1] > 0
