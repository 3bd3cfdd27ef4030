"""The current deal's move log (``GET /api/tables/{id}/log/``), built for each seat.

Every move of the deal with who made it (the clock's named ``timeout``), the
departures and takeovers, and a passed card shown only to the passer and, once
the pass is over, to the receiver.
"""

from __future__ import annotations

import random

import pytest
from django.test import Client as HttpClient

from cardtable.dashboard import recycle_games
from cardtable.dashboard.models import StoredGame
from cardtable.tables.authority import moving, seating
from cardtable.tables.models import MoveRecord, Table
from games import get_game
from games.recycle import library
from tests.server.conftest import make_player
from tests.server.helpers import cards_in

pytestmark = pytest.mark.django_db


def log_for(table_id: str, cookie: str | None) -> dict:
    """The log as the player of ``cookie`` (None: a spectator) gets it."""
    client = HttpClient()
    if cookie:
        client.cookies["sessionid"] = cookie.split("=", 1)[1]
    response = client.get(f"/api/tables/{table_id}/log/")
    assert response.status_code == 200, response.content
    return response.json()


def state_of(table_id: str):
    table = Table.objects.get(pk=table_id)
    game = get_game(table.game)
    return game, game.from_json(table.state), table.version


def test_the_log_names_the_clock_and_shows_a_pass_only_to_passer_and_receiver() -> None:
    people = [make_player(name) for name in ("Ann", "Bob", "Cy", "Di")]
    table = seating.create_table(people[0][0], "hearts", 4, {"passing": "rotate"})
    for index, (player, _) in enumerate(people[1:], start=1):
        seating.sit(table.pk, player, index)
    seating.start(table.pk, people[0][0])
    game, state, version = state_of(table.pk)
    passes = {}
    for seat in range(4):
        move = game.legal_moves(state, seat)[0]
        passes[seat] = move["pass"]
        if seat == 1:  # the clock passes for Bob
            moving.apply_move(table.pk, move, None, seat=seat, by=MoveRecord.TIMEOUT)
        else:
            version = moving.apply_move(table.pk, move, version, player=people[seat][0])
        if seat == 1:
            # Mid-pass: only the passer sees its cards, the receiver not yet.
            for viewer in range(4):
                shown = log_for(table.pk, people[viewer][1])["entries"]
                assert [e["seat"] for e in shown] == [0, 1]
                assert shown[0]["move"] == ({"pass": passes[0]} if viewer == 0 else {"pass": 3})
        game, state, version = state_of(table.pk)
    direction = state.direction
    for viewer in [*range(4), None]:
        body = log_for(table.pk, people[viewer][1] if viewer is not None else None)
        entries = body["entries"]
        assert body["version"] == version
        assert [(e["kind"], e["seat"]) for e in entries] == [("move", s) for s in range(4)]
        assert [e["by"] for e in entries] == ["human", "timeout", "human", "human"]
        for entry in entries:
            mover = entry["seat"]
            sees = viewer is not None and viewer in (mover, (mover + direction) % 4)
            assert entry["move"] == ({"pass": passes[mover]} if sees else {"pass": 3}), (viewer, mover)
        # Nothing else of another hand: only the cards this seat passed or was passed.
        mine = set() if viewer is None else set(passes[viewer]) | set(passes[(viewer - direction) % 4])
        assert cards_in(entries) <= mine


def test_departures_and_takeovers_are_in_the_log_and_a_new_deal_starts_it_afresh() -> None:
    people = [make_player(name) for name in ("Ann", "Bob")]
    table = seating.create_table(people[0][0], "agram", 2, {"target": 3})
    seating.sit(table.pk, people[1][0], 1)
    seating.start(table.pk, people[0][0])
    rng = random.Random(3)
    game, state, _ = state_of(table.pk)
    seat = game.to_act(state)[0]
    moving.apply_move(table.pk, rng.choice(game.legal_moves(state, seat)), None, seat=seat, by="admin")
    seating.leave(table.pk, people[1][0])
    eve = make_player("Eve")
    seating.takeover(table.pk, eve[0], 1)
    game, state, _ = state_of(table.pk)
    entries = log_for(table.pk, people[0][1])["entries"]
    assert [e["kind"] for e in entries] == ["move", "left", "takeover"]
    assert entries[1] == {"kind": "left", "seat": 1, "name": "Bob"}
    assert entries[2] == {"kind": "takeover", "seat": 1, "name": "Eve", "left": "Bob", "back": False}
    # Play on to the next deal: the log holds that deal's moves only.
    deal = state.deal_number
    while state.deal_number == deal:
        seat = game.to_act(state)[0]
        moving.apply_move(table.pk, rng.choice(game.legal_moves(state, seat)), None, seat=seat, by="admin")
        game, state, _ = state_of(table.pk)
    assert log_for(table.pk, people[0][1])["entries"] == []


def test_a_player_taking_their_own_seat_back_is_marked_as_back() -> None:
    people = [make_player(name) for name in ("Ann", "Bob")]
    table = seating.create_table(people[0][0], "agram", 2, {"target": 3})
    seating.sit(table.pk, people[1][0], 1)
    seating.start(table.pk, people[0][0])
    seating.leave(table.pk, people[1][0])
    seating.takeover(table.pk, people[1][0], 1)
    entries = log_for(table.pk, people[0][1])["entries"]
    assert entries[-1] == {"kind": "takeover", "seat": 1, "name": "Bob", "left": "Bob", "back": True}


def test_an_unknown_table_has_no_log() -> None:
    response = HttpClient().get("/api/tables/nosuchtable/log/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_a_recycle_choice_keeps_the_words_it_was_offered_with_in_the_log() -> None:
    # A page that never saw the choice pending (it came later) names the move by these words.
    StoredGame.objects.create(
        game_id="recycle_log_eights", name="Log Eights", text=library()["crazy_eights"].read_text(), players=4
    )
    try:
        people = [make_player(name) for name in ("Ann", "Bob", "Cy", "Di")]
        table = seating.create_table(people[0][0], "recycle_log_eights", None, {})
        for index, (player, _) in enumerate(people[1:], start=1):
            seating.sit(table.pk, player, index)
        seating.start(table.pk, people[0][0])
        rng = random.Random(3)
        worded = None
        for _ in range(60):
            game, state, version = state_of(table.pk)
            seat = game.to_act(state)[0]
            move = rng.choice(game.legal_moves(state, seat))
            said = game.move_words(state, seat, move)
            moving.apply_move(table.pk, move, version, player=people[seat][0])
            if said and said["words"][move["choice"][0]]:
                worded = (seat, move, said)
                break
        assert worded is not None, "no move of a worded branch in 60 moves"
        seat, move, said = worded
        entries = log_for(table.pk, people[(seat + 1) % 4][1])["entries"]
        entry = next(e for e in entries if e["kind"] == "move" and e["seat"] == seat and e["move"] == move)
        assert entry["said"] == said  # the words of the choice as it was pending
        assert MoveRecord.objects.filter(said__isnull=False).exists()
    finally:
        recycle_games.forget("recycle_log_eights")
