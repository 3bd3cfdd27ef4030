"""The review job (cardtable/reviews/jobs.py) and its API: queued when a game with people ends,
run in a child process, picked up again after a restart, shown to whom it may be.

The job tests commit (``transaction=True``): the result's ``MatchFinished`` is emitted
after commit, and the job's thread reads and writes through its own connection. Every game
here is dealt from a known seed (``deal``): which seats get a turn depends on the deal.
"""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from cardtable.reviews import jobs, summary
from cardtable.reviews.models import Review
from cardtable.tables.authority import moving, seating, staff
from cardtable.tables.events import TableOpened
from cardtable.tables.models import Match, MoveRecord, Seat, Table
from cardtable.tables.players.identity import SESSION_KEY
from games import get_game
from tests.dashboard.conftest import new_table


def play(table_id: str, seed: int, moves: int | None = None) -> Match:
    """Play random legal moves until the game ends (or ``moves`` are made): seats with a
    person move as them (``by`` human), the others as bots. Return the game."""
    rng = random.Random(seed)
    table = Table.objects.get(pk=table_id)
    people = set(Seat.objects.filter(table=table, player__isnull=False).values_list("index", flat=True))
    made = 0
    while table.status == Table.PLAYING and (moves is None or made < moves):
        game = get_game(table.game)
        state = game.from_json(table.state)
        seat = game.to_act(state)[0]
        by = MoveRecord.HUMAN if seat in people else MoveRecord.BOT
        move = rng.choice(game.legal_moves(state, seat))
        moving.apply_move(table_id, move, table.version, seat=seat, by=by)
        table = Table.objects.get(pk=table_id)
        made += 1
    return Match.objects.get(table=table, number=table.game_number)


def people_moved(match: Match) -> set[int]:
    """The seats in which a person made a move of ``match``."""
    return set(match.moves.filter(by=MoveRecord.HUMAN).values_list("seat", flat=True))


