"""The background job that computes a staff-added game's design statistics off the server's process.

These tests commit (``transaction=True``): the job's supervisor thread reads and
writes the rows through its own database connection, as it does in the server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from cardtable.dashboard import checkjobs, designjobs
from cardtable.dashboard.models import DesignStats
from games.recycle import library

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = {"fairness", "convergence", "spread", "drama", "security", "order"}


@pytest.fixture(autouse=True)
def small_jobs(settings: Any) -> None:
    """Jobs small enough for a test, yet long enough (a second or more) to be seen running."""
    settings.DESIGN_JOB_COUNTS = {"random": 40, "one_search": 6, "all_search": 4}
    settings.DESIGN_JOB_PLAYOUTS = 4
    settings.DESIGN_JOB_TIMEOUT = 120
    settings.RECYCLE_CHECK_NICENESS, settings.RECYCLE_CHECK_TIMEOUT = 0, 600  # an upload's check


def wait_for_child(seconds: float = 30) -> int | None:
    """Return the job's child pid once one runs (``None`` if the worker ended first)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pid = designjobs.running_child()
        if pid is not None:
            return pid
        if designjobs.wait(0.005):
            return None
    return None


def command_line(pid: int, seconds: float = 5) -> bytes:
    """The process's command line, read again while it is empty (a process between fork and exec)."""
    deadline = time.monotonic() + seconds
    while True:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        if command or time.monotonic() > deadline:
            return command
        time.sleep(0.01)


def test_adding_a_game_queues_its_statistics_for_a_child_process(staff_client: Client) -> None:
    text = library()["agram"].read_text()
    response = staff_client.post("/staff/games/", {"name": "Job Agram", "text": text})
    assert response.status_code == 202
    assert checkjobs.wait(600)  # its playability check passes first (tests/dashboard/test_checkjobs.py)
    row = DesignStats.objects.get(game="recycle_job_agram")
    # The request only queued the job: nothing of the statistics exists yet.
    assert row.status in (DesignStats.QUEUED, DesignStats.RUNNING) and row.heuristics == {}
    pid = wait_for_child()
    assert pid is not None and pid != os.getpid()
    command = command_line(pid)
    assert b"runpy.run_module('games'" in command
    assert b"\0stats\0" in command
    assert designjobs.wait(120)
    row.refresh_from_db()
    assert row.status == DesignStats.DONE and row.message == ""
    assert set(row.heuristics) == NAMES == set(row.errors)
    assert all(0 <= row.heuristics[name] <= 1 and row.errors[name] >= 0 for name in NAMES)
    assert row.experiments["one_search"]["games"] == 6 and row.playouts == 4
    html = staff_client.get("/staff/games/").content.decode()
    assert 'data-design-status="done"' in html


def test_a_job_past_its_time_is_stopped_and_marked_failed(settings: Any) -> None:
    settings.DESIGN_JOB_COUNTS = {"random": 100, "one_search": 100, "all_search": 100}
    settings.DESIGN_JOB_TIMEOUT = 1.0
    designjobs.submit("agram", 4)
    pid = wait_for_child()
    assert designjobs.wait(60)
    row = DesignStats.objects.get(game="agram")
    assert row.status == DesignStats.FAILED and "stopped after 1 s" in row.message
    assert pid is not None and not Path(f"/proc/{pid}").exists() and designjobs.running_child() is None


def test_a_job_that_cannot_run_fails_with_the_reason() -> None:
    designjobs.submit("nosuchgame", 4)
    assert designjobs.wait(60)
    row = DesignStats.objects.get(game="nosuchgame")
    assert row.status == DesignStats.FAILED and "there is no game 'nosuchgame'" in row.message


def test_a_job_that_breaks_is_marked_failed_and_the_next_one_runs(settings: Any) -> None:
    settings.DESIGN_JOB_TIMEOUT = "soon"
    designjobs.submit("agram", 4)
    assert designjobs.wait(60)
    row = DesignStats.objects.get(game="agram")
    assert row.status == DesignStats.FAILED and row.message.startswith("ValueError")
    settings.DESIGN_JOB_TIMEOUT = 120
    designjobs.submit("ninety_eight", 4)
    assert designjobs.wait(120)
    assert DesignStats.objects.get(game="ninety_eight").status == DesignStats.DONE


def test_a_job_left_running_by_a_dead_process_runs_again(staff_client: Client) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    DesignStats.objects.create(
        game="ninety_eight",
        players=4,
        variant="{}",
        playouts=3,
        status=DesignStats.RUNNING,
        worker=f"{socket.gethostname()}:{dead.pid}",
    )
    # A job of a live process is left alone.
    DesignStats.objects.create(
        game="agram",
        players=4,
        variant="{}",
        playouts=3,
        status=DesignStats.RUNNING,
        worker=designjobs.worker_id(),
    )
    html = staff_client.get("/staff/dashboard/").content.decode()
    assert 'data-design-status="' in html
    assert designjobs.wait(120)
    assert DesignStats.objects.get(game="ninety_eight").status == DesignStats.DONE
    assert DesignStats.objects.get(game="agram").status == DesignStats.RUNNING


def test_a_job_child_dies_with_the_process_that_started_it() -> None:
    # A parent starts a long job's child as designjobs does, then dies at once: the child must
    # not compute on alone. (The parent cannot import designjobs, which needs Django: it gets the
    # guard's text and names itself as the parent.)
    script = (
        "import os, subprocess, sys\n"
        f"guard = {designjobs.GUARD!r}.format(parent=os.getpid(), module='games', headroom=0)\n"
        "argv = ['nice', '-n', '10', sys.executable, '-c', guard, 'stats', 'hearts', '--games', '100']\n"
        "quiet = subprocess.DEVNULL\n"
        "print(subprocess.Popen(argv, stdout=quiet, stderr=quiet).pid, flush=True)\n"
        "os._exit(0)\n"
    )
    assert designjobs.games_command("stats")[3:5] == [sys.executable, "-c"]
    parent = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    pid = int(parent.stdout)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and "Z" not in _state(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{pid}").exists() or "Z" in _state(pid)


def _state(pid: int) -> str:
    """Return a process's state letter from /proc (empty once it is gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return ""
