"""Who held which seat in which game (``MatchPlayer``): filled from old games, written by the authority,
read by the player's page and by deleting an account."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cardtable.tables.authority import seating
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, MatchPlayer, Player, Seat
from cardtable.tables.players import accounts
from games import get_game
from tests.ratings.helpers import member
from tests.server.helpers import hearts_with_a_takeover, play, short_options
from tests.server.test_accounts import finished_game

pytestmark = pytest.mark.django_db

BEFORE = [("tables", "0008_accounts")]  # the last migration before MatchPlayer


def rows(match: Match) -> set[tuple[int, int, str]]:
    """The game's holders as (player, seat, how)."""
    return set(MatchPlayer.objects.filter(match=match).values_list("player_id", "seat", "how"))


@pytest.mark.django_db(transaction=True)
def test_the_data_migration_gives_games_recorded_before_it_their_rows() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldPlayer, OldTable, OldMatch = (old.get_model("tables", name) for name in ("Player", "Table", "Match"))
    ann, bob, cy = (OldPlayer.objects.create(name=name) for name in ("Ann", "Bob", "Cy"))
    table = OldTable.objects.create(game="hearts", players=3, status="finished")
    seats = [
        {"seat": 0, "kind": "human", "level": None, "player": ann.pk, "name": "Ann"},
        {"seat": 1, "kind": "human", "level": None, "player": bob.pk, "name": "Bob"},
        {"seat": 2, "kind": "bot", "level": "easy", "player": None, "name": None},
    ]
    left = [
        {"seat": 1, "player": bob.pk, "name": "Bob", "moves": 4, "taken_by": cy.pk, "taken_after": 6},
        {"seat": 1, "player": cy.pk, "name": "Cy", "moves": 9, "taken_by": bob.pk, "taken_after": 11},
        {"seat": 0, "player": ann.pk, "name": "Ann", "moves": 12},  # nobody took it over
    ]
    match = OldMatch.objects.create(table=table, number=1, game="hearts", players=3, seed=1, seats=seats)
    OldMatch.objects.filter(pk=match.pk).update(left=left)
    gone = {"seat": 0, "kind": "human", "level": None, "player": cy.pk + 99, "name": "Gone"}
    lone = OldMatch.objects.create(table=table, number=2, game="hearts", players=3, seed=2, seats=[gone])

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    started = Match.objects.get(pk=match.pk).started
    assert rows(Match.objects.get(pk=match.pk)) == {
        (ann.pk, 0, MatchPlayer.STARTED),
        (bob.pk, 1, MatchPlayer.STARTED),  # took his own seat back: no second row
        (cy.pk, 1, MatchPlayer.TOOK_OVER),
    }
    assert set(MatchPlayer.objects.filter(match_id=match.pk).values_list("started", flat=True)) == {started}
    assert not MatchPlayer.objects.filter(match_id=lone.pk).exists()  # a player row no longer there
    cy_now = Player.objects.get(pk=cy.pk)
    assert [(m.pk, seat) for m, seat in accounts.games_of(cy_now)] == [(match.pk, 1)]


def test_starting_and_taking_over_write_the_rows_through_the_authority() -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    table = seating.create_table(ann, "hearts", 3, short_options("hearts"))
    seating.sit(table.pk, bob, 1)
    seating.add_bot(table.pk, ann, 2, "easy")
    seating.start(table.pk, ann)
    match = Match.objects.get(table=table)
    assert rows(match) == {(ann.pk, 0, MatchPlayer.STARTED), (bob.pk, 1, MatchPlayer.STARTED)}
    play(table.pk, random.Random(3), moves=12)
    seating.leave(table.pk, bob)
    assert len(rows(match)) == 2  # leaving changes who holds the seat, not who played
    seating.takeover(table.pk, cy, 1)
    assert rows(match) == {
        (ann.pk, 0, MatchPlayer.STARTED),
        (bob.pk, 1, MatchPlayer.STARTED),
        (cy.pk, 1, MatchPlayer.TOOK_OVER),
    }
    assert MatchPlayer.objects.get(match=match, player=cy).started == match.started
    seating.leave(table.pk, cy)
    seating.takeover(table.pk, bob, 1)  # Bob takes his own seat back
    assert len(rows(match)) == 3
    assert accounts.has_games(cy) and not cy.seats.exists()


