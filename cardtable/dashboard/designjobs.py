"""Design statistics of a game staff add, computed by a background job off the server's process.

``submit`` queues a ``DesignStats`` row and returns at once; the rows are a
``JobQueue`` (``cardtable/jobs.py``): one supervisor thread per server process
runs each in a ``nice``-d child process, ``python -m games stats`` with the
job's budget, writing JSON; the child dies with the thread that started it. A
child that runs past ``DESIGN_JOB_TIMEOUT`` seconds is killed and its row
marked failed. ``resume`` (called when the dashboard loads) queues again a row
left running by a process that has died, so a restart loses no job.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from django.conf import settings
from django.db import transaction

from cardtable.dashboard import designstats
from cardtable.dashboard.models import DesignStats, StoredGame
from cardtable.jobs import GUARD, JobQueue, games_command, worker_id
from games.stats import DEFAULT_COUNTS, DEFAULT_PLAYOUTS


def counts() -> dict[str, int]:
    """Return the games per experiment of a job (``DESIGN_JOB_COUNTS``, else the CLI's defaults)."""
    return {**DEFAULT_COUNTS, **getattr(settings, "DESIGN_JOB_COUNTS", {})}


def playouts() -> int:
    """Return the search playouts per move of a job (``DESIGN_JOB_PLAYOUTS``, else CardStock's 10)."""
    return int(getattr(settings, "DESIGN_JOB_PLAYOUTS", DEFAULT_PLAYOUTS))


def timeout() -> float:
    """Return the seconds a job may run before it is stopped (``DESIGN_JOB_TIMEOUT``, else 1800)."""
    return float(getattr(settings, "DESIGN_JOB_TIMEOUT", 1800))


def submit(game_id: str, players: int) -> DesignStats:
    """Queue the design statistics of ``game_id`` (standard options) and start the worker after
    commit; return the queued row. Nothing is computed in the caller's thread."""
    row, _ = DesignStats.objects.update_or_create(
        game=game_id,
        players=players,
        variant=designstats.variant_key({}),
        defaults={
            "label": designstats.label_of({}),
            "heuristics": {},
            "errors": {},
            "experiments": {},
            "lead_history": [],
            "playouts": playouts(),
            "seed": 0,
            "seconds": 0,
            "status": DesignStats.QUEUED,
            "worker": "",
            "message": "",
        },
    )
    transaction.on_commit(QUEUE.ensure_worker)
    return row


def command(row: DesignStats, game_arg: str, out: Path) -> list[str]:
    """Return the child's command line: ``python -m games stats`` with the job's budget."""
    budget = counts()
    return games_command(
        "stats",
        game_arg,
        "--players",
        str(row.players),
        "--random-games",
        str(budget["random"]),
        "--one-search-games",
        str(budget["one_search"]),
        "--all-search-games",
        str(budget["all_search"]),
        "--playouts",
        str(row.playouts),
        "--seed",
        str(row.seed),
        "--json",
        str(out),
    )


def game_argument(game_id: str, folder: str) -> str:
    """Return how ``python -m games`` names a game: its id, or for a RECYCLE game staff stored,
    its description written to a file in ``folder`` (the child has no database)."""
    stored = StoredGame.objects.filter(game_id=game_id).first()
    if stored is None:
        return game_id
    path = Path(folder) / "game.rcy"
    path.write_text(stored.text, encoding="utf-8")
    return str(path)


def run(row: DesignStats) -> None:
    """Compute one row's statistics in a child process and store them (or why they failed)."""
    with tempfile.TemporaryDirectory(prefix="designstats-") as folder:
        out = Path(folder) / "stats.json"
        game_arg = game_argument(row.game, folder)
        cwd = str(settings.BASE_DIR)
        if not QUEUE.run_row(row, command(row, game_arg, out), timeout(), cwd, "DESIGN_JOB_TIMEOUT"):
            return
        result = json.loads(out.read_text(encoding="utf-8"))
    result["game"] = row.game  # a description read from a file is named after the file
    designstats.store(result, {}, result.get("seconds", 0.0))


QUEUE = JobQueue(DesignStats, "design-stats-jobs", "computed", run)
resume = QUEUE.resume
ensure_worker = QUEUE.ensure_worker
running_child = QUEUE.running_child
wait = QUEUE.wait
claim = QUEUE.claim

__all__ = [
    "GUARD",
    "QUEUE",
    "claim",
    "ensure_worker",
    "game_argument",
    "games_command",
    "resume",
    "running_child",
    "submit",
    "wait",
    "worker_id",
]