@pytest.fixture(autouse=True)
def deal(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Deal the games from seed 1, or from the seed passed to the function returned, instead of
    the OS's randomness. A game can end before a seat has a turn (one life of Ninety-Eight ends at
    the first total over 98: a king and the next card do it), and a seat nobody moved in has no
    review, so the seats reviewed must not depend on a random deal."""

    def use(seed: int) -> None:
        monkeypatch.setattr(seating, "new_seed", lambda: seed)

    use(1)
    return use


def as_player(player_id: int) -> Client:
    """A browser whose session is the guest player ``player_id``."""
    client = Client()
    session = client.session
    session[SESSION_KEY] = player_id
    session.save()
    return client


def url(match: Match) -> str:
    return f"/api/tables/{match.table_id}/games/{match.number}/review/"


@pytest.fixture
def small_reviews(settings: Any) -> None:
    """Reviews run, on a budget a test can wait for."""
    settings.REVIEW_JOBS = True
    settings.REVIEW_PLAYOUTS = 24
    settings.REVIEW_TIMEOUT = 120


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_queues_one_review_per_seat_a_person_played(deal: Callable[[int], None]) -> None:
    match = play(new_table("ninety_eight", humans=2).pk, 1)
    assert people_moved(match) == {0, 1}
    rows = list(Review.objects.filter(match=match).order_by("seat"))
    assert [r.seat for r in rows] == [0, 1]
    assert all(r.status == Review.QUEUED and r.player_id == match.seats[r.seat]["player"] for r in rows)
    assert rows[0].playouts == 400 and rows[0].seed == match.pk
    # A game of bots alone has nobody to review.
    bots_only = play(new_table("ninety_eight").pk, 2)
    assert not Review.objects.filter(match=bots_only).exists()
    # Nor has a person whose turn never came: in this deal the bot in seat 3 plays a king and
    # seat 0 goes over 98, which ends the game before seat 1 has played.
    deal(35)
    cut_short = play(new_table("ninety_eight", humans=2).pk, 1)
    assert list(cut_short.moves.order_by("seq").values_list("seat", flat=True)) == [3, 0]
    assert list(Review.objects.filter(match=cut_short).values_list("seat", flat=True)) == [0]


def child_priority(seconds: float = 30) -> tuple[int, int, str] | None:
    """The (scheduling policy, nice, CPU group's nice) of the review's child once it runs
    ``python -m games review``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pid = jobs.QUEUE.running_child()
        if pid is not None:
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                group = Path(f"/proc/{pid}/autogroup").read_text().split()[-1]
            except OSError:
                continue
            # Once ``chrt`` and ``nice`` have run the program in their place.
            if command.startswith(sys.executable.encode()) and b"\0review\0" in command:
                return int(fields[38]), int(fields[16]), group
        elif jobs.QUEUE.wait(0.005):
            return None
    return None


@pytest.mark.django_db(transaction=True)
def test_the_job_runs_in_a_child_and_stores_the_figures(small_reviews: None) -> None:
    own_group = Path("/proc/self/autogroup").read_text()
    match = play(new_table("hearts", humans=1).pk, 3)
    # The child runs at the lowest priority: SCHED_IDLE (policy 5), nice 19, in a CPU group of
    # its own (Linux's autogroup, one per session) at nice 19, not in the server's.
    assert child_priority() == (5, 19, "19")
    assert Path("/proc/self/autogroup").read_text() == own_group
    assert jobs.QUEUE.wait(300)
    row = Review.objects.get(match=match, seat=0)
    assert row.status == Review.DONE, row.message
    assert row.figures["seat"] == 0 and row.figures["reviewed"] == row.reviewed > 0
    assert row.unit == "points" and row.average_cost == pytest.approx(row.total_cost / row.reviewed, abs=1e-3)
    humans = match.moves.filter(seat=0, by=MoveRecord.HUMAN).count()
    assert len(row.figures["decisions"]) == humans
    assert summary.average_mistake_cost(match.seats[0]["player"]) == pytest.approx(row.average_cost, abs=1e-3)
    assert summary.average_mistake_cost(match.seats[0]["player"], "cribbage") is None
    # The same seed and budget give the same figures again.
    first = row.figures
    Review.objects.filter(pk=row.pk).update(status=Review.QUEUED, figures={})
    jobs.QUEUE.ensure_worker()
    assert jobs.QUEUE.wait(300)
    assert Review.objects.get(pk=row.pk).figures == first


@pytest.mark.django_db(transaction=True)
def test_a_review_left_by_a_stopped_server_is_picked_up_again(small_reviews: None, settings: Any) -> None:
    settings.REVIEW_JOBS = False
    match = play(new_table("ninety_eight", humans=2).pk, 4)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    # Seat 0's was running in a process that died; seat 1's was still queued.
    running = Review.objects.filter(match=match, seat=0).update(
        status=Review.RUNNING, worker=f"{socket.gethostname()}:{dead.pid}"
    )
    assert running == 1 and Review.objects.get(match=match, seat=1).status == Review.QUEUED
    settings.REVIEW_JOBS = True
    jobs._resumed = False
    jobs.on_table_opened(TableOpened(match.table_id))  # the first socket after the restart
    assert jobs.QUEUE.wait(300)
    assert set(Review.objects.filter(match=match).values_list("status", flat=True)) == {Review.DONE}


@pytest.mark.django_db(transaction=True)
def test_a_review_that_cannot_run_fails_with_the_reason(small_reviews: None) -> None:
    match = play(new_table("ninety_eight", humans=1).pk, 5, moves=None)
    assert jobs.QUEUE.wait(300)
    row = Review.objects.get(match=match, seat=0)
    MoveRecord.objects.filter(match=match, seq=1).update(move={"play": "nonsense"})
    Review.objects.filter(pk=row.pk).update(status=Review.QUEUED)
    jobs.QUEUE.ensure_worker()
    assert jobs.QUEUE.wait(300)
    row.refresh_from_db()
    assert row.status == Review.FAILED and row.message


@pytest.mark.django_db
def test_who_sees_which_review(client: Client, staff_client: Client) -> None:
    table = new_table("hearts", humans=2)
    running = play(table.pk, 6, moves=3)
    assert running.finished is None
    response = as_player(running.seats[0]["player"]).get(url(running))
    assert response.status_code == 403 and response.json()["error"]["code"] == "game_in_progress"
    assert client.get(f"/api/tables/{table.pk}/games/9/review/").status_code == 404
    match = play(table.pk, 6)
    jobs.queue_match(match)  # (no commit in this test: the event's handler does not run)
    Review.objects.filter(match=match).update(status=Review.DONE, figures={"reviewed": 0})
    first, second = (match.seats[i]["player"] for i in (0, 1))
    mine = as_player(first).get(url(match)).json()
    assert [r["seat"] for r in mine["reviews"]] == [0] and mine["hidden_seats"] == [1]
    assert mine["your_seats"] == [0]
    theirs = as_player(second).get(url(match)).json()
    assert [r["seat"] for r in theirs["reviews"]] == [1]
    nobody = client.get(url(match)).json()
    assert nobody["reviews"] == [] and nobody["hidden_seats"] == [0, 1]
    assert [r["seat"] for r in staff_client.get(url(match)).json()["reviews"]] == [0, 1]
    # Once the table's play is over, everyone's review is open to anyone.
    staff.end_table(table.pk)
    assert [r["seat"] for r in client.get(url(match)).json()["reviews"]] == [0, 1]
    assert client.post(url(match)).status_code == 405
