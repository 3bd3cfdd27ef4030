"""The playability check of a RECYCLE game staff upload, run by a background job off the server's process.

``submit`` compiles the upload (a bad one fails at once with its line and
column), stores it as a ``StoredGame`` queued for its check and returns: the
request never plays a game. The rows are a ``JobQueue`` (``cardtable/jobs.py``):
one supervisor thread per server process runs each check in a ``nice``-d child
process (``checkchild``: ``recycle_games.check`` on the description written to a
file), with the queue's wall-clock bound ``RECYCLE_CHECK_TIMEOUT`` and every job
child's CPU and memory limits. A check that passes marks the game done (the lobby
lists it from then on) and queues its design statistics (``designjobs``); one that
fails, or runs past a bound, marks it failed with the reason, shown on the staff
page, and the game is offered at no table. ``resume`` (the staff pages call it)
queues again a check left running by a process that has died.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from cardtable.dashboard import designjobs, recycle_games
from cardtable.dashboard.models import StoredGame
from cardtable.jobs import JobQueue, module_command

CHILD = "cardtable.dashboard.checkchild"


def timeout() -> float:
    """Return the seconds a check may run before it is stopped (``RECYCLE_CHECK_TIMEOUT``, else 180:
    the check's own bounds are 30 s of games plus one game of at most 20 s; a niced child on a
    busy machine gets less than a core)."""
    return float(getattr(settings, "RECYCLE_CHECK_TIMEOUT", 180))


def niceness() -> int:
    """Return the check child's niceness, and its CPU group's (``RECYCLE_CHECK_NICENESS``, else 10:
    below the server and its bots' searches, above the design statistics' and reviews' 19)."""
    return int(getattr(settings, "RECYCLE_CHECK_NICENESS", 10))


def submit(name: str, text: str, user: Any = None, description: str = "", filename: str = "") -> StoredGame:
    """Compile an upload and store it queued for its check (``recycle_games.prepare`` names the
    errors); start the worker after commit. Nothing is played in the caller's thread. A game
    whose check failed under the same title is replaced."""
    name, description, game = recycle_games.prepare(name, text, description, filename)
    row = recycle_games.store(game, name, text, description, user, status=StoredGame.QUEUED)
    transaction.on_commit(QUEUE.ensure_worker)
    return row


def run(row: StoredGame) -> None:
    """Check one stored game in a child process; mark it done (and queue its design statistics)
    or failed with why."""
    with tempfile.TemporaryDirectory(prefix="recycle-check-") as folder:
        job, out = Path(folder) / "job.json", Path(folder) / "checked.json"
        words = {"text": row.text, "name": row.name, "game_id": row.game_id, "description": row.description}
        job.write_text(json.dumps(words), encoding="utf-8")
        command = module_command(CHILD, str(job), "--json", str(out), niceness=niceness())
        # Staff wait for it: its CPU group is as nice as the child, not the background's lowest weight.
        cwd = str(settings.BASE_DIR)
        if not QUEUE.run_row(row, command, timeout(), cwd, "RECYCLE_CHECK_TIMEOUT", group=niceness()):
            return
        checked = json.loads(out.read_text(encoding="utf-8"))
    with transaction.atomic():
        done = StoredGame.objects.filter(pk=row.pk, status=StoredGame.RUNNING).update(
            status=StoredGame.DONE, worker="", message="", checked=checked
        )
        if done:
            designjobs.submit(row.game_id, row.players)


QUEUE = JobQueue(StoredGame, "recycle-check-jobs", "created", run)
resume = QUEUE.resume
ensure_worker = QUEUE.ensure_worker
running_child = QUEUE.running_child
wait = QUEUE.wait

__all__ = ["QUEUE", "ensure_worker", "resume", "run", "running_child", "submit", "timeout", "wait"]
