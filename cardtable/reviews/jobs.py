"""The review job: when a game with people finishes, each of their seats is reviewed in the background.

``on_match_finished`` (a handler of ``MatchFinished``, after the result commits)
queues one ``Review`` row per seat that a person moved in. The rows are a
``JobQueue`` (``cardtable/jobs.py``): one supervisor thread per process runs
each in a child process at the lowest priority (Linux's ``SCHED_IDLE``, and
``nice`` ``REVIEW_NICENESS``),
``python -m games review`` with the row's seed and budget (``REVIEW_PLAYOUTS``),
outside the server's event loop and its pool of bot searches, so the live
tables' moves never wait for it. A row left queued or running by a process that
stopped is picked up when the supervisor next starts: at the next finished game,
the first table opened after a restart, or a review asked for.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings

from cardtable.dashboard.designjobs import game_argument
from cardtable.jobs import JobQueue, games_command
from cardtable.reviews.models import Review
from cardtable.tables.events import MatchFinished, TableOpened
from cardtable.tables.models import Match, MoveRecord

# The moves reviewed: a person's own (not a stand-in's, the clock's or staff's).
REVIEWED_BY = (MoveRecord.HUMAN,)


def playouts() -> int:
    """Return the playouts per decision of a review (``REVIEW_PLAYOUTS``)."""
    return int(getattr(settings, "REVIEW_PLAYOUTS", 400))


def timeout() -> float:
    """Return the seconds a review may run before it is stopped (``REVIEW_TIMEOUT``)."""
    return float(getattr(settings, "REVIEW_TIMEOUT", 1800))


def autorun() -> bool:
    """Return whether this process runs the queued reviews (``REVIEW_JOBS``)."""
    return bool(getattr(settings, "REVIEW_JOBS", True))


def queue_match(match: Match) -> list[Review]:
    """Queue a review for each seat a person moved in, in a game that ended with a result.
    Queueing twice changes nothing; return the game's rows."""
    if match.result is None or match.finished is None:
        return []
    seats = MoveRecord.objects.filter(match=match, by__in=REVIEWED_BY).values_list("seat", flat=True)
    for seat in sorted(set(seats)):
        record = match.seats[seat] if seat < len(match.seats) else {}
        Review.objects.get_or_create(
            match=match,
            seat=seat,
            defaults={
                "player_id": record.get("player"),
                "game": match.game,
                "seed": match.pk,
                "playouts": playouts(),
            },
        )
    return list(Review.objects.filter(match=match))


def on_match_finished(event: MatchFinished) -> None:
    """Queue the finished game's reviews and start the worker (runs after the result commits)."""
    match = Match.objects.filter(pk=event.match_id).first()
    if match is not None and queue_match(match) and autorun():
        QUEUE.ensure_worker()


_resumed = False


def on_table_opened(event: TableOpened) -> None:
    """After a restart, the first socket at any table starts the worker, which picks up the rows
    left queued or running. Touches no database: this runs on the event loop."""
    global _resumed
    if not _resumed and autorun():
        _resumed = True
        QUEUE.ensure_worker()


def job_of(row: Review) -> dict[str, Any]:
    """Return the child's job: the game, its seed and options, its log, the seat and the budget."""
    match = row.match
    log = [
        {"seq": seq, "seat": seat, "move": move, "by": by}
        for seq, seat, move, by in match.moves.order_by("seq").values_list("seq", "seat", "move", "by")
    ]
    return {
        "game": match.game,
        "players": match.players,
        "options": match.options,
        "seed": match.seed,
        "log": log,
        "seats": [row.seat],
        "config": {"playouts": row.playouts, "seed": row.seed, "by": list(REVIEWED_BY)},
    }


def run(row: Review) -> None:
    """Review one seat in a child process and store the figures (or why it failed)."""
    job = job_of(row)
    with tempfile.TemporaryDirectory(prefix="review-") as folder:
        job["game"] = game_argument(row.game, folder)
        job_file, out = Path(folder) / "job.json", Path(folder) / "review.json"
        job_file.write_text(json.dumps(job), encoding="utf-8")
        niceness = int(getattr(settings, "REVIEW_NICENESS", 19))
        command = games_command("review", str(job_file), "--json", str(out), niceness=niceness, idle=True)
        if not QUEUE.run_row(row, command, timeout(), str(settings.BASE_DIR), "REVIEW_TIMEOUT"):
            return
        result = json.loads(out.read_text(encoding="utf-8"))
    figures = result["seats"][str(row.seat)]
    Review.objects.filter(pk=row.pk).update(
        status=Review.DONE,
        worker="",
        message="",
        unit=figures["unit"],
        reviewed=figures["reviewed"],
        total_cost=figures["total_cost"],
        average_cost=figures["average_cost"],
        figures=figures,
        seconds=result["seconds"],
    )


QUEUE = JobQueue(Review, "review-jobs", "queued", run)