def test_a_takeover_that_fails_to_commit_leaves_no_row(monkeypatch: Any) -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    table = seating.create_table(ann, "hearts", 3, short_options("hearts"))
    seating.sit(table.pk, bob, 1)
    seating.add_bot(table.pk, ann, 2, "easy")
    seating.start(table.pk, ann)
    seating.leave(table.pk, bob)

    def refuse(*args: Any, **kwargs: Any) -> int:
        raise TableError("wrong_status", "refused after the writes")

    monkeypatch.setattr(seating, "save_changed", refuse)
    with pytest.raises(TableError):
        seating.takeover(table.pk, cy, 1)
    match = Match.objects.get(table=table)
    assert "taken_by" not in match.left[0]
    assert not MatchPlayer.objects.filter(player=cy).exists()


def test_the_players_page_lists_a_game_they_took_over() -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    table = hearts_with_a_takeover(ann, bob, cy)
    play(table.pk, random.Random(4))
    match = Match.objects.get(table=table)
    scores, winners = match.result["scores"], match.result["winners"]
    place = get_game("hearts").info.ranks(scores)[1] + 1
    shown = "<strong>Won</strong>" if 1 in winners else f"<strong>Place {place}</strong>"
    took = "took over from a player who left"
    cys = Client().get(f"/players/{cy.pk}/").content.decode()
    assert f"/replay/{match.table_id}/{match.number}/" in cys and cys.count('class="game-row"') == 1
    points = "point" if scores[1] == 1 else "points"
    assert f"{shown} · {scores[1]} {points} · {took}" in cys
    bobs = Client().get(f"/players/{bob.pk}/").content.decode()
    assert "left before the end" in bobs and took not in bobs
    anns = Client().get(f"/players/{ann.pk}/").content.decode()
    assert anns.count('class="game-row"') == 1 and took not in anns and "left before the end" not in anns


def test_the_players_page_says_one_point_not_one_points() -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    table = hearts_with_a_takeover(ann, bob, cy)
    play(table.pk, random.Random(4))
    match = Match.objects.get(table=table)
    for points, words in ((1, "1 point ·"), (2, "2 points ·"), (0, "0 points ·")):
        match.result["scores"][1] = points
        match.save(update_fields=["result"])
        assert words in Client().get(f"/players/{cy.pk}/").content.decode()


def test_deleting_an_account_renames_the_player_in_every_record_of_a_game_they_took_over() -> None:
    ann, bob, cy = member("Ann"), member("Bob"), member("Cy")
    table = hearts_with_a_takeover(ann, bob, cy)
    seating.leave(table.pk, cy)  # Cy leaves the seat she took over: a bot finishes it
    play(table.pk, random.Random(4))
    accounts.delete_account(cy.user)
    accounts.anonymise(ann)
    match = Match.objects.get(table=table)
    former_cy, former_ann = f"Former player {cy.pk}", f"Former player {ann.pk}"
    assert [(d["player"], d["name"]) for d in match.left] == [(bob.pk, "Bob"), (cy.pk, former_cy)]
    assert [s["name"] for s in match.seats] == [former_ann, "Bob", None]
    assert Seat.objects.get(table=table, index=1).left == former_cy
    assert Player.objects.get(pk=cy.pk).name == former_cy
    assert [(m.pk, seat) for m, seat in accounts.games_of(cy)] == [(match.pk, 1)]


def test_the_players_page_finds_games_by_the_index_in_the_same_queries_however_many() -> None:
    ann = member("Ann")
    page = f"/players/{ann.pk}/"
    counts = []
    for _ in range(2):
        finished_game(ann)
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(page).status_code == 200
        sql = [query["sql"] for query in queries.captured_queries]
        assert not [q for q in sql if "LIKE" in q.upper()]
        assert any(MatchPlayer._meta.db_table in q for q in sql)
        counts.append(len(sql))
    assert counts[0] == counts[1]
