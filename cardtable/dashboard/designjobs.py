"""Design statistics of a game staff add, computed by a background job off the server's process.

``submit`` queues a ``DesignStats`` row and returns at once. One supervisor
thread per server process takes queued rows one at a time (claimed in the
database, so two processes never run the same row) and runs each in a child
process, ``nice``-d: ``python -m games stats`` with the job's budget, writing
JSON; the child dies with the thread that started it. The experiments' CPU
work is in the child, so the server's event loop, its requests and its live
tables never wait for it (the thread only waits on the child and stores the
result). A child that runs past ``DESIGN_JOB_TIMEOUT``
seconds is killed and its row marked failed. The rows are the queue: ``resume``
(called when the dashboard loads) queues again a row left running by a process
that has died, so a restart loses no job.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connection, transaction

from cardtable.dashboard import designstats
from cardtable.dashboard.models import DesignStats, StoredGame
from games.stats import DEFAULT_COUNTS, DEFAULT_PLAYOUTS

_lock = threading.Lock()
_thread: threading.Thread | None = None
_child: subprocess.Popen | None = None


def counts() -> dict[str, int]:
    """Return the games per experiment of a job (``DESIGN_JOB_COUNTS``, else the CLI's defaults)."""
    return {**DEFAULT_COUNTS, **getattr(settings, "DESIGN_JOB_COUNTS", {})}


def playouts() -> int:
    """Return the search playouts per move of a job (``DESIGN_JOB_PLAYOUTS``, else CardStock's 10)."""
    return int(getattr(settings, "DESIGN_JOB_PLAYOUTS", DEFAULT_PLAYOUTS))


def timeout() -> float:
    """Return the seconds a job may run before it is stopped (``DESIGN_JOB_TIMEOUT``, else 1800)."""
    return float(getattr(settings, "DESIGN_JOB_TIMEOUT", 1800))


def worker_id() -> str:
    """Return this process's name as a job's worker: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


def worker_alive(worker: str) -> bool:
    """Return whether the process named ``host:pid`` may still run (one on another host is assumed to)."""
    host, _, pid = worker.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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
    transaction.on_commit(ensure_worker)
    return row


def resume() -> int:
    """Queue again the rows whose worker has died; start the worker if any row waits.
    Return how many rows are queued or running."""
    for row in DesignStats.objects.filter(status=DesignStats.RUNNING):
        if not worker_alive(row.worker):
            DesignStats.objects.filter(pk=row.pk, status=DesignStats.RUNNING, worker=row.worker).update(
                status=DesignStats.QUEUED, worker=""
            )
    if DesignStats.objects.filter(status=DesignStats.QUEUED).exists():
        ensure_worker()
    return DesignStats.objects.filter(status__in=[DesignStats.QUEUED, DesignStats.RUNNING]).count()


def ensure_worker() -> None:
    """Start this process's supervisor thread unless it runs (it stops when the queue is empty)."""
    global _thread
    with _lock:
        if _thread is not None:
            return
        _thread = threading.Thread(target=_serve, name="design-stats-jobs", daemon=True)
        _thread.start()


def running_child() -> int | None:
    """Return the pid of the child process computing a job now, if any."""
    child = _child
    return child.pid if child is not None and child.poll() is None else None


def wait(seconds: float) -> bool:
    """Wait up to ``seconds`` for the supervisor to finish the queue; return whether it did."""
    thread = _thread
    if thread is not None:
        thread.join(seconds)
        return not thread.is_alive()
    return True


def claim() -> DesignStats | None:
    """Return the oldest queued row, now marked running by this process, or ``None``."""
    me = worker_id()
    for pk in (
        DesignStats.objects.filter(status=DesignStats.QUEUED)
        .order_by("computed")
        .values_list("pk", flat=True)
    ):
        if DesignStats.objects.filter(pk=pk, status=DesignStats.QUEUED).update(
            status=DesignStats.RUNNING, worker=me
        ):
            return DesignStats.objects.get(pk=pk)
    return None


def _serve() -> None:
    """Run queued jobs until none is left, then let the thread end."""
    global _thread
    try:
        while True:
            close_old_connections()
            with _lock:
                row = claim()
                if row is None:
                    _thread = None
                    return
            try:
                run(row)
            except Exception as error:
                # Whatever breaks a job ends it as failed: it must not stay "running" for ever.
                fail(row, f"{type(error).__name__}: {error}")
    finally:
        connection.close()
        with _lock:
            if _thread is threading.current_thread():
                _thread = None


# The child runs ``python -m games`` after asking Linux to kill it when the thread that started
# it ends (PR_SET_PDEATHSIG): a server that stops or dies leaves no job computing for nobody.
# If the parent died before the child asked, the child's parent is no longer the one named.
GUARD = (
    "import ctypes, os, runpy, signal, sys\n"
    "if sys.platform == 'linux':\n"
    "    ctypes.CDLL(None).prctl(1, signal.SIGKILL)\n"
    "if os.getppid() != {parent}:\n"
    "    sys.exit('error: the process that started this job has ended')\n"
    "sys.argv = ['games', *sys.argv[1:]]\n"
    "runpy.run_module('games', run_name='__main__', alter_sys=True)\n"
)


def games_command(*args: str) -> list[str]:
    """Return the command line running ``python -m games ARGS`` niced, dying with its parent thread
    (``nice`` runs the program in its own place, so the parent stays this process)."""
    nice = ["nice", "-n", "10"] if os.name == "posix" else []
    return [*nice, sys.executable, "-c", GUARD.format(parent=os.getpid()), *args]


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


def run(row: DesignStats) -> None:
    """Compute one row's statistics in a child process and store them (or why they failed)."""
    global _child
    limit = timeout()
    with tempfile.TemporaryDirectory(prefix="designstats-") as folder:
        out = Path(folder) / "stats.json"
        stored = StoredGame.objects.filter(game_id=row.game).first()
        game_arg = row.game
        if stored is not None:
            game_arg = str(Path(folder) / "game.rcy")
            Path(game_arg).write_text(stored.text, encoding="utf-8")
        child = subprocess.Popen(
            command(row, game_arg, out),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=str(settings.BASE_DIR),
        )
        _child = child
        try:
            _, err = child.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            fail(row, f"stopped after {limit:.0f} s (DESIGN_JOB_TIMEOUT)")
            return
        finally:
            _child = None
        if child.returncode != 0:
            fail(row, (err.strip().splitlines() or [f"exit status {child.returncode}"])[-1])
            return
        result = json.loads(out.read_text(encoding="utf-8"))
    result["game"] = row.game  # a description read from a file is named after the file
    designstats.store(result, {}, result.get("seconds", 0.0))


def fail(row: DesignStats, message: str) -> None:
    """Mark a job failed with ``message``."""
    DesignStats.objects.filter(pk=row.pk).update(status=DesignStats.FAILED, worker="", message=message[:1000])


__all__ = ["claim", "ensure_worker", "resume", "running_child", "submit", "wait"]
